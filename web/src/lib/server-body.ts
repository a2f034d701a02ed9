/**
 * The body the server rendered into a content page (blog, knowledge base, resources and the other
 * pages of `content/`, docs/ARCHITECTURE.md §7). main.tsx takes it from the HTML before the app
 * mounts, so the app shows the same markup without a second copy of the content or a request.
 */
export type ServerBody = { path: string; html: string };

let initial: ServerBody | null = null;
let report: ServerBody | null = null;

/**
 * Reads `[data-server-body]` (a content page's body) and `[data-server-report]` (a report's first
 * screen, on the results page and /demo) from the document as the server sent it; call before
 * mounting.
 */
export function captureServerBody(doc: Document, location: Location) {
  const path = location.pathname + location.search;
  const el = doc.querySelector("[data-server-body]");
  initial = el ? { path, html: el.innerHTML } : null;
  const shot = doc.querySelector("[data-server-report]");
  report = shot ? { path, html: shot.innerHTML } : null;
}

/**
 * The report's first screen as the server rendered it, when `path` is the page the server sent
 * (once): the report page shows it until its own report has loaded, so nothing moves meanwhile.
 */
export function takeServerReport(path: string): string | null {
  if (!report || report.path !== path) return null;
  const { html } = report;
  report = null;
  return html;
}

/** The captured body when `path` (with its query) is the page the server sent, once. */
export function takeServerBody(path: string): string | null {
  if (!initial || initial.path !== path) return null;
  const { html } = initial;
  initial = null;
  return html;
}

/** A content page fetched for in-app navigation: its body and head, or `null` when it is 404. */
export type FetchedPage = { html: string; title: string; description: string; noindex: boolean; structuredData: string };

/** Parses a server-rendered page into the parts the app shows. */
export function parseServerPage(text: string): FetchedPage | null {
  const doc = new DOMParser().parseFromString(text, "text/html");
  const body = doc.querySelector("[data-server-body]");
  if (!body) return null;
  const meta = (name: string) => doc.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? "";
  return {
    html: body.innerHTML,
    title: doc.title,
    description: meta("description"),
    noindex: meta("robots").includes("noindex"),
    structuredData: doc.getElementById("structured-data")?.textContent ?? "",
  };
}
