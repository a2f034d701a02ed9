// The embeddable audit widget (issue 15 item 5): one `<script async src=".../widget.js"
// data-key="slw_…">` on an agency's page draws the lead form (docs/PRODUCT.md §3.16, §5.2) in the
// agency's colours, sends it to the Sitelens server the script came from, shows the analysis's
// progress and then the link to the branded report.
//
// - Loaded async, it never blocks the host page; it runs once the page's markup is parsed.
// - Everything it draws lives in an open shadow root on a custom element: the page's CSS does not
//   reach in (the form itself starts from `all: initial`, so even what the page sets on the host
//   element, such as a `* { letter-spacing }`, is not inherited), and the widget's does not leak
//   out (its stylesheet is adopted by the shadow root only).
// - The server is the authority on every rule: the form's messages come from its configuration
//   (`domain::widget::lead_messages`), the client's checks only mirror them so a visitor sees a
//   mistake before sending, and a server answer of 422 marks each failing field.
// - No framework and no dependency: it must stay under 15 KB gzipped (a test measures it).
import type { WidgetConfig, WidgetLeadAccepted, WidgetProgress } from "@sitelens/domain-wasm";

type Field = "firstName" | "email" | "websiteUrl";

const FIELDS: { name: Field; label: string; type: string; autocomplete: string; inputmode?: string }[] = [
  { name: "firstName", label: "First name", type: "text", autocomplete: "given-name" },
  { name: "email", label: "Email", type: "email", autocomplete: "email" },
  { name: "websiteUrl", label: "Website", type: "text", autocomplete: "url", inputmode: "url" },
];

/** How often the analysis's progress is asked for, in milliseconds. */
const POLL_MS = 2000;

const CSS = `
:host{all:initial;display:block;contain:content}
*{box-sizing:border-box;font:inherit;color:inherit;letter-spacing:inherit;text-transform:none}
.w{all:initial;display:block;box-sizing:border-box;max-width:28rem;padding:1.25rem;border:1px solid #d1d5db;border-radius:.75rem;background:#fff;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#111827;letter-spacing:normal;text-align:left}
h2{margin:0 0 .25rem;font-size:1.25rem;font-weight:700;line-height:1.3}
.by{margin:0 0 1rem;font-size:.875rem;color:#4b5563}
.f{display:flex;flex-direction:column;gap:.25rem;margin-bottom:.75rem}
label{font-size:.875rem;font-weight:600}
input{width:100%;padding:.5rem .75rem;border:1px solid #9ca3af;border-radius:.5rem;background:#fff;color:#111827}
input:focus-visible,button:focus-visible,a:focus-visible{outline:3px solid var(--p);outline-offset:2px}
input[aria-invalid=true]{border-color:#b91c1c}
.e{margin:0;font-size:.875rem;color:#b91c1c}
button{display:inline-block;width:100%;padding:.625rem 1rem;border:0;border-radius:.5rem;background:var(--p);color:#fff;font-weight:600;cursor:pointer}
button[disabled]{opacity:.6;cursor:default}
.st{min-height:1.5rem;margin:.75rem 0 0;font-size:.875rem}
.bar{height:.5rem;margin-top:.5rem;border-radius:9999px;background:#e5e7eb;overflow:hidden}
.bar>div{height:100%;width:0;background:var(--s);transition:width .3s}
.r{display:inline-block;margin-top:.75rem;padding:.5rem 1rem;border-radius:.5rem;background:var(--s);color:#fff;font-weight:600;text-decoration:none}
[hidden]{display:none!important}
`;

/** `el("tag", {attr: value}, children)`: a small element builder. */
function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

/** A colour the server sent, used only when it has the `#RRGGBB` form. */
function colour(value: string, fallback: string) {
  return /^#[0-9a-fA-F]{6}$/.test(value) ? value : fallback;
}

