import { useState, type ReactNode } from "react";
import { Link, useNavigate } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { Check } from "lucide-react";
import { creditsLabel, reportTypes, type ReportType } from "../../lib/domain";
import { Button } from "../../components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from "../../components/ui/dialog";
import { Spinner } from "../../components/ui/spinner";
import { requestAnalysis, AnalyzeError } from "../../api/analyze";
import { toast } from "../../lib/toast";
import { useSession } from "../../lib/session";

/**
 * For a signed-in user with credits: choose Basic, Standard or Premium (names, pages and prices
 * from the domain rules, docs/PRODUCT.md §9.2) and start that report of `url` at once, paid with
 * the account's credits; the server spends them and answers 402 when they fall short. A type
 * the balance does not cover is shown, disabled, with a link to buy credits, unless the
 * account's plan covers every report (the server says so: `unlimitedReports`).
 */
export function ReportChooser({ url, balance, children }: { url: string; balance: number; children: ReactNode }) {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState<ReportType | null>(null);
  const unlimited = useSession().account?.unlimitedReports ?? false;
  const start = async (type: ReportType) => {
    setPending(type);
    try {
      const outcome = await requestAnalysis(url, undefined, type);
      // The server has spent the credits: the header's balance is read again.
      void qc.invalidateQueries({ queryKey: ["account"] });
      setOpen(false);
      if (outcome.kind === "result") {
        navigate(`/results?id=${encodeURIComponent(outcome.id)}&paid=true&type=${type}`);
      } else {
        navigate(`/analyzing?url=${encodeURIComponent(url)}&type=${type}&analysis=${encodeURIComponent(outcome.analysisId)}`, {
          state: { analysisId: outcome.analysisId },
        });
      }
    } catch (e) {
      toast({
        title: "Analysis Failed",
        description: e instanceof AnalyzeError ? e.message : "Failed to analyze website. Please try again.",
        variant: "destructive",
      });
    } finally {
      setPending(null);
    }
  };
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>{children}</DialogTrigger>
      <DialogContent>
        <DialogTitle className="text-lg font-semibold">Choose your report</DialogTitle>
        <DialogDescription>
          {unlimited ? "Your plan covers every report." : `You have ${creditsLabel(balance)}.`} The report of {url} starts as soon as you choose.
        </DialogDescription>
        <ul className="grid gap-3">
          {reportTypes().map((t) => {
            const affordable = unlimited || t.credits <= balance;
            return (
              <li key={t.reportType} className="flex flex-col gap-3 rounded-xl border border-border p-4 sm:flex-row sm:items-center sm:justify-between">
                <div>
                  <p className="font-semibold">
                    {t.name} · {creditsLabel(t.credits)}
                  </p>
                  <ul className="mt-1 space-y-0.5 text-sm text-muted-foreground">
                    <li className="flex items-center gap-1.5"><Check className="size-3.5" aria-hidden="true" /> {t.pages} {t.pages === 1 ? "page" : "pages"} analysed</li>
                    <li className="flex items-center gap-1.5"><Check className="size-3.5" aria-hidden="true" /> {t.whiteLabel ? "White-label, no watermark" : "Sitelens watermark on the PDF"}</li>
                  </ul>
                </div>
                {affordable ? (
                  <Button onClick={() => void start(t.reportType)} disabled={pending !== null} aria-label={`Start a ${t.name} report for ${creditsLabel(t.credits)}`}>
                    {pending === t.reportType ? <><Spinner /> Starting...</> : `Start ${t.name}`}
                  </Button>
                ) : (
                  <Button asChild variant="outline">
                    <Link to="/pricing">Buy credits</Link>
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      </DialogContent>
    </Dialog>
  );
}
