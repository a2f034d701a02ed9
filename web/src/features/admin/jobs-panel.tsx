import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Spinner } from "../../components/ui/spinner";
import { formatCredits, type AdminJobRow, type AdminMe, type JobFilter } from "../../lib/domain";
import { adminDateTime, adminGet, adminSend } from "./api";
import { ReasonDialog } from "./reason-dialog";
import { Table } from "./table";
import { userLink } from "./users-panel";

const filters: { id: JobFilter | "all"; label: string }[] = [
  { id: "failed", label: "Failed" },
  { id: "running", label: "Running" },
  { id: "queued", label: "Queued" },
  { id: "complete", label: "Complete" },
  { id: "all", label: "All" },
];

const statusBadge: Record<string, "red" | "amber" | "yellow" | "green" | "outline"> = {
  failed: "red",
  running: "amber",
  queued: "yellow",
  complete: "green",
};

/** Analyses and jobs: the newest by status, failed ones with their error and a retry. */
export function JobsPanel({ me }: { me: AdminMe }) {
  const [filter, setFilter] = useState<JobFilter | "all">("failed");
  const client = useQueryClient();
  const q = useQuery({
    queryKey: ["admin", "jobs", filter],
    queryFn: () => adminGet<AdminJobRow[]>(`/api/admin/jobs${filter === "all" ? "" : `?status=${filter}`}`),
  });
  const canChange = me.level !== "support";
  return (
    <section aria-labelledby="jobs-title" className="flex flex-col gap-4">
      <div>
        <h2 id="jobs-title" className="text-xl font-semibold">
          Analyses and jobs
        </h2>
        <p className="text-sm text-muted-foreground">The newest 100 of each status. A retried analysis is queued again as new; a paid one is charged once for the report it delivers.</p>
      </div>
      <div role="group" aria-label="Status" className="flex flex-wrap gap-2">
        {filters.map((f) => (
          <Button key={f.id} size="sm" variant={filter === f.id ? "default" : "outline"} aria-pressed={filter === f.id} onClick={() => setFilter(f.id)}>
            {f.label}
          </Button>
        ))}
      </div>
      {q.isPending ? (
        <Spinner className="size-6" />
      ) : q.isError ? (
        <p role="alert">Unable to load the analyses: {q.error.message}</p>
      ) : q.data.length === 0 ? (
        <p className="text-muted-foreground">No {filter === "all" ? "" : `${filter} `}analyses.</p>
      ) : (
        <Table
          caption={`${filter === "all" ? "All" : filter} analyses, newest first`}
          head={["Queued", "Address", "Account", "Type", "Status", "Cost", ""]}
          rows={q.data.map((j) => [
            adminDateTime.format(new Date(j.createdAt)),
            <span key="u" className="break-all">
              {j.url}
            </span>,
            j.userId !== null ? (
              <Link key="a" className="text-link underline-offset-4 hover:underline" to={userLink(j.userId)}>
                {j.userEmail ?? `#${j.userId}`}
              </Link>
            ) : (
              "anonymous"
            ),
            j.reportType,
            <span key="s" className="flex flex-col gap-1">
              <Badge variant={statusBadge[j.status] ?? "outline"}>{j.status}</Badge>
              {j.error && <span className="text-xs text-muted-foreground">{j.error}</span>}
            </span>,
            `${formatCredits(j.cost)}${j.refunded ? " (given back)" : ""}`,
            j.status === "failed" && canChange ? (
              <ReasonDialog
                key="r"
                trigger="Retry"
                title="Retry this analysis"
                description={`Queues ${j.url} again.${j.cost > 0 && j.refunded ? ` Its ${formatCredits(j.cost)} credits were given back when it failed and are charged again.` : ""}`}
                confirm="Retry"
                onConfirm={async (reason) => {
                  await adminSend<AdminJobRow>("POST", `/api/admin/jobs/${j.id}/retry`, { reason });
                  await client.invalidateQueries({ queryKey: ["admin", "jobs"] });
                  void client.invalidateQueries({ queryKey: ["admin", "audit"] });
                }}
              />
            ) : (
              ""
            ),
          ])}
        />
      )}
    </section>
  );
}
