import SwaggerUI from "swagger-ui-react";
import "swagger-ui-react/swagger-ui.css";

/*
 * The interactive reference: Swagger UI (bundled, no request to any other host) rendering
 * /api/v1/openapi.json. Its stylesheet is scoped to `.swagger-ui`, and this module is its own
 * chunk, loaded by /api-docs only (api-docs-page.tsx).
 */

/** Leaves out Swagger UI's title block: the guide above already says what it holds. */
const withoutInfo = { wrapComponents: { InfoContainer: () => () => null } };

/** Swagger UI on our document, in a light panel of our own. */
export default function ApiReference() {
  return (
    <div className="api-reference overflow-hidden rounded-2xl border border-border bg-white py-2 text-slate-900 shadow-sm">
      <SwaggerUI url="/api/v1/openapi.json" plugins={[withoutInfo]} docExpansion="list" defaultModelsExpandDepth={0} deepLinking={false} />
    </div>
  );
}
