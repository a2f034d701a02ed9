import { useEffect, useRef, useState, type FormEvent } from "react";
import { Link, Navigate, useNavigate, useParams, useSearchParams } from "react-router";
import { ArrowRight, Check, CheckCircle2, Download, Link2, Plus, SearchX, Wand2 } from "lucide-react";
import { packageCheckoutPath, reportTypes, sampleReportNotice, showWordpressTip, checkAddress, isProfessional, limits, timings, type AnalysisReport } from "../../lib/domain";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { Input } from "../../components/ui/input";
import { FieldError } from "../../components/ui/label";
import { Spinner } from "../../components/ui/spinner";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../components/ui/tabs";
import { PageMeta } from "../../components/seo/page-meta";
import { copyText } from "../../lib/clipboard";
import { toast } from "../../lib/toast";
import { useSession } from "../../lib/session";
import { ReportBrandContext, useBrandStore } from "../../lib/brand";
import { config } from "../../lib/config";
import { requestAnalysis, AnalyzeError } from "../../api/analyze";
import { isNotFound, useResult, useResultPublicUrl } from "./api/get-result";
import { ScoreBadge, ScoreRing } from "./score-visuals";
import { SectionGroups } from "./section-groups";
import { PerformanceTab } from "./performance-tab";
import { MetaInsights } from "./meta-insights";
import { PremiumSuite } from "./premium-suite";
import { ActionPlan } from "./action-plan";
import { UpgradeBox } from "./upgrade-box";
import { ReportChooser } from "./report-chooser";
import { ProfessionalSections } from "./professional-sections";
import { ShareWidget } from "./share-widget";
import { DownloadDialog } from "./download-dialog";
import { ScreenshotViewer } from "./screenshot-viewer";
import { ScreenshotImage } from "./screenshot-image";
import { ServerReport, useKeepServerReport, useServerReport } from "./server-report";

const tabs = ["seo", "design", "technical", "performance", "action-plan"] as const;
type Tab = (typeof tabs)[number];

function NotFoundPanel() {
  const navigate = useNavigate();
  const [value, setValue] = useState("");
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const check = checkAddress(value);
    setError(check.error);
    if (!check.url) return;
    setPending(true);
    try {
      const outcome = await requestAnalysis(check.url);
      if (outcome.kind === "result") navigate(`/results?id=${encodeURIComponent(outcome.id)}`);
      else navigate(`/analyzing?url=${encodeURIComponent(check.url)}`, { state: { analysisId: outcome.analysisId } });
    } catch (err) {
      toast({ title: "Analysis Failed", description: err instanceof AnalyzeError ? err.message : "Failed to analyze website. Please try again.", variant: "destructive" });
      setPending(false);
    }
  };
  return (
    <div className="mx-auto max-w-xl px-4 py-16 text-center">
      <SearchX className="mx-auto size-12 text-muted-foreground" aria-hidden="true" />
      <h1 className="mt-4 text-3xl font-bold tracking-tight">Analysis Not Found</h1>
      <p className="mt-3 text-muted-foreground">Sorry, we couldn't find the analysis you're looking for. Try analyzing a new website.</p>
      <form onSubmit={onSubmit} noValidate className="mt-8 flex flex-col gap-2 text-left">
        <label htmlFor="new-analysis-url" className="text-sm font-medium">Website address</label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Input id="new-analysis-url" value={value} onChange={(e) => setValue(e.target.value)} placeholder="example.com" disabled={pending} aria-invalid={error ? true : undefined} aria-describedby={error ? "new-analysis-error" : undefined} />
          <Button type="submit" disabled={pending}>{pending ? <><Spinner /> Analyzing...</> : "Analyze"}</Button>
        </div>
        <FieldError id="new-analysis-error">{error}</FieldError>
      </form>
    </div>
  );
}

