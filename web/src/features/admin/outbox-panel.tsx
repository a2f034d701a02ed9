import { useId, useState } from "react";
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { Alert } from "../../components/ui/alert";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Label } from "../../components/ui/label";
import { Spinner } from "../../components/ui/spinner";
import type { AdminMe, OutboxEmailView, OutboxPage, OutboxStatus } from "../../lib/domain";
import { adminDateTime, adminGet, adminSend } from "./api";

const badge: Record<OutboxStatus, { variant: "green" | "yellow" | "red"; text: string }> = {
  sent: { variant: "green", text: "Sent" },
  pending: { variant: "yellow", text: "Pending" },
  failed: { variant: "red", text: "Failed" },
};

/** The mail outbox: every e-mail the server queued, with its status, attempts and last error; admins retry failed ones. */
export function OutboxPanel({ me }: { me: AdminMe }) {
  const id = useId();
  const client = useQueryClient();
  const [status, setStatus] = useState<OutboxStatus | "">("");
  const q = useInfiniteQuery({
    queryKey: ["admin", "outbox", status],
    queryFn: ({ pageParam }) => {
      const p = new URLSearchParams();
      if (status) p.set("status", status);
      if (pageParam !== null) p.set("before", String(pageParam));
      const qs = p.toString();
      return adminGet<OutboxPage>(`/api/admin/outbox${qs ? `?${qs}` : ""}`);
    },
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.nextBefore,
  });
  const retry = useMutation({
    mutationFn: (emailId: number) => adminSend<OutboxEmailView>("POST", `/api/admin/outbox/${emailId}/retry`, {}),
    onSettled: () => void client.invalidateQueries({ queryKey: ["admin", "outbox"] }),
  });
  const emails = q.data?.pages.flatMap((p) => p.emails) ?? [];
  const canRetry = me.level !== "support";
  return (
    <section aria-labelledby="outbox-title" className="flex flex-col gap-4">
      <div>
        <h2 id="outbox-title" className="text-xl font-semibold">
          Mail outbox
        </h2>
        <p className="text-sm text-muted-foreground">
          Every e-mail the server queued, newest first. Failed ones are retried automatically for a few hours; {canRetry ? "retry one now once the mail server is fixed." : "your level (support) can only read."} Bodies are not shown: they may hold one-time links.
        </p>
      </div>
      <div className="grid w-fit gap-1.5">
        <Label htmlFor={`${id}-status`}>Status</Label>
        <select
          id={`${id}-status`}
          value={status}
          onChange={(e) => setStatus(e.target.value as OutboxStatus | "")}
          className="h-10 rounded-lg border border-border bg-input px-3 text-base text-input-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          <option value="">All</option>
          <option value="failed">Failed</option>
          <option value="pending">Pending</option>
          <option value="sent">Sent</option>
        </select>
      </div>
      {retry.isError && (
        <Alert variant="destructive">
          <p>{retry.error.message}</p>
        </Alert>
      )}
      {retry.isSuccess && (
        <Alert variant={retry.data.status === "sent" ? "success" : "warning"}>
          <p>{retry.data.status === "sent" ? `Sent to ${retry.data.to}.` : `Still not sent: ${retry.data.lastError ?? "unknown error"}`}</p>
        </Alert>
      )}
      {q.isPending ? (
        <Spinner className="size-6" />
      ) : q.isError ? (
        <p role="alert">Unable to load the outbox: {q.error.message}</p>
      ) : emails.length === 0 ? (
        <p className="text-muted-foreground">No e-mails match.</p>
      ) : (
        <div className="overflow-x-auto rounded-xl border">
          <table className="w-full text-left text-sm">
            <thead className="bg-muted/60 text-xs uppercase tracking-wide text-muted-foreground">
              <tr>
                {["Queued", "To", "Subject", "Status", "Attempts", "Last error", ""].map((c, i) => (
                  <th key={i} scope="col" className="px-3 py-2">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {emails.map((e) => (
                <tr key={e.id} className="border-t align-top">
                  <td className="whitespace-nowrap px-3 py-2">{adminDateTime.format(new Date(e.createdAt))}</td>
                  <td className="px-3 py-2">
                    {e.to}
                    {e.replyTo && <span className="block text-xs text-muted-foreground">Reply-To {e.replyTo}</span>}
                  </td>
                  <td className="px-3 py-2">{e.subject}</td>
                  <td className="px-3 py-2">
                    <Badge variant={badge[e.status].variant}>{badge[e.status].text}</Badge>
                    {e.sentAt && <span className="block text-xs text-muted-foreground">{adminDateTime.format(new Date(e.sentAt))}</span>}
                  </td>
                  <td className="px-3 py-2 text-right tabular-nums">{e.attempts}</td>
                  <td className="max-w-xs break-words px-3 py-2 text-muted-foreground">{e.lastError ?? "—"}</td>
                  <td className="px-3 py-2">
                    {canRetry && e.status !== "sent" && (
                      <Button size="sm" variant="outline" disabled={retry.isPending} onClick={() => retry.mutate(e.id)} aria-label={`Retry the e-mail to ${e.to}`}>
                        Retry
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {q.hasNextPage && (
        <Button variant="outline" className="self-start" onClick={() => void q.fetchNextPage()} disabled={q.isFetchingNextPage}>
          {q.isFetchingNextPage ? "Loading…" : "Older e-mails"}
        </Button>
      )}
    </section>
  );
}
