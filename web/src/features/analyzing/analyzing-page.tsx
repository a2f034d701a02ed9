import { useEffect, useMemo, useRef, useState } from "react";
import { useLocation, useNavigate, useSearchParams } from "react-router";
import { AlertCircle, CheckCircle2, Circle, Lightbulb, LoaderCircle, RefreshCw, WifiOff } from "lucide-react";
import { Button } from "../../components/ui/button";
import { Card, CardContent } from "../../components/ui/card";
import { Progress } from "../../components/ui/progress";
import { Spinner } from "../../components/ui/spinner";
import { PageMeta } from "../../components/seo/page-meta";
import { useQueryClient } from "@tanstack/react-query";
import { requestAnalysis } from "../../api/analyze";
import { reconnectDelayMs, reportTypes, stepForProgress, steps, timings, type ReportType } from "../../lib/domain";
import { toast } from "../../lib/toast";
import { cn } from "../../lib/cn";
import { AnalysisRun, type RunState } from "./analysis-run";
import { facts } from "./facts";

/** A paid run's report type from the address (`type=standard`), when it names one. */
function paidType(raw: string | null): ReportType | undefined {
  return reportTypes().find((t) => t.reportType === raw)?.reportType;
}

/**
 * Starts (or follows) the analysis of `url`. A paid run (`type` in the address, docs/PRODUCT.md
 * §2.6: the upgrade after checkout) asks for that report type; once queued, its id is written
 * into the address (`analysis=`), so a reload follows the same analysis instead of paying again.
 * On completion a paid run opens `/results?id=…&paid=true&type=…` (the 'Purchase Complete!' toast
 * is the results page's); the server alone decides what the report shows.
 */
function useAnalysisRun(url: string | null, analysisId: string | undefined, type: ReportType | undefined) {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [state, setState] = useState<RunState | null>(null);
  const runRef = useRef<AnalysisRun | null>(null);
  useEffect(() => {
    if (!url) return;
    const r = new AnalysisRun(
      url,
      {
        start: async (u) => {
          const outcome = await requestAnalysis(u, undefined, type);
          // A paid run has spent credits: the header's balance is read again.
          if (type) void qc.invalidateQueries({ queryKey: ["account"] });
          if (type && outcome.kind === "queued") {
            const next = new URL(window.location.href);
            next.searchParams.set("analysis", outcome.analysisId);
            window.history.replaceState(window.history.state, "", next);
          }
          return outcome;
        },
        openStream: (path) => new EventSource(path, { withCredentials: true }),
        timings: timings(),
        reconnectDelayMs,
        stepForProgress,
        onChange: setState,
        onComplete: (id) =>
          navigate(`/results?id=${encodeURIComponent(id)}&url=${encodeURIComponent(url)}${type ? `&paid=true&type=${type}` : ""}`),
      },
      analysisId,
    );
    runRef.current = r;
    r.begin();
    return () => r.dispose();
  }, [url, analysisId, type, navigate, qc]);
  return { state, retry: () => runRef.current?.retry() };
}

function useRotatingFact() {
  const [i, setI] = useState(0);
  useEffect(() => {
    const id = setInterval(() => setI((n) => (n + 1) % facts.length), timings().factsRotateMs);
    return () => clearInterval(id);
  }, []);
  return facts[i];
}

const allSteps = steps();

function StepTiles({ progress }: { progress: number }) {
  const current = stepForProgress(progress)?.name;
  return (
    <ol className="grid grid-cols-2 gap-3 sm:grid-cols-3">
      {allSteps.map((s, i) => {
        const next = allSteps[i + 1];
        const done = next ? progress >= next.threshold : progress >= 100;
        const active = !done && s.name === current;
        return (
          <li
            key={s.name}
            className={cn(
              "flex items-center gap-2 rounded-xl border p-3 text-sm font-medium",
              done && "border-emerald-200 bg-emerald-50 text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950/40 dark:text-emerald-100",
              active && "border-indigo-300 bg-indigo-50 text-indigo-900 dark:border-blue-800 dark:bg-blue-950/40 dark:text-blue-100",
              !done && !active && "border-border text-muted-foreground",
            )}
          >
            {done ? (
              <CheckCircle2 className="size-5 shrink-0" aria-hidden="true" />
            ) : active ? (
              <LoaderCircle className="size-5 shrink-0 animate-spin" aria-hidden="true" />
            ) : (
              <Circle className="size-5 shrink-0" aria-hidden="true" />
            )}
            <span>{s.name}</span>
            <span className="sr-only">{done ? "(done)" : active ? "(in progress)" : "(waiting)"}</span>
          </li>
        );
      })}
    </ol>
  );
}

