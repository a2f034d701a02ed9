import { queryOptions } from "@tanstack/react-query";
import type { BillingOverview, CheckoutItem, CheckoutKind, CheckoutQuery, PaymentMode, PlanAction } from "../lib/domain";
import { accountRequest } from "../lib/session";

/** POST /api/checkout's answer: where to pay, and what is bought at the server's price. */
export type StartedCheckout = { id: string; url: string; mode: PaymentMode; item: CheckoutItem };

/** GET /api/checkout/{id}: a checkout as its buyer's pages read it. */
export type CheckoutView = {
  id: string;
  status: "open" | "paid" | "declined" | "expired";
  mode: PaymentMode;
  kind: CheckoutKind;
  packageId: string;
  credits: number | null;
  amountCents: number;
  reportType: string | null;
  url: string | null;
  interval: string | null;
  failureMessage: string;
};

/** GET /api/payments/mode: who takes payments, and the label every checkout page shows. */
export type PaymentModeInfo = { mode: PaymentMode; label: string };

async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(path, { credentials: "include" });
  const json = (await res.json().catch(() => ({}))) as T & { error?: string };
  if (!res.ok) throw new Error(json.error ?? `${res.status}: ${res.statusText}`);
  return json;
}

export const paymentModeQuery = () =>
  queryOptions({ queryKey: ["payment-mode"], queryFn: () => getJson<PaymentModeInfo>("/api/payments/mode"), staleTime: Infinity });

export const checkoutQuery = (id: string) =>
  queryOptions({ queryKey: ["checkout", id], queryFn: () => getJson<CheckoutView>(`/api/checkout/${encodeURIComponent(id)}`) });

export const billingQuery = () => queryOptions({ queryKey: ["billing"], queryFn: () => getJson<BillingOverview>("/api/billing") });

export const startCheckout = (query: CheckoutQuery) => accountRequest<StartedCheckout>("POST", "/api/checkout", query);
export const payTestCheckout = (id: string) => accountRequest<CheckoutView>("POST", `/api/test-payments/${encodeURIComponent(id)}/pay`, {});
export const declineTestCheckout = (id: string) => accountRequest<CheckoutView>("POST", `/api/test-payments/${encodeURIComponent(id)}/decline`, {});
export const refundTestPayment = (paymentId: string) => accountRequest<BillingOverview>("POST", "/api/test-payments/refund", { paymentId });
export const renewTestSubscription = () => accountRequest<BillingOverview>("POST", "/api/test-payments/renewal", {});
export const changeSubscription = (action: PlanAction) => accountRequest<BillingOverview>("POST", "/api/billing/subscription", { action });
