import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { Spinner } from "../../components/ui/spinner";
import type { AdminLevel, AdminListRow, AdminMe } from "../../lib/domain";
import { adminGet, adminSend } from "./api";
import { ReasonDialog } from "./reason-dialog";
import { Table } from "./table";
import { userLink } from "./users-panel";

const levels: { id: AdminLevel; text: string }[] = [
  { id: "support", text: "Support: reads everything, changes nothing" },
  { id: "admin", text: "Admin: reads and changes" },
  { id: "owner", text: "Owner: also manages administrators" },
];

/** The administrators; owners grant, change and revoke levels (never leaving the site without an owner). */
export function AdminsPanel({ me }: { me: AdminMe }) {
  const client = useQueryClient();
  const q = useQuery({ queryKey: ["admin", "admins"], queryFn: () => adminGet<AdminListRow[]>("/api/admin/admins") });
  const [email, setEmail] = useState("");
  const [level, setLevel] = useState<AdminLevel>("support");
  const change = async (target: string, next: AdminLevel | null, reason: string) => {
    client.setQueryData(["admin", "admins"], await adminSend<AdminListRow[]>("POST", "/api/admin/admins", { email: target, level: next, reason }));
    void client.invalidateQueries({ queryKey: ["admin", "audit"] });
    void client.invalidateQueries({ queryKey: ["admin", "me"] });
  };
  const owner = me.level === "owner";
  return (
    <section aria-labelledby="admins-title" className="flex flex-col gap-4">
      <div>
        <h2 id="admins-title" className="text-xl font-semibold">
          Administrators
        </h2>
        <p className="text-sm text-muted-foreground">{owner ? "Grant, change or revoke admin levels. The last owner cannot step down." : "Only an owner can change admin levels."}</p>
      </div>
      {q.isPending ? (
        <Spinner className="size-6" />
      ) : q.isError ? (
        <p role="alert">Unable to load the administrators: {q.error.message}</p>
      ) : (
        <Table
          caption="Administrators"
          head={["Account", "Level", ""]}
          rows={q.data.map((a) => [
            <Link key="a" className="text-link underline-offset-4 hover:underline" to={userLink(a.id)}>
              {a.email}
            </Link>,
            a.level,
            owner ? <ReasonDialog key="r" trigger={`Revoke ${a.email}`} title={`Revoke ${a.email}`} description="They become an ordinary user at once." confirm="Revoke" destructive onConfirm={(reason) => change(a.email, null, reason)} /> : "",
          ])}
        />
      )}
      {owner && (
        <div className="flex flex-wrap items-end gap-3 rounded-xl border border-border p-4">
          <div className="flex min-w-64 flex-1 flex-col gap-1.5">
            <Label htmlFor="admin-email">Account e-mail</Label>
            <Input id="admin-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} placeholder="colleague@example.com" />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="admin-level">Level</Label>
            <select id="admin-level" className="h-10 rounded-md border border-border bg-card px-3 text-sm" value={level} onChange={(e) => setLevel(e.target.value as AdminLevel)}>
              {levels.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.text}
                </option>
              ))}
            </select>
          </div>
          <ReasonDialog trigger="Set level" title="Set an admin level" description={`${email || "The account"} becomes ${level}.`} confirm="Set level" disabled={!email.trim()} onConfirm={(reason) => change(email.trim(), level, reason)} />
        </div>
      )}
    </section>
  );
}
