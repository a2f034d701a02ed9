import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useSearchParams } from "react-router";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { Spinner } from "../../components/ui/spinner";
import { creditsLabel, formatCredits, parseCredits, type AdjustDirection, type AdminMe, type AdminUserDetail, type AdminUserRow } from "../../lib/domain";
import { adminDateTime, adminGet, adminSend } from "./api";
import { formatCents } from "./format";
import { ReasonDialog } from "./reason-dialog";
import { Table } from "./table";

/** Opens a user's detail view (the `user` parameter, so other panels can link to it). */
export function userLink(id: number): string {
  return `?tab=users&user=${id}`;
}

function UserList({ onOpen }: { onOpen: (id: number) => void }) {
  const [text, setText] = useState("");
  const [query, setQuery] = useState("");
  const q = useQuery({
    queryKey: ["admin", "users", query],
    queryFn: () => adminGet<AdminUserRow[]>(`/api/admin/users?q=${encodeURIComponent(query)}`),
  });
  return (
    <div className="flex flex-col gap-4">
      <form
        role="search"
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          setQuery(text.trim());
        }}
      >
        <div className="flex min-w-64 flex-1 flex-col gap-1.5">
          <Label htmlFor="user-search">Search by e-mail, name or user name</Label>
          <Input id="user-search" type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="ann@example.com" />
        </div>
        <Button type="submit">Search</Button>
      </form>
      {q.isPending ? (
        <Spinner className="size-6" />
      ) : q.isError ? (
        <p role="alert">Unable to search: {q.error.message}</p>
      ) : q.data.length === 0 ? (
        <p className="text-muted-foreground">{query ? `No account matches “${query}”.` : "No accounts yet."}</p>
      ) : (
        <Table
          caption={query ? `Accounts matching “${query}”` : "Newest accounts"}
          head={["Account", "Plan", "Paid credits", "Status", "Joined", ""]}
          rows={q.data.map((u) => [
            <span key="a">
              <span className="font-medium">{u.email}</span>
              {u.name && <span className="block text-xs text-muted-foreground">{u.name}</span>}
            </span>,
            u.plan,
            formatCredits(u.paidCredits),
            <span key="s" className="flex flex-wrap gap-1">
              {u.disabledAt ? <Badge variant="red">disabled</Badge> : <Badge variant="green">active</Badge>}
              {u.adminLevel && <Badge variant="outline">{u.adminLevel}</Badge>}
            </span>,
            adminDateTime.format(new Date(u.createdAt)),
            <Button key="v" variant="link" size="sm" onClick={() => onOpen(u.id)} aria-label={`View ${u.email}`}>
              View
            </Button>,
          ])}
        />
      )}
    </div>
  );
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-xs uppercase tracking-wide text-muted-foreground">{label}</dt>
      <dd className="font-medium">{children}</dd>
    </div>
  );
}

function CreditsDialog({ id, onDone }: { id: number; onDone: (d: AdminUserDetail) => void }) {
  const [direction, setDirection] = useState<AdjustDirection>("add");
  const [amount, setAmount] = useState("1");
  return (
    <ReasonDialog
      trigger="Adjust credits"
      title="Adjust paid credits"
      description="Adds or removes paid credits. The change is a ledger row with your reason; a balance never goes below zero."
      confirm="Adjust credits"
      onConfirm={async (reason) => {
        let credits: number;
        try {
          credits = parseCredits(amount.trim());
        } catch {
          throw new Error("Write the credits as a whole or half number, such as 1 or 2.5.");
        }
        onDone(await adminSend<AdminUserDetail>("POST", `/api/admin/users/${id}/credits`, { direction, amount: credits, reason }));
      }}
    >
      <fieldset className="flex gap-4">
        <legend className="mb-1.5 text-sm font-medium">Direction</legend>
        {(["add", "remove"] as const).map((d) => (
          <label key={d} className="flex items-center gap-2 text-sm">
            <input type="radio" name="direction" value={d} checked={direction === d} onChange={() => setDirection(d)} />
            {d === "add" ? "Add" : "Remove"}
          </label>
        ))}
      </fieldset>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="credit-amount">Credits</Label>
        <Input id="credit-amount" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} required />
      </div>
    </ReasonDialog>
  );
}

