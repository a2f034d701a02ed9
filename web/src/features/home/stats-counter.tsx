import { useEffect } from "react";
import { useStats } from "../../api/stats";
import { toast } from "../../lib/toast";
import { StatsView } from "./stats-view";

/** The live analyses-completed counter, with the loading and error texts of docs/PRODUCT.md §8.5. */
export function StatsCounter() {
  const { data, isPending, isError } = useStats();
  useEffect(() => {
    if (isError) toast({ title: "Error", description: "Failed to load website statistics", variant: "destructive" });
  }, [isError]);

  const total = Number(data?.data.totalWebsitesAnalyzed);
  const state = isPending ? "loading" : isError || !data?.success || !Number.isFinite(total) ? "error" : total;
  return <StatsView state={state} />;
}
