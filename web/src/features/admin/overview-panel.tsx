import { useQuery } from "@tanstack/react-query";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { Spinner } from "../../components/ui/spinner";
import { formatCredits, type AdminOverview } from "../../lib/domain";
import { adminGet } from "./api";
import { BarChart } from "./bar-chart";
import { formatCents, formatDay, formatPercent } from "./format";

function Figure({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <Card>
      <CardHeader className="gap-1 p-4 sm:p-4">
        <CardDescription>{label}</CardDescription>
        <p className="text-2xl font-semibold tabular-nums">{value}</p>
        {note && <p className="text-xs text-muted-foreground">{note}</p>}
      </CardHeader>
    </Card>
  );
}

function waited(seconds: number | null): string {
  if (seconds === null) return "nothing waiting";
  if (seconds < 60) return `oldest waiting ${seconds} s`;
  return `oldest waiting ${Math.round(seconds / 60)} min`;
}

/** The business at a glance: the last 30 days from stored rows, each share with its definition. */
export function OverviewPanel() {
  const q = useQuery({ queryKey: ["admin", "overview"], queryFn: () => adminGet<AdminOverview>("/api/admin/overview") });
  if (q.isPending) return <Spinner className="size-6" />;
  if (q.isError) return <p role="alert">Unable to load the overview: {q.error.message}</p>;
  const o = q.data;
  const net = o.grossRevenueCents - o.refundedCents;
  const first = o.days[0]?.day ?? "";
  const last = o.days.at(-1)?.day ?? "";
  const period = first && last ? `${formatDay(first)} – ${formatDay(last)} (UTC)` : "";
  const sum = (pick: (d: AdminOverview["days"][number]) => number) => o.days.reduce((n, d) => n + pick(d), 0);
  const busiest = (pick: (d: AdminOverview["days"][number]) => number) => Math.max(0, ...o.days.map(pick));
  return (
    <section aria-labelledby="overview-title" className="flex flex-col gap-6">
      <div>
        <h2 id="overview-title" className="text-xl font-semibold">
          Business at a glance
        </h2>
        <p className="text-sm text-muted-foreground">The last {o.days.length} days, {period}, computed from the stored records.</p>
      </div>
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Figure label="Analyses" value={o.analyses.toLocaleString("en-US")} note={`failure rate ${formatPercent(o.failureRate.percent)} (${o.failureRate.part} of ${o.failureRate.whole} ended)`} />
        <Figure label="Sign-ups" value={o.signups.toLocaleString("en-US")} />
        <Figure label="Revenue (net)" value={formatCents(net)} note={`${formatCents(o.grossRevenueCents)} paid, ${formatCents(o.refundedCents)} refunded`} />
        <Figure label="Free to paid" value={formatPercent(o.conversion.percent)} note={`${o.conversion.part} of ${o.conversion.whole} new accounts; all time ${formatPercent(o.conversionAllTime.percent)} (${o.conversionAllTime.part} of ${o.conversionAllTime.whole})`} />
        <Figure label="Credits sold" value={formatCredits(o.creditsSold)} />
        <Figure label="Credits spent" value={formatCredits(o.creditsSpent)} />
        <Figure label="Queue" value={`${o.queueWaiting} waiting`} note={`${o.queueRunning} running, ${waited(o.oldestWaitSeconds)}`} />
        <Figure label="Failed analyses" value={o.failureRate.part.toLocaleString("en-US")} note={`of ${o.failureRate.whole} that ended`} />
      </div>
      <Card>
        <CardHeader>
          <CardTitle as="h3">Per day</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-8 lg:grid-cols-2">
          <BarChart
            title="Analyses per day"
            bars={o.days.map((d) => ({ label: formatDay(d.day), value: d.analyses }))}
            summary={`${sum((d) => d.analyses)} analyses over ${o.days.length} days, at most ${busiest((d) => d.analyses)} in a day; ${sum((d) => d.failed)} failed.`}
          />
          <BarChart
            title="Sign-ups per day"
            bars={o.days.map((d) => ({ label: formatDay(d.day), value: d.signups }))}
            summary={`${sum((d) => d.signups)} sign-ups over ${o.days.length} days, at most ${busiest((d) => d.signups)} in a day.`}
          />
          <BarChart
            title="Revenue per day (payments less refunds)"
            bars={o.days.map((d) => ({ label: formatDay(d.day), value: d.revenueCents }))}
            format={formatCents}
            least={100}
            summary={`${formatCents(net)} net over ${o.days.length} days.`}
          />
          <BarChart
            title="Failed analyses per day"
            bars={o.days.map((d) => ({ label: formatDay(d.day), value: d.failed }))}
            summary={`${sum((d) => d.failed)} failed analyses over ${o.days.length} days.`}
          />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle as="h3">How these figures are defined</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-3 text-sm">
            <div>
              <dt className="font-medium">Free to paid</dt>
              <dd className="text-muted-foreground">{o.conversionDefinition}</dd>
            </div>
            <div>
              <dt className="font-medium">Failure rate</dt>
              <dd className="text-muted-foreground">{o.failureDefinition}</dd>
            </div>
            <div>
              <dt className="font-medium">Revenue and credits</dt>
              <dd className="text-muted-foreground">{o.moneyDefinition}</dd>
            </div>
          </dl>
        </CardContent>
      </Card>
    </section>
  );
}
