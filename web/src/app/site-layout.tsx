import { Outlet } from "react-router";
import { Header } from "../components/layout/header";
import { Footer } from "../components/layout/footer";
import { BrandedFrame } from "../components/layout/branded-frame";
import { useBrand } from "../lib/brand";

/**
 * Pages with the shared header and footer (every route but home); a branded report wears its
 * agency's frame instead, with nothing of Sitelens around it.
 */
export function SiteLayout() {
  const brand = useBrand();
  if (brand) {
    return (
      <BrandedFrame brand={brand}>
        <Outlet />
      </BrandedFrame>
    );
  }
  return (
    <div className="flex min-h-dvh flex-col">
      <Header />
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
