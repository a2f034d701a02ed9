import { BrainCircuit, Gauge, Palette, Search } from "lucide-react";
import { PageMeta } from "../../components/seo/page-meta";
import { routeMeta } from "../../lib/route-meta";

const blurbs = [
  { title: "Intelligent analysis", text: "AI reads your pages the way visitors and search engines do, and explains what to change in plain words.", Icon: BrainCircuit },
  { title: "Performance insights", text: "Real-browser measurements of loading, interactivity and visual stability, with the fixes that matter most.", Icon: Gauge },
  { title: "SEO analysis", text: "Titles, descriptions, headings, links and structured data checked against current search engine guidance.", Icon: Search },
  { title: "Design evaluation", text: "Screenshots, colours, typography and navigation reviewed for clarity on every screen size.", Icon: Palette },
];

/** /coming-soon: a static teaser, no actions. */
export function ComingSoonPage() {
  return (
    <div className="mx-auto max-w-5xl px-4 py-16 text-center sm:px-6 sm:py-24">
      <PageMeta {...routeMeta("/coming-soon")} />
      <p className="text-sm font-semibold tracking-wide text-link uppercase">Coming soon</p>
      <h1 className="mt-3 text-4xl font-extrabold tracking-tight sm:text-5xl">Advanced Website Analysis Platform</h1>
      <ul className="mt-12 grid gap-6 text-left sm:grid-cols-2">
        {blurbs.map(({ title, text, Icon }) => (
          <li key={title} className="rounded-2xl border border-border bg-card p-6">
            <Icon className="size-8 text-link" aria-hidden="true" />
            <h2 className="mt-4 text-lg font-semibold">{title}</h2>
            <p className="mt-2 text-muted-foreground">{text}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
