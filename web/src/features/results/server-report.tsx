import { startTransition, useEffect, useState } from "react";
import { useLocation } from "react-router";
import { takeServerReport } from "../../lib/server-body";

/**
 * The report's first screen as the server rendered it into this page (crates/server's
 * services/report_page.rs), once: shown while the app's own report loads, so the page painted
 * with the HTML and nothing moves when the report replaces it.
 */
export function useServerReport(): string | null {
  const location = useLocation();
  const [html] = useState(() => takeServerReport(location.pathname + location.search));
  return html;
}

/** The server's markup of the report (our own rendering of the report we serve). */
export function ServerReport({ html }: { html: string }) {
  return <div data-server-report="" dangerouslySetInnerHTML={{ __html: html }} />;
}

/**
 * Whether the server's first screen (`html`) should still be shown: until the app's own report is
 * `ready`, then the switch is a transition, so React renders the whole report in slices that
 * yield to the browser instead of in one long task (the screen is painted meanwhile).
 */
export function useKeepServerReport(html: string | null, ready: boolean): boolean {
  const [switched, setSwitched] = useState(false);
  useEffect(() => {
    if (html !== null && ready && !switched) startTransition(() => setSwitched(true));
  }, [html, ready, switched]);
  return html !== null && !switched;
}
