import { renderToString } from "react-dom/server";
import { StaticRouter } from "react-router";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { HomeShell } from "./features/home/home-shell";
import { Header } from "./components/layout/header";
import { Footer } from "./components/layout/footer";
import { PricingPage } from "./features/pricing/pricing-page";
import { FeaturesPage } from "./features/content/features-page";
import { AboutPage } from "./features/content/about-page";
import { FaqPage } from "./features/content/faq-page";
import type { ReactNode } from "react";

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
  return layout("/__content", placeholder).replace(placeholder, BODY_MARKER);
}

/** The markup of app/site-layout.tsx around `page`, at `location`, signed out. */
function layout(location: string, page: ReactNode): string {
  return renderToString(
    <QueryClientProvider client={new QueryClient()}>
      <StaticRouter location={location}>
        <div className="flex min-h-dvh flex-col">
          <Header />
          <main id="main" className="flex-1">
            {page}
          </main>
          <Footer />
        </div>
      </StaticRouter>
    </QueryClientProvider>,
  );
}

/**
 * The app's own pages whose first screen depends on no request: rendered at build time with the
 * domain rules (the wasm runs in the build too) into dist/pre/<name>.html, which the server
 * answers their routes with, so they paint with the HTML; the app then renders the same markup.
 */
export const prerendered: Record<string, () => ReactNode> = {
  "/pricing": () => <PricingPage />,
  "/features": () => <FeaturesPage />,
  "/about": () => <AboutPage />,
  "/faq": () => <FaqPage />,
};

/** A prerendered page (a key of `prerendered`) inside the layout, marked for main.tsx. */
export function renderPage(path: string): string {
  const page = prerendered[path];
  if (!page) throw new Error(`${path} is not prerendered`);
  return layout(path, <div data-prerendered="">{page()}</div>);
}