/** The client's mirror of the lead form's rules (docs/PRODUCT.md §5.2); the server decides. */
function problems(values: Record<Field, string>, messages: WidgetConfig["messages"]): Partial<Record<Field, string>> {
  const out: Partial<Record<Field, string>> = {};
  if (!values.firstName.trim()) out.firstName = messages.firstName;
  if (!/^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(values.email.trim())) out.email = messages.email;
  const site = values.websiteUrl.trim();
  try {
    const url = new URL(/^https?:\/\//i.test(site) ? site : `https://${site}`);
    if (!site || !url.hostname.includes(".")) throw new Error("no host");
  } catch {
    out.websiteUrl = messages.websiteUrl;
  }
  return out;
}

function mount(script: HTMLScriptElement) {
  const key = script.dataset.key ?? "";
  const api = `${new URL(script.src).origin}/api/widget/${encodeURIComponent(key)}`;
  const host = document.createElement("sitelens-audit");
  const slot = document.querySelector("[data-sitelens-widget]:not([data-sitelens-used])");
  if (slot) {
    slot.setAttribute("data-sitelens-used", "");
    slot.append(host);
  } else {
    script.after(host);
  }
  const root = host.attachShadow({ mode: "open" });
  const get = (path: string) => fetch(`${api}${path}`, { credentials: "omit" });

  get("/config")
    .then((res) => (res.ok ? (res.json() as Promise<WidgetConfig>) : Promise.reject(new Error(String(res.status)))))
    .then((config) => render(root, host, config, api), () => host.remove());
}

function render(root: ShadowRoot, host: HTMLElement, config: WidgetConfig, api: string) {
  host.style.setProperty("--p", colour(config.primaryColor, "#4F46E5"));
  host.style.setProperty("--s", colour(config.secondaryColor, "#10B981"));
  if ("adoptedStyleSheets" in root && typeof CSSStyleSheet.prototype.replaceSync === "function") {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
    root.adoptedStyleSheets = [sheet];
  } else {
    root.append(el("style", {}, CSS));
  }

  const inputs = {} as Record<Field, HTMLInputElement>;
  const errors = {} as Record<Field, HTMLParagraphElement>;
  const rows = FIELDS.map((f) => {
    const id = `sl-${f.name}`;
    const attrs: Record<string, string> = { id, name: f.name, type: f.type, autocomplete: f.autocomplete, "aria-describedby": `${id}-e` };
    if (f.inputmode) attrs.inputmode = f.inputmode;
    inputs[f.name] = el("input", attrs);
    errors[f.name] = el("p", { id: `${id}-e`, class: "e", hidden: "" });
    return el("div", { class: "f" }, el("label", { for: id }, f.label), inputs[f.name], errors[f.name]);
  });
  const button = el("button", { type: "submit" }, "Get my free website audit");
  const status = el("p", { class: "st", role: "status", "aria-live": "polite" });
  const fill = el("div");
  const bar = el("div", { class: "bar", role: "progressbar", "aria-label": "Audit progress", "aria-valuemin": "0", "aria-valuemax": "100", "aria-valuenow": "0", hidden: "" }, fill);
  const link = el("a", { class: "r", target: "_blank", rel: "noopener", hidden: "" }, "View your report");
  const form = el(
    "form",
    { class: "w", novalidate: "", "aria-labelledby": "sl-title" },
    el("h2", { id: "sl-title" }, "Free website audit"),
    el("p", { class: "by" }, `by ${config.companyName}`),
    ...rows,
    button,
    status,
    bar,
    link,
  );
  root.append(form);

  /** Marks each field with its message (or none); moves focus to the first one when asked. */
  const show = (found: Partial<Record<Field, string>>, focus = true) => {
    let first: HTMLInputElement | null = null;
    for (const { name } of FIELDS) {
      const message = found[name];
      errors[name].textContent = message ?? "";
      errors[name].hidden = !message;
      if (message) {
        inputs[name].setAttribute("aria-invalid", "true");
        first ??= inputs[name];
      } else {
        inputs[name].removeAttribute("aria-invalid");
      }
    }
    if (focus) first?.focus();
    return first === null;
  };
  const values = () => ({ firstName: inputs.firstName.value, email: inputs.email.value, websiteUrl: inputs.websiteUrl.value });
  const progress = (percent: number) => {
    bar.hidden = false;
    bar.setAttribute("aria-valuenow", String(percent));
    fill.style.width = `${percent}%`;
  };

  // docs/PRODUCT.md §9.12: validate on submit, then again on every change.
  let submitted = false;
  form.addEventListener("input", () => {
    if (submitted) show(problems(values(), config.messages), false);
  });

  const poll = (analysisId: string) => {
    fetch(`${api}/analyses/${encodeURIComponent(analysisId)}`, { credentials: "omit" })
      .then((res) => (res.ok ? (res.json() as Promise<WidgetProgress>) : Promise.reject(new Error(String(res.status)))))
      .then(
        (p) => {
          progress(p.status === "complete" ? 100 : p.progress);
          if (p.status === "complete" && p.reportUrl) {
            link.href = p.reportUrl;
            link.hidden = false;
            status.textContent = "Your report is ready.";
          } else if (p.status === "failed") {
            status.textContent = p.message;
            button.disabled = false;
          } else {
            setTimeout(() => poll(analysisId), POLL_MS);
          }
        },
        () => setTimeout(() => poll(analysisId), POLL_MS * 2),
      );
  };

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submitted = true;
    if (!show(problems(values(), config.messages))) return;
    button.disabled = true;
    status.textContent = "Sending…";
    fetch(`${api}/leads`, {
      method: "POST",
      credentials: "omit",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(values()),
    })
      .then(async (res) => {
        const body = (await res.json().catch(() => ({}))) as Partial<WidgetLeadAccepted> & { error?: string; fields?: { field: Field; message: string }[] };
        if (res.ok && body.analysisId) {
          status.textContent = "Thank you! Your audit has started: this takes about a minute.";
          progress(5);
          link.href = body.reportUrl ?? "";
          poll(body.analysisId);
          return;
        }
        button.disabled = false;
        if (res.status === 422 && body.fields?.length) {
          show(Object.fromEntries(body.fields.map((f) => [f.field, f.message])));
          status.textContent = "";
        } else {
          status.textContent = body.error ?? "Something went wrong. Please try again.";
        }
      })
      .catch(() => {
        button.disabled = false;
        status.textContent = "The audit service could not be reached. Please try again.";
      });
  });
}

// `currentScript` is only set while the script first runs, so it is read at once; the form is
// drawn once the page's markup is parsed (an async script may run before its placeholder exists).
const script = document.currentScript as HTMLScriptElement | null;
if (script?.dataset.key) {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => mount(script), { once: true });
  else mount(script);
}
