import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card";
import { Spinner } from "../../components/ui/spinner";
import { formatCredits, type AdminPurchases } from "../../lib/domain";
import { adminDateTime, adminGet } from "./api";
import { formatCents } from "./format";
import { Table } from "./table";
import { userLink } from "./users-panel";

/** The account of a row, linked to its detail view ("deleted account" once it is gone). */
export function Account({ id, email }: { id: number | null; email: string | null }): ReactNode {
  if (id === null) return "deleted account";
  return (
    <Link className="text-link underline-offset-4 hover:underline" to={userLink(id)}>
      {email ?? `#${id}`}
    </Link>
  );
}

/** Purchases, subscriptions and refunds, newest first, each with its account. */
export function PurchasesPanel() {
  const q = useQuery({ queryKey: ["admin", "purchases"], queryFn: () => adminGet<AdminPurchases>("/api/admin/purchases") });
  if (q.isPending) return <Spinner className="size-6" />;
  if (q.isError) return <p role="alert">Unable to load the purchases: {q.error.message}</p>;
  const { purchases, subscriptions, refunds } = q.data;
  return (
    <section aria-labelledby="purchases-title" className="flex flex-col gap-4">
      <h2 id="purchases-title" className="text-xl font-semibold">
        Purchases and refunds
      </h2>
      <Card>
        <CardHeader>
          <CardTitle as="h3">Payments</CardTitle>
        </CardHeader>
        <CardContent>
          {purchases.length === 0 ? (
            <p className="text-muted-foreground">No payments recorded.</p>
          ) : (
            <Table
              caption="Payments, newest first"
              head={["When", "Account", "Package", "Credits", "Amount", "Payment"]}
              rows={purchases.map((p) => [adminDateTime.format(new Date(p.at)), <Account key="a" id={p.userId} email={p.userEmail} />, p.package, String(p.credits), formatCents(p.amountCents), <code key="c" className="text-xs">{p.paymentId}</code>])}
            />
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle as="h3">Subscriptions</CardTitle>
        </CardHeader>
        <CardContent>
          {subscriptions.length === 0 ? (
            <p className="text-muted-foreground">No subscriptions.</p>
          ) : (
            <Table
              caption="Subscriptions, by last change"
              head={["Account", "Plan", "Interval", "Status", "Price", "Paid until"]}
              rows={subscriptions.map((s) => [<Account key="a" id={s.userId} email={s.userEmail} />, s.plan, s.interval, s.status, formatCents(s.amountCents), adminDateTime.format(new Date(s.periodEnd))])}
            />
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle as="h3">Refunds</CardTitle>
        </CardHeader>
        <CardContent>
          {refunds.length === 0 ? (
            <p className="text-muted-foreground">No refunds.</p>
          ) : (
            <Table
              caption="Refunds, newest first"
              head={["When", "Account", "Amount", "Credits taken back", "Payment", "Refund"]}
              rows={refunds.map((r) => [adminDateTime.format(new Date(r.at)), <Account key="a" id={r.userId} email={r.userEmail} />, formatCents(r.amountCents), formatCredits(r.creditsRemoved), <code key="p" className="text-xs">{r.paymentId}</code>, <code key="r" className="text-xs">{r.id}</code>])}
            />
          )}
        </CardContent>
      </Card>
    </section>
  );
}
