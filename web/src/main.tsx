import { StrictMode, startTransition } from "react";
import { createRoot, hydrateRoot, type Root } from "react-dom/client";
import { HomeShell } from "./features/home/home-shell";
import { preloadFor } from "./app/pages";
import { captureServerBody } from "./lib/server-body";
import { resultUrlFor, startEarly } from "./lib/early-fetch";
import { firstPaintShown } from "./lib/first-paint";

const el = document.getElementById("root");
if (el) {
  // On the home page, show the hero at once from this small entry chunk (hydrating the HTML when
  // the server sent it pre-rendered); the app and the domain wasm load meanwhile and take over
  // with identical markup.
  const path = window.location.pathname;
  const chunks = preloadFor(path);
  const report = resultUrlFor(window.location);
  if (report) startEarly(report, { credentials: "same-origin", headers: { Accept: "application/json" } });
  const home = path === "/" || path === "/home";
  // A content page's body (or a report's first screen) came with the HTML: keep it, and keep it
  // painted until the app can show it again (its chunks are loaded before the app first renders).
  captureServerBody(document, window.location);
  const serverBody = !home && document.querySelector("[data-server-body], [data-server-report], [data-prerendered]") !== null;
  // Let the browser put the page the server sent on screen before the app takes over: when the
  // scripts are already there (a fast or cached connection) or the device is busy, they would
  // otherwise run first and the first paint would wait for the whole app.
  if (serverBody) await firstPaintShown(3000);
  let root: Root;
  if (home && el.firstElementChild) {
    root = hydrateRoot(el, <HomeShell />);
  } else {
    root = createRoot(el);
    if (home) root.render(<HomeShell />);
  }
  const [{ App }, { initTheme }] = await Promise.all([
    import("./app/app"),
    import("./lib/theme"),
    serverBody ? chunks.catch(() => undefined) : undefined,
  ]);
  // The theme class goes on <html> before the app's first render.
  initTheme();
  // As a transition, React renders the app in slices that yield to the browser (the page is
  // already painted: the hero, a content page's body or a report's first screen), instead of
  // one long task that blocks input meanwhile.
  startTransition(() => {
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
}
