import { useState } from "react";
import { CheckCircle2, Lock, XCircle } from "lucide-react";
import { formatSeconds, goodRanges, inGoodRange, labConditionsLabel, type AnalysisReport, type Diagnostic, type LabRun } from "../../lib/domain";
import { Badge } from "../../components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../components/ui/tabs";
import { ScoreRing } from "./score-visuals";
import { ScreenshotImage } from "./screenshot-image";
import { cn } from "../../lib/cn";
import { useBrand } from "../../lib/brand";

const kb = (bytes: number) => `${(bytes / 1024).toLocaleString("en-US", { maximumFractionDigits: 1 })} KB`;
const mb = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : kb(bytes));

type MetricRow = { key: keyof AnalysisReport["performanceAnalysis"]; range?: string; label: string; format: (v: number) => string };

const rows: MetricRow[] = [
  { key: "firstContentfulPaint", range: "fcp", label: "First Contentful Paint", format: formatSeconds },
  { key: "largestContentfulPaint", range: "lcp", label: "Largest Contentful Paint", format: formatSeconds },
  { key: "cumulativeLayoutShift", range: "cls", label: "Cumulative Layout Shift", format: (v) => v.toFixed(3) },
  { key: "totalBlockingTime", range: "tbt", label: "Total Blocking Time", format: (v) => `${Math.round(v)} ms` },
  { key: "speedIndex", range: "speedIndex", label: "Speed Index", format: formatSeconds },
  { key: "timeToInteractive", range: "tti", label: "Time to Interactive", format: formatSeconds },
  { key: "estimatedLoadTime", label: "Load time", format: formatSeconds },
  { key: "pageSize", range: "pageSize", label: "Page size", format: mb },
  { key: "requestCount", range: "requests", label: "Requests", format: (v) => String(v) },
];

const seconds = (v: number | null | undefined) => (v == null ? "–" : formatSeconds(v));

