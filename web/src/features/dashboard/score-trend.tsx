import { lazy, Suspense } from "react";
import type { SiteHistory } from "../../lib/domain";

// uPlot arrives in its own chunk when a dashboard first shows a trend.
const ScoreTrendChart = lazy(() => import("./score-trend-chart"));

const width = 280;
const height = 120;

/** A site's score trend: the chart, described in words for assistive technology. */
export function ScoreTrend({ site }: { site: SiteHistory }) {
  const first = site.analyses[0]?.overallScore ?? 0;
  const last = site.analyses.at(-1)?.overallScore ?? 0;
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
