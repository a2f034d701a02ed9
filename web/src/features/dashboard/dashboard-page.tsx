import { Link, useNavigate } from "react-router";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { PageMeta } from "../../components/seo/page-meta";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { Spinner } from "../../components/ui/spinner";
import type { DashboardData } from "../../lib/domain";
import { accountRequest, useRequireSignIn } from "../../lib/session";
import { creditsLabel, formatCredits, reportTypes, trialStartedMessage } from "../../lib/domain";
import { requestAnalysis } from "../../api/analyze";
import { toast } from "../../lib/toast";
import { ScoreTrend } from "./score-trend";
import { TeamSection } from "./team-section";
import { BillingSection } from "./billing-section";
import { ApiKeysSection } from "./api-keys-section";
import { WidgetSection } from "./widget-section";
import { CustomDomainSection } from "../custom-domain/custom-domain-section";
import { SendReportDialog } from "./send-report-dialog";

async function getDashboard(): Promise<DashboardData> {
  const res = await fetch("/api/dashboard", { credentials: "include" });
  if (!res.ok) throw new Error(`${res.status}: ${res.statusText}`);
  return (await res.json()) as DashboardData;
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** /dashboard: credits with the trial's expiry, and each site's analyses with a score trend, each report to open, download or send to a client. */
export function DashboardPage() {
  const { signedIn } = useRequireSignIn("/dashboard");
  const navigate = useNavigate();
  const qc = useQueryClient();
  const q = useQuery({ queryKey: ["dashboard"], queryFn: getDashboard, enabled: signedIn });
  if (!q.data) {
    return (
      <div className="flex min-h-[40vh] items-center justify-center" role="status">
        {q.isError ? <p>Unable to load your dashboard. Please try again.</p> : <Spinner className="size-8" />}
      </div>
    );
  }
  const { account, sites } = q.data;
  const expires = account.trialExpiresAt ? new Date(account.trialExpiresAt) : null;
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-10">
      <PageMeta title="Dashboard" description="Your Sitelens reports and credits." noindex />
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-semibold">Dashboard</h1>
          <p className="text-muted-foreground">
            Signed in as {account.email}
            {account.team ? ` · member of ${account.team.ownerEmail}'s team` : ""}
          </p>
        </div>
        <div className="flex gap-2">
          <Button asChild variant="outline">
            <Link to="/accounts/settings">Account Settings</Link>
          </Button>
          <Button asChild variant="outline">
            <Link to="/white-label">White-label</Link>
          </Button>
          <Button asChild>
            <Link to="/">Analyze a Website</Link>
          </Button>
        </div>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle as="h2">Credits</CardTitle>
            {/* The trial credit expires, so the promise about paid credits is kept for a total of paid credits only. */}
            <CardDescription>
              {(account.team || account.trialCredits === 0) && <>{account.team ? "Shared with your team" : "Paid credits never expire"} · </>}
              credits per report: {reportTypes().map((t) => `${t.name} ${formatCredits(t.credits)}`).join(", ")}
            </CardDescription>
          </CardHeader>
          <CardContent>
            <p className="text-3xl font-semibold" aria-label="Credits">
              {formatCredits(account.paidCredits + account.trialCredits)}
            </p>
            {account.trialCredits > 0 && expires && (
              <p className="text-sm text-muted-foreground">
                Includes {creditsLabel(account.trialCredits)} of the free trial, valid until {dateFormat.format(expires)}
              </p>
            )}
            {!account.hasUsedTrial && (
              <Button
                className="mt-3"
                onClick={() =>
                  void accountRequest("POST", "/api/start-free-trial", {}).then(
                    () => {
                      // docs/PRODUCT.md §7.6: the alert, then home.
                      window.alert(trialStartedMessage());
                      void qc.invalidateQueries();
                      void navigate("/");
                    },
                    (e: unknown) =>
                      toast({ title: "Error", description: e instanceof Error ? e.message : "Error starting free trial. Please try again.", variant: "destructive" }),
                  )
                }
              >
                Start Free Trial
              </Button>
            )}
            {account.hasUsedTrial && account.trialCredits === 0 && expires && <p className="text-sm text-muted-foreground">Your free trial ended on {dateFormat.format(expires)}</p>}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle as="h2">Email</CardTitle>
          </CardHeader>
          <CardContent>
            <p>{account.emailVerified ? "Your email address is confirmed." : "Please confirm your email address with the link we sent you."}</p>
          </CardContent>
        </Card>
      </div>
      <TeamSection account={account} />
      {!account.team && <BillingSection />}
      <ApiKeysSection />
      <WidgetSection />
      {!account.team && <CustomDomainSection />}
      <section aria-labelledby="sites" className="flex flex-col gap-4">
        <h2 id="sites" className="text-xl font-semibold">
          Your analyses
        </h2>
        {sites.length === 0 && <p className="text-muted-foreground">No analyses yet. Analyze a website to see it here.</p>}
        {sites.map((site) => (
          <Card key={site.url}>
            <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-4">
              <div>
                <CardTitle as="h3" className="break-all">
                  {site.url}
                </CardTitle>
                <CardDescription>{site.analyses.length === 1 ? "1 analysis" : `${site.analyses.length} analyses`}</CardDescription>
              </div>
              <ScoreTrend site={site} />
            </CardHeader>
            <CardContent>
              <ul className="divide-y divide-border">
                {[...site.analyses].reverse().map((a) => (
                  <li key={a.resultId} className="flex flex-wrap items-center justify-between gap-2 py-2">
                    <span>
                      {dateFormat.format(new Date(a.timestamp))} · score {a.overallScore}
                      {a.requestedBy !== account.email ? ` · by ${a.requestedBy}` : ""}
                    </span>
                    <span className="flex gap-2">
                      <Button asChild size="sm" variant="outline">
                        <Link to={`/results?id=${encodeURIComponent(a.resultId)}`}>Open Report</Link>
                      </Button>
                      <Button asChild size="sm" variant="outline">
                        <a href={`/api/download-report/${encodeURIComponent(a.resultId)}`}>Download PDF</a>
                      </Button>
                      <SendReportDialog reportId={a.resultId} site={site.url} />
                    </span>
                  </li>
                ))}
              </ul>
              <Button
                size="sm"
                className="mt-3"
                onClick={() =>
                  void requestAnalysis(site.url).then(
                    (outcome) => {
                      const q = `url=${encodeURIComponent(site.url)}`;
                      if (outcome.kind === "result") void navigate(`/results?id=${encodeURIComponent(outcome.id)}&${q}`);
                      else void navigate(`/analyzing?${q}`, { state: { analysisId: outcome.analysisId } });
                    },
                    (e: unknown) => toast({ title: "Analysis Failed", description: e instanceof Error ? e.message : String(e), variant: "destructive" }),
                  )
                }
              >
                Re-run Analysis
              </Button>
            </CardContent>
          </Card>
        ))}
      </section>
    </div>
  );
}
