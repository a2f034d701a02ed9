import { useState, type FormEvent } from "react";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { Label } from "../../components/ui/label";
import { Spinner } from "../../components/ui/spinner";
import { copyText } from "../../lib/clipboard";
import type { WidgetKeyView, WidgetLeadPage } from "../../lib/domain";
import { when } from "./api-keys-section";
import { LEADS_CSV, useCreateWidgetKey, useRevokeWidgetKey, useUpdateWidgetOrigins, useWidget, useWidgetLeads } from "./api/widget";

const textareaClass =
  "min-h-20 w-full rounded-md border border-input bg-background px-3 py-2 font-mono text-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring";

/** One origin a line, as typed; the server normalises and checks them (domain::widget::parse_origins). */
function lines(text: string): string[] {
  return text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
}

/** Origins typed one a line, sent by `onSubmit`; the server's message is shown under the field. */
function OriginsForm({
  id,
  initial,
  label,
  pending,
  error,
  onSubmit,
}: {
  id: string;
  initial: string;
  label: string;
  pending: boolean;
  error: string | null;
  onSubmit: (origins: string[]) => void;
}) {
  const [text, setText] = useState(initial);
  function submit(e: FormEvent) {
    e.preventDefault();
    onSubmit(lines(text));
  }
  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-2" aria-label={label}>
      <Label htmlFor={id}>Allowed origins (one a line)</Label>
      <textarea
        id={id}
        className={textareaClass}
        placeholder="https://www.your-agency.example"
        value={text}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : `${id}-hint`}
        onChange={(e) => setText(e.target.value)}
      />
      <p id={`${id}-hint`} className="text-sm text-muted-foreground">
        The pages that may show the form: scheme and host, with the port when it is not the usual one.
      </p>
      {error && (
        <p id={`${id}-error`} className="text-sm font-medium text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
      <div>
        <Button type="submit" size="sm" disabled={pending}>
          {pending && <Spinner className="size-4" />}
          {label}
        </Button>
      </div>
    </form>
  );
}

function KeyRow({ widgetKey }: { widgetKey: WidgetKeyView }) {
  const revoke = useRevokeWidgetKey();
  const update = useUpdateWidgetOrigins();
  const [editing, setEditing] = useState(false);
  const [copied, setCopied] = useState<boolean | null>(null);
  return (
    <li className="flex flex-col gap-2 py-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="flex flex-col">
          <code className="font-mono text-sm break-all">{widgetKey.key}</code>
          <span className="text-sm text-muted-foreground">
            {widgetKey.allowedOrigins.join(", ")} · Created {when(widgetKey.createdAt)} · {widgetKey.leads === 1 ? "1 lead" : `${widgetKey.leads} leads`}
          </span>
        </span>
        <span className="flex gap-2">
          <Button size="sm" variant="outline" aria-expanded={editing} onClick={() => setEditing(!editing)}>
            Edit origins
          </Button>
          <Button
            size="sm"
            variant="outline"
            aria-label={`Revoke ${widgetKey.key}`}
            disabled={revoke.isPending}
            onClick={() => {
              if (window.confirm("Revoke this widget key? Pages that embed it stop showing the form at once.")) revoke.mutate(widgetKey.id);
            }}
          >
            Revoke
          </Button>
        </span>
      </div>
      <Label htmlFor={`embed-${widgetKey.id}`}>Embed code</Label>
      <textarea id={`embed-${widgetKey.id}`} readOnly className={textareaClass} value={widgetKey.embedCode} onFocus={(e) => e.currentTarget.select()} />
      <div className="flex flex-wrap items-center gap-2">
        <Button size="sm" onClick={() => void copyText(widgetKey.embedCode).then(setCopied)}>
          Copy embed code
        </Button>
        {copied === true && <span>Copied to the clipboard.</span>}
        {copied === false && <span>Copying failed: select the code and copy it yourself.</span>}
      </div>
      {editing && (
        <OriginsForm
          id={`origins-${widgetKey.id}`}
          initial={widgetKey.allowedOrigins.join("\n")}
          label="Save origins"
          pending={update.isPending}
          error={update.isError ? update.error.message : null}
          onSubmit={(allowedOrigins) => update.mutate({ id: widgetKey.id, allowedOrigins }, { onSuccess: () => setEditing(false) })}
        />
      )}
      {revoke.isError && <Alert variant="destructive">{revoke.error.message}</Alert>}
    </li>
  );
}

