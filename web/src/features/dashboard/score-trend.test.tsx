// The score-trend figure: a chart from two analyses on, words for a single one.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { AnalysisSummary, SiteHistory } from "../../lib/domain";
import { ScoreTrend } from "./score-trend";

const analysis = (overallScore: number, timestamp: string): AnalysisSummary => ({
  resultId: timestamp,
  timestamp,
  tier: "basic",
  overallScore,
  seoScore: 70,
  performanceScore: 80,
  requestedBy: "ada",
});

const text = (site: SiteHistory) => renderToStaticMarkup(<ScoreTrend site={site} />);

describe("ScoreTrend", () => {
  it("says a single analysis makes no trend yet, with its score", () => {
    const html = text({ url: "https://example.com/", analyses: [analysis(72, "2026-11-01T10:00:00Z")] });
    expect(html).toContain("One analysis so far, scored 72.");
    expect(html).toContain("Analyse this site again to see its score trend.");
    expect(html).not.toContain('role="img"');
  });

  it("draws the trend from two analyses on, described for assistive technology", () => {
    const html = text({
      url: "https://example.com/",
      analyses: [analysis(61, "2026-11-01T10:00:00Z"), analysis(78, "2026-11-08T10:00:00Z")],
    });
    expect(html).toContain('aria-label="Overall score from 61 to 78 over 2 analyses"');
    expect(html).not.toContain("One analysis so far");
  });
});
