import { Link } from "react-router";
import { cn } from "../../lib/cn";

/** The Sitelens mark: a lens over a page, with the word mark. */
export function Logo({ className, inverted = false }: { className?: string; inverted?: boolean }) {
  return (
    <Link to="/" className={cn("inline-flex items-center gap-2 rounded-md font-bold tracking-tight focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring", className)} aria-label="Sitelens home">
      <svg viewBox="0 0 32 32" className="size-8" aria-hidden="true">
        <defs>
          <linearGradient id="logo-g" x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor={inverted ? "#ffffff" : "#4f46e5"} />
            <stop offset="1" stopColor={inverted ? "#c7d2fe" : "#7c3aed"} />
          </linearGradient>
        </defs>
        <rect x="2" y="2" width="28" height="28" rx="8" fill="url(#logo-g)" />
        <circle cx="14" cy="14" r="6" fill="none" stroke={inverted ? "#4338ca" : "#fff"} strokeWidth="2.5" />
        <path d="M18.5 18.5 24 24" stroke={inverted ? "#4338ca" : "#fff"} strokeWidth="2.5" strokeLinecap="round" />
      </svg>
      <span className={cn("text-xl", inverted ? "text-white" : "text-foreground")}>Sitelens</span>
    </Link>
  );
}
