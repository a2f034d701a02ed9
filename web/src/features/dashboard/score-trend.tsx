import { lazy, Suspense } from "react";
import type { SiteHistory } from "../../lib/domain";

// uPlot arrives in its own chunk when a dashboard first shows a trend.
const ScoreTrendChart = lazy(() => import("./score-trend-chart"));

const width = 280;
const height = 120;

/**
 * A site's score trend: the chart, described in words for assistive technology. One analysis
 * makes no trend: then the score is said in words, with how to get a trend.
 */
export function ScoreTrend({ site }: { site: SiteHistory }) {
  const first = site.analyses[0]?.overallScore ?? 0;
  const last = site.analyses.at(-1)?.overallScore ?? 0;
  if (site.analyses.length === 1) {
    return (
      <figure className="flex flex-col justify-center gap-1 rounded-md border border-dashed border-border p-3 text-sm" style={{ width, minHeight: height }}>
        <p>One analysis so far, scored {first}.</p>
        <figcaption className="text-xs text-muted-foreground">Analyse this site again to see its score trend.</figcaption>
      </figure>
    );
  }
  return (
    <figure className="flex flex-col gap-1">
      <div role="img" aria-label={`Overall score from ${first} to ${last} over ${site.analyses.length} analyses`} style={{ width, height }}>
        <Suspense fallback={null}>
          <ScoreTrendChart site={site} width={width} height={height} />
        </Suspense>
      </div>
      <figcaption className="text-xs text-muted-foreground">Overall score trend</figcaption>
    </figure>
  );
}
