import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/app";
import { initTheme } from "./lib/theme";
import "./index.css";

// The theme class goes on <html> before the first render, so a dark preference never flashes light.
initTheme();

const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
