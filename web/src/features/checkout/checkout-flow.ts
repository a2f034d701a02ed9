import type { CheckoutQuery, ReportType } from "../../lib/domain";
import type { CheckoutView } from "../../api/billing";

/**
 * The checkout address's query as the server reads it (docs/PRODUCT.md §7.10, and a mailed
 * report's upgrade link `?package=starter&upgradeToken=…`); empty values are left out.
 */
export function checkoutQueryFrom(search: URLSearchParams): CheckoutQuery {
  const q: CheckoutQuery = {};
  const take = (name: string) => {
    const v = search.get(name);
    return v !== null && v.trim() !== "" ? v : undefined;
  };
  const set = <K extends keyof CheckoutQuery>(key: K, value: string | undefined) => {
    if (value !== undefined) q[key] = value as CheckoutQuery[K];
  };
  set("package", take("package"));
  set("type", take("type"));
  set("credits", take("credits"));
  set("price", take("price"));
  set("amount", take("amount"));
  set("url", take("url"));
  set("interval", take("interval"));
  set("seats", take("seats"));
  set("upgradeToken", take("upgradeToken"));
  return q;
}

/** What the page does once a checkout's payment is known. */
export type AfterPayment =
  | { kind: "wait" }
  | { kind: "failed"; message: string }
  | { kind: "follow"; url: string; reportType: ReportType; analysisId: string }
  | { kind: "thank-you" }
  | { kind: "done" };

/**
 * After the payment: keep waiting while open (Stripe's webhook may arrive after the buyer),
 * show the spec's alert when declined or expired, follow the paid report an upgrade's payment
 * started on the server, send a new subscriber to /thank-you, else show the credits (an
 * upgrade whose report could not start keeps its credit).
 */
export function afterPayment(view: CheckoutView): AfterPayment {
  if (view.status === "open") return { kind: "wait" };
  if (view.status !== "paid") return { kind: "failed", message: view.failureMessage };
  if (view.kind === "upgrade" && view.url && view.reportType && view.analysisId)
    return { kind: "follow", url: view.url, reportType: view.reportType, analysisId: view.analysisId };
  if (view.kind === "plan") return { kind: "thank-you" };
  return { kind: "done" };
}
