import { Outlet } from "react-router";
import { Header } from "../components/layout/header";
import { Footer } from "../components/layout/footer";
import { BrandedFooter, BrandedHeader, brandStyle } from "../components/layout/branded-frame";
import { useBrand } from "../lib/brand";

/**
 * Pages with the shared header and footer (every route but home); a branded report wears its
 * agency's frame instead, with nothing of Sitelens around it. Only the header and footer change
 * with the brand: the page in `<main>` stays mounted when a report's brand arrives.
 */
export function SiteLayout() {
  const brand = useBrand();
  return (
    <div data-brand-frame={brand ? "" : undefined} className="flex min-h-dvh flex-col" style={brand ? brandStyle(brand) : undefined}>
      {brand ? <BrandedHeader brand={brand} /> : <Header />}
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      {brand ? <BrandedFooter brand={brand} /> : <Footer />}
    </div>
  );
}
