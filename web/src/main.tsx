import { StrictMode } from "react";
import { createRoot, hydrateRoot, type Root } from "react-dom/client";
import { HomeShell } from "./features/home/home-shell";
import { preloadFor } from "./app/pages";
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
  let root: Root;
  if (home && el.firstElementChild) {
    root = hydrateRoot(el, <HomeShell />);
  } else {
    root = createRoot(el);
    if (home) root.render(<HomeShell />);
  }
  const [{ App }, { initTheme }] = await Promise.all([import("./app/app"), import("./lib/theme")]);
  // The theme class goes on <html> before the app's first render.
  initTheme();
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
