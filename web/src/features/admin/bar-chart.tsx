import { useId } from "react";

/** One bar: its label (the x axis) and value. */
export interface Bar {
  label: string;
  value: number;
}

const WIDTH = 640;
const HEIGHT = 180;
const LEFT = 64;
const BOTTOM = 24;
const TOP = 8;

/** Round numbers for the value axis: 0, the top and the middle, so the scale reads at a glance. */
function scaleTop(max: number, least: number): number {
  if (max <= least) return least;
  const magnitude = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) {
    if (step * magnitude >= max) return step * magnitude;
  }
  return 10 * magnitude;
}

/**
 * A bar chart drawn as SVG (no chart library): an image with a title and a summary for screen
 * readers, a value axis, every bar with its own tooltip, and the same numbers as a table under a
 * disclosure — the text alternative. Negative values (refunds larger than payments) are drawn
 * at zero and listed in the table with their sign.
 */
export function BarChart({
  title,
  bars,
  format = (n) => n.toLocaleString("en-US"),
  least = 2,
  summary,
}: {
  title: string;
  bars: Bar[];
  format?: (n: number) => string;
  /** The smallest top of the value axis (an empty chart still reads 0, 1, 2 rather than fractions). */
  least?: number;
  summary: string;
}) {
  const id = useId();
  const max = Math.max(0, ...bars.map((b) => b.value));
  const top = scaleTop(max, least);
  const plotW = WIDTH - LEFT - 4;
  const plotH = HEIGHT - TOP - BOTTOM;
  const slot = bars.length > 0 ? plotW / bars.length : plotW;
  const barW = Math.max(2, slot * 0.7);
  const y = (v: number) => TOP + plotH - (Math.max(0, v) / top) * plotH;
  // Values are whole (counts, cents): a middle line only where it falls on a whole number.
  const ticks = [0, top / 2, top].filter((t) => Number.isInteger(t));
  // Label every fifth day and the last, so the axis stays legible on a phone.
  const labelled = (i: number) => i === bars.length - 1 || (i % 5 === 0 && i < bars.length - 3);
  return (
    <figure className="flex flex-col gap-2">
      <figcaption id={`${id}-title`} className="text-sm font-semibold">
        {title}
      </figcaption>
      {/* Never narrower than its labels can be read: a phone scrolls the chart sideways. */}
      <div className="overflow-x-auto rounded focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring" role="group" tabIndex={0} aria-label={`${title}, chart`}>
        <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="h-auto w-full min-w-[30rem] text-primary" role="img" aria-labelledby={`${id}-title ${id}-desc`}>
          <desc id={`${id}-desc`}>{summary}</desc>
          {ticks.map((t) => (
            <g key={t}>
              <line x1={LEFT} x2={WIDTH - 4} y1={y(t)} y2={y(t)} className="stroke-border" strokeWidth={1} />
              <text x={LEFT - 6} y={y(t) + 4} textAnchor="end" className="fill-muted-foreground text-[13px]">
                {format(t)}
              </text>
            </g>
          ))}
          {bars.map((b, i) => {
            const x = LEFT + i * slot + (slot - barW) / 2;
            const h = TOP + plotH - y(b.value);
            return (
              <g key={b.label}>
                <rect x={x} y={y(b.value)} width={barW} height={Math.max(h, b.value > 0 ? 1 : 0)} rx={1.5} className="fill-current">
                  <title>{`${b.label}: ${format(b.value)}`}</title>
                </rect>
                {labelled(i) && (
                  <text x={i === bars.length - 1 ? x + barW : x + barW / 2} y={HEIGHT - 6} textAnchor={i === bars.length - 1 ? "end" : "middle"} className="fill-muted-foreground text-[13px]">
                    {b.label}
                  </text>
                )}
              </g>
            );
          })}
        </svg>
      </div>
      <details className="text-sm">
        <summary className="cursor-pointer text-muted-foreground">{title}: the numbers as a table</summary>
        <div className="mt-2 max-h-64 overflow-y-auto rounded-lg border border-border">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{title}</caption>
            <thead className="bg-muted/60 text-xs uppercase tracking-wide text-muted-foreground">
              <tr>
                <th scope="col" className="px-3 py-1.5">
                  Day
                </th>
                <th scope="col" className="px-3 py-1.5 text-right">
                  Value
                </th>
              </tr>
            </thead>
            <tbody>
              {bars.map((b) => (
                <tr key={b.label} className="border-t border-border">
                  <th scope="row" className="px-3 py-1 font-normal">
                    {b.label}
                  </th>
                  <td className="px-3 py-1 text-right tabular-nums">{format(b.value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