// Every set of lab figures, labelled: the simulated phone (what Lighthouse's mobile test and
// PageSpeed Insights report), the simulated desktop, and the loads as observed on the server.
function LabRuns({ runs }: { runs: LabRun[] }) {
  if (runs.length === 0) return null;
  return (
    <div className="overflow-x-auto rounded-xl border border-border sm:col-span-2 lg:col-span-3">
      <table className="w-full text-left text-sm">
        <caption className="px-3 pt-3 text-left text-sm text-muted-foreground">
          The figures above are the first row. Simulated figures replay this page's measured load on Lighthouse's connection and processor presets.
        </caption>
        <thead className="bg-muted">
          <tr>
            <th scope="col" className="px-3 py-2 font-semibold">Measured as</th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">Score</th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">FCP</th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">LCP</th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">Speed Index</th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">TBT</th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">CLS</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {runs.map((r) => (
            <tr key={r.conditions}>
              <th scope="row" className="px-3 py-2 font-medium">{labConditionsLabel(r.conditions)}</th>
              <td className="px-3 py-2 text-right tabular-nums">{r.score ?? "–"}</td>
              <td className="px-3 py-2 text-right tabular-nums">{seconds(r.firstContentfulPaint)}</td>
              <td className="px-3 py-2 text-right tabular-nums">{seconds(r.largestContentfulPaint)}</td>
              <td className="px-3 py-2 text-right tabular-nums">{seconds(r.speedIndex)}</td>
              <td className="px-3 py-2 text-right tabular-nums">{r.totalBlockingTime == null ? "–" : `${Math.round(r.totalBlockingTime)} ms`}</td>
              <td className="px-3 py-2 text-right tabular-nums">{r.cumulativeLayoutShift == null ? "–" : r.cumulativeLayoutShift.toFixed(3)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Metrics({ report }: { report: AnalysisReport }) {
  const perf = report.performanceAnalysis;
  const ranges = new Map(goodRanges().map((r) => [r.id, r.text]));
  const headline = perf.labRuns[0];
  return (
    <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
      {headline && (
        <p className="text-sm text-muted-foreground sm:col-span-2 lg:col-span-3">
          Measured as: <span className="font-medium text-foreground">{labConditionsLabel(headline.conditions)}</span>
        </p>
      )}
      {rows.map((row) => {
        const value = perf[row.key] as number;
        const good = row.range ? inGoodRange(row.range, value) : null;
        const estimated = perf.estimated.includes(row.key);
        return (
          <div key={row.key} className="rounded-xl border border-border p-4">
            <div className="flex items-start justify-between gap-2">
              <p className="text-sm text-muted-foreground">{row.label}</p>
              {good === true && <CheckCircle2 className="size-4 text-emerald-600 dark:text-emerald-400" aria-label="In the good range" />}
              {good === false && <XCircle className="size-4 text-red-600 dark:text-red-400" aria-label="Outside the good range" />}
            </div>
            <p className="mt-1 text-2xl font-semibold tabular-nums">{row.format(value)}</p>
            <p className="mt-1 text-xs text-muted-foreground">
              {row.range && ranges.get(row.range) ? `Good: ${ranges.get(row.range)}` : "\u00a0"}
              {estimated && <Badge variant="outline" className="ml-2">Estimated</Badge>}
            </p>
          </div>
        );
      })}
      {perf.estimated.length > 0 && (
        <p className="text-sm text-muted-foreground sm:col-span-2 lg:col-span-3">
          Figures marked “Estimated” could not be measured in a browser for this analysis; typical values are shown instead.
        </p>
      )}
      <LabRuns runs={perf.labRuns} />
    </div>
  );
}

function validDiagnostic(d: Diagnostic) {
  return !!d && typeof d.title === "string" && d.title.trim() !== "";
}

const diagBadge = { error: "red", warning: "yellow", info: "outline" } as const;

function Diagnostics({ diagnostics, paid }: { diagnostics: Diagnostic[]; paid: boolean }) {
  const brand = useBrand();
  if (diagnostics.length === 0) return <p className="text-muted-foreground">No diagnostics data available</p>;
  const valid = diagnostics.filter(validDiagnostic);
  if (valid.length === 0) return <p className="text-muted-foreground">No valid diagnostics found</p>;
  return (
    <ul className="grid gap-3">
      {valid.map((d) => {
        const locked = d.proOnly && !paid;
        return (
          <li key={d.id} className="rounded-xl border border-border p-4">
            <div className="flex flex-wrap items-center gap-2">
              <Badge variant={diagBadge[d.type] ?? "outline"}>{d.type}</Badge>
              <h4 className="font-semibold">{d.title}</h4>
              {locked && (
                <Badge variant="pro">
                  <Lock className="size-3" aria-hidden="true" /> Pro
                </Badge>
              )}
            </div>
            <p className="mt-2 text-sm text-muted-foreground">{d.description}</p>
            <dl className="mt-2 flex flex-wrap gap-x-6 gap-y-1 text-sm">
              {d.value && (
                <div className="flex gap-1">
                  <dt className="text-muted-foreground">Measured:</dt>
                  <dd className="font-medium">{d.value}</dd>
                </div>
              )}
              {d.potential && (
                <div className="flex gap-1">
                  <dt className="text-muted-foreground">Potential saving:</dt>
                  <dd className="font-medium">{d.potential}</dd>
                </div>
              )}
            </dl>
            {locked ? (
              <p className="mt-3 rounded-lg bg-muted px-3 py-2 text-sm text-muted-foreground">The step-by-step fix is part of the professional report.{brand ? "" : " Upgrade to Pro to view."}</p>
            ) : (
              d.solution && <p className="mt-3 rounded-lg bg-muted px-3 py-2 text-sm"><span className="font-semibold">How to fix: </span>{d.solution}</p>
            )}
          </li>
        );
      })}
    </ul>
  );
}

function Resources({ diagnostics, report }: { diagnostics: Diagnostic[]; report: AnalysisReport }) {
  const details = diagnostics.flatMap((d) => d.details ?? []);
  const perf = report.performanceAnalysis;
  return (
    <div className="space-y-4">
      <dl className="grid gap-3 sm:grid-cols-2">
        <div className="rounded-xl border border-border p-4">
          <dt className="text-sm text-muted-foreground">Total page weight</dt>
          <dd className="text-xl font-semibold">{mb(perf.pageSize)}</dd>
        </div>
        <div className="rounded-xl border border-border p-4">
          <dt className="text-sm text-muted-foreground">Requests</dt>
          <dd className="text-xl font-semibold">{perf.requestCount}</dd>
        </div>
      </dl>
      {details.length === 0 ? (
        <p className="text-muted-foreground">No resource-level savings were found for this page.</p>
      ) : (
        <div className="max-h-60 overflow-y-auto rounded-xl border border-border" tabIndex={0} role="region" aria-label="Resources with potential savings">
          <table className="w-full text-left text-sm">
            <thead className="sticky top-0 bg-muted">
              <tr>
                <th scope="col" className="px-3 py-2 font-semibold">Resource</th>
                <th scope="col" className="px-3 py-2 text-right font-semibold">Size</th>
                <th scope="col" className="px-3 py-2 text-right font-semibold">Saving</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {details.map((d, i) => (
                <tr key={`${d.url}-${i}`}>
                  <td className="max-w-0 truncate px-3 py-2" title={d.url}>{d.url}</td>
                  <td className="px-3 py-2 text-right tabular-nums">{kb(d.totalBytes)}</td>
                  <td className="px-3 py-2 text-right tabular-nums">{kb(d.wastedBytes)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function Screens({ report }: { report: AnalysisReport }) {
  const { desktop, mobile } = report.screenshots;
  const [view, setView] = useState<"desktop" | "mobile">("desktop");
  if (!desktop && !mobile) return <p className="text-muted-foreground">No screenshots available for this analysis.</p>;
  const src = view === "desktop" ? desktop : mobile;
  return (
    <div className="space-y-3">
      <div className="inline-flex rounded-lg bg-muted p-1" role="group" aria-label="Screenshot view">
        {(["desktop", "mobile"] as const).map((v) => (
          <button
            key={v}
            type="button"
            aria-pressed={view === v}
            onClick={() => setView(v)}
            className={cn("rounded-md px-3 py-1.5 text-sm font-medium capitalize", view === v ? "bg-card shadow-sm" : "text-muted-foreground")}
          >
            {v}
          </button>
        ))}
      </div>
      {src ? (
        <ScreenshotImage src={src} alt={`${view === "desktop" ? "Desktop" : "Mobile"} screenshot of ${report.url}`} className={view === "mobile" ? "max-w-xs" : ""} />
      ) : (
        <p className="text-muted-foreground">Screenshot not available for {view} view</p>
      )}
    </div>
  );
}

/** Performance: four score rings, Metrics / Diagnostics / Resources / Screenshots, and the Page Metadata card. */
export function PerformanceTab({ report, paid }: { report: AnalysisReport; paid: boolean }) {
  const perf = report.performanceAnalysis;
  const scores = perf.scores;
  const diagnostics = perf.diagnostics ?? [];
  const meta = perf.metaTagSuggestions;
  return (
    <div className="space-y-6">
      <Card>
        <CardContent className="grid grid-cols-2 gap-6 pt-5 sm:grid-cols-4 sm:pt-6">
          <ScoreRing score={scores.performance} label="Performance" />
          <ScoreRing score={scores.accessibility} label="Accessibility" />
          <ScoreRing score={scores.bestPractices} label="Best Practices" />
          <ScoreRing score={scores.seo} label="SEO" />
        </CardContent>
      </Card>
      <Tabs defaultValue="metrics">
        <TabsList aria-label="Performance details">
          <TabsTrigger value="metrics">Metrics</TabsTrigger>
          <TabsTrigger value="diagnostics">Diagnostics</TabsTrigger>
          <TabsTrigger value="resources">Resources</TabsTrigger>
          <TabsTrigger value="screenshots">Screenshots</TabsTrigger>
        </TabsList>
        <TabsContent value="metrics"><Metrics report={report} /></TabsContent>
        <TabsContent value="diagnostics"><Diagnostics diagnostics={diagnostics} paid={paid} /></TabsContent>
        <TabsContent value="resources"><Resources diagnostics={diagnostics} report={report} /></TabsContent>
        <TabsContent value="screenshots"><Screens report={report} /></TabsContent>
      </Tabs>
      <Card>
        <CardHeader>
          <CardTitle>Page Metadata</CardTitle>
          <CardDescription>What search engines and social networks read from your page.</CardDescription>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-4">
            <div>
              <dt className="text-sm font-medium text-muted-foreground">Title</dt>
              <dd className="mt-1 break-words">{meta?.title.current || <span className="text-muted-foreground">No title found</span>}</dd>
            </div>
            <div>
              <dt className="text-sm font-medium text-muted-foreground">Meta description</dt>
              <dd className="mt-1 break-words">{meta?.description.current || <span className="text-muted-foreground">No meta description found</span>}</dd>
            </div>
          </dl>
        </CardContent>
      </Card>
    </div>
  );
}
