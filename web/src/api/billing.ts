import { queryOptions } from "@tanstack/react-query";
import type { BillingOverview, CheckoutQuery, CheckoutView, PaymentMode, PlanAction, StartedCheckout, UpgradeTarget } from "../lib/domain";

export type { CheckoutView, StartedCheckout };
import { accountRequest } from "../lib/session";

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

/** GET /api/checkout/upgrade/{token}: the site and report a mailed upgrade link names (the server's message when it names none). */
export const upgradeTargetQuery = (token: string) =>
  queryOptions({
    queryKey: ["upgrade-target", token],
    queryFn: () => getJson<UpgradeTarget>(`/api/checkout/upgrade/${encodeURIComponent(token)}`),
    retry: false,
  });

export const billingQuery = () => queryOptions({ queryKey: ["billing"], queryFn: () => getJson<BillingOverview>("/api/billing") });

export const startCheckout = (query: CheckoutQuery) => accountRequest<StartedCheckout>("POST", "/api/checkout", query);
export const payTestCheckout = (id: string) => accountRequest<CheckoutView>("POST", `/api/test-payments/${encodeURIComponent(id)}/pay`, {});
export const declineTestCheckout = (id: string) => accountRequest<CheckoutView>("POST", `/api/test-payments/${encodeURIComponent(id)}/decline`, {});
export const refundTestPayment = (paymentId: string) => accountRequest<BillingOverview>("POST", "/api/test-payments/refund", { paymentId });
export const renewTestSubscription = () => accountRequest<BillingOverview>("POST", "/api/test-payments/renewal", {});
export const changeSubscription = (action: PlanAction) => accountRequest<BillingOverview>("POST", "/api/billing/subscription", { action });
