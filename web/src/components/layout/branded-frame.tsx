import type { CSSProperties } from "react";
import { brandForeground, type Branding } from "../../lib/domain";

/*
 * A branded report's frame in place of Sitelens' header and footer (app/site-layout.tsx): the
 * agency's logo or name, its colours (the app's primary colour becomes the agency's, with a
 * legible text colour) and font, and its contact details. The server renders the same markup
 * around the report's first screen (crates/server's `report_page::branded_frame`), so nothing
 * moves when the app takes over.
 */

/** The frame's colours and font, as the style of the layout's outer element. */
export function brandStyle(brand: Branding): CSSProperties {
  return {
    "--primary": brand.primaryColor,
    "--primary-foreground": brandForeground(brand.primaryColor),
    "--ring": brand.primaryColor,
    fontFamily: brand.fontFamily,
  } as CSSProperties;
}

/** The agency's logo, or its name as a word mark. */
export function BrandedHeader({ brand }: { brand: Branding }) {
  return (
    <header className="border-b border-border bg-card">
      <div className="mx-auto flex max-w-7xl items-center gap-3 px-4 py-4 sm:px-6">
        {brand.logoUrl ? (
          <img src={brand.logoUrl} alt={brand.companyName} className="h-10 w-auto max-w-48 object-contain" />
        ) : (
          <span className="text-xl font-bold text-primary">{brand.companyName}</span>
        )}
      </div>
    </header>
  );
}

/** Who prepared the report, and how to reach them. */
export function BrandedFooter({ brand }: { brand: Branding }) {
  return (
    <footer className="border-t border-border">
      <div className="mx-auto flex max-w-7xl flex-wrap gap-x-4 gap-y-1 px-4 py-6 text-sm text-muted-foreground sm:px-6">
        <span>Report prepared by {brand.companyName}</span>
        {brand.contactEmail && (
          <a className="underline underline-offset-4" href={`mailto:${brand.contactEmail}`}>
            {brand.contactEmail}
          </a>
        )}
        {brand.contactPhone && <span>{brand.contactPhone}</span>}
        {brand.websiteUrl && (
          <a className="underline underline-offset-4" href={brand.websiteUrl} rel="noopener">
            {brand.websiteUrl}
          </a>
        )}
      </div>
    </footer>
  );
}
