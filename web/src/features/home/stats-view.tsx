import { Activity } from "lucide-react";

/** The counter's markup: loading, error or the number (shared with the early shell). */
export function StatsView({ state }: { state: "loading" | "error" | number }) {
  return (
    <div className="inline-flex min-h-10 items-center gap-2 rounded-full bg-white/10 px-4 py-2 text-sm text-indigo-50 ring-1 ring-white/20" aria-live="polite">
      <Activity className="size-4 text-emerald-300" aria-hidden="true" />
      {state === "loading" ? (
        <span>Loading statistics...</span>
      ) : state === "error" ? (
        <span>Unable to load statistics</span>
      ) : (
        <span>
          <strong className="font-semibold text-white tabular-nums">{state.toLocaleString("en-US")}</strong> websites analyzed so far
        </span>
      )}
    </div>
  );
}
