// The results page shows what the server sent, whatever the address says (docs/PRODUCT.md §2.6.1,
// §6.4): a free report opened with ?paid=true&type=premium keeps its upgrade prompts and shows no
// professional sections; a paid report opened without them shows everything it holds.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter, Route, Routes } from "react-router";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { beforeAll, describe, expect, it } from "vitest";
import type { AnalysisReport } from "../../lib/domain";
import { ResultsPage } from "./results-page";

const stored = JSON.parse(
  readFileSync(join(__dirname, "../../../../crates/domain/tests/stored/premium-report-before-typed-sections.json"), "utf8"),
) as AnalysisReport;

/** The report as the server sends a free one: the Pro-only parts left out (domain::entitlement). */
const free: AnalysisReport = {
  ...stored,
  id: "free-report",
  paid: false,
  professional: undefined,
  performanceAnalysis: {
    ...stored.performanceAnalysis,
    metaTagSuggestions: stored.performanceAnalysis.metaTagSuggestions && {
      title: { ...stored.performanceAnalysis.metaTagSuggestions.title, analysis: "", suggested: "" },
      description: { ...stored.performanceAnalysis.metaTagSuggestions.description, analysis: "", suggested: "" },
      ogTags: { analysis: "", suggestions: {} },
    },
    contentOptimizations: undefined,
    premiumOptimizations: undefined,
  },
};
const paid: AnalysisReport = { ...stored, id: "paid-report", paid: true };

/** The page's text at `address`, with `report` as the server's answer and nobody signed in. */
function page(address: string, report: AnalysisReport): string {
  const client = new QueryClient();
  client.setQueryData(["result", report.id], { success: true, data: report });
  client.setQueryData(["account"], null);
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[address]}>
        <Routes>
          <Route path="/results" element={<ResultsPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  )
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");
}

beforeAll(() => {
  // The page builds its share link from the window's origin.
  Object.assign(globalThis, { window: { location: { origin: "https://sitelens.test", href: "https://sitelens.test/results" } } });
});

describe("ResultsPage entitlement", () => {
  it("keeps a free report free when the address claims it was paid", () => {
    const t = page("/results?id=free-report&paid=true&type=premium", free);
    expect(t).toContain("Upgrade to In-Depth Analysis");
    expect(t).toContain("Get a Professional Report");
    expect(t).toContain("Advanced Analysis");
    expect(t).toContain("Pro Feature");
    expect(t).not.toContain("In-depth site analysis");
    expect(t).not.toContain("Download PDF Report");
    // The current title is the page's own; the AI's suggestion is not in the page at all.
    expect(t).toContain(stored.performanceAnalysis.metaTagSuggestions!.title.current);
    expect(t).not.toContain(stored.performanceAnalysis.metaTagSuggestions!.title.suggested);
  });

  it("shows a branded report under its agency, with nothing of ours to buy or start", () => {
    const branding = { companyName: "Studio Grace", primaryColor: "#0D6EFD", secondaryColor: "#10B981", fontFamily: "Inter, sans-serif" };
    const t = page("/results?id=branded-report", { ...free, id: "branded-report", branding });
    expect(t).toContain("a website analysis by Studio Grace");
    expect(t).toContain("Part of the professional report");
    for (const ours of ["Sitelens", "Upgrade", "Get a Professional Report", "Advanced Analysis", "New Analysis"]) {
      expect(t).not.toContain(ours);
    }
  });

  it("shows a paid report whole without any address parameter", () => {
    const t = page("/results?id=paid-report", paid);
    expect(t).toContain("In-depth site analysis");
    expect(t).toContain("Download PDF Report");
    expect(t).not.toContain("Upgrade to In-Depth Analysis");
    expect(t).not.toContain("Pro Feature");
  });
});
