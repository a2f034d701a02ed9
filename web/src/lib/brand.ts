import { createContext, useContext } from "react";
import { create } from "zustand";
import type { Branding } from "./domain";

/**
 * The agency brand the page wears instead of Sitelens' (a branded report, docs/PRODUCT.md §1.5):
 * set by the results page from the report the server sent, read by the site layout (the agency's
 * frame instead of our header and footer) and by the report's parts (no upsell of ours). It
 * starts from the brand the server rendered into the page (`#server-brand`), so the first paint
 * and the app agree.
 */
type BrandState = { brand: Branding | null; setBrand: (brand: Branding | null) => void };

function serverBrand(): Branding | null {
  if (typeof document === "undefined") return null;
  const text = document.getElementById("server-brand")?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text) as Branding;
  } catch {
    return null;
  }
}

export const useBrandStore = create<BrandState>((set) => ({
  brand: serverBrand(),
  setBrand: (brand) => set({ brand }),
}));

/** The brand of the report being shown, for its parts (set by the report itself). */
export const ReportBrandContext = createContext<Branding | null | undefined>(undefined);

/** The brand the current report or page wears, or `null` for Sitelens' own. */
export function useBrand(): Branding | null {
  const report = useContext(ReportBrandContext);
  const page = useBrandStore((s) => s.brand);
  return report !== undefined ? report : page;
}
