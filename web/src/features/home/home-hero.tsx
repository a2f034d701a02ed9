import type { ReactNode } from "react";
import { Sparkles } from "lucide-react";

export type HeroLink = (to: string, className: string, label: string) => ReactNode;

export const heroLinkClass = "rounded-lg px-3 py-2 text-indigo-50 hover:bg-white/10 hover:text-white";

/**
 * The home page's gradient hero. Pure markup with slots: the app fills it with the live form and
 * counter, and the early shell (main.tsx) paints the same hero before the app and the domain
 * wasm have loaded, so the largest text on the page appears without waiting for them.
 */
export function HomeHero({ logo, link, themeToggle, form, counter }: { logo: ReactNode; link: HeroLink; themeToggle: ReactNode; form: ReactNode; counter: ReactNode }) {
  return (
    <section className="relative overflow-hidden bg-gradient-to-br from-indigo-700 via-violet-700 to-fuchsia-700 text-white">
      <div className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_at_top_right,rgba(255,255,255,0.18),transparent_55%)]" aria-hidden="true" />
      <div className="relative mx-auto flex max-w-7xl items-center justify-between px-4 py-4 sm:px-6">
        {logo}
        <div className="flex items-center gap-1 text-sm font-medium">
          {link("/pricing", heroLinkClass, "Pricing")}
          {link("/sign-in", `hidden sm:inline-block ${heroLinkClass}`, "Sign In")}
          {themeToggle}
        </div>
      </div>
      <div className="relative mx-auto max-w-4xl px-4 pt-12 pb-20 text-center sm:px-6 sm:pt-20 sm:pb-28">
        <p className="inline-flex items-center gap-2 rounded-full bg-white/10 px-3 py-1 text-sm font-medium text-indigo-50 ring-1 ring-white/20">
          <Sparkles className="size-4" aria-hidden="true" /> AI-powered website analysis
        </p>
        <h1 className="mt-6 text-4xl font-extrabold tracking-tight text-balance sm:text-5xl lg:text-6xl">See what is holding your website back</h1>
        <p className="mx-auto mt-6 max-w-2xl text-lg text-pretty text-indigo-100 sm:text-xl">
          Enter an address and get scores for SEO, design, technical structure and performance, with a prioritised plan to fix what matters.
        </p>
        <div className="mt-10">{form}</div>
        <div className="mt-4">{counter}</div>
      </div>
    </section>
  );
}
