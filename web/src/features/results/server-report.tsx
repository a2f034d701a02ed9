import { useState } from "react";
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
