import type { HealthHistory, HistoryBar, ServiceState } from "../../lib/domain";
import { cn } from "../../lib/cn";
import { stateLabel } from "./state";

const barColour: Record<ServiceState, string> = {
  operational: "bg-emerald-500",
  degraded: "bg-amber-500",
  down: "bg-red-600",
};

const time = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", timeZone: "UTC" });

/** "14:00–14:30 UTC". */
export function stretch(bar: HistoryBar, next?: HistoryBar) {
  const start = new Date(bar.start);
  const end = next ? new Date(next.start) : new Date(start.getTime() + 30 * 60_000);
  return `${time.format(start)}–${time.format(end)} UTC`;
}

/** What a bar says, in words: the stretch, its state and its database pings. */
export function describeBar(bar: HistoryBar, next?: HistoryBar) {
  if (bar.state === null) return `${stretch(bar, next)}: no samples`;
  const ping =
    bar.meanDatabaseMs === null || bar.maxDatabaseMs === null
      ? "database did not answer"
      : `database ${formatMs(bar.meanDatabaseMs)} average, ${formatMs(bar.maxDatabaseMs)} slowest`;
  const samples = `${bar.samples} sample${bar.samples === 1 ? "" : "s"}`;
  return `${stretch(bar, next)}: ${stateLabel[bar.state].toLowerCase()}, ${samples}, ${ping}`;
}

export function formatMs(ms: number) {
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms)} ms`;
}

/**
 * The last 24 hours as a strip of half-hour bars, coloured by the worst state sampled in each,
 * and under it the database's mean ping per bar, scaled to the slowest. Every bar's figures are
 * also in text, for screen readers and on hover.
 */
export function HistoryStrip({ history }: { history: HealthHistory }) {
  const { bars } = history;
  const slowest = Math.max(0, ...bars.map((b) => b.meanDatabaseMs ?? 0));
  const sampled = bars.filter((b) => b.state !== null).length;
  return (
    <div className="flex flex-col gap-3">
      <ol className="flex h-10 items-stretch gap-px sm:gap-0.5" aria-label="Health by half hour, oldest first">
        {bars.map((bar, i) => (
          <li
            key={bar.start}
            title={describeBar(bar, bars[i + 1])}
            className={cn("min-w-0 flex-1 rounded-sm", bar.state ? barColour[bar.state] : "bg-muted")}
          >
            <span className="sr-only">{describeBar(bar, bars[i + 1])}</span>
          </li>
        ))}
      </ol>
      {sampled > 0 && slowest > 0 && (
        <div aria-hidden="true">
          <div className="flex h-12 items-end gap-px sm:gap-0.5">
            {bars.map((bar) => (
              <div
                key={bar.start}
                className="min-w-0 flex-1 rounded-t-sm bg-primary/60"
                style={{ height: bar.meanDatabaseMs === null ? 0 : `${Math.max(4, (bar.meanDatabaseMs / slowest) * 100)}%` }}
              />
            ))}
          </div>
          <p className="mt-1 text-xs text-muted-foreground">Database response time per half hour (slowest average {formatMs(slowest)})</p>
        </div>
      )}
      <div className="flex justify-between text-xs text-muted-foreground">
        <span>{history.hours} hours ago</span>
        <span>now</span>
      </div>
    </div>
  );
}
