import type { ReactNode } from "react";
import { Link } from "react-router";
import { PageMeta } from "../../components/seo/page-meta";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card";
import { Spinner } from "../../components/ui/spinner";
import type { ApiStatus, BrowserPart, ServiceState } from "../../lib/domain";
import { cn } from "../../lib/cn";
import { routeMeta } from "../../lib/route-meta";
import { STATUS_POLL_MS, useApiStatus } from "./api/status";
import { HistoryStrip, formatMs } from "./history-strip";
import { StateBadge } from "./state";

const headline: Record<ServiceState, string> = {
  operational: "All systems operational",
  degraded: "Some parts are degraded",
  down: "Service disruption",
};

const explanation: Record<ServiceState, string> = {
  operational: "The API answers, and analyses are queued, run and stored as they should be.",
  degraded: "The API answers and analyses complete, but a part below is slower than it should be or works with less.",
  down: "Analyses cannot be run or read right now. The part marked down below is the cause.",
};

const banner: Record<ServiceState, string> = {
  operational: "border-emerald-300 bg-emerald-50 dark:border-emerald-800 dark:bg-emerald-950/40",
  degraded: "border-amber-300 bg-amber-50 dark:border-amber-800 dark:bg-amber-950/40",
  down: "border-red-300 bg-red-50 dark:border-red-800 dark:bg-red-950/40",
};

const clock = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", second: "2-digit", timeZone: "UTC" });

/** "45 s", "12 min", "3 h 5 min". */
export function duration(seconds: number) {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return `${hours} h ${minutes % 60} min`;
}

