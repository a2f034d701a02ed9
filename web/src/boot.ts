import "./index.css";
import { firstPaintShown } from "./lib/first-paint";

// The entry: the page the server sent (a content page, a report's first screen, a prerendered page
// or the home hero) reaches the screen before any of the app's code runs, so neither a busy
// device nor a fast connection makes its first paint wait for React's start-up. The app's chunks
// are already loading meanwhile (modulepreload, see vite.config.ts).
if (document.getElementById("root")?.firstElementChild) await firstPaintShown(3000);
// React DOM, the largest module, is evaluated in a task of its own, and the app in the next one:
// evaluated together they would hold the main thread in one long task while the page is shown.
await import("react-dom/client");
await new Promise((next) => setTimeout(next, 0));
await import("./main");
