//! The professional report's extra analyses (docs/PRODUCT.md §1.4, §3.2): backlinks, internal
//! links, content quality, meta tags and headers per page, robots.txt and sitemap.xml.
//!
//! The analyzer fills these from its crawl; the store keeps each in its own JSON column
//! (docs/PRODUCT.md §3.2), so every shape here must also read the rows written before it was typed.
//! Fields added after the first stored reports carry `#[serde(default)]` for that reason.
//! Counts are `u32` so the generated TypeScript reads them as `number`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::report::{Finding, MetaSuggestion, OgTagSuggestions};

/// How many pages and sites the link graph held when the backlinks were counted.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct GraphEvidence {
    /// Pages Sitelens has crawled.
    pub pages_in_graph: u32,
    /// Sites (hosts) among them.
    pub domains_in_graph: u32,
}

/// A site that links to the analysed one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ReferringDomain {
    /// Its host name.
    pub domain: String,
    /// Links from it to the analysed site.
    pub links: u32,
    /// Of those, links without nofollow, sponsored or ugc (the ones authority flows through).
    /// Reports stored before this was counted read 0.
    #[serde(default)]
    pub followed_links: u32,
}

/// The provider id of the figures counted in our own link graph (every site crawled so far).
pub const OWN_LINK_GRAPH: &str = "sitelens-link-graph";

/// How a report names where its backlink figures come from: our own link graph without naming
/// the service (a branded report names nothing of Sitelens), another provider by its id.
pub fn link_graph_label(provider: &str) -> String {
    if provider == OWN_LINK_GRAPH {
        "the link graph of every site crawled so far".to_owned()
    } else {
        format!("the {provider} link graph")
    }
}

/// Backlinks and authority, counted in the link graph of every site Sitelens has crawled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct BacklinkFigures {
    /// Where the figures come from: `sitelens-link-graph`.
    pub provider: String,
    /// The analysed host.
    pub domain: String,
    /// The size of the graph the figures rest on.
    pub evidence: GraphEvidence,
    /// Links into the site from other sites.
    pub backlinks: u32,
    /// Of those, followed links. Reports stored before this was counted read 0.
    #[serde(default)]
    pub followed_backlinks: u32,
    /// Distinct sites linking in.
    pub referring_domains: u32,
    /// Up to ten of them, most links first.
    pub top_referring_domains: Vec<ReferringDomain>,
    /// Authority 0-100, `null` without followed links to rank by.
    pub authority_score: Option<u32>,
    /// What the figures rest on, in a sentence.
    pub note: String,
}

/// Why the backlinks could not be counted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct BacklinkFailure {
    /// The reason.
    pub error: String,
}

/// The backlink analysis: the figures, or why there are none.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(untagged)]
pub enum BacklinkAnalysis {
    /// Counted in the link graph.
    Figures(BacklinkFigures),
    /// The link graph could not be read.
    Failed(BacklinkFailure),
}

/// A redirect the crawl followed to reach a page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct RedirectHop {
    /// The address requested.
    pub url: String,
    /// Its status (3xx).
    pub status: u16,
}

/// One crawled page as the internal link analysis lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct CrawledPageSummary {
    /// The address requested (as linked or listed in the sitemap).
    pub url: String,
    /// The address that finally answered.
    pub final_url: String,
    /// Final status, `null` when no response came.
    pub status: Option<u16>,
    /// Clicks from the start page; `null` when only the sitemap led to it.
    pub depth: Option<u32>,
    /// Redirects before the final response.
    #[serde(default)]
    pub redirects: Vec<RedirectHop>,
    /// Why the page could not be fetched.
    pub error: Option<String>,
    /// Links to the same site (HTML pages only).
    pub internal_links: Option<u32>,
    /// Links to other sites (HTML pages only).
    pub external_links: Option<u32>,
    /// Words of body text (HTML pages only).
    pub word_count: Option<u32>,
}

/// The crawl's pages and the link findings across them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct InternalLinkAnalysis {
    /// Pages crawled.
    pub pages_crawled: u32,
    /// Same-site link targets checked without being crawled as pages.
    pub link_targets_checked: u32,
    /// Same-site addresses robots.txt kept Sitelens from fetching.
    pub blocked_by_robots: Vec<String>,
    /// Every crawled page.
    pub pages: Vec<CrawledPageSummary>,
    /// The site link findings (`links.*`).
    pub findings: Vec<Finding>,
}

