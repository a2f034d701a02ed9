import { useInfiniteQuery } from "@tanstack/react-query";
import { Button } from "../../components/ui/button";
import { Spinner } from "../../components/ui/spinner";
import type { AuditEntryView, AuditPage } from "../../lib/domain";
import { adminDateTime, adminGet } from "./api";

/** The details of an entry as "key: value" pairs (the server stores a JSON document). */
function details(entry: AuditEntryView): string {
  try {
    const value = JSON.parse(entry.detail) as unknown;
    if (value && typeof value === "object" && !Array.isArray(value)) {
      return Object.entries(value as Record<string, unknown>)
        .map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`)
        .join(" · ");
    }
    return JSON.stringify(value);
  } catch {
    return entry.detail;
  }
}

const columns = ["When", "Who", "Action", "Target", "Reason", "Details"];

/** The audit log: every change an administrator made, newest first, with who, what, why and the details. */
export function AuditPanel() {
  const q = useInfiniteQuery({
    queryKey: ["admin", "audit"],
    queryFn: ({ pageParam }) => adminGet<AuditPage>(`/api/admin/audit${pageParam === null ? "" : `?before=${pageParam}`}`),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.nextBefore,
  });
  if (q.isPending) return <Spinner className="size-6" />;
  if (q.isError) return <p role="alert">Unable to load the audit log: {q.error.message}</p>;
  const entries = q.data.pages.flatMap((p) => p.entries);
  return (
    <section aria-labelledby="audit-title" className="flex flex-col gap-3">
      <div>
        <h2 id="audit-title" className="text-xl font-semibold">
          Audit log
        </h2>
        <p className="text-sm text-muted-foreground">Every change made in the admin area or by the operator at the command line, newest first.</p>
      </div>
      {entries.length === 0 ? (
        <p className="text-muted-foreground">No administrator has changed anything yet.</p>
      ) : (
        <div className="overflow-x-auto rounded-xl border">
          <table className="w-full text-left text-sm">
            <thead className="bg-muted/60 text-xs uppercase tracking-wide text-muted-foreground">
              <tr>
                {columns.map((c) => (
                  <th key={c} scope="col" className="px-3 py-2">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id} className="border-t align-top">
                  <td className="whitespace-nowrap px-3 py-2">{adminDateTime.format(new Date(e.at))}</td>
                  <td className="px-3 py-2">{e.actorEmail}</td>
                  <td className="px-3 py-2 font-mono text-xs">{e.action}</td>
                  <td className="px-3 py-2">
                    {e.targetType}
                    {e.targetId ? ` #${e.targetId}` : ""}
                  </td>
                  <td className="px-3 py-2">{e.reason ?? "—"}</td>
                  <td className="max-w-md break-words px-3 py-2 text-muted-foreground">{details(e)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {q.hasNextPage && (
        <Button variant="outline" className="self-start" onClick={() => void q.fetchNextPage()} disabled={q.isFetchingNextPage}>
          {q.isFetchingNextPage ? "Loading…" : "Older entries"}
        </Button>
      )}
    </section>
  );
}
