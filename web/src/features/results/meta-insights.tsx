import { useId, useState, type ReactNode } from "react";
import { Lock, Sparkles } from "lucide-react";
import type { AnalysisReport, MetaSuggestion } from "../../lib/domain";
import { Badge } from "../../components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../components/ui/tabs";
import { Label } from "../../components/ui/label";
import { Input, Textarea } from "../../components/ui/input";
import { useBrand } from "../../lib/brand";

/** Blurred content with the 'Pro Feature' badge and 'Upgrade to Pro to view' for free reports. */
function ProLock({ children }: { children: ReactNode }) {
  const brand = useBrand();
  return (
    <div className="relative overflow-hidden rounded-xl border border-border">
      <div aria-hidden="true" className="pointer-events-none select-none p-4 blur-sm" inert>
        {children}
      </div>
      <div className="absolute inset-0 flex flex-col items-center justify-center gap-2 bg-card/60 p-4 text-center">
        <Badge variant="pro">
          <Sparkles className="size-3" aria-hidden="true" /> Pro Feature
        </Badge>
        <p className="flex items-center gap-1.5 text-sm font-semibold">
          <Lock className="size-4" aria-hidden="true" /> {brand ? "Part of the professional report" : "Upgrade to Pro to view"}
        </p>
      </div>
    </div>
  );
}

function UpgradePrompt({ what }: { what: string }) {
  const brand = useBrand();
  return (
    <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed border-border p-6 text-center">
      <Badge variant="pro">Pro Feature</Badge>
      <p className="font-semibold">{brand ? `The professional report includes ${what}` : `Upgrade to Pro to view ${what}`}</p>
      <p className="max-w-md text-sm text-muted-foreground">The professional report includes AI suggestions you can paste straight into your site.</p>
    </div>
  );
}

/**
 * Where an unpaid report's AI text would be: grey lines, blurred. The server sends no AI text for
 * an unpaid report (docs/PRODUCT.md §6.4), so there is nothing real to blur and nothing is made up.
 */
function Teaser({ label }: { label: string }) {
  return (
    <div className="space-y-3" aria-label={label}>
      {[92, 78, 85].map((w) => (
        <div key={w} className="h-3 rounded bg-muted-foreground/30" style={{ width: `${w}%` }} />
      ))}
    </div>
  );
}

function SuggestionPanel({ s, kind, paid, empty }: { s?: MetaSuggestion; kind: "title" | "description"; paid: boolean; empty: string }) {
  const id = useId();
  const [draft, setDraft] = useState(s?.suggested ?? "");
  if (!s || (paid && !s.analysis && !s.suggested)) return <p className="text-muted-foreground">{empty}</p>;
  const current = (
    <div>
      <p className="text-sm font-medium text-muted-foreground">Current {kind}</p>
      <p className="mt-1 break-words">{s.current || <span className="text-muted-foreground">Missing</span>}</p>
      <p className="mt-1 text-xs text-muted-foreground">{s.current.length} characters</p>
    </div>
  );
  if (!paid) {
    return (
      <div className="space-y-4">
        {current}
        <ProLock><Teaser label={`AI analysis and suggested ${kind}`} /></ProLock>
      </div>
    );
  }
  return (
    <div className="space-y-4">
      {current}
      <div>
        <p className="text-sm font-medium text-muted-foreground">AI analysis</p>
        <p className="mt-1">{s.analysis}</p>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-s`}>Suggested {kind} (edit before you copy it)</Label>
        {kind === "title" ? (
          <Input id={`${id}-s`} value={draft} onChange={(e) => setDraft(e.target.value)} />
        ) : (
          <Textarea id={`${id}-s`} value={draft} onChange={(e) => setDraft(e.target.value)} />
        )}
        <p className="text-xs text-muted-foreground">{draft.length} characters</p>
      </div>
    </div>
  );
}

/** Meta tag insights: Title, Description, OG Tags, Content; blurred for free reports. */
export function MetaInsights({ report, paid }: { report: AnalysisReport; paid: boolean }) {
  const meta = report.performanceAnalysis.metaTagSuggestions;
  const content = report.performanceAnalysis.contentOptimizations;
  const og = meta?.ogTags;
  const ogEntries = og ? Object.entries(og.suggestions) : [];
  return (
    <Card>
      <CardHeader>
        <div className="flex flex-wrap items-center gap-2">
          <CardTitle as="h2">Meta tag insights</CardTitle>
          {!paid && <Badge variant="pro">Pro Feature</Badge>}
        </div>
        <CardDescription>How your title, description, social tags and content read to search engines, with suggested improvements.</CardDescription>
      </CardHeader>
      <CardContent>
        <Tabs defaultValue="title">
          <TabsList aria-label="Meta tag insights">
            <TabsTrigger value="title">Title</TabsTrigger>
            <TabsTrigger value="description">Description</TabsTrigger>
            <TabsTrigger value="og">OG Tags</TabsTrigger>
            <TabsTrigger value="content">Content</TabsTrigger>
          </TabsList>
          <TabsContent value="title">
            <SuggestionPanel s={meta?.title} kind="title" paid={paid} empty="No title suggestions available" />
          </TabsContent>
          <TabsContent value="description">
            <SuggestionPanel s={meta?.description} kind="description" paid={paid} empty="No description suggestions available" />
          </TabsContent>
          <TabsContent value="og">
            {!paid ? (
              <UpgradePrompt what="Open Graph tag suggestions" />
            ) : !og || (!og.analysis && ogEntries.length === 0) ? (
              <p className="text-muted-foreground">No Open Graph tag suggestions available</p>
            ) : (
              <div className="space-y-3">
                <p>{og.analysis}</p>
                <dl className="grid gap-2">
                  {ogEntries.map(([k, v]) => (
                    <div key={k} className="rounded-lg bg-muted px-3 py-2">
                      <dt className="font-mono text-xs text-muted-foreground">{k}</dt>
                      <dd className="break-words">{v}</dd>
                    </div>
                  ))}
                </dl>
              </div>
            )}
          </TabsContent>
          <TabsContent value="content">
            {!paid ? (
              <UpgradePrompt what="content optimization suggestions" />
            ) : !content || (content.content.suggestions.length === 0 && Object.keys(content.headings.suggestions).length === 0) ? (
              <p className="text-muted-foreground">No content optimization suggestions available</p>
            ) : (
              <div className="space-y-4">
                <div>
                  <h3 className="font-semibold">Content</h3>
                  <p className="mt-1 text-muted-foreground">{content.content.analysis}</p>
                  <ul className="mt-2 list-disc space-y-1 pl-5">
                    {content.content.suggestions.map((s) => <li key={s}>{s}</li>)}
                  </ul>
                </div>
                <div>
                  <h3 className="font-semibold">Headings</h3>
                  <p className="mt-1 text-muted-foreground">{content.headings.analysis}</p>
                  <dl className="mt-2 grid gap-2">
                    {Object.entries(content.headings.suggestions).map(([from, to]) => (
                      <div key={from} className="rounded-lg bg-muted px-3 py-2 text-sm">
                        <dt className="text-muted-foreground line-through">{from}</dt>
                        <dd className="font-medium">{to}</dd>
                      </div>
                    ))}
                  </dl>
                </div>
              </div>
            )}
          </TabsContent>
        </Tabs>
      </CardContent>
    </Card>
  );
}
