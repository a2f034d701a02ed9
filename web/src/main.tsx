import { StrictMode } from "react";
import { createRoot, hydrateRoot, type Root } from "react-dom/client";
import { HomeShell } from "./features/home/home-shell";
import { pages, preloadFor } from "./app/pages";
import { captureServerBody } from "./lib/server-body";
import { resultUrlFor, startEarly } from "./lib/early-fetch";
import "./index.css";

const el = document.getElementById("root");
if (el) {
  // On the home page, show the hero at once from this small entry chunk (hydrating the HTML when
  // the server sent it pre-rendered); the app and the domain wasm load meanwhile and take over
  // with identical markup.
  const path = window.location.pathname;
  preloadFor(path);
  const report = resultUrlFor(window.location);
  if (report) startEarly(report, { credentials: "same-origin", headers: { Accept: "application/json" } });
  const home = path === "/" || path === "/home";
  // A content page's body came with the HTML: keep it, and keep it painted until the app can
  // show it again (its chunks are loaded before the app first renders).
  captureServerBody(document, window.location);
  const serverBody = !home && document.querySelector("[data-server-body]") !== null;
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
    serverBody ? Promise.all([pages.siteLayout(), pages.serverPage()]).catch(() => undefined) : undefined,
  ]);
  // The theme class goes on <html> before the app's first render.
  initTheme();
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
