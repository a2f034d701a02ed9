import { Link } from "react-router";
import { CheckCircle2, Sparkles } from "lucide-react";
import { Button } from "../../components/ui/button";
import { Logo } from "../../components/layout/logo";
import { ThemeToggle } from "../../components/layout/theme-toggle";
import { PageMeta, organization } from "../../components/seo/page-meta";
import { useTrialButton } from "../../api/trial";
import { AnalyzeForm } from "./analyze-form";
import { StatsCounter } from "./stats-counter";
import { FeatureCards } from "./feature-cards";

const structuredData = {
  "@context": "https://schema.org",
  "@type": "WebApplication",
  name: "Sitelens",
  applicationCategory: "BusinessApplication",
  operatingSystem: "Any",
  description: "Free website analysis and SEO audit: scores and advice for SEO, design, technical structure and performance.",
  offers: { "@type": "Offer", price: "0", priceCurrency: "USD" },
  publisher: organization,
};

function TrialCta() {
  const trial = useTrialButton();
  return (
    <section aria-labelledby="cta-title" className="px-4 pb-20 sm:px-6">
      <div className="mx-auto max-w-5xl overflow-hidden rounded-3xl bg-gradient-to-br from-indigo-700 via-violet-700 to-fuchsia-700 px-6 py-14 text-center text-white shadow-xl sm:px-12">
        <h2 id="cta-title" className="text-3xl font-bold tracking-tight sm:text-4xl">
          Ready for the full picture?
        </h2>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-indigo-100">
          A professional report crawls about 10 pages and adds backlinks, domain authority, internal links, robots.txt and sitemap checks, and a PDF you can hand to a client.
        </p>
        <ul className="mx-auto mt-6 flex max-w-2xl flex-wrap justify-center gap-x-6 gap-y-2 text-sm text-indigo-50">
          {["3 free basic reports a day", "No credit card to start", "Credits never expire"].map((t) => (
            <li key={t} className="inline-flex items-center gap-1.5">
              <CheckCircle2 className="size-4 text-emerald-300" aria-hidden="true" /> {t}
            </li>
          ))}
        </ul>
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          {trial.loading ? (
            <Button size="lg" variant="hero" disabled>
              {trial.label}
            </Button>
          ) : (
            <Button asChild size="lg" variant="hero">
              <Link to={trial.href}>{trial.label}</Link>
            </Button>
          )}
          <Button asChild size="lg" variant="outline" className="border-white/60 bg-transparent text-white hover:bg-white/10">
            <Link to="/pricing">View Pricing</Link>
          </Button>
        </div>
      </div>
    </section>
  );
}

/** Home: the gradient hero with the address form, the live counter, six features and the closing call to action. */
export function HomePage() {
  return (
    <div className="min-h-dvh bg-background">
      <PageMeta
        title="Sitelens — free website analysis and SEO audit"
        description="Analyse any website in seconds: SEO, design and UX, technical structure and performance scores with a prioritised action plan. Three free reports a day."
        path="/"
        structuredData={structuredData}
      />
      <main id="main">
        <section className="relative overflow-hidden bg-gradient-to-br from-indigo-700 via-violet-700 to-fuchsia-700 text-white">
          <div className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_at_top_right,rgba(255,255,255,0.18),transparent_55%)]" aria-hidden="true" />
          <div className="relative mx-auto flex max-w-7xl items-center justify-between px-4 py-4 sm:px-6">
            <Logo inverted />
            <div className="flex items-center gap-1 text-sm font-medium">
              <Link to="/pricing" className="rounded-lg px-3 py-2 text-indigo-50 hover:bg-white/10 hover:text-white">
                Pricing
              </Link>
              <Link to="/sign-in" className="hidden rounded-lg px-3 py-2 text-indigo-50 hover:bg-white/10 hover:text-white sm:inline-block">
                Sign In
              </Link>
              <ThemeToggle className="text-white hover:bg-white/10" />
            </div>
          </div>
          <div className="relative mx-auto max-w-4xl px-4 pt-12 pb-20 text-center sm:px-6 sm:pt-20 sm:pb-28">
            <p className="inline-flex items-center gap-2 rounded-full bg-white/10 px-3 py-1 text-sm font-medium text-indigo-50 ring-1 ring-white/20">
              <Sparkles className="size-4" aria-hidden="true" /> AI-powered website analysis
            </p>
            <h1 className="mt-6 text-4xl font-extrabold tracking-tight text-balance sm:text-5xl lg:text-6xl">
              See what is holding your website back
            </h1>
            <p className="mx-auto mt-6 max-w-2xl text-lg text-pretty text-indigo-100 sm:text-xl">
              Enter an address and get scores for SEO, design, technical structure and performance, with a prioritised plan to fix what matters.
            </p>
            <div className="mt-10">
              <AnalyzeForm />
            </div>
            <div className="mt-4">
              <StatsCounter />
            </div>
          </div>
        </section>
        <FeatureCards />
        <TrialCta />
      </main>
      <div className="border-t border-border py-6 text-center text-sm text-muted-foreground">
        <nav aria-label="Legal" className="flex flex-wrap justify-center gap-x-5 gap-y-2 px-4">
          <Link to="/features" className="hover:text-foreground hover:underline">Features</Link>
          <Link to="/about" className="hover:text-foreground hover:underline">About</Link>
          <Link to="/faq" className="hover:text-foreground hover:underline">FAQ</Link>
          <Link to="/privacy" className="hover:text-foreground hover:underline">Privacy Policy</Link>
          <Link to="/terms" className="hover:text-foreground hover:underline">Terms of Service</Link>
        </nav>
      </div>
    </div>
  );
}
