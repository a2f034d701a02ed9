import { Link } from "react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { formatDollars, type PlanAction, type SubscriptionStatus, type SubscriptionView } from "../../lib/domain";
import { billingQuery, changeSubscription } from "../../api/billing";

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

/** What the plan's state reads as. */
export function statusText(sub: SubscriptionView): string {
  const end = dateFormat.format(new Date(sub.currentPeriodEnd));
  const texts: Record<SubscriptionStatus, string> = {
    active: `Renews on ${end}`,
    paused: "Paused: no renewal and no monthly credits until you resume",
    cancel_at_period_end: `Ends on ${end}`,
    canceled: "Ended",
    past_due: "The last payment failed: update your card to keep the plan",
  };
  return texts[sub.status];
}

/** The actions a subscription in this state offers (the server checks them again with domain's rule). */
export function actionsFor(status: SubscriptionStatus): { action: PlanAction; label: string }[] {
  switch (status) {
    case "active":
      return [{ action: "pause", label: "Pause plan" }, { action: "cancel", label: "Cancel at period end" }];
    case "paused":
      return [{ action: "resume", label: "Resume plan" }, { action: "cancel", label: "Cancel at period end" }];
    case "cancel_at_period_end":
      return [{ action: "reactivate", label: "Keep my plan" }];
    case "past_due":
      return [{ action: "cancel", label: "Cancel at period end" }];
    default:
      return [];
  }
}

/** The dashboard's billing section: the plan with its actions, and the purchases and invoices. */
export function BillingSection() {
  const qc = useQueryClient();
  const q = useQuery(billingQuery());
  const act = useMutation({
    mutationFn: changeSubscription,
    onSuccess: (overview) => {
      qc.setQueryData(["billing"], overview);
      void qc.invalidateQueries({ queryKey: ["account"] });
    },
  });
  // A team member's billing is their owner's: the server answers 403 and the section stays away.
  if (!q.data) return null;
  const { subscription: sub, purchases } = q.data;
  return (
    <section aria-labelledby="billing" className="flex flex-col gap-4">
      <h2 id="billing" className="text-xl font-semibold">Billing</h2>
      <Card>
        <CardHeader>
          <CardTitle as="h3">{sub ? `${sub.planName} plan (${sub.interval})` : "No plan"}</CardTitle>
          <CardDescription>
            {sub
              ? `${formatDollars(sub.amountCents)} a ${sub.interval === "yearly" ? "year" : "month"} · ${sub.monthlyCredits === null ? "unlimited credits" : `${sub.monthlyCredits} credits a month`} · ${sub.seats === null ? "unlimited seats" : `${sub.seats} seats`}`
              : "Buy credits as you need them, or choose a plan for monthly credits and team seats."}
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-3">
          {sub && <p>{statusText(sub)}</p>}
          {act.isError && <Alert variant="destructive">{act.error.message}</Alert>}
          <div className="flex flex-wrap gap-2">
            {sub &&
              actionsFor(sub.status).map((a) => (
                <Button key={a.action} variant="outline" disabled={act.isPending} onClick={() => act.mutate(a.action)}>
                  {a.label}
                </Button>
              ))}
            <Button asChild variant={sub ? "outline" : "default"}>
              <Link to="/pricing">{sub ? "Change plan" : "See plans and credits"}</Link>
            </Button>
          </div>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle as="h3">Purchases and invoices</CardTitle>
        </CardHeader>
        <CardContent>
          {purchases.length === 0 ? (
            <p className="text-muted-foreground">No purchases yet.</p>
          ) : (
            <table className="w-full text-sm">
              <thead>
                <tr className="text-left">
                  <th scope="col" className="py-2">Date</th>
                  <th scope="col">Item</th>
                  <th scope="col">Credits</th>
                  <th scope="col" className="text-right">Amount</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-border">
                {purchases.map((p) => (
                  <tr key={p.reference}>
                    <td className="py-2">{dateFormat.format(new Date(p.createdAt))}</td>
                    <td>{p.packageId}</td>
                    <td>{p.credits}</td>
                    <td className="text-right">{formatDollars(p.amountCents)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </CardContent>
      </Card>
    </section>
  );
}
