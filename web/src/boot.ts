import "./index.css";
import { firstPaintShown } from "./lib/first-paint";

// The entry: the page the server sent (a content page, a report's first screen, a prerendered page
// or the home hero) reaches the screen before any of the app's code runs, so neither a busy
// device nor a fast connection makes its first paint wait for React's start-up. The app's chunks
// are already loading meanwhile (modulepreload, see vite.config.ts).
if (document.getElementById("root")?.firstElementChild) await firstPaintShown(3000);
await import("./main");
