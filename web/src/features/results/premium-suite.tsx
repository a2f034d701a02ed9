import { useState } from "react";
import { Check, Sparkles } from "lucide-react";
import type { PremiumOptimizations } from "../../lib/domain";
import { timings } from "../../lib/domain";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../components/ui/tabs";
import { Spinner } from "../../components/ui/spinner";
import { toast } from "../../lib/toast";

type Item = { title: string; description: string; note: string };

function OptimizationList({ title, items }: { title: string; items: Item[] }) {
  if (items.length === 0) return null;
  return (
    <section>
      <h3 className="font-semibold">{title}</h3>
      <ul className="mt-2 grid gap-2">
        {items.map((i) => (
          <li key={i.title} className="rounded-xl border border-border p-3">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="font-medium">{i.title}</p>
              <Badge variant="outline">{i.note}</Badge>
            </div>
            <p className="mt-1 text-sm text-muted-foreground">{i.description}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The Premium Optimization Suite (paid reports with premium data). */
export function PremiumSuite({ data }: { data: PremiumOptimizations }) {
  const [proposal, setProposal] = useState<"idle" | "submitting" | "sent">("idle");
  const auto = data.autoOptimizations;
  const p = data.newWebsiteProposal;
  const empty = auto.images.length + auto.content.length + auto.technical.length === 0;

  const requestProposal = async () => {
    setProposal("submitting");
    try {
      // docs/PRODUCT.md §7.11: the proposal request only waits locally; no call is made.
      await new Promise((r) => setTimeout(r, timings().proposalWaitMs));
      setProposal("sent");
      toast({ title: "Proposal Request Sent!", description: "We will be in touch about your new website.", variant: "success" });
    } catch {
      setProposal("idle");
      toast({ title: "Error", description: "Failed to submit proposal request. Please try again.", variant: "destructive" });
    }
  };

  return (
    <Card className="border-violet-300 dark:border-violet-800">
      <CardHeader>
        <div className="flex flex-wrap items-center gap-2">
          <Sparkles className="size-5 text-violet-600 dark:text-violet-400" aria-hidden="true" />
          <CardTitle as="h2">Premium Optimization Suite</CardTitle>
        </div>
        <CardDescription>Ready-made improvements for your site and a proposal for a rebuild.</CardDescription>
      </CardHeader>
      <CardContent>
        <Tabs defaultValue="auto">
          <TabsList aria-label="Premium Optimization Suite">
            <TabsTrigger value="auto">Automatic Optimizations</TabsTrigger>
            <TabsTrigger value="proposal">New Website Proposal</TabsTrigger>
          </TabsList>
          <TabsContent value="auto" className="space-y-4">
            {empty ? (
              <p className="text-muted-foreground">No optimizations available</p>
            ) : (
              <>
                <OptimizationList title="Images" items={auto.images.map((i) => ({ ...i, note: `Saves ${i.savings}` }))} />
                <OptimizationList title="Content" items={auto.content.map((i) => ({ ...i, note: `${i.impact} impact` }))} />
                <OptimizationList title="Technical" items={auto.technical.map((i) => ({ ...i, note: `${i.impact} impact` }))} />
              </>
            )}
          </TabsContent>
          <TabsContent value="proposal">
            {!p.summary ? (
              <p className="text-muted-foreground">Website proposal not available</p>
            ) : (
              <div className="space-y-4">
                <p>{p.summary}</p>
                <div className="grid gap-4 sm:grid-cols-3">
                  {[
                    ["Features", p.features],
                    ["Benefits", p.benefits],
                    ["Included pages", p.includedPages],
                  ].map(([label, list]) => (
                    <div key={label as string}>
                      <h3 className="font-semibold">{label as string}</h3>
                      <ul className="mt-2 space-y-1 text-sm">
                        {(list as string[]).map((x) => (
                          <li key={x} className="flex gap-1.5"><Check className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden="true" />{x}</li>
                        ))}
                      </ul>
                    </div>
                  ))}
                </div>
                <p className="text-lg font-semibold">${p.price.toLocaleString("en-US")} · {p.timeline}</p>
                <Button onClick={requestProposal} disabled={proposal !== "idle"}>
                  {proposal === "submitting" ? <><Spinner /> Sending...</> : proposal === "sent" ? "Request sent" : "Request Proposal"}
                </Button>
              </div>
            )}
          </TabsContent>
        </Tabs>
      </CardContent>
    </Card>
  );
}