/// A frequent word of a page's text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct KeywordCount {
    /// The word, lower-case.
    pub keyword: String,
    /// Times it occurs.
    pub count: u32,
}

/// One page's text at a glance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PageContentSummary {
    /// The page's final address.
    pub url: String,
    /// Words of body text.
    pub word_count: u32,
    /// Its first title, if any.
    pub title: Option<String>,
    /// Its first H1, if any.
    pub h1: Option<String>,
    /// Its five most frequent words.
    pub top_keywords: Vec<KeywordCount>,
}

/// Content quality across the crawled pages.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ContentQualityAssessment {
    /// Content score, 0-100.
    pub score: u32,
    /// Every HTML page.
    pub pages: Vec<PageContentSummary>,
    /// The content findings (`content.*`).
    pub findings: Vec<Finding>,
}

/// Meta tag suggestions for one page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PageMetaSuggestions {
    /// The page's final address.
    pub url: String,
    /// The title element.
    pub title: MetaSuggestion,
    /// The meta description.
    pub description: MetaSuggestion,
    /// Open Graph tags.
    pub og_tags: OgTagSuggestions,
}

/// Heading structure and suggestions for one page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PageHeaderSuggestions {
    /// The page's final address.
    pub url: String,
    /// Its headings in order, as `H2: text`.
    pub outline: Vec<String>,
    /// What was found.
    pub analysis: String,
    /// Current heading → suggested heading.
    pub suggestions: BTreeMap<String, String>,
}

/// One allow or disallow rule of robots.txt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct RobotsRule {
    /// True for `Allow`, false for `Disallow`.
    pub allow: bool,
    /// The path pattern (`*` wildcards, `$` end anchor).
    pub pattern: String,
}

/// A group of robots.txt rules for one or more user agents.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct RobotsGroup {
    /// Product tokens, lower-case.
    pub agents: Vec<String>,
    /// Rules in file order.
    pub rules: Vec<RobotsRule>,
}

/// A robots.txt line that breaks the format.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct RobotsProblem {
    /// Line number, 1-based.
    pub line: u32,
    /// The line as written.
    pub content: String,
    /// What is wrong.
    pub message: String,
}

/// robots.txt as fetched and read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct RobotsAnalysis {
    /// Its address.
    pub url: String,
    /// HTTP status, `null` when the request failed.
    pub status: Option<u16>,
    /// Whether a robots.txt was read.
    pub found: bool,
    /// Why it could not be fetched or read.
    pub error: Option<String>,
    /// Its groups in file order.
    pub groups: Vec<RobotsGroup>,
    /// Its `Sitemap:` addresses.
    pub sitemaps: Vec<String>,
    /// Lines that break the format.
    pub errors: Vec<RobotsProblem>,
    /// Whether it keeps crawlers off the start page.
    pub blocks_start_page: bool,
    /// Linked same-site pages it blocks, as short paths.
    pub blocked_linked_pages: Vec<String>,
}

/// What a sitemap document is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub enum SitemapKind {
    /// A `<urlset>`: a list of pages.
    UrlSet,
    /// A `<sitemapindex>`: a list of further sitemaps.
    Index,
}

/// One sitemap document as fetched.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SitemapDocument {
    /// Its address.
    pub url: String,
    /// How it was found: `robots.txt`, `default path` or `sitemap index`.
    pub found_via: String,
    /// HTTP status, when a response came.
    pub status: Option<u16>,
    /// Url set or index, when it could be read.
    pub kind: Option<SitemapKind>,
    /// Its `<loc>` entries, when it could be read.
    pub entries: Option<u32>,
    /// Entries without an absolute http(s) `<loc>`, when it could be read.
    pub invalid_entries: Option<u32>,
    /// Why it could not be read.
    pub error: Option<String>,
}

/// sitemap.xml as fetched and read.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SitemapAnalysis {
    /// The documents read, the first one first.
    pub documents: Vec<SitemapDocument>,
    /// Distinct page addresses they list.
    pub url_count: u32,
    /// The sitemap findings (`seo.sitemap*`).
    pub findings: Vec<Finding>,
}
