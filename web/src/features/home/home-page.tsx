import { Link } from "react-router";
import { CheckCircle2 } from "lucide-react";
import { Button } from "../../components/ui/button";
import { Logo } from "../../components/layout/logo";
import { ThemeToggle } from "../../components/layout/theme-toggle";
import { PageMeta, organization } from "../../components/seo/page-meta";
import { useTrialButton } from "../../api/trial";
import { AnalyzeForm } from "./analyze-form";
import { StatsCounter } from "./stats-counter";
import { FeatureCards } from "./feature-cards";
import { HomeHero } from "./home-hero";
import { routeMeta } from "../../lib/route-meta";
import { reportPages } from "../../lib/domain";

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
          A professional report crawls about {reportPages("standard")} pages and adds backlinks, domain authority, internal links, robots.txt and sitemap checks, and a PDF you can hand to a client.
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
        {...routeMeta("/")}
        structuredData={structuredData}
      />
      <main id="main">
        <HomeHero
          logo={<Logo inverted />}
          link={(to, className, label) => (
            <Link to={to} className={className}>
              {label}
            </Link>
          )}
          themeToggle={<ThemeToggle className="text-white hover:bg-white/10" />}
          form={<AnalyzeForm />}
          counter={<StatsCounter />}
        />
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