const leadDate = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** The leads table with its pages. */
export function LeadsTable({ data, page, onPage }: { data: WidgetLeadPage; page: number; onPage: (page: number) => void }) {
  const pages = Math.max(1, Math.ceil(data.total / data.perPage));
  if (data.total === 0) return <p className="text-muted-foreground">No leads yet. They appear here as visitors fill in your audit form.</p>;
  return (
    <div className="flex flex-col gap-2">
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Leads from your audit widget, newest first</caption>
          <thead>
            <tr className="border-b border-border">
              <th scope="col" className="py-2 pr-3">
                Date (UTC)
              </th>
              <th scope="col" className="py-2 pr-3">
                First name
              </th>
              <th scope="col" className="py-2 pr-3">
                Email
              </th>
              <th scope="col" className="py-2 pr-3">
                Website
              </th>
              <th scope="col" className="py-2">
                Report
              </th>
            </tr>
          </thead>
          <tbody>
            {data.leads.map((lead) => (
              <tr key={lead.id} className="border-b border-border">
                <td className="py-2 pr-3 whitespace-nowrap">{leadDate.format(new Date(lead.createdAt))}</td>
                <td className="py-2 pr-3 break-all">{lead.firstName}</td>
                <td className="py-2 pr-3 break-all">
                  <a href={`mailto:${lead.email}`}>{lead.email}</a>
                </td>
                <td className="py-2 pr-3 break-all">{lead.websiteUrl}</td>
                <td className="py-2">
                  <a href={lead.reportUrl} target="_blank" rel="noopener" aria-label={`Open the report for ${lead.websiteUrl}`}>
                    Open report
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pages > 1 && (
        <nav aria-label="Lead pages" className="flex items-center gap-2">
          <Button size="sm" variant="outline" disabled={page <= 1} onClick={() => onPage(page - 1)}>
            Previous
          </Button>
          <span className="text-sm">
            Page {page} of {pages}
          </span>
          <Button size="sm" variant="outline" disabled={page >= pages} onClick={() => onPage(page + 1)}>
            Next
          </Button>
        </nav>
      )}
    </div>
  );
}

function Leads() {
  const [page, setPage] = useState(1);
  const q = useWidgetLeads(page, true);
  return (
    <section aria-labelledby="widget-leads-heading" className="flex flex-col gap-3 border-t border-border pt-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="widget-leads-heading" className="font-medium">
          Leads
        </h3>
        <Button asChild size="sm" variant="outline">
          <a href={LEADS_CSV} download>
            Download CSV
          </a>
        </Button>
      </div>
      {q.data ? <LeadsTable data={q.data} page={page} onPage={setPage} /> : q.isError ? <p>Unable to load your leads. Please try again.</p> : <Spinner className="size-6" />}
    </section>
  );
}

/**
 * The dashboard's "Widget & leads" card, for accounts whose plan includes white-label (and for
 * one that had keys before a downgrade, so it can still revoke them and read its leads): create
 * a key for the origins of the agency's pages, copy its embed code, change its origins or revoke
 * it; the leads the form brought in, by page, and their CSV export.
 */
export function WidgetSection() {
  const q = useWidget();
  const create = useCreateWidgetKey();
  const [formKey, setFormKey] = useState(0);
  const overview = q.data;
  if (!overview || (!overview.enabled && overview.keys.length === 0)) return null;
  return (
    <Card id="widget">
      <CardHeader>
        <CardTitle as="h2">Widget &amp; leads</CardTitle>
        <CardDescription>
          Put a free website audit form on your own site. Visitors get a report under your brand; you get their details here and by email. Each
          report spends half a credit.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {overview.keys.length === 0 ? (
          <p className="text-muted-foreground">No widget keys yet.</p>
        ) : (
          <ul className="divide-y divide-border" aria-label="Widget keys">
            {overview.keys.map((k) => (
              <KeyRow key={k.id} widgetKey={k} />
            ))}
          </ul>
        )}
        {overview.enabled ? (
          <OriginsForm
            key={formKey}
            id="widget-origins"
            initial=""
            label="Create Widget Key"
            pending={create.isPending}
            error={create.isError ? create.error.message : null}
            onSubmit={(allowedOrigins) => create.mutate({ allowedOrigins }, { onSuccess: () => setFormKey((n) => n + 1) })}
          />
        ) : (
          <Alert>Your plan no longer includes the widget: you can revoke keys and read your leads, but not create keys.</Alert>
        )}
        <Leads />
      </CardContent>
    </Card>
  );
}
