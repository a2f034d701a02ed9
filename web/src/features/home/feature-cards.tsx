import { BarChart3, Code2, Gauge, ListChecks, Palette, Search, Share2 } from "lucide-react";
import { Badge } from "../../components/ui/badge";

const features = [
  {
    title: "SEO Analysis",
    text: "Titles, meta descriptions, headings, structured data, canonical tags and indexability, checked against what search engines reward.",
    Icon: Search,
  },
  {
    title: "Design & UX",
    text: "Screenshots on desktop and phone, colour palette, typography, navigation and tap targets, so you see your site as visitors do.",
    Icon: Palette,
  },
  {
    title: "Technical Structure",
    text: "HTTPS, redirects, robots.txt, sitemap.xml, HTML validity and the technology stack your pages are built on.",
    Icon: Code2,
  },
  {
    title: "Performance Insights",
    text: "Core Web Vitals measured in a real browser: First Contentful Paint, Largest Contentful Paint, layout shift and blocking time.",
    Icon: Gauge,
  },
  {
    title: "Action Items",
    text: "A prioritised plan, high to low impact, with the concrete fix for each problem so you know what to do first.",
    Icon: ListChecks,
  },
  {
    title: "Shareable Reports",
    text: "Share a link to the report with your team or clients, or download it as a PDF.",
    Icon: Share2,
    pro: true,
  },
];

/** The six feature cards of the home page. */
export function FeatureCards() {
  return (
    <section aria-labelledby="features-title" className="mx-auto max-w-7xl px-4 py-20 sm:px-6">
      <div className="mx-auto max-w-2xl text-center">
        <p className="inline-flex items-center gap-2 text-sm font-semibold text-link">
          <BarChart3 className="size-4" aria-hidden="true" /> One report, every angle
        </p>
        <h2 id="features-title" className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">
          Everything your website needs, in one audit
        </h2>
        <p className="mt-4 text-lg text-muted-foreground">
          Sitelens loads your page in a real browser, reads it like a search engine and scores it like a critical visitor.
        </p>
      </div>
      <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {features.map(({ title, text, Icon, pro }) => (
          <li key={title} className="group rounded-2xl border border-border bg-card p-6 shadow-sm transition-shadow hover:shadow-md">
            <div className="flex items-center justify-between">
              <div className="grid size-12 place-content-center rounded-xl bg-indigo-50 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300">
                <Icon className="size-6" aria-hidden="true" />
              </div>
              {pro && <Badge variant="pro">Pro feature</Badge>}
            </div>
            <h3 className="mt-5 text-lg font-semibold">{title}</h3>
            <p className="mt-2 text-muted-foreground">{text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
