import { renderToString } from "react-dom/server";
import { StaticRouter } from "react-router";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { HomeShell } from "./features/home/home-shell";
import { Header } from "./components/layout/header";
import { Footer } from "./components/layout/footer";

/**
 * The home hero as HTML, written at build time into dist/home.html (see vite.config.ts), so the
 * server can answer / with the hero already painted; main.tsx hydrates it and the app takes over.
 */
export function render(): string {
  return renderToString(<HomeShell />);
}

/** Where a content page's body goes in dist/page.html; the server replaces it. */
export const BODY_MARKER = "<!--sitelens-body-->";
const placeholder = "SITELENS_SERVER_BODY";

/**
 * The shared header and footer around an empty <main> (the markup of app/site-layout.tsx), written
 * at build time into dist/page.html: the template of the pages the server renders from content/,
 * so their body, header and footer all arrive in the HTML. The header asks for the session, which
 * is pending at build time, so it renders signed out, as a crawler sees it; the app takes over.
 */
export function renderShell(): string {
  const html = renderToString(
    <QueryClientProvider client={new QueryClient()}>
      <StaticRouter location="/__content">
      <div className="flex min-h-dvh flex-col">
        <Header />
        <main id="main" className="flex-1">
          {placeholder}
        </main>
        <Footer />
        </div>
      </StaticRouter>
    </QueryClientProvider>,
  );
  return html.replace(placeholder, BODY_MARKER);
}
