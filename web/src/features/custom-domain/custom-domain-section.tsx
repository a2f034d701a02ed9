import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { Alert } from "../../components/ui/alert";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { Spinner } from "../../components/ui/spinner";
import { ApiError } from "../../lib/api-client";
import { copyText } from "../../lib/clipboard";
import type { CustomDomainSettings, CustomDomainStatus, DnsRecordStep } from "../../lib/domain";
import { useCustomDomain, useRemoveCustomDomain, useSetCustomDomain, useVerifyCustomDomain } from "./api/custom-domain";

const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const at = (iso: string) => `${dateFormat.format(new Date(iso))} UTC`;

/** One DNS record to add, with a copy button for its value. */
function RecordRow({ record }: { record: DnsRecordStep }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  return (
    <tr className="align-top">
      <td className="py-2 pr-3 font-mono text-sm">{record.kind}</td>
      <td className="py-2 pr-3 font-mono text-sm break-all">{record.name}</td>
      <td className="py-2 pr-3">
        <span className="font-mono text-sm break-all">{record.value}</span>
        <span className="block text-xs text-muted-foreground">{record.purpose}</span>
      </td>
      <td className="py-2">
        <Button size="sm" variant="outline" aria-label={`Copy the ${record.kind} value`} onClick={() => void copyText(record.value).then(setCopied)}>
          {copied === true ? "Copied" : "Copy"}
        </Button>
      </td>
    </tr>
  );
}

/** The domain's state: verified or not, when checked, and why the last check failed. */
function DomainState({ status }: { status: CustomDomainStatus }) {
  const verify = useVerifyCustomDomain();
  const remove = useRemoveCustomDomain();
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium break-all">{status.domain}</span>
        {status.verified ? <Badge variant="green">Verified</Badge> : <Badge variant="amber">Not verified</Badge>}
      </div>
      <p className="text-sm text-muted-foreground">
        {status.verified && status.verifiedAt ? `Verified ${at(status.verifiedAt)}. ` : ""}
        {status.checkedAt ? `Last checked ${at(status.checkedAt)}.` : "Not checked yet."}
        {status.verified && <> Branded reports are shared as <span className="font-mono">{status.publicBase}/results/…</span></>}
      </p>
      {status.lastError && <Alert variant={status.verified ? "warning" : "destructive"}>{status.lastError}</Alert>}
      <div className="flex flex-wrap items-center gap-2">
        <Button size="sm" disabled={verify.isPending} onClick={() => verify.mutate()}>
          {verify.isPending && <Spinner className="size-4" />}
          Verify now
        </Button>
        <Button
          size="sm"
          variant="outline"
          disabled={remove.isPending}
          onClick={() => {
            if (window.confirm(`Remove ${status.domain}? Reports stop being served there at once.`)) remove.mutate();
          }}
        >
          Remove domain
        </Button>
      </div>
      {verify.isError && <Alert variant="destructive">{verify.error.message}</Alert>}
      {remove.isError && <Alert variant="destructive">{remove.error.message}</Alert>}
    </div>
  );
}

/** Enter (or change) the domain; the server normalises and checks it. */
function DomainForm({ current }: { current: string | undefined }) {
  const set = useSetCustomDomain();
  const [domain, setDomain] = useState(current ?? "");
  function submit(e: FormEvent) {
    e.preventDefault();
    set.mutate(domain);
  }
  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-2" aria-label="Custom domain">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex flex-1 flex-col gap-1.5">
          <Label htmlFor="custom-domain">Domain</Label>
          <Input
            id="custom-domain"
            autoComplete="off"
            spellCheck={false}
            placeholder="reports.youragency.com"
            value={domain}
            aria-invalid={set.isError ? true : undefined}
            aria-describedby={set.isError ? "custom-domain-error" : undefined}
            onChange={(e) => setDomain(e.target.value)}
          />
        </div>
        <Button type="submit" disabled={set.isPending}>
          {set.isPending && <Spinner className="size-4" />}
          {current ? "Change domain" : "Save domain"}
        </Button>
      </div>
      {current && <p className="text-xs text-muted-foreground">Changing the domain makes a new TXT record and needs a new verification.</p>}
      {set.isError && (
        <Alert id="custom-domain-error" variant="destructive">
          {set.error.message}
        </Alert>
      )}
    </form>
  );
}

function Settings({ settings }: { settings: CustomDomainSettings }) {
  const status = settings.customDomain;
  return (
    <div className="flex flex-col gap-5">
      {status && <DomainState status={status} />}
      <DomainForm key={status?.domain ?? ""} current={status?.domain} />
      {settings.records.length > 0 && (
        <section aria-labelledby="custom-domain-records" className="flex flex-col gap-2">
          <h3 id="custom-domain-records" className="font-medium">
            Records to add at your DNS provider
          </h3>
          <div className="overflow-x-auto">
            <table className="w-full text-left">
              <thead>
                <tr className="text-xs text-muted-foreground">
                  <th className="pb-1 pr-3 font-medium">Type</th>
                  <th className="pb-1 pr-3 font-medium">Name</th>
                  <th className="pb-1 pr-3 font-medium">Value</th>
                  <th className="pb-1 font-medium">
                    <span className="sr-only">Copy</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-border">
                {settings.records.map((r) => (
                  <RecordRow key={r.kind} record={r} />
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
      <ol className="list-decimal space-y-1 pl-5 text-sm text-muted-foreground">
        {settings.instructions.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ol>
    </div>
  );
}

/**
 * The dashboard's "Custom domain" card (issue 15 item 3): an agency enters a domain of its own,
 * adds the TXT record that proves it and the CNAME that points it here, verifies it, and then
 * shares its branded reports there. Accounts whose plan has no white-label read why instead.
 */
export function CustomDomainSection() {
  const q = useCustomDomain();
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Custom domain</CardTitle>
        <CardDescription>Serve your branded reports on a domain of your own, such as reports.youragency.com.</CardDescription>
      </CardHeader>
      <CardContent>
        {q.data ? (
          <Settings settings={q.data} />
        ) : q.error instanceof ApiError && q.error.status === 403 ? (
          <p className="text-muted-foreground">
            {q.error.message} <Link to="/pricing" className="text-link underline underline-offset-4">See the plans</Link>
          </p>
        ) : q.isError ? (
          <p>Unable to load your custom domain. Please try again.</p>
        ) : (
          <Spinner className="size-6" />
        )}
      </CardContent>
    </Card>
  );
}