function CopyLinkButton({ link }: { link: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const id = setTimeout(() => setCopied(false), timings().linkCopiedMs);
    return () => clearTimeout(id);
  }, [copied]);
  const copy = async () => {
    if (await copyText(link)) {
      setCopied(true);
      toast({ title: "Link Copied!", description: "Report link has been copied to your clipboard.", variant: "success" });
    }
  };
  return (
    <Button variant="outline" onClick={copy}>
      {copied ? <Check aria-hidden="true" /> : <Link2 aria-hidden="true" />}
      {copied ? "Link Copied" : "Copy Report Link"}
    </Button>
  );
}

function DesignTab({ report }: { report: AnalysisReport }) {
  const [compact, setCompact] = useState(true);
  const desktop = report.screenshots.desktop;
  return (
    <div className="space-y-6">
      <div className={desktop && compact ? "grid gap-6 lg:grid-cols-2" : "space-y-6"}>
        {desktop && (
          <div>
            <h3 className="mb-2 text-sm font-semibold text-muted-foreground">Desktop preview</h3>
            <ScreenshotImage src={desktop} alt={`Desktop screenshot of ${report.url}`} />
          </div>
        )}
        <div className="space-y-3">
          {desktop && report.designAnalysis.length > 0 && (
            <Button variant="ghost" size="sm" onClick={() => setCompact(!compact)} aria-pressed={!compact}>
              {compact ? "Show all findings" : "Compact view"}
            </Button>
          )}
          <SectionGroups groups={report.designAnalysis} limit={desktop && compact ? limits().compactFindingsPerGroup : undefined} />
        </div>
      </div>
      <div className="grid gap-6 md:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Colour palette</CardTitle>
            <CardDescription>The dominant colours on your page.</CardDescription>
          </CardHeader>
          <CardContent>
            {report.websiteColors.length === 0 ? (
              <p className="text-muted-foreground">No colours could be read from this page.</p>
            ) : (
              <ul className="flex flex-wrap gap-3">
                {report.websiteColors.map((c) => (
                  <li key={c} className="flex flex-col items-center gap-1">
                    <span className="size-12 rounded-xl border border-border shadow-inner" style={{ backgroundColor: c }} aria-hidden="true" />
                    <span className="font-mono text-xs">{c}</span>
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Typography</CardTitle>
            <CardDescription>The font families your page uses.</CardDescription>
          </CardHeader>
          <CardContent>
            {report.websiteFonts.length === 0 ? (
              <p className="text-muted-foreground">No fonts could be read from this page.</p>
            ) : (
              <ul className="space-y-2">
                {report.websiteFonts.map((f) => (
                  <li key={f} className="rounded-lg bg-muted px-3 py-2">
                    <span className="text-lg" style={{ fontFamily: f }}>Aa</span> <span className="ml-2 text-sm">{f}</span>
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
      </div>
    </div>
  );
}

function WordpressTip() {
  return (
    <Alert variant="info">
      <Wand2 aria-hidden="true" />
      <div>
        <p className="font-semibold">Your WordPress site could be faster</p>
        <p className="mt-1">
          Performance is below 70 and your site runs on WordPress. A lightweight, well-coded theme with built-in caching is often the quickest win: fewer scripts, smaller pages and better Core Web Vitals.
        </p>
        {config.wordpressThemeUrl && (
          <a href={config.wordpressThemeUrl} target="_blank" rel="sponsored noopener" className="mt-2 inline-block font-semibold underline underline-offset-4">
            See the theme we recommend
          </a>
        )}
      </div>
    </Alert>
  );
}

/**
 * The report. What it shows comes from the server: a paid report arrives whole, an unpaid one
 * without its Pro-only content (docs/PRODUCT.md §6.3, §6.4), which shows as a blurred teaser
 * with an upgrade prompt. The address's `paid` and `type` only choose presentation (the
 * purchase toast); they unlock nothing.
 */
export function Report({ report, sample = false, publicUrl }: { report: AnalysisReport; sample?: boolean; publicUrl?: string }) {
  const paid = report.paid;
  const [params, setParams] = useSearchParams();
  const session = useSession();
  // A signed-in user with credits (or a plan that covers reports) chooses a paid report here;
  // everyone else goes to checkout.
  const balance = session.account ? session.account.paidCredits + session.account.trialCredits : 0;
  const canBuyWithCredits =
    session.signedIn && (session.account?.unlimitedReports === true || balance >= Math.min(...reportTypes().map((t) => t.credits)));
  const tabParam = params.get("tab");
  const tab: Tab = (tabs as readonly string[]).includes(tabParam ?? "") ? (tabParam as Tab) : "seo";
  const setTab = (t: string) => {
    const next = new URLSearchParams(params);
    if (t === "seo") next.delete("tab");
    else next.set("tab", t);
    setParams(next, { replace: true, preventScrollReset: true });
  };
  // Custom domains (issue 15 item 3): a branded report is shared on its agency's domain.
  const reportUrl = sample ? `${window.location.origin}/demo` : (publicUrl ?? `${window.location.origin}/results/${encodeURIComponent(report.id)}`);
  const s = report.scores;
  const host = (() => {
    try {
      return new URL(report.url).host;
    } catch {
      return report.url;
    }
  })();
  const premium = report.performanceAnalysis.premiumOptimizations;
  // A branded report (docs/PRODUCT.md §1.5) wears its agency's name and leads nowhere of ours:
  // no new analysis, no upgrade, no recommendation or booking of Sitelens'.
  const brand = report.branding ?? null;
  const wpTip = !brand && showWordpressTip(s.performance, report.technicalAnalysis);

  return (
    <ReportBrandContext.Provider value={brand}>
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 sm:py-12">
      {sample ? (
        <p role="note" className="mb-6 rounded-xl border border-indigo-200 bg-indigo-50 px-4 py-3 text-sm text-indigo-950 dark:border-blue-900 dark:bg-blue-950/40 dark:text-blue-100">
          <strong>Sample report.</strong> {sampleReportNotice()}
        </p>
      ) : (
        <PageMeta
          title={`Website Analysis Results for ${host}: SEO ${s.seo}/100, Performance ${s.performance}/100`}
          description={`${brand ? `${brand.companyName} report` : "Sitelens report"} for ${report.url}: overall ${s.overall}/100, SEO ${s.seo}/100, design ${s.design}/100, technical ${s.technical}/100, performance ${s.performance}/100.`}
          path={`/results/${report.id}`}
          canonical={publicUrl}
          noindex
        />
      )}
      <header className="flex flex-col gap-6 lg:flex-row lg:items-center lg:justify-between">
        <div className="min-w-0">
          <p className="inline-flex items-center gap-1.5 rounded-full bg-emerald-100 px-3 py-1 text-sm font-semibold text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200">
            <CheckCircle2 className="size-4" aria-hidden="true" /> Analysis Complete
          </p>
          <h1 className="mt-3 text-3xl font-bold tracking-tight sm:text-4xl">Website Analysis Results</h1>
          <p className="mt-2 break-all text-lg text-muted-foreground">
            <a href={report.url} target="_blank" rel="noopener noreferrer nofollow" className="text-link underline underline-offset-4">{report.url}</a>
          </p>
          <p className="mt-1 text-sm text-muted-foreground">
            {isProfessional(report.reportType) ? "Professional report" : paid ? "Basic report" : "Free basic report"} · {report.pagesAnalyzed} {report.pagesAnalyzed === 1 ? "page" : "pages"} analysed · {new Date(report.createdAt).toLocaleString()}
          </p>
        </div>
        <ScoreRing score={s.overall} label="Overall score" size={120} />
      </header>

      <div className="mt-6 flex flex-wrap gap-2">
        {sample ? null : paid ? (
          <Button onClick={() => {
            // Not "noopener": that makes window.open return null, and null is how a blocked tab shows.
            const w = window.open(`/api/download-report/${encodeURIComponent(report.id)}`, "_blank");
            if (w) w.opener = null;
            else toast({ title: "Download Error", description: "There was a problem downloading your report. Please try again.", variant: "destructive" });
          }}>
            <Download aria-hidden="true" /> Download PDF Report
          </Button>
        ) : (
          <DownloadDialog reportId={report.id} brandName={brand?.companyName} />
        )}
        <CopyLinkButton link={reportUrl} />
        {!brand && (
          <Button asChild variant="outline">
            <Link to="/"><Plus aria-hidden="true" /> New Analysis</Link>
          </Button>
        )}
        {/* A signed-in account with credits chooses a deeper report here, its own tool even on
            a branded report; the offer to buy one is ours, so a branded report's readers never
            see it. */}
        {!paid &&
          (canBuyWithCredits ? (
            <ReportChooser url={report.url} balance={balance}>
              <Button variant="secondary">Advanced Analysis <ArrowRight aria-hidden="true" /></Button>
            </ReportChooser>
          ) : (
            !brand && (
              <Button asChild variant="secondary">
                <Link to={packageCheckoutPath("credit-1")}>Advanced Analysis <ArrowRight aria-hidden="true" /></Link>
              </Button>
            )
          ))}
      </div>

      <dl className="mt-8 grid grid-cols-2 gap-3 sm:grid-cols-4">
        {([["SEO", s.seo], ["Design", s.design], ["Technical", s.technical], ["Performance", s.performance]] as const).map(([label, v]) => (
          <div key={label} className="rounded-xl border border-border bg-card p-4">
            <dt className="text-sm text-muted-foreground">{label}</dt>
            <dd className="mt-1"><ScoreBadge score={v} className="text-base" /></dd>
          </div>
        ))}
      </dl>

      <div className="mt-8 grid gap-8 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0 space-y-8">
          <Tabs value={tab} onValueChange={setTab}>
            <TabsList aria-label="Report sections" className="w-full justify-start sm:w-auto">
              <TabsTrigger value="seo">SEO</TabsTrigger>
              <TabsTrigger value="design">Design</TabsTrigger>
              <TabsTrigger value="technical">Technical</TabsTrigger>
              <TabsTrigger value="performance">Performance</TabsTrigger>
              <TabsTrigger value="action-plan">Action Plan</TabsTrigger>
            </TabsList>
            <TabsContent value="seo" className="space-y-6">
              <div className="flex items-center gap-3">
                <h2 className="text-xl font-semibold">SEO Analysis</h2>
                <ScoreBadge score={s.seo} />
              </div>
              <SectionGroups groups={report.seoAnalysis} />
              <MetaInsights report={report} paid={paid} />
            </TabsContent>
            <TabsContent value="design" className="space-y-6">
              <div className="flex items-center gap-3">
                <h2 className="text-xl font-semibold">Design &amp; UX</h2>
                <ScoreBadge score={s.design} />
              </div>
              <DesignTab report={report} />
            </TabsContent>
            <TabsContent value="technical" className="space-y-6">
              <div className="flex items-center gap-3">
                <h2 className="text-xl font-semibold">Technical Structure</h2>
                <ScoreBadge score={s.technical} />
              </div>
              {wpTip && <WordpressTip />}
              <SectionGroups groups={report.technicalAnalysis} highlight="Technology Stack" />
            </TabsContent>
            <TabsContent value="performance" className="space-y-6">
              <div className="flex items-center gap-3">
                <h2 className="text-xl font-semibold">Performance</h2>
                <ScoreBadge score={s.performance} />
              </div>
              <PerformanceTab report={report} paid={paid} />
            </TabsContent>
            <TabsContent value="action-plan" className="space-y-6">
              <h2 className="text-xl font-semibold">Action Plan</h2>
              <ActionPlan items={report.actionItems} />
              {config.bookingUrl && !brand && (
                <Card>
                  <CardHeader>
                    <CardTitle>Want help with this plan?</CardTitle>
                    <CardDescription>Book a free 30-minute call and we will walk through the fixes with you.</CardDescription>
                  </CardHeader>
                  <CardContent>
                    <Button asChild variant="outline">
                      <a href={config.bookingUrl} target="_blank" rel="noopener">Book a call</a>
                    </Button>
                  </CardContent>
                </Card>
              )}
            </TabsContent>
          </Tabs>
          {paid && report.professional && <ProfessionalSections data={report.professional} />}
          {paid && premium && <PremiumSuite data={premium} />}
          <ScreenshotViewer screenshots={report.screenshots} url={report.url} plan={session.plan} />
        </div>
        <aside className="space-y-6 lg:sticky lg:top-24 lg:self-start" aria-label="Share and upgrade">
          <ShareWidget reportUrl={reportUrl} websiteUrl={report.url} overallScore={s.overall} reportId={report.id} brandName={brand?.companyName} />
          {!paid && !brand && <UpgradeBox url={report.url} balance={canBuyWithCredits ? balance : null} />}
        </aside>
      </div>
    </div>
    </ReportBrandContext.Provider>
  );
}

/** /results?id= (and the share form /results/{id}): the report screen. */
export function ResultsPage() {
  const params = useParams();
  const [search] = useSearchParams();
  const id = params.id ?? search.get("id") ?? "";
  // docs/PRODUCT.md §4.9: paid=true with loaded data brings the 'Purchase Complete!' toast, the
  // arrival after a purchase. It is presentation only, and only for a report the server says
  // was paid for: an edited address gets neither the toast nor anything else.
  const paidParam = search.get("paid") === "true";
  const q = useResult(id);
  const publicUrl = useResultPublicUrl(id);
  const serverReport = useServerReport();
  const keepServerReport = useKeepServerReport(serverReport, !q.isPending);
  const announced = useRef(false);
  const setBrand = useBrandStore((st) => st.setBrand);

  // The page wears the report's brand (the layout's frame) while it shows a branded report.
  const branding = q.data?.branding;
  useEffect(() => {
    if (q.data) setBrand(branding ?? null);
  }, [q.data, branding, setBrand]);
  useEffect(() => () => setBrand(null), [setBrand]);

  useEffect(() => {
    if (paidParam && q.data?.paid && !announced.current) {
      announced.current = true;
      toast({ title: "Purchase Complete!", description: "Your professional report is ready.", variant: "success" });
    }
  }, [paidParam, q.data]);

  if (!id) return <Navigate to="/" replace />;
  if (serverReport !== null && keepServerReport) return <ServerReport html={serverReport} />;
  if (q.isPending) {
    return (
      <div role="status" className="flex min-h-[50vh] flex-col items-center justify-center gap-4 px-4">
        <PageMeta title="Loading analysis results" description="Loading your website analysis." noindex />
        <Spinner className="size-10 text-primary" />
        <p className="text-lg font-medium">Loading Analysis Results...</p>
      </div>
    );
  }
  if (q.isError && isNotFound(q.error)) {
    return (
      <>
        <PageMeta title="Analysis not found" description="This analysis does not exist." noindex />
        <NotFoundPanel />
      </>
    );
  }
  if (q.isError) {
    return (
      <div className="mx-auto max-w-xl px-4 py-16 text-center">
        <PageMeta title="Analysis results" description="Your website analysis." noindex />
        <h1 className="text-2xl font-bold">We could not load this report</h1>
        <p className="mt-3 text-muted-foreground">{q.error.message}</p>
        <Button className="mt-6" onClick={() => q.refetch()}>Try Again</Button>
      </div>
    );
  }
  return <Report report={q.data} publicUrl={publicUrl} />;
}
