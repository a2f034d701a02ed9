import { AlertTriangle, CheckCircle2, Info, RefreshCw, XCircle } from "lucide-react";
import type { Finding, SectionGroup } from "../../lib/domain";
import { Badge } from "../../components/ui/badge";
import { Alert } from "../../components/ui/alert";
import { cn } from "../../lib/cn";

const findingIcon = {
  good: <CheckCircle2 className="size-5 shrink-0 text-emerald-600 dark:text-emerald-400" aria-label="Good" />,
  warning: <AlertTriangle className="size-5 shrink-0 text-amber-500" aria-label="Warning" />,
  issue: <XCircle className="size-5 shrink-0 text-red-600 dark:text-red-400" aria-label="Issue" />,
};

/** Section status: good, needs-improvement, anything else counted as critical (docs/PRODUCT.md §3.15). */
function StatusBadge({ status }: { status: string }) {
  if (status === "good") return <Badge variant="green">Good</Badge>;
  if (status === "needs-improvement") return <Badge variant="yellow">Needs improvement</Badge>;
  return <Badge variant="red">Critical</Badge>;
}

function FindingRow({ f }: { f: Finding }) {
  return (
    <li className="flex gap-3 py-3">
      {findingIcon[f.type] ?? <Info className="size-5 shrink-0" aria-hidden="true" />}
      <div className="min-w-0">
        <p className="font-medium">{f.title}</p>
        <p className="mt-0.5 text-sm text-muted-foreground">{f.description}</p>
        {f.solution && (
          <p className="mt-2 rounded-lg bg-muted px-3 py-2 text-sm">
            <span className="font-semibold">How to fix: </span>
            {f.solution}
          </p>
        )}
      </div>
    </li>
  );
}

/** A list of findings, each with its icon, description and fix. */
export function FindingList({ findings }: { findings: Finding[] }) {
  return (
    <ul className="mt-1 divide-y divide-border">
      {findings.map((f, i) => (
        <FindingRow key={f.id || i} f={f} />
      ))}
    </ul>
  );
}

/** 'Processing...' with the 'Analysis In Progress' notice for a section that has no findings yet. */
export function Processing() {
  return (
    <div className="space-y-3">
      <p className="flex items-center gap-2 font-medium text-muted-foreground">
        <RefreshCw className="size-4 animate-spin" aria-hidden="true" /> Processing...
      </p>
      <Alert variant="info">
        <Info aria-hidden="true" />
        <div>
          <p className="font-semibold">Analysis In Progress</p>
          <p>This part of the report is still being prepared. Please refresh the page in a moment to see it.</p>
        </div>
      </Alert>
    </div>
  );
}

/** Groups of findings, each with its status; `limit` caps the findings per group (compact view). */
export function SectionGroups({ groups, limit, highlight }: { groups: SectionGroup[]; limit?: number; highlight?: string }) {
  if (groups.length === 0) return <Processing />;
  return (
    <div className="grid gap-4">
      {groups.map((g) => {
        const shown = limit ? g.findings.slice(0, limit) : g.findings;
        const special = g.title === highlight;
        return (
          <section
            key={g.title}
            aria-label={g.title}
            className={cn("rounded-xl border border-border bg-card p-4 sm:p-5", special && "border-indigo-300 bg-indigo-50/60 ring-1 ring-indigo-200 dark:border-blue-800 dark:bg-blue-950/30 dark:ring-blue-900")}
          >
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h3 className="text-base font-semibold">{g.title}</h3>
              <StatusBadge status={g.status} />
            </div>
            {shown.length === 0 ? (
              <p className="mt-2 text-sm text-muted-foreground">Processing...</p>
            ) : (
              <FindingList findings={shown} />
            )}
            {limit && g.findings.length > limit && (
              <p className="mt-1 text-sm text-muted-foreground">+{g.findings.length - limit} more in the full view</p>
            )}
          </section>
        );
      })}
    </div>
  );
}
