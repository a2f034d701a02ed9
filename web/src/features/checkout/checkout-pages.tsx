import { useEffect, useMemo, useState, type ReactNode } from "react";
import { Link, useLocation, useNavigate, useSearchParams } from "react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { CheckCircle2, CreditCard, FlaskConical, Lock, XCircle } from "lucide-react";
import { PageMeta } from "../../components/seo/page-meta";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { Spinner } from "../../components/ui/spinner";
import {
  checkoutFailureMessage,
  creditPacks,
  creditsCheckoutPath,
  formatDollars,
  packageCheckoutPath,
  plans,
  purchaseCompleteTitle,
  resolveCheckout,
  withUpgradeSite,
  type CheckoutItem,
} from "../../lib/domain";
import { useRequireSignIn, useSession } from "../../lib/session";
import {
  billingQuery,
  checkoutQuery,
  declineTestCheckout,
  payTestCheckout,
  paymentModeQuery,
  refundTestPayment,
  renewTestSubscription,
  startCheckout,
  upgradeTargetQuery,
  type CheckoutView,
} from "../../api/billing";
import { toast } from "../../lib/toast";
import { afterPayment, checkoutQueryFrom, type AfterPayment } from "./checkout-flow";
import { resultsPath } from "../../lib/results-path";
import { ContactThankYou, isContactThanks } from "../contact/contact-thank-you";

/** Every checkout page: a header that says who takes the payment (test payments are labelled as such). */
function CheckoutShell({ title, children }: { title: string; children: ReactNode }) {
  const mode = useQuery(paymentModeQuery());
  const test = mode.data?.mode === "test";
  return (
    <div className="mx-auto max-w-2xl space-y-6 px-4 py-10 sm:px-6">
      <PageMeta title={title} description="Sitelens checkout" noindex />
      <header className="space-y-3">
        {mode.data && (
          <p
            role="note"
            aria-label="Payment mode"
            className={
              test
                ? "flex items-center gap-2 rounded-xl border-2 border-dashed border-amber-400 bg-amber-50 px-4 py-2 text-sm font-semibold text-amber-950 dark:bg-amber-950/40 dark:text-amber-100"
                : "flex items-center gap-2 rounded-xl border border-border bg-muted px-4 py-2 text-sm text-muted-foreground"
            }
          >
            {test ? <FlaskConical className="size-4" aria-hidden="true" /> : <Lock className="size-4" aria-hidden="true" />}
            {mode.data.label}
          </p>
        )}
        <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
      </header>
      {children}
    </div>
  );
}

function ItemSummary({ item }: { item: CheckoutItem }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{item.name}</CardTitle>
        <CardDescription>
          {item.credits === null ? "Unlimited credits" : `${item.credits} ${item.credits === 1 ? "credit" : "credits"}`}
          {item.interval ? " every month" : ""}
          {item.url ? ` · for ${item.url}` : ""}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <p className="text-3xl font-bold">{item.amountText}</p>
      </CardContent>
    </Card>
  );
}

/**
 * /stripe-checkout and /checkout (docs/PRODUCT.md §7.10): signed-out visitors sign in first and
 * come back; the order is priced by domain here and again by the server, which refuses an address
 * whose price disagrees; then the buyer is sent to pay (Stripe, or the test-payment page).
 */
