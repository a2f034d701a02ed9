import { useNavigate } from "react-router";
import { Check, Rocket } from "lucide-react";
import { Button } from "../../components/ui/button";
import { reportPages } from "../../lib/domain";
import { ReportChooser } from "./report-chooser";

const includes = [
  "Backlink analysis",
  "Domain authority",
  "Internal link analysis",
  "Meta tag optimization",
  "Header structure",
  "robots.txt analysis",
  "sitemap.xml check",
  "PDF download",
];

/**
 * 'Upgrade to In-Depth Analysis' for unpaid reports. 'Get a Professional Report' lets a signed-in
 * user with credits (`balance`) choose the report and start it at once; anyone else goes to
 * checkout with the session-storage hand-off.
 */
export function UpgradeBox({ url, balance }: { url: string; balance: number | null }) {
  const navigate = useNavigate();
  const go = () => {
    try {
      sessionStorage.setItem("upgradeUrl", url);
      sessionStorage.setItem("selectedPackage", JSON.stringify({ type: "starter", basePrice: 5 }));
    } catch {
      // Session storage can be unavailable; the query string still carries the address.
    }
    navigate(`/checkout?package=starter&amount=5&url=${encodeURIComponent(url)}`);
  };
  return (
    <section aria-labelledby="upgrade-title" className="rounded-2xl bg-gradient-to-br from-indigo-700 via-violet-700 to-fuchsia-700 p-6 text-white shadow-lg">
      <Rocket className="size-7" aria-hidden="true" />
      <h2 id="upgrade-title" className="mt-3 text-xl font-bold">Upgrade to In-Depth Analysis</h2>
      <p className="mt-1 text-sm text-indigo-100">A professional report crawls about {reportPages("standard")} pages of your site and adds:</p>
      <ul className="mt-4 grid gap-2 text-sm">
        {includes.map((i) => (
          <li key={i} className="flex items-center gap-2">
            <Check className="size-4 shrink-0 text-emerald-300" aria-hidden="true" /> {i}
          </li>
        ))}
      </ul>
      {balance !== null ? (
        <ReportChooser url={url} balance={balance}>
          <Button variant="hero" className="mt-5 w-full">
            Get a Professional Report
          </Button>
        </ReportChooser>
      ) : (
        <Button variant="hero" className="mt-5 w-full" onClick={go}>
          Get a Professional Report
        </Button>
      )}
      <p className="mt-3 text-center text-xs text-indigo-100">One-time payment • Instant access • 30-day guarantee</p>
    </section>
  );
}