function ProgressScreen({ state, url }: { state: RunState; url: string }) {
  const fact = useRotatingFact();
  const pct = Math.round(state.progress);
  return (
    <div className="space-y-6">
      <div className="text-center">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Analyzing Your Website</h1>
        <p className="mt-2 break-all text-muted-foreground">{url}</p>
      </div>
      <Card>
        <CardContent className="space-y-5 pt-5 sm:pt-6">
          <div className="flex items-center justify-between gap-4">
            <p className="font-medium" aria-live="polite">
              {state.message || "Working..."}
            </p>
            <span className="text-2xl font-bold tabular-nums text-link">{pct}%</span>
          </div>
          <Progress value={pct} aria-label="Analysis progress" />
          {state.step && (
            <p className="text-sm text-muted-foreground">
              Current step: <span className="font-semibold text-foreground">{state.step}</span>
              {state.updatedAt !== null && <> · updated {new Date(state.updatedAt).toLocaleTimeString()}</>}
            </p>
          )}
          {state.simulated && (
            <p className="text-sm text-muted-foreground">Live updates are unavailable, so this progress is an estimate. Your analysis is still running.</p>
          )}
          {state.connection && (
            <p role="status" className="flex items-center gap-2 text-sm font-medium text-amber-800 dark:text-amber-300">
              <WifiOff className="size-4" aria-hidden="true" /> {state.connection}
            </p>
          )}
          <StepTiles progress={state.progress} />
        </CardContent>
      </Card>
      <Card className="bg-muted/50">
        <CardContent className="flex gap-3 pt-5 sm:pt-6">
          <Lightbulb className="size-5 shrink-0 text-amber-500" aria-hidden="true" />
          <div>
            <h2 className="font-semibold">Did you know?</h2>
            <p className="mt-1 text-muted-foreground">{fact}</p>
          </div>
        </CardContent>
      </Card>
    </div>
  );
}

/** /analyzing?url= (optionally &type= for a paid report, &analysis= to follow one already queued): starts the analysis and follows it to the results. */
export function AnalyzingPage() {
  const [params] = useSearchParams();
  const url = params.get("url");
  const location = useLocation();
  const navigate = useNavigate();
  const analysisParam = params.get("analysis");
  const analysisId = useMemo(
    () => (location.state as { analysisId?: string } | null)?.analysisId ?? analysisParam ?? undefined,
    [location.state, analysisParam],
  );
  // The type comes from the address (a reload) or from the payment page that started the run.
  const type = paidType(params.get("type") ?? (location.state as { type?: string } | null)?.type ?? null);
  const { state, retry } = useAnalysisRun(url, analysisId, type);

  useEffect(() => {
    if (url) return;
    const id = setTimeout(() => navigate("/", { replace: true }), timings().missingUrlRedirectMs);
    return () => clearTimeout(id);
  }, [url, navigate]);

  useEffect(() => {
    if (state?.phase !== "failed") return;
    if (state.missingResult) {
      toast({ title: "Analysis Complete", description: "Analysis completed but no results ID found. Please try again.", variant: "destructive" });
    } else {
      toast({ title: "Analysis Failed", description: "Could not complete the analysis. Please try again later.", variant: "destructive" });
    }
  }, [state?.phase, state?.missingResult]);

  const t = timings();
  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <PageMeta title="Analyzing your website" description="Your website analysis is running." noindex />
      {!url ? (
        <p role="status" className="text-center text-muted-foreground">
          No website address was given. Taking you to the home page…
        </p>
      ) : !state || state.phase === "starting" ? (
        <div role="status" className="flex flex-col items-center gap-4 py-16 text-center">
          <Spinner className="size-10 text-primary" />
          <h1 className="text-3xl font-bold tracking-tight">Starting Analysis</h1>
          <p className="break-all text-muted-foreground">{url}</p>
        </div>
      ) : state.phase === "retrying" || state.phase === "failed" ? (
        <Card className="border-red-200 dark:border-red-900">
          <CardContent className="flex flex-col items-center gap-4 py-10 text-center sm:py-10">
            <div className="grid size-14 place-content-center rounded-full bg-red-100 text-red-700 dark:bg-red-950 dark:text-red-300">
              <AlertCircle className="size-7" aria-hidden="true" />
            </div>
            <h1 className="text-2xl font-bold">Analysis Error</h1>
            <p className="max-w-md text-muted-foreground">{state.error}</p>
            {state.phase === "retrying" ? (
              <p role="status" className="flex items-center gap-2 font-medium">
                <Spinner /> Retrying... Attempt {state.attempt} of {t.analysisRetries}
              </p>
            ) : (
              <Button onClick={retry}>
                <RefreshCw aria-hidden="true" /> Try Again
              </Button>
            )}
          </CardContent>
        </Card>
      ) : (
        <ProgressScreen state={state} url={url} />
      )}
    </div>
  );
}