export function StripeCheckoutPage() {
  const [search] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const { signedIn, loading } = useRequireSignIn(location.pathname + location.search);
  const query = useMemo(() => checkoutQueryFrom(search), [search]);
  // A mailed report's upgrade link names its site by a token, which the server reads.
  const token = query.upgradeToken;
  const target = useQuery({ ...upgradeTargetQuery(token ?? ""), enabled: signedIn && token !== undefined });
  const priced = useMemo((): { item: CheckoutItem } | { error: string } | { loading: true } => {
    try {
      if (token === undefined) return { item: resolveCheckout(query) };
      if (target.isError) return { error: target.error.message };
      if (!target.data) return { loading: true };
      return { item: resolveCheckout(withUpgradeSite(query, target.data.url)) };
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e) };
    }
  }, [query, token, target.data, target.isError, target.error]);
  const start = useMutation({
    mutationFn: () => startCheckout(query),
    onSuccess: (started) => {
      if (started.url.startsWith("/")) void navigate(started.url);
      else window.location.assign(started.url);
    },
  });
  const title = "item" in priced && priced.item.kind === "plan" ? "Subscribe" : "Checkout";
  if (loading || !signedIn || "loading" in priced) {
    return (
      <CheckoutShell title={title}>
        <div role="status" className="flex justify-center py-10"><Spinner className="size-8" /><span className="sr-only">Loading</span></div>
      </CheckoutShell>
    );
  }
  if ("error" in priced) {
    return (
      <CheckoutShell title={title}>
        <Alert variant="destructive"><XCircle aria-hidden="true" /><div><p className="font-semibold">{checkoutFailureMessage(query.type === "credits" ? "credits" : "pack")}</p><p>{priced.error}</p></div></Alert>
        <Button asChild variant="outline"><Link to="/pricing">Back to pricing</Link></Button>
      </CheckoutShell>
    );
  }
  const item = priced.item;
  const reportId = target.data?.reportId;
  return (
    <CheckoutShell title={title}>
      <ItemSummary item={item} />
      {reportId && (
        <p className="text-sm text-muted-foreground">
          The upgrade of the report you were emailed. <Link className="underline" to={resultsPath(reportId, { url: item.url ?? undefined })}>Back to your report</Link>
        </p>
      )}
      {start.isError && (
        <Alert variant="destructive"><XCircle aria-hidden="true" /><div><p className="font-semibold">{checkoutFailureMessage(item.kind)}</p><p>{start.error.message}</p></div></Alert>
      )}
      <Button size="lg" className="w-full" disabled={start.isPending} onClick={() => start.mutate()}>
        {start.isPending ? <Spinner /> : <CreditCard className="size-5" aria-hidden="true" />} Continue to payment
      </Button>
      <p className="text-center text-sm text-muted-foreground">One-time payment • Instant access • 30-day guarantee</p>
    </CheckoutShell>
  );
}

function useCheckout(id: string | null, poll: boolean) {
  return useQuery({
    ...checkoutQuery(id ?? ""),
    enabled: id !== null,
    refetchInterval: (q) => (poll && q.state.data?.status === "open" ? 1000 : false),
  });
}

/** /test-checkout and /test-credit-checkout: the labelled test payment, with pay and decline buttons. */
export function TestCheckoutPage() {
  const [search] = useSearchParams();
  const id = search.get("session");
  const navigate = useNavigate();
  const qc = useQueryClient();
  const q = useCheckout(id, false);
  const [declined, setDeclined] = useState<string | null>(null);
  const pay = useMutation({
    mutationFn: () => payTestCheckout(id ?? ""),
    onSuccess: (view) => {
      qc.setQueryData(["checkout", view.id], view);
      void qc.invalidateQueries({ queryKey: ["account"] });
      void navigate(`/payment-success?session=${encodeURIComponent(view.id)}`);
    },
  });
  const decline = useMutation({
    mutationFn: () => declineTestCheckout(id ?? ""),
    onSuccess: (view) => {
      qc.setQueryData(["checkout", view.id], view);
      setDeclined(view.failureMessage);
    },
  });
  const title = "Test payment";
  if (!id) {
    return (
      <CheckoutShell title={title}>
        <TestFlowsList />
      </CheckoutShell>
    );
  }
  if (!q.data) {
    return (
      <CheckoutShell title={title}>
        {q.isError ? <Alert variant="destructive">{q.error.message}</Alert> : <div role="status" className="flex justify-center py-10"><Spinner className="size-8" /></div>}
      </CheckoutShell>
    );
  }
  const view = q.data;
  const message = declined ?? (view.status === "declined" ? view.failureMessage : null);
  return (
    <CheckoutShell title={title}>
      <Card>
        <CardHeader>
          <CardTitle>{describe(view)}</CardTitle>
          <CardDescription>This is a test payment: no card is charged. Pay grants what you bought exactly as a real payment does; Decline shows what a declined card shows.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <p className="text-3xl font-bold">{formatDollars(view.amountCents)}</p>
          {message && <Alert variant="destructive"><XCircle aria-hidden="true" /><p>{message}</p></Alert>}
          {pay.isError && <Alert variant="destructive"><XCircle aria-hidden="true" /><p>{view.failureMessage} {pay.error.message}</p></Alert>}
          {view.status === "open" ? (
            <div className="flex flex-col gap-3 sm:flex-row">
              <Button className="flex-1" disabled={pay.isPending || decline.isPending} onClick={() => pay.mutate()}>Pay {formatDollars(view.amountCents)} (test)</Button>
              <Button className="flex-1" variant="outline" disabled={pay.isPending || decline.isPending} onClick={() => decline.mutate()}>Decline (test)</Button>
            </div>
          ) : (
            <Button asChild variant="outline"><Link to="/pricing">Back to pricing</Link></Button>
          )}
        </CardContent>
      </Card>
    </CheckoutShell>
  );
}

