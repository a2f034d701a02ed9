import { sortActionItems, type ActionItem } from "../../lib/domain";
import { Badge } from "../../components/ui/badge";
import { Processing } from "./section-groups";

const priorityBadge = { high: "red", medium: "yellow", low: "green" } as const;

/** The prioritised action plan, high first (ordering from the domain rules). */
export function ActionPlan({ items }: { items: ActionItem[] }) {
  if (items.length === 0) return <Processing />;
  const sorted = sortActionItems(items);
  return (
    <ol className="grid gap-3">
      {sorted.map((item, i) => (
        <li key={`${item.title}-${i}`} className="flex gap-4 rounded-xl border border-border bg-card p-4 sm:p-5">
          <span className="grid size-8 shrink-0 place-content-center rounded-full bg-muted text-sm font-bold tabular-nums" aria-hidden="true">
            {i + 1}
          </span>
          <div className="min-w-0">
            <div className="flex flex-wrap items-center gap-2">
              <h3 className="font-semibold">{item.title}</h3>
              <Badge variant={priorityBadge[item.priority]} className="capitalize">
                {item.priority} priority
              </Badge>
            </div>
            <p className="mt-1 text-muted-foreground">{item.description}</p>
            {item.impact && (
              <p className="mt-2 text-sm">
                <span className="font-semibold">Impact: </span>
                {item.impact}
              </p>
            )}
          </div>
        </li>
      ))}
    </ol>
  );
}
