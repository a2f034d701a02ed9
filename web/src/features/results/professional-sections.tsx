import type { ReactNode } from "react";
import { Network } from "lucide-react";
import type {
  BacklinkAnalysis,
  ContentQualityAssessment,
  InternalLinkAnalysis,
  PageHeaderSuggestions,
  PageMetaSuggestions,
  ProfessionalAnalysis,
  RobotsAnalysis,
  SitemapAnalysis,
} from "../../lib/domain";
import { linkGraphLabel } from "../../lib/domain";
import { Badge } from "../../components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { ScoreBadge } from "./score-visuals";
import { FindingList } from "./section-groups";

/** The path of an address on the analysed site, the form the report's findings use. */
function path(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}

function Part({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="rounded-xl border border-border bg-card p-4 sm:p-5">
      <h3 className="text-base font-semibold">{title}</h3>
      <div className="mt-3 space-y-3">{children}</div>
    </section>
  );
}

function Figures({ items }: { items: [string, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      {items.map(([label, value]) => (
        <div key={label} className="rounded-lg bg-muted px-3 py-2">
          <dt className="text-xs text-muted-foreground">{label}</dt>
          <dd className="text-lg font-semibold">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Table({ caption, head, rows }: { caption: string; head: string[]; rows: ReactNode[][] }) {
  if (rows.length === 0) return null;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="text-muted-foreground">
          <tr>{head.map((h) => <th key={h} scope="col" className="py-1.5 pr-4 font-medium">{h}</th>)}</tr>
        </thead>
        <tbody className="divide-y divide-border">
          {rows.map((cells, i) => (
            <tr key={i}>{cells.map((c, j) => <td key={j} className="py-1.5 pr-4 align-top break-words">{c}</td>)}</tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Backlinks({ authority, analysis }: { authority?: number; analysis: BacklinkAnalysis | null }) {
  if (analysis === null) return <p className="text-muted-foreground">Backlinks were not counted for this report.</p>;
  // The reason is the link graph's own (a database detail), so it is not shown.
  if ("error" in analysis) return <p className="text-muted-foreground">Backlinks could not be counted for this report. Run the analysis again to count them.</p>;
  return (
    <>
      <Figures
        items={[
          ["Domain authority", authority === undefined ? "Not enough evidence" : `${authority}/100`],
          ["Backlinks", analysis.backlinks],
          ["Followed backlinks", analysis.followedBacklinks],
          ["Referring sites", analysis.referringDomains],
        ]}
      />
      <Table
        caption="Sites linking here"
        head={["Site", "Links", "Followed"]}
        rows={analysis.topReferringDomains.map((d) => [d.domain, d.links, d.followedLinks])}
      />
      <p className="text-sm text-muted-foreground">
        Evidence: {analysis.evidence.pagesInGraph} pages on {analysis.evidence.domainsInGraph} sites in {linkGraphLabel(analysis.provider)}. {analysis.note}
      </p>
    </>
  );
}

function InternalLinks({ data }: { data: InternalLinkAnalysis }) {
  return (
    <>
      <Figures
        items={[
          ["Pages crawled", data.pagesCrawled],
          ["Other link targets checked", data.linkTargetsChecked],
          ["Blocked by robots.txt", data.blockedByRobots.length],
        ]}
      />
      <Table
        caption="Crawled pages"
        head={["Page", "Status", "Clicks from start", "Internal links", "External links"]}
        rows={data.pages.map((p) => [
          <>
            {path(p.finalUrl)}
            {p.redirects.length > 0 && <span className="block text-xs text-muted-foreground">from {path(p.url)} after {p.redirects.length} {p.redirects.length === 1 ? "redirect" : "redirects"}</span>}
          </>,
          p.status ?? "No response",
          p.depth ?? "Sitemap only",
          p.internalLinks ?? "-",
          p.externalLinks ?? "-",
        ])}
      />
      <FindingList findings={data.findings} />
    </>
  );
}

function Content({ data }: { data: ContentQualityAssessment }) {
  return (
    <>
      <p className="flex items-center gap-2 text-sm">Content score <ScoreBadge score={data.score} /></p>
      <Table
        caption="Text per page"
        head={["Page", "Words", "H1", "Frequent words"]}
        rows={data.pages.map((p) => [
          path(p.url),
          p.wordCount,
          p.h1 ?? <span className="text-muted-foreground">None</span>,
          p.topKeywords.map((k) => `${k.keyword} (${k.count})`).join(", "),
        ])}
      />
      <FindingList findings={data.findings} />
    </>
  );
}

function PageAdvice({ meta, headers }: { meta: PageMetaSuggestions[]; headers: PageHeaderSuggestions[] }) {
  if (meta.length === 0 && headers.length === 0) return <p className="text-muted-foreground">No page advice in this report.</p>;
  const urls = [...new Set([...meta.map((m) => m.url), ...headers.map((h) => h.url)])];
  return (
    <ul className="divide-y divide-border">
      {urls.map((url) => {
        const m = meta.find((x) => x.url === url);
        const h = headers.find((x) => x.url === url);
        const headingChanges = Object.entries(h?.suggestions ?? {});
        return (
          <li key={url} className="space-y-2 py-3">
            <p className="font-medium">{path(url)}</p>
            {m && (
              <dl className="grid gap-1 text-sm sm:grid-cols-[8rem_minmax(0,1fr)]">
                <dt className="text-muted-foreground">Title</dt>
                <dd>{m.title.suggested || m.title.current || "Missing"} <span className="text-muted-foreground">· {m.title.analysis}</span></dd>
                <dt className="text-muted-foreground">Description</dt>
                <dd>{m.description.suggested || m.description.current || "Missing"} <span className="text-muted-foreground">· {m.description.analysis}</span></dd>
              </dl>
            )}
            {h && (
              <div className="text-sm">
                <p className="text-muted-foreground">Headings: {h.analysis}</p>
                {h.outline.length > 0 && <p className="mt-1">{h.outline.join(" · ")}</p>}
                {headingChanges.length > 0 && (
                  <ul className="mt-1 space-y-0.5">
                    {headingChanges.map(([from, to]) => <li key={from}>{from} → <span className="font-medium">{to}</span></li>)}
                  </ul>
                )}
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}

function Robots({ data }: { data: RobotsAnalysis }) {
  if (!data.found) {
    return <p className="text-muted-foreground">No robots.txt was read at {data.url}{data.status !== null ? ` (HTTP ${data.status})` : ""}: crawlers may fetch every page.</p>;
  }
  return (
    <>
      <p className="text-sm">
        {data.url} · HTTP {data.status ?? "-"} ·{" "}
        {data.blocksStartPage ? <Badge variant="red">Blocks the start page</Badge> : <Badge variant="green">Start page allowed</Badge>}
      </p>
      <Table
        caption="robots.txt rules"
        head={["User agents", "Rules"]}
        rows={data.groups.map((g) => [g.agents.join(", "), g.rules.map((r) => `${r.allow ? "Allow" : "Disallow"}: ${r.pattern}`).join("; ") || "No rules"])}
      />
      {data.sitemaps.length > 0 && <p className="text-sm">Sitemaps: {data.sitemaps.join(", ")}</p>}
      {data.blockedLinkedPages.length > 0 && <p className="text-sm">Linked pages it blocks: {data.blockedLinkedPages.join(", ")}</p>}
      <Table caption="robots.txt problems" head={["Line", "Text", "Problem"]} rows={data.errors.map((e) => [e.line, e.content, e.message])} />
    </>
  );
}

function Sitemap({ data }: { data: SitemapAnalysis }) {
  return (
    <>
      <Figures items={[["Sitemap documents", data.documents.length], ["Page addresses listed", data.urlCount]]} />
      <Table
        caption="Sitemap documents"
        head={["Address", "Found via", "Status", "Entries"]}
        rows={data.documents.map((d) => [
          d.url,
          d.foundVia,
          d.status ?? "No response",
          d.entries === null ? "Unreadable" : `${d.entries}${d.kind === "index" ? " sitemaps" : " pages"}${d.invalidEntries ? `, ${d.invalidEntries} invalid` : ""}`,
        ])}
      />
      <FindingList findings={data.findings} />
    </>
  );
}

/** The professional report's site-wide analyses (docs/PRODUCT.md §1.4), read from its typed sections. */
export function ProfessionalSections({ data }: { data: ProfessionalAnalysis }) {
  return (
    <Card>
      <CardHeader>
        <div className="flex flex-wrap items-center gap-2">
          <Network className="size-5 text-indigo-600 dark:text-indigo-400" aria-hidden="true" />
          <CardTitle as="h2">In-depth site analysis</CardTitle>
        </div>
        <CardDescription>Backlinks, internal links, content, page advice, robots.txt and sitemap across the crawled pages.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <Part title="Backlinks and authority"><Backlinks authority={data.domainAuthority} analysis={data.backlinkAnalysis} /></Part>
        <Part title="Internal links"><InternalLinks data={data.internalLinkAnalysis} /></Part>
        <Part title="Content quality"><Content data={data.contentQualityAssessment} /></Part>
        <Part title="Meta tags and headings by page"><PageAdvice meta={data.metaTagSuggestions} headers={data.headerSuggestions} /></Part>
        <Part title="robots.txt"><Robots data={data.robotsAnalysis} /></Part>
        <Part title="sitemap.xml"><Sitemap data={data.sitemapAnalysis} /></Part>
      </CardContent>
    </Card>
  );
}
