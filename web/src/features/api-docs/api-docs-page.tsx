import { lazy, Suspense } from "react";
import { Spinner } from "../../components/ui/spinner";
import { ServerPage } from "../server-page/server-page";

/** Swagger UI and its stylesheet, in a chunk of their own that only this page loads. */
const ApiReference = lazy(() => import("./api-reference"));

/**
 * /api-docs: our guide, which the server renders from content/pages/api-docs.md, with the
 * interactive reference placed under its section "Interactive reference" (which, for readers
 * without JavaScript, says where the OpenAPI document is).
 */
export function ApiDocsPage() {
  return (
    <ServerPage
      slot={{
        anchor: "interactive-reference",
        node: (
          <section aria-label="Interactive API reference" className="not-prose mt-6">
            <Suspense
              fallback={
                <div className="flex min-h-40 items-center justify-center gap-3 text-muted-foreground" role="status">
                  <Spinner className="size-5" /> Loading the interactive reference…
                </div>
              }
            >
              <ApiReference />
            </Suspense>
          </section>
        ),
      }}
    />
  );
}