/** One part of the service: its name, state, a sentence and its figures. */
function Part({ title, state, summary, figures }: { title: string; state: ServiceState; summary: string; figures: [string, ReactNode][] }) {
  return (
    <Card className="flex flex-col">
      <CardHeader className="flex-row items-start justify-between gap-3 space-y-0 pb-3 sm:pb-3">
        <CardTitle as="h3">{title}</CardTitle>
        <StateBadge state={state} />
      </CardHeader>
      <CardContent className="flex flex-1 flex-col gap-3">
        <p className="text-sm text-muted-foreground">{summary}</p>
        <dl className="mt-auto grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
          {figures.map(([term, value]) => (
            <div key={term} className="flex flex-col">
              <dt className="text-muted-foreground">{term}</dt>
              <dd className="font-semibold tabular-nums">{value}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}

function browserSummary(b: BrowserPart) {
  if (b.workers.includes("missing")) return "A worker cannot find Chromium: its analyses run over HTTP only and their lab figures are estimated.";
  if (b.workers.includes("off") || (!b.available && b.workers.length === 0))
    return "Chromium is turned off: analyses run over HTTP only and their lab figures are estimated.";
  if (b.launched > 0) return "Chromium is running and measures pages in a real browser.";
  return "Chromium is installed and starts with the next analysis.";
}

/** The parts of the service, as cards. */
export function StatusParts({ status }: { status: ApiStatus }) {
  const { api, database, queue, workers, browser } = status;
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      <Part
        title="API"
        state={api.state}
        summary="This page's data came from the API, so it answers."
        figures={[
          ["Version", api.version],
          ["Document", <a key="doc" className="text-link underline underline-offset-4" href="/api/v1/openapi.json">openapi.json</a>],
        ]}
      />
      <Part
        title="Database"
        state={database.state}
        summary={database.reachable ? "It answers every request of the service." : "It does not answer: nothing can be read or stored."}
        figures={[
          ["Response time", database.latencyMs === null ? "No answer" : formatMs(database.latencyMs)],
          ["Engine", database.engine === "postgres" ? "PostgreSQL" : database.engine === "sqlite" ? "SQLite" : database.engine],
        ]}
      />
      <Part
        title="Analysis queue"
        state={queue.state}
        summary={queue.depth === 0 ? "No analysis is waiting." : `${queue.depth} ${queue.depth === 1 ? "analysis is" : "analyses are"} waiting for a worker.`}
        figures={[
          ["Waiting", queue.depth],
          ["Running", queue.running],
          ["Oldest wait", queue.oldestWaitSeconds === null ? "—" : duration(queue.oldestWaitSeconds)],
        ]}
      />
      <Part
        title="Workers"
        state={workers.state}
        summary={
          workers.alive === 0
            ? "No worker has reported in: analyses are queued but not run."
            : `${workers.alive} ${workers.alive === 1 ? "worker is" : "workers are"} alive, ${workers.busy} busy.`
        }
        figures={[
          ["Alive", workers.alive],
          ["Busy", workers.busy],
          ["Analyses running", `${workers.inProgress} of ${workers.capacity}`],
        ]}
      />
      <Part
        title="Browser"
        state={browser.state}
        summary={browserSummary(browser)}
        figures={[
          ["Chromium", browser.available ? "Available" : "Not available"],
          ["Running in", `${browser.launched} of ${browser.workers.length} worker${browser.workers.length === 1 ? "" : "s"}`],
          ["Tabs in use", `${browser.tabsInUse} of ${browser.tabsMax}`],
          ["Spare tabs", browser.spareTabs],
        ]}
      />
    </div>
  );
}

/** The page's body for a status answer (exported for tests). */
export function StatusView({ status, stale }: { status: ApiStatus; stale: boolean }) {
  const { history } = status;
  return (
    <>
      <section aria-labelledby="overall" className={cn("rounded-2xl border p-5 sm:p-6", banner[status.state])}>
        <div className="flex flex-wrap items-center gap-3">
          <StateBadge state={status.state} />
          <h2 id="overall" className="text-xl font-semibold sm:text-2xl" role="status" aria-live="polite">
            {headline[status.state]}
          </h2>
        </div>
        <p className="mt-2 text-sm sm:text-base">{explanation[status.state]}</p>
        <p className="mt-2 text-xs text-muted-foreground">
          Checked at {clock.format(new Date(status.checkedAt))} UTC · refreshed every {STATUS_POLL_MS / 1000} seconds
          {stale && <strong className="ml-1 font-semibold text-red-700 dark:text-red-300">· the last refresh failed, these figures are older</strong>}
        </p>
      </section>
      <section aria-labelledby="parts" className="flex flex-col gap-4">
        <h2 id="parts" className="text-xl font-semibold">
          Parts of the service
        </h2>
        <StatusParts status={status} />
      </section>
      <section aria-labelledby="history" className="flex flex-col gap-4">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="history" className="text-xl font-semibold">
            Last {history.hours} hours
          </h2>
          <p className="text-sm text-muted-foreground">
            {history.uptimePercent === null
              ? "No samples yet: one is taken every minute."
              : `${formatUptime(history.uptimePercent)} up · ${history.samples.length} of ${(history.hours * 3600) / history.sampleEverySeconds} minutes sampled`}
          </p>
        </div>
        <Card>
          <CardContent className="pt-5 sm:pt-6">
            <HistoryStrip history={history} />
            <ul className="mt-4 flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground" aria-label="Legend">
              {(
                [
                  ["bg-emerald-500", "Operational"],
                  ["bg-amber-500", "Degraded"],
                  ["bg-red-600", "Down"],
                  ["bg-muted border border-border", "No samples (the service was not running)"],
                ] as const
              ).map(([colour, label]) => (
                <li key={label} className="flex items-center gap-1.5">
                  <span className={cn("inline-block size-3 rounded-sm", colour)} aria-hidden="true" />
                  {label}
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      </section>
    </>
  );
}

/** "99.93 %", "100 %". */
export function formatUptime(percent: number) {
  return `${percent === 100 ? "100" : percent.toFixed(2)} %`;
}

/** /api-status: the live status of the API and its last 24 hours, from `GET /api/v1/status`. */
export function ApiStatusPage() {
  const q = useApiStatus();
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-8 px-4 py-10">
      <PageMeta {...routeMeta("/api-status")} />
      <div className="flex flex-col gap-2">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">API status</h1>
        <p className="text-muted-foreground">
          Whether the Sitelens API and the parts behind it work now. Programs can read the same figures as JSON at{" "}
          <a className="font-mono text-sm text-link underline underline-offset-4" href="/api/v1/status">
            /api/v1/status
          </a>
          ; the API itself is described in the <Link className="text-link underline underline-offset-4" to="/api-docs">API documentation</Link>.
        </p>
      </div>
      {q.data ? (
        <StatusView status={q.data} stale={q.isError} />
      ) : q.isError ? (
        <section role="alert" className={cn("rounded-2xl border p-5 sm:p-6", banner.down)}>
          <div className="flex flex-wrap items-center gap-3">
            <StateBadge state="down" />
            <h2 className="text-xl font-semibold">The status could not be read</h2>
          </div>
          <p className="mt-2 text-sm">
            The API did not answer (or your connection is offline). This page tries again every {STATUS_POLL_MS / 1000} seconds.
          </p>
        </section>
      ) : (
        <div className="flex min-h-[30vh] items-center justify-center gap-3 text-muted-foreground" role="status">
          <Spinner className="size-6" /> Checking the service…
        </div>
      )}
    </div>
  );
}