function describe(view: CheckoutView): string {
  if (view.kind === "upgrade") return `Professional report for ${view.url ?? "your site"}`;
  if (view.kind === "plan") {
    const plan = plans().find((p) => p.id === view.packageId);
    return `${plan?.name ?? view.packageId} plan (${view.interval ?? "monthly"})`;
  }
  return `${view.credits ?? 0} ${view.credits === 1 ? "credit" : "credits"}`;
}

/** The flows the test mode can run, each through the same checkout as a real purchase. */
function TestFlowsList() {
  const examples: { label: string; to: string }[] = [
    ...creditPacks().map((p) => ({ label: `${p.name}: ${formatDollars(p.price)}`, to: packageCheckoutPath(p.packageId) })),
    { label: "Custom amount: 7 credits", to: creditsCheckoutPath(7) },
    ...plans().map((p) => ({ label: `${p.name} plan, monthly`, to: packageCheckoutPath(p.id) })),
    ...plans().map((p) => ({ label: `${p.name} plan, yearly (2 Months Free)`, to: `${packageCheckoutPath(p.id)}&interval=yearly` })),
  ];
  return (
    <ul className="grid gap-2 sm:grid-cols-2">
      {examples.map((e) => (
        <li key={e.to}><Link className="text-link underline underline-offset-4" to={e.to}>{e.label}</Link></li>
      ))}
    </ul>
  );
}

