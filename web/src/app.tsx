import { PricingCalculator } from "./features/pricing/pricing-calculator";

/** The application shell. Routes and the full public site arrive with the web app issue. */
export function App() {
  return (
    <main className="min-h-screen bg-slate-100 px-4 py-10">
      <header className="mx-auto mb-8 max-w-3xl">
        <h1 className="text-3xl font-bold text-slate-900">Sitelens</h1>
        <p className="text-slate-600">Website analysis and SEO audits you can host yourself.</p>
      </header>
      <PricingCalculator />
    </main>
  );
}
