// No router and no class-merging helper here: the early home shell (main.tsx) paints this.

/** The mark and word without a link (no router needed). */
export function LogoMark({ inverted = false }: { inverted?: boolean }) {
  return (
    <>
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
      <span className={`text-xl ${inverted ? "text-white" : "text-foreground"}`}>Sitelens</span>
    </>
  );
}
