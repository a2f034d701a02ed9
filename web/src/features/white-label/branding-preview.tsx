import { brandContactLine, brandForeground, type Branding } from "../../lib/domain";

/** The overall score ring of the cover, drawn in the brand's secondary colour. */
function ScoreRing({ color, score }: { color: string; score: number }) {
  const r = 26;
  const length = 2 * Math.PI * r;
  return (
    <svg viewBox="0 0 64 64" className="size-16 shrink-0" aria-hidden="true">
      <circle cx="32" cy="32" r={r} fill="none" stroke="#e2e8f0" strokeWidth="7" />
      <circle
        cx="32"
        cy="32"
        r={r}
        fill="none"
        stroke={color}
        strokeWidth="7"
        strokeLinecap="round"
        strokeDasharray={`${(length * score) / 100} ${length}`}
        transform="rotate(-90 32 32)"
      />
      <text x="32" y="37" textAnchor="middle" fontSize="16" fontWeight="700" fill="#0f172a">
        {score}
      </text>
    </svg>
  );
}

/**
 * A branded report's cover as the settings stand (saved or not): the logo and company name, the
 * title band in the primary colour, the score ring in the secondary colour, the chosen font and
 * the contact line; nothing of Sitelens.
 */
export function BrandingPreview({ branding, logoSrc }: { branding: Branding; logoSrc: string | null }) {
  const name = branding.companyName.trim() || "Your company";
  const contact = brandContactLine(branding);
  return (
    <figure className="flex flex-col gap-2" aria-label="Preview of a branded report">
      <div
        data-testid="branding-preview"
        className="overflow-hidden rounded-xl border border-border bg-white text-slate-900 shadow-sm"
        style={{ fontFamily: branding.fontFamily }}
      >
        <div className="flex min-h-20 items-center gap-4 px-5 py-4">
          {logoSrc && <img src={logoSrc} alt={`${name} logo`} className="max-h-14 max-w-[45%] object-contain" />}
          <span className="text-xl font-semibold leading-tight">{name}</span>
        </div>
        <div className="px-5 py-5" style={{ backgroundColor: branding.primaryColor, color: brandForeground(branding.primaryColor) }}>
          <p className="text-xs font-medium uppercase tracking-wider">Website analysis</p>
          <p className="mt-1 text-2xl font-bold">client-site.example</p>
          <p className="mt-1 text-sm">Prepared by {name}</p>
        </div>
        <div className="flex items-center gap-4 px-5 py-5">
          <ScoreRing color={branding.secondaryColor} score={82} />
          <div className="text-sm">
            <p className="font-semibold">Overall score</p>
            <p className="text-slate-600">SEO, design, technical and performance, with an action plan.</p>
          </div>
        </div>
        <div className="h-1.5" style={{ backgroundColor: branding.secondaryColor }} />
        <p className="px-5 py-3 text-xs text-slate-600">{contact ?? "Your contact details appear here."}</p>
      </div>
      <figcaption className="text-sm text-muted-foreground">The cover and header of your reports, as you edit.</figcaption>
    </figure>
  );
}
