import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { SiteHistory } from "../../lib/domain";

const dayFormat = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric" });

/** A colour of the page's theme (index.css), for the canvas, which cannot read CSS variables. */
function themeColour(el: Element, name: string, fallback: string) {
  return getComputedStyle(el).getPropertyValue(name).trim() || fallback;
}

/**
 * The overall score of a site's analyses over time, drawn by uPlot on a canvas: oldest on the
 * left, the score axis fixed at 0-100 so trends of different sites compare. Loaded only with the
 * dashboard (see score-trend.tsx), so uPlot never weighs on the other pages.
 */
export default function ScoreTrendChart({ site, width, height }: { site: SiteHistory; width: number; height: number }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const line = themeColour(el, "--primary", "#4f46e5");
    const grid = themeColour(el, "--border", "#e5e7eb");
    const text = themeColour(el, "--muted-foreground", "#6b7280");
    const font = "11px system-ui, sans-serif";
    const times = site.analyses.map((a) => Date.parse(a.timestamp) / 1000);
    const scores = site.analyses.map((a) => a.overallScore);
    // A margin either side, at least half a day, so a single analysis sits in the middle of a
    // readable range rather than at the edge of one uPlot guesses in years.
    const first = times[0] ?? 0;
    const last = times.at(-1) ?? first;
    const margin = Math.max((last - first) * 0.08, 12 * 3600);
    const plot = new uPlot(
      {
        width,
        height,
        legend: { show: false },
        cursor: { show: false },
        scales: { x: { time: true, range: [first - margin, last + margin] }, y: { range: [0, 100] } },
        axes: [
          {
            stroke: text,
            font,
            size: 28,
            // Only the first and the last analysis are dated: the trend, not a calendar.
            splits: () => (first === last ? [first] : [first, last]),
            grid: { show: false },
            ticks: { show: false },
            values: (_u, splits) => splits.map((t) => dayFormat.format(new Date(t * 1000))),
          },
          { stroke: text, font, size: 32, splits: () => [0, 50, 100], grid: { stroke: grid, width: 1 }, ticks: { show: false } },
        ],
        series: [{}, { stroke: line, width: 2, points: { show: true, size: 7, fill: line, stroke: line } }],
      },
      [times, scores],
      el,
    );
    return () => plot.destroy();
  }, [site, width, height]);
  return <div ref={box} aria-hidden="true" />;
}
