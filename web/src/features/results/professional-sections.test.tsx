// The professional sections render from their typed fields, for a report stored before they were
// typed (the fixture crates/domain reads too) and for the other backlink outcomes.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { AnalysisReport, ProfessionalAnalysis } from "../../lib/domain";
import { ProfessionalSections } from "./professional-sections";

const stored = JSON.parse(
  readFileSync(join(__dirname, "../../../../crates/domain/tests/stored/premium-report-before-typed-sections.json"), "utf8"),
) as AnalysisReport;
const pro = stored.professional as ProfessionalAnalysis;

/** The rendered text, tags dropped, so assertions read what a visitor reads. */
const text = (data: ProfessionalAnalysis) =>
  renderToStaticMarkup(<ProfessionalSections data={data} />)
    .replace(/<[^>]+>/g, " ")
    .replace(/&gt;/g, ">")
    .replace(/\s+/g, " ");

describe("ProfessionalSections", () => {
  it("shows every section of a stored professional report", () => {
    const t = text(pro);
    for (const heading of ["Backlinks and authority", "Internal links", "Content quality", "Meta tags and headings by page", "robots.txt", "sitemap.xml"]) {
      expect(t).toContain(heading);
    }
    // Backlinks: no authority without evidence, and the note that says so.
    expect(t).toContain("Domain authority Not enough evidence");
    expect(t).toContain("no authority score is given without evidence");
    // Internal links: the crawled pages with their depth; the sitemap-only orphan says so.
    expect(t).toContain(`Pages crawled ${pro.internalLinkAnalysis.pagesCrawled}`);
    expect(t).toMatch(/\/orphan 200 Sitemap only/);
    expect(t).toContain("Broken internal links");
    // Content: words and frequent words per page.
    const first = pro.contentQualityAssessment.pages[0]!;
    expect(t).toContain(`${first.topKeywords[0]!.keyword} (${first.topKeywords[0]!.count})`);
    // Page advice: the outline of the home page.
    expect(t).toContain("H1: Handmade oak furniture");
    // robots.txt: its rule and the linked page it blocks.
    expect(t).toContain("Disallow: /private/");
    expect(t).toContain("Linked pages it blocks: /private/secret");
    expect(t).toContain("Start page allowed");
    // sitemap.xml: the document and what it lists.
    expect(t).toContain("Page addresses listed 6");
    expect(t).toContain("6 pages");
  });

  it("shows the authority and referring sites when there are backlinks", () => {
    const t = text({
      ...pro,
      domainAuthority: 37,
      backlinkAnalysis: {
        provider: "sitelens-link-graph",
        domain: "shop.example",
        evidence: { pagesInGraph: 40, domainsInGraph: 3 },
        backlinks: 3,
        followedBacklinks: 2,
        referringDomains: 1,
        topReferringDomains: [{ domain: "blog.example", links: 3, followedLinks: 2 }],
        authorityScore: 37,
        note: "3 links from 1 sites point to shop.example.",
      },
    });
    expect(t).toContain("Domain authority 37/100");
    expect(t).toContain("Followed backlinks 2");
    expect(t).toContain("blog.example 3 2");
  });

  it("never shows the link graph's failure text", () => {
    const t = text({ ...pro, backlinkAnalysis: { error: "database connection refused" } });
    expect(t).toContain("Backlinks could not be counted for this report.");
    expect(t).not.toContain("database connection refused");
    expect(text({ ...pro, backlinkAnalysis: null })).toContain("Backlinks were not counted for this report.");
  });
});
