import { useEffect } from "react";
import { Activity } from "lucide-react";
import { useStats } from "../../api/stats";
import { toast } from "../../lib/toast";

/** The live analyses-completed counter, with the loading and error texts of SPEC.md §8. */
export function StatsCounter() {
  const { data, isPending, isError } = useStats();
  useEffect(() => {
    if (isError) toast({ title: "Error", description: "Failed to load website statistics", variant: "destructive" });
  }, [isError]);

  const total = Number(data?.data.totalWebsitesAnalyzed);
  return (
    <div className="inline-flex min-h-10 items-center gap-2 rounded-full bg-white/10 px-4 py-2 text-sm text-indigo-50 ring-1 ring-white/20" aria-live="polite">
      <Activity className="size-4 text-emerald-300" aria-hidden="true" />
      {isPending ? (
        <span>Loading statistics...</span>
      ) : isError || !data?.success || !Number.isFinite(total) ? (
        <span>Unable to load statistics</span>
      ) : (
        <span>
          <strong className="font-semibold text-white tabular-nums">{total.toLocaleString("en-US")}</strong> websites analyzed so far
        </span>
      )}
    </div>
  );
}