function UserDetail({ id, me, onBack }: { id: number; me: AdminMe; onBack: () => void }) {
  const client = useQueryClient();
  const key = ["admin", "user", id];
  const q = useQuery({ queryKey: key, queryFn: () => adminGet<AdminUserDetail>(`/api/admin/users/${id}`) });
  const canChange = me.level !== "support";
  const done = (d: AdminUserDetail) => {
    client.setQueryData(key, d);
    void client.invalidateQueries({ queryKey: ["admin", "users"] });
    void client.invalidateQueries({ queryKey: ["admin", "audit"] });
  };
  const act = (path: string) => async (reason: string) => done(await adminSend<AdminUserDetail>("POST", `/api/admin/users/${id}/${path}`, { reason }));
  if (q.isPending) return <Spinner className="size-6" />;
  if (q.isError) return <p role="alert">Unable to load this account: {q.error.message}</p>;
  const d = q.data;
  const u = d.user;
  return (
    <div className="flex flex-col gap-5">
      <Button variant="link" className="self-start px-0" onClick={onBack}>
        ← All accounts
      </Button>
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="min-w-0 text-2xl font-semibold break-all">{u.email}</h3>
        {u.disabledAt ? <Badge variant="red">disabled {adminDateTime.format(new Date(u.disabledAt))}</Badge> : <Badge variant="green">active</Badge>}
        {u.adminLevel && <Badge variant="outline">admin: {u.adminLevel}</Badge>}
      </div>
      <Card>
        <CardContent className="pt-5 sm:pt-6">
          <dl className="grid grid-cols-2 gap-4 md:grid-cols-4">
            <Fact label="Name">{u.name || "—"}</Fact>
            <Fact label="User name">{d.username ?? "—"}</Fact>
            <Fact label="Plan">
              {u.plan} ({d.subscriptionStatus})
            </Fact>
            <Fact label="Paid credits">{creditsLabel(u.paidCredits)}</Fact>
            <Fact label="Trial">{d.hasUsedTrial ? `used${d.trialExpiresAt ? `, ${creditsLabel(d.trialCredits)} until ${adminDateTime.format(new Date(d.trialExpiresAt))}` : ""}` : "not used"}</Fact>
            <Fact label="E-mail">{d.emailVerified ? "verified" : "not verified"}</Fact>
            <Fact label="Sessions / API keys">
              {d.sessions} / {d.apiKeys}
            </Fact>
            <Fact label="Joined">{adminDateTime.format(new Date(u.createdAt))}</Fact>
            <Fact label="Team">{d.team ? `${d.team.owner ? "owns" : `member of ${d.team.ownerEmail}'s`} team${d.team.name ? ` “${d.team.name}”` : ""}: ${d.team.members.join(", ") || "no members"}` : "none"}</Fact>
          </dl>
        </CardContent>
      </Card>
      {canChange ? (
        <div className="flex flex-wrap gap-2" aria-label="Actions">
          <CreditsDialog id={id} onDone={done} />
          <ReasonDialog trigger="Grant the trial again" title="Grant the trial again" description="Lets this account start the free trial once more." confirm="Grant the trial" disabled={!d.hasUsedTrial} onConfirm={act("trial")} />
          <ReasonDialog trigger="Sign out everywhere" title="Sign out everywhere" description={`Ends all ${d.sessions} sessions of this account on every device.`} confirm="Sign out everywhere" onConfirm={act("sign-out")} />
          {u.disabledAt ? (
            <ReasonDialog trigger="Enable account" title="Enable this account" description="The account can sign in and use its API keys again." confirm="Enable" onConfirm={act("enable")} />
          ) : (
            <ReasonDialog trigger="Disable account" title="Disable this account" description="The account cannot sign in, its sessions end now and its API keys are refused until it is enabled again." confirm="Disable" destructive onConfirm={act("disable")} />
          )}
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">Your level (support) reads only; an admin or owner can change this account.</p>
      )}
      <Card>
        <CardHeader>
          <CardTitle as="h4">Credit ledger</CardTitle>
        </CardHeader>
        <CardContent>
          {d.ledger.length === 0 ? (
            <p className="text-muted-foreground">No credit movements.</p>
          ) : (
            <Table
              caption="Credit movements, newest first"
              head={["When", "Change", "Pool", "Reason", "Reference"]}
              rows={d.ledger.map((l) => [adminDateTime.format(new Date(l.at)), `${l.added ? "+" : "−"}${formatCredits(l.amount)}`, l.pool, l.reason, l.reference ?? "—"])}
            />
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle as="h4">Analyses</CardTitle>
        </CardHeader>
        <CardContent>
          {d.analyses.length === 0 ? (
            <p className="text-muted-foreground">No analyses.</p>
          ) : (
            <Table
              caption="Newest analyses"
              head={["Queued", "Address", "Type", "Status", "Cost"]}
              rows={d.analyses.map((j) => [adminDateTime.format(new Date(j.createdAt)), j.url, j.reportType, j.error ? `${j.status}: ${j.error}` : j.status, formatCredits(j.cost)])}
            />
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle as="h4">Payments</CardTitle>
        </CardHeader>
        <CardContent>
          {d.purchases.length === 0 ? (
            <p className="text-muted-foreground">No payments.</p>
          ) : (
            <Table caption="Payments, newest first" head={["When", "Package", "Credits", "Amount", "Payment"]} rows={d.purchases.map((p) => [adminDateTime.format(new Date(p.at)), p.package, String(p.credits), formatCents(p.amountCents), p.paymentId])} />
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle as="h4">What administrators did to this account</CardTitle>
        </CardHeader>
        <CardContent>
          {d.audit.length === 0 ? (
            <p className="text-muted-foreground">Nothing yet.</p>
          ) : (
            <Table caption="Audit entries about this account, newest first" head={["When", "Who", "Action", "Reason"]} rows={d.audit.map((e) => [adminDateTime.format(new Date(e.at)), e.actorEmail, e.action, e.reason ?? "—"])} />
          )}
        </CardContent>
      </Card>
    </div>
  );
}

/** Users: search, and one account's picture with the changes an admin may make. */
export function UsersPanel({ me }: { me: AdminMe }) {
  const [params, setParams] = useSearchParams();
  const id = Number(params.get("user"));
  const open = (user: number | null) => setParams(user === null ? { tab: "users" } : { tab: "users", user: String(user) });
  return (
    <section aria-labelledby="users-title" className="flex flex-col gap-4">
      <h2 id="users-title" className="text-xl font-semibold">
        Users
      </h2>
      {Number.isInteger(id) && id > 0 ? <UserDetail id={id} me={me} onBack={() => open(null)} /> : <UserList onOpen={open} />}
    </section>
  );
}
