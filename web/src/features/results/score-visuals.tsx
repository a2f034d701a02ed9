import { badgeBand, ringBand, type Band } from "../../lib/domain";
import { Badge } from "../../components/ui/badge";
import { cn } from "../../lib/cn";

const ringColor: Record<Band, string> = {
  green: "text-emerald-600 dark:text-emerald-400",
  amber: "text-amber-500 dark:text-amber-400",
  yellow: "text-yellow-500",
  red: "text-red-600 dark:text-red-400",
};

const bandWord: Record<Band, string> = { green: "good", yellow: "fair", amber: "needs improvement", red: "poor" };

/** A score badge coloured by the badge bands (80 / 60, docs/PRODUCT.md §4.10). */
export function ScoreBadge({ score, className }: { score: number; className?: string }) {
  const band = badgeBand(score);
  return (
    <Badge variant={band} className={cn("text-sm tabular-nums", className)}>
      {Math.round(score)}/100<span className="sr-only"> ({bandWord[band]})</span>
    </Badge>
  );
}

/** A score ring coloured by the ring bands (90 / 50, docs/PRODUCT.md §4.10). */
export function ScoreRing({ score, label, size = 96 }: { score: number; label: string; size?: number }) {
  const band = ringBand(score);
  const r = 42;
  const c = 2 * Math.PI * r;
  const value = Math.max(0, Math.min(100, Math.round(score)));
  return (
    <figure className="flex flex-col items-center gap-2">
      <div className="relative" style={{ width: size, height: size }}>
        <svg viewBox="0 0 100 100" className={cn("size-full -rotate-90", ringColor[band])} aria-hidden="true">
          <circle cx="50" cy="50" r={r} fill="none" strokeWidth="8" className="stroke-muted" />
          <circle cx="50" cy="50" r={r} fill="none" strokeWidth="8" stroke="currentColor" strokeLinecap="round" strokeDasharray={c} strokeDashoffset={c * (1 - value / 100)} />
        </svg>
        <span className="absolute inset-0 grid place-content-center text-2xl font-bold tabular-nums">{value}</span>
      </div>
      <figcaption className="text-center text-sm font-medium">
        {label}
        <span className="sr-only">: {value} out of 100, {bandWord[band]}</span>
      </figcaption>
    </figure>
  );
}
