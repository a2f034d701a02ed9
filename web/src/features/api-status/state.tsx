import { CircleCheck, CircleX, TriangleAlert } from "lucide-react";
import { Badge } from "../../components/ui/badge";
import type { ServiceState } from "../../lib/domain";

export const stateLabel: Record<ServiceState, string> = {
  operational: "Operational",
  degraded: "Degraded",
  down: "Down",
};

const variant = { operational: "green", degraded: "amber", down: "red" } as const;
const icon = { operational: CircleCheck, degraded: TriangleAlert, down: CircleX } as const;

/** A state as a badge: colour, icon and word, so it never rests on colour alone. */
export function StateBadge({ state }: { state: ServiceState }) {
  const Icon = icon[state];
  return (
    <Badge variant={variant[state]}>
      <Icon className="size-3.5" aria-hidden="true" />
      {stateLabel[state]}
    </Badge>
  );
}
