/**
 * Requests started by main.tsx before the app has loaded, handed to the code that would have made
 * them (once). The results page uses it so the report downloads while the JavaScript does.
 */
const pending = new Map<string, Promise<Response>>();

export function startEarly(url: string, init: RequestInit) {
  const p = fetch(url, init);
  p.catch(() => undefined);
  pending.set(url, p);
}

export function takeEarly(url: string): Promise<Response> | undefined {
  const p = pending.get(url);
  pending.delete(url);
  return p;
}

/** The report address a first visit to a results URL (or the sample report at /demo) will ask for, if any. */
export function resultUrlFor(location: Pick<Location, "pathname" | "search">): string | null {
  if (/^\/demo\/?$/.test(location.pathname)) return "/api/demo";
  const m = location.pathname.match(/^\/results(?:\/([^/]+))?\/?$/);
  if (!m) return null;
  const id = m[1] ? decodeURIComponent(m[1]) : new URLSearchParams(location.search).get("id");
  return id ? `/api/results/${encodeURIComponent(id)}` : null;
}