/** /test-checkout-flows: every purchase flow, plus a subscription's renewal and a purchase's refund, in test mode. */
export function TestCheckoutFlowsPage() {
  const { signedIn } = useSession();
  const qc = useQueryClient();
  const billing = useQuery({ ...billingQuery(), enabled: signedIn });
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: ["billing"] });
    void qc.invalidateQueries({ queryKey: ["account"] });
  };
  const renew = useMutation({ mutationFn: renewTestSubscription, onSuccess: refresh });
  const refund = useMutation({ mutationFn: refundTestPayment, onSuccess: refresh });
  const error = renew.error ?? refund.error;
  return (
    <CheckoutShell title="Test checkout flows">
      <section aria-labelledby="flows-title" className="space-y-3">
        <h2 id="flows-title" className="text-xl font-semibold">Buy</h2>
        <TestFlowsList />
      </section>
      {signedIn && billing.data && (
        <section aria-labelledby="after-title" className="space-y-3">
          <h2 id="after-title" className="text-xl font-semibold">After a purchase</h2>
          {error && <Alert variant="destructive">{error.message}</Alert>}
          {billing.data.subscription && (
            <Button variant="outline" disabled={renew.isPending} onClick={() => renew.mutate()}>Pay the next {billing.data.subscription.planName} invoice (test renewal)</Button>
          )}
          <ul className="space-y-2">
            {billing.data.purchases.map((p) => (
              <li key={p.reference} className="flex items-center justify-between gap-3 rounded-xl border border-border p-3 text-sm">
                <span>{p.packageId} · {p.credits} credits · {formatDollars(p.amountCents)}</span>
                <Button size="sm" variant="outline" disabled={refund.isPending} onClick={() => refund.mutate(p.reference)}>Refund (test)</Button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </CheckoutShell>
  );
}

/** /payment: where Stripe sends a buyer who left the payment page; the checkout's state, and a way back. */
export function PaymentPage() {
  const [search] = useSearchParams();
  const id = search.get("session");
  const q = useCheckout(id, false);
  const view = q.data;
  return (
    <CheckoutShell title="Payment">
      {!id && <p>There is no payment in progress. Choose credits or a plan on the <Link className="text-link underline" to="/pricing">pricing page</Link>.</p>}
      {view && view.status === "paid" && <Alert variant="success"><CheckCircle2 aria-hidden="true" /><p>This payment is complete. <Link className="underline" to={`/payment-success?session=${encodeURIComponent(view.id)}`}>See your purchase</Link>.</p></Alert>}
      {view && view.status !== "paid" && (
        <Alert variant="destructive"><XCircle aria-hidden="true" /><div><p className="font-semibold">{view.failureMessage}</p><p>Nothing was charged.</p></div></Alert>
      )}
      {id && <Button asChild variant="outline"><Link to="/pricing">Back to pricing</Link></Button>}
    </CheckoutShell>
  );
}

/**
 * /payment-success?session=: waits for the payment's confirmation (a webhook may arrive after the
 * buyer), then shows the credits; an upgrade's payment started its professional report on the
 * server (once per checkout), which this page follows on /analyzing to the paid results, so a
 * reload never starts or pays for another; a new subscription goes on to /thank-you.
 */
export function PaymentSuccessPage() {
  const [search] = useSearchParams();
  const id = search.get("session");
  const navigate = useNavigate();
  const qc = useQueryClient();
  const q = useCheckout(id, true);
  const next = useMemo((): AfterPayment => (q.data ? afterPayment(q.data) : { kind: "wait" }), [q.data]);
  useEffect(() => {
    // The payment granted credits (and an upgrade spent them): the header's balance is read again.
    if (next.kind !== "wait" && next.kind !== "failed") void qc.invalidateQueries({ queryKey: ["account"] });
    if (next.kind === "thank-you") void navigate(`/thank-you?session=${encodeURIComponent(id ?? "")}`, { replace: true });
    if (next.kind === "follow")
      void navigate(`/analyzing?url=${encodeURIComponent(next.url)}&type=${next.reportType}&analysis=${encodeURIComponent(next.analysisId)}`, { replace: true });
  }, [next, id, navigate, qc]);
  useEffect(() => {
    if (next.kind === "done") toast({ title: purchaseCompleteTitle(), description: "Your credits are ready to use.", variant: "success" });
  }, [next.kind]);
  return (
    <CheckoutShell title="Payment">
      {!id && <p>There is no payment to confirm.</p>}
      {id && next.kind === "wait" && (
        <div role="status" className="flex items-center gap-3"><Spinner className="size-6" /> Confirming your payment...</div>
      )}
      {next.kind === "failed" && <Alert variant="destructive"><XCircle aria-hidden="true" /><p>{next.message}</p></Alert>}
      {next.kind === "follow" && (
        <div role="status" className="flex items-center gap-3"><Spinner className="size-6" /> {purchaseCompleteTitle()} Starting your professional report...</div>
      )}
      {next.kind === "done" && q.data && (
        <Alert variant="success">
          <CheckCircle2 aria-hidden="true" />
          <div>
            <p className="font-semibold">{purchaseCompleteTitle()}</p>
            <p>{q.data.credits} {q.data.credits === 1 ? "credit was" : "credits were"} added to your account. Credits never expire.</p>
          </div>
        </Alert>
      )}
      {next.kind === "done" && <Button asChild><Link to="/dashboard">Go to your dashboard</Link></Button>}
    </CheckoutShell>
  );
}

/** /thank-you: after a subscription starts. */
/** /thank-you: after a purchase, or with `?from=enterprise|agency|partner` after a contact form. */
export function ThankYouPage() {
  const [search] = useSearchParams();
  const from = search.get("from");
  return isContactThanks(from) ? <ContactThankYou from={from} /> : <PurchaseThankYou />;
}

function PurchaseThankYou() {
  const [search] = useSearchParams();
  const id = search.get("session");
  const q = useCheckout(id, false);
  const plan = plans().find((p) => p.id === q.data?.packageId);
  return (
    <CheckoutShell title="Thank you">
      <Alert variant="success">
        <CheckCircle2 aria-hidden="true" />
        <div>
          <p className="font-semibold">{purchaseCompleteTitle()}</p>
          <p>{plan ? `Your ${plan.name} plan is active${plan.credits ? `: ${plan.credits} credits a month` : ": unlimited credits"}.` : "Thank you for your purchase."}</p>
        </div>
      </Alert>
      <Button asChild><Link to="/dashboard">Go to your dashboard</Link></Button>
    </CheckoutShell>
  );
}
