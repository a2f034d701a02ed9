import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Button } from "../../components/ui/button";
import { Input } from "../../components/ui/input";
import { Badge } from "../../components/ui/badge";
import { Spinner } from "../../components/ui/spinner";
import { Alert } from "../../components/ui/alert";
import { formatDollars, type AdminAffiliateView, type AdminMe, type ConversionView, type PayoutView } from "../../lib/domain";
import { adminDateTime, adminGet, adminSend } from "./api";

const dollars = (cents: number) => formatDollars(Math.max(0, Math.round(cents)));
const statuses = ["pending", "approved", "rejected", "all"] as const;
const statusBadge = { pending: "yellow", approved: "green", rejected: "red" } as const;

function Table({ head, children }: { head: string[]; children: React.ReactNode }) {
  return (
    <div className="overflow-x-auto rounded-xl border">
      <table className="w-full text-left text-sm">
        <thead className="bg-muted/60 text-xs uppercase tracking-wide text-muted-foreground">
          <tr>
            {head.map((c) => (
              <th key={c} scope="col" className="px-3 py-2">{c}</th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** The Stripe Connect account an approved affiliate's payouts are transferred to (a reason is required). */
function ConnectedAccount({ a, onDone }: { a: AdminAffiliateView; onDone: (error: string | null) => void }) {
  const [accountId, setAccountId] = useState("");
  const [reason, setReason] = useState("");
  const save = async () => {
    try {
      await adminSend("POST", `/api/admin/affiliates/${a.id}/stripe-account`, { accountId, reason });
      onDone(null);
    } catch (e) {
      onDone(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <div className="flex min-w-56 flex-col gap-2">
      <p className="text-xs text-muted-foreground">{a.hasConnectedAccount ? "Stripe account on file" : "No Stripe account: payouts are manual"}</p>
      <Input aria-label={`Stripe account of ${a.name}`} placeholder="acct_… (empty removes it)" value={accountId} onChange={(e) => setAccountId(e.target.value)} />
      <Input aria-label={`Reason for the Stripe account of ${a.name}`} placeholder="Reason" value={reason} onChange={(e) => setReason(e.target.value)} />
      <Button size="sm" variant="outline" onClick={() => void save()}>Save Stripe account</Button>
    </div>
  );
}

/** One application with the admin's decision: approve, or reject with a required reason. */
function Application({ a, canChange, onDone }: { a: AdminAffiliateView; canChange: boolean; onDone: (error: string | null) => void }) {
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const decide = async (verb: "approve" | "reject") => {
    setBusy(true);
    try {
      await adminSend("POST", `/api/admin/affiliates/${a.id}/${verb}`, { reason });
      onDone(null);
    } catch (e) {
      onDone(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <tr className="border-t align-top">
      <td className="px-3 py-2">
        <p className="font-medium">{a.name}</p>
        <p className="text-muted-foreground">{a.email}</p>
        <p className="font-mono text-xs">{a.code}</p>
      </td>
      <td className="max-w-sm px-3 py-2">
        <p>{a.trafficSource} · {a.monthlyTraffic}{a.website ? ` · ${a.website}` : ""}{a.company ? ` · ${a.company}` : ""}</p>
        <p className="text-muted-foreground">Experience: {a.experience}</p>
        <p className="text-muted-foreground">Why: {a.motivation}</p>
      </td>
      <td className="px-3 py-2">
        <Badge variant={statusBadge[a.status]}>{a.status}</Badge>
        {a.rejectionReason && <p className="text-xs text-muted-foreground">{a.rejectionReason}</p>}
        <p className="text-xs text-muted-foreground">{adminDateTime.format(new Date(a.createdAt))}</p>
      </td>
      <td className="whitespace-nowrap px-3 py-2">
        {a.clicks} clicks · {a.conversions} conv.
        <br />
        {dollars(a.earningsCents)} earned · {dollars(a.unpaidCents)} unpaid
      </td>
      <td className="px-3 py-2">
        {a.status === "approved" && canChange && <ConnectedAccount a={a} onDone={onDone} />}
        {a.status === "pending" && canChange && (
          <div className="flex min-w-56 flex-col gap-2">
            <Button size="sm" disabled={busy} onClick={() => void decide("approve")}>Approve</Button>
            <Input aria-label={`Reason to reject ${a.name}`} placeholder="Reason (required to reject)" value={reason} onChange={(e) => setReason(e.target.value)} />
            <Button size="sm" variant="outline" disabled={busy} onClick={() => void decide("reject")}>Reject</Button>
          </div>
        )}
      </td>
    </tr>
  );
}

/** A proposed payout with its confirmation: a Stripe transfer, or a manual payment with a note. */
function Payout({ p, name, canChange, onDone }: { p: PayoutView; name: string; canChange: boolean; onDone: (error: string | null) => void }) {
  const [method, setMethod] = useState(p.method === "stripe" ? "stripe" : "manual");
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await adminSend("POST", `/api/admin/affiliates/payouts/${p.id}/confirm`, { method, note });
      onDone(null);
    } catch (e) {
      onDone(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <tr className="border-t align-top">
      <td className="px-3 py-2">#{p.id} · {name}</td>
      <td className="px-3 py-2">{dollars(p.amountCents)}</td>
      <td className="px-3 py-2">
        <Badge variant={p.status === "paid" ? "green" : "yellow"}>{p.status}</Badge>
        <p className="text-xs text-muted-foreground">{adminDateTime.format(new Date(p.paidAt ?? p.createdAt))}</p>
      </td>
      <td className="px-3 py-2">{p.status === "paid" ? `${p.method}${p.transferId ? ` ${p.transferId}` : ""}${p.note ? ` · ${p.note}` : ""}` : "—"}</td>
      <td className="px-3 py-2">
        {p.status === "pending" && canChange && (
          <div className="flex min-w-64 flex-col gap-2">
            <select aria-label={`Method of payout ${p.id}`} className="h-9 rounded-lg border border-border bg-input px-2" value={method} onChange={(e) => setMethod(e.target.value)}>
              <option value="manual">Manual payment</option>
              <option value="stripe">Stripe Connect transfer</option>
            </select>
            <Input aria-label={`Note for payout ${p.id}`} placeholder="How it was paid (required for manual)" value={note} onChange={(e) => setNote(e.target.value)} />
            <Button size="sm" disabled={busy} onClick={() => void confirm()}>Confirm payout</Button>
          </div>
        )}
      </td>
    </tr>
  );
}

/** Affiliates in the admin area: applications, payouts (the monthly run and confirmation) and conversions. */
export function AffiliatesPanel({ me }: { me: AdminMe }) {
  const qc = useQueryClient();
  const [status, setStatus] = useState<(typeof statuses)[number]>("pending");
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const canChange = me.level !== "support";
  const apps = useQuery({ queryKey: ["admin", "affiliates", status], queryFn: () => adminGet<AdminAffiliateView[]>(`/api/admin/affiliates?status=${status}`) });
  const everyone = useQuery({ queryKey: ["admin", "affiliates", "all"], queryFn: () => adminGet<AdminAffiliateView[]>("/api/admin/affiliates?status=all") });
  const payouts = useQuery({ queryKey: ["admin", "affiliate-payouts"], queryFn: () => adminGet<PayoutView[]>("/api/admin/affiliates/payouts") });
  const conversions = useQuery({ queryKey: ["admin", "affiliate-conversions"], queryFn: () => adminGet<ConversionView[]>("/api/admin/affiliates/conversions") });
  const names = new Map((everyone.data ?? []).map((a) => [a.id, a.name]));
  const refresh = (ok: string) => (error: string | null) => {
    setMessage(error ? { ok: false, text: error } : { ok: true, text: ok });
    void qc.invalidateQueries({ queryKey: ["admin"] });
  };
  const run = async () => {
    try {
      const proposed = await adminSend<PayoutView[]>("POST", "/api/admin/affiliates/payouts/run", {});
      refresh(proposed.length === 0 ? "No affiliate has approved commissions above the minimum." : `${proposed.length} payout(s) proposed.`)(null);
    } catch (e) {
      refresh("")(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <section aria-labelledby="affiliates-title" className="flex flex-col gap-6">
      <div>
        <h2 id="affiliates-title" className="text-xl font-semibold">Affiliates</h2>
        <p className="text-sm text-muted-foreground">Applications, payouts and conversions. {canChange ? "Every decision is written to the audit log." : "Your level can read only."}</p>
      </div>
      {message && <Alert variant={message.ok ? "success" : "destructive"}><p>{message.text}</p></Alert>}
      <div className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="mr-2 font-semibold">Applications</h3>
          {statuses.map((s) => (
            <Button key={s} size="sm" variant={s === status ? "default" : "outline"} onClick={() => setStatus(s)} aria-pressed={s === status}>{s}</Button>
          ))}
        </div>
        {apps.isPending ? <Spinner className="size-6" /> : apps.isError ? <p role="alert">{apps.error.message}</p> : apps.data.length === 0 ? (
          <p className="text-muted-foreground">No {status === "all" ? "" : `${status} `}applications.</p>
        ) : (
          <Table head={["Applicant", "Application", "Status", "Figures", ""]}>
            {apps.data.map((a) => <Application key={a.id} a={a} canChange={canChange} onDone={refresh(`${a.name}: decision saved.`)} />)}
          </Table>
        )}
      </div>
      <div className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <h3 className="font-semibold">Payouts</h3>
          {canChange && <Button size="sm" variant="outline" onClick={() => void run()}>Run payouts now</Button>}
        </div>
        {payouts.isPending ? <Spinner className="size-6" /> : payouts.isError ? <p role="alert">{payouts.error.message}</p> : payouts.data.length === 0 ? (
          <p className="text-muted-foreground">No payouts yet. The monthly run proposes them on the 1st.</p>
        ) : (
          <Table head={["Payout", "Amount", "Status", "Paid by", ""]}>
            {payouts.data.map((p) => <Payout key={p.id} p={p} name={names.get(p.affiliateId) ?? `affiliate ${p.affiliateId}`} canChange={canChange} onDone={refresh(`Payout #${p.id} confirmed.`)} />)}
          </Table>
        )}
      </div>
      <div className="flex flex-col gap-3">
        <h3 className="font-semibold">Conversions</h3>
        {conversions.isPending ? <Spinner className="size-6" /> : conversions.isError ? <p role="alert">{conversions.error.message}</p> : conversions.data.length === 0 ? (
          <p className="text-muted-foreground">No referred payments yet.</p>
        ) : (
          <Table head={["Date", "Purchase", "Amount", "Commission", "Status"]}>
            {conversions.data.map((c) => (
              <tr key={c.id} className="border-t">
                <td className="px-3 py-2">{adminDateTime.format(new Date(c.at))}</td>
                <td className="px-3 py-2">{c.transactionType}</td>
                <td className="px-3 py-2">{dollars(c.amountCents)}</td>
                <td className="px-3 py-2">{dollars(c.commissionCents)}</td>
                <td className="px-3 py-2">{c.status}</td>
              </tr>
            ))}
          </Table>
        )}
      </div>
    </section>
  );
}
