import { renderToString } from "react-dom/server";
import { HomeShell } from "./features/home/home-shell";

/**
 * The home hero as HTML, written at build time into dist/home.html (see vite.config.ts), so the
 * server can answer / with the hero already painted; main.tsx hydrates it and the app takes over.
 */
export function render(): string {
  return renderToString(<HomeShell />);
}
