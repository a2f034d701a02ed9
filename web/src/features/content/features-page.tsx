import { Link } from "react-router";
import { Code2, FileDown, Gauge, ListChecks, Palette, Search, Share2, Users } from "lucide-react";
import { Button } from "../../components/ui/button";
import { PageMeta, organization } from "../../components/seo/page-meta";
import { routeMeta } from "../../lib/route-meta";
import { goodRanges, reportPages } from "../../lib/domain";

/** The good range's wording ("30-60 characters"), from the domain rules (docs/PRODUCT.md §9.7). */
const range = (id: string) => goodRanges().find((r) => r.id === id)?.text;

const sections = [
  {
    Icon: Search,
    title: "SEO analysis",
    points: [`Title length (${range("title")}) and meta description (${range("description")})`, "One clear H1 and a logical heading outline", "Canonical tags, robots directives and indexability", "Image alt text, internal links and structured data"],
  },
  {
    Icon: Gauge,
    title: "Performance insights",
    points: ["First and Largest Contentful Paint, Cumulative Layout Shift, Total Blocking Time, Speed Index", "Page weight and request count", "Diagnostics with the saving each fix would bring", "Figures we could not measure are labelled as estimates, never passed off as real"],
  },
  {
    Icon: Palette,
    title: "Design & UX",
    points: ["Desktop (1280×800) and mobile (375×667) screenshots", "Colour palette and typography in use", "Navigation, tap targets and readability"],
  },
  {
    Icon: Code2,
    title: "Technical structure",
    points: ["HTTPS, redirects and status codes", "robots.txt and sitemap.xml", "The technology stack your site runs on"],
  },
  {
    Icon: ListChecks,
    title: "Prioritised action plan",
    points: ["Every problem ranked high, medium or low", "A concrete fix for each, written for the person who will do it"],
  },
  {
    Icon: Share2,
    title: "Share and download",
    points: ["A private link to every report", "PDF download for clients and colleagues", "Share to LinkedIn, X, Facebook or e-mail"],
  },
  {
    Icon: FileDown,
    title: "Professional reports",
    points: [`About ${reportPages("standard")} pages crawled instead of one`, "Backlinks, domain authority and internal link analysis", "Meta tag and header structure suggestions, robots.txt and sitemap checks"],
  },
  {
    Icon: Users,
    title: "For teams and agencies",
    points: ["Shared credits and team seats", "White-label reports with your logo and colours", "An API to run audits from your own tools"],
  },
];

/** /features */
export function FeaturesPage() {
  return (
    <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 sm:py-16">
      <PageMeta
        {...routeMeta("/features")}
        structuredData={{ "@context": "https://schema.org", "@type": "Service", name: "Website analysis and SEO audit", provider: organization, serviceType: "SEO audit" }}
      />
      <header className="mx-auto max-w-3xl text-center">
        <h1 className="text-4xl font-extrabold tracking-tight sm:text-5xl">Everything a website audit should tell you</h1>
        <p className="mt-4 text-lg text-muted-foreground">Sitelens loads your site in a real browser, reads its code like a search engine and turns what it finds into a plan you can act on.</p>
      </header>
      <ul className="mt-14 grid gap-6 md:grid-cols-2">
        {sections.map(({ Icon, title, points }) => (
          <li key={title} className="rounded-2xl border border-border bg-card p-6 sm:p-8">
            <div className="flex items-center gap-3">
              <div className="grid size-11 place-content-center rounded-xl bg-indigo-50 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300"><Icon className="size-5" aria-hidden="true" /></div>
              <h2 className="text-xl font-semibold">{title}</h2>
            </div>
            <ul className="mt-4 list-disc space-y-2 pl-5 text-muted-foreground">
              {points.map((p) => <li key={p}>{p}</li>)}
            </ul>
          </li>
        ))}
      </ul>
      <div className="mt-14 flex flex-col items-center gap-3 text-center">
        <p className="text-lg font-semibold">See it on your own site: the basic report is free.</p>
        <div className="flex flex-wrap justify-center gap-3">
          <Button asChild size="lg"><Link to="/#analyze">Analyze my website</Link></Button>
          <Button asChild size="lg" variant="outline"><Link to="/pricing">View Pricing</Link></Button>
        </div>
      </div>
    </div>
  );
}
