import { useEffect } from "react";
import { Outlet, useLocation, useRouteError } from "react-router";
import { ErrorBoundary, ErrorScreen, logError } from "../components/errors/error-screen";

/** Every route change scrolls to the top (a #hash scrolls to its target instead). */
function ScrollToTop() {
  const { pathname, hash } = useLocation();
  useEffect(() => {
    if (hash) {
      document.getElementById(hash.slice(1))?.scrollIntoView();
      return;
    }
    window.scrollTo(0, 0);
  }, [pathname, hash]);
  return null;
}

function SkipLink() {
  return (
    <a href="#main" className="sr-only z-50 rounded-lg bg-primary px-4 py-2 text-primary-foreground focus:not-sr-only focus:fixed focus:top-2 focus:left-2">
      Skip to content
    </a>
  );
}

/** The root: scroll restoration and the error boundary around every page. */
export function RootLayout() {
  const { pathname } = useLocation();
  // The page the server sent is painted before the app takes over (main.tsx); from here on its
  // controls respond. `data-app="ready"` says so (the end-to-end tests wait for it).
  useEffect(() => {
    document.documentElement.dataset.app = "ready";
  }, []);
  return (
    <>
      <ScrollToTop />
      <SkipLink />
      <ErrorBoundary resetKey={pathname}>
        <Outlet />
      </ErrorBoundary>
    </>
  );
}

/** Errors the router catches (a lazy page that failed to load, for example). */
export function RouteError() {
  const error = useRouteError();
  useEffect(() => logError(error), [error]);
  return <ErrorScreen onReset={() => window.location.reload()} />;
}
