//! Report assembly: findings into section groups, scores through `domain`, performance metrics
//! with honest estimates, the action plan, and the professional extras.

use std::collections::BTreeMap;

use domain::performance::{MeasuredMetrics, fill_fallbacks, generate_diagnostics, is_pro_only};
use domain::professional::{
    BacklinkAnalysis, BacklinkFailure, ContentQualityAssessment, CrawledPageSummary,
    InternalLinkAnalysis, KeywordCount, PageContentSummary, PageHeaderSuggestions,
    PageMetaSuggestions, RedirectHop, RobotsAnalysis, RobotsGroup, RobotsProblem, RobotsRule,
    SitemapAnalysis, SitemapDocument, SitemapKind,
};
use domain::report::{
    ActionItem, AnalysisReport, Diagnostic, DiagnosticDetail, DiagnosticType, Finding, FindingType,
    LabScores, LighthouseResult, PerformanceMetrics, Priority, ProfessionalAnalysis, ReportType,
    Scores, Screenshots, SectionGroup,
};
use domain::score::{findings_score, group_status, overall_score};

use crate::advisor::Advice;
use crate::authority::AuthorityReport;
use crate::checks::{Section, Tagged, short_url};
use crate::crawl::SiteData;
use crate::tech::Technology;

/// Everything the report is built from.
pub struct ReportInput<'a> {
    /// Report id.
    pub id: String,
    /// The canonical address analysed.
    pub url: String,
    /// Which report.
    pub report_type: ReportType,
    /// The crawl.
    pub site: &'a SiteData,
    /// All findings, merged across pages.
    pub findings: Vec<Tagged>,
    /// Detected technologies.
    pub tech: &'a [Technology],
    /// Advice for the start page.
    pub advice: Advice,
    /// Advice for every crawled page (professional reports), by URL.
    pub page_advice: Vec<(String, Advice)>,
    /// Backlinks and authority (professional reports).
    pub authority: Option<Result<AuthorityReport, String>>,
    /// When it finished, RFC 3339.
    pub created_at: String,
}

/// The Technology Stack group is informational: it is shown but not scored.
const UNSCORED_GROUPS: &[&str] = &["Technology Stack"];

fn groups(findings: &[Tagged], section: Section) -> Vec<SectionGroup> {
    let mut order: Vec<&'static str> = Vec::new();
    let mut by: BTreeMap<&'static str, Vec<Finding>> = BTreeMap::new();
    for t in findings.iter().filter(|t| t.section == section) {
        if !by.contains_key(t.group) {
            order.push(t.group);
        }
        by.entry(t.group).or_default().push(t.finding.clone());
    }
    // The Technology Stack leads the Technical tab (docs/PRODUCT.md §2.6.6: a highlighted group).
    order.sort_by_key(|g| if *g == "Technology Stack" { 0 } else { 1 });
    order
        .into_iter()
        .filter_map(|g| {
            let findings = by.remove(g)?;
            Some(SectionGroup {
                title: g.to_owned(),
                status: group_status(&findings),
                findings,
            })
        })
        .collect()
}

fn score_of(findings: &[Tagged], section: Section) -> u32 {
    let list: Vec<Finding> = findings
        .iter()
        .filter(|t| t.section == section && !UNSCORED_GROUPS.contains(&t.group))
        .map(|t| t.finding.clone())
        .collect();
    findings_score(&list)
}

/// Lighthouse SEO category weights (is-crawlable weighs 4.043, the rest 1; manual audits 0),
/// applied to `verdicts` (audit id, passed). An audit may have several verdicts: it passes when
/// none fails. An audit without a verdict is left out, as Lighthouse leaves out an audit that
/// is not applicable, except `hreflang`: Lighthouse always scores it, and a page without
/// hreflang links passes it (we report nothing then).
pub(crate) fn lighthouse_seo_score<'a>(
    verdicts: impl IntoIterator<Item = (&'a str, bool)>,
) -> Option<u32> {
    const AUDITS: &[(&str, f64)] = &[
        ("is-crawlable", 4.043),
        ("document-title", 1.0),
        ("meta-description", 1.0),
        ("http-status-code", 1.0),
        ("link-text", 1.0),
        ("crawlable-anchors", 1.0),
        ("robots-txt", 1.0),
        ("image-alt", 1.0),
        ("hreflang", 1.0),
        ("canonical", 1.0),
    ];
    let verdicts: Vec<(&str, bool)> = verdicts.into_iter().collect();
    let mut sum = 0.0;
    let mut weight = 0.0;
    for (audit, w) in AUDITS {
        let mut mine = verdicts.iter().filter(|(a, _)| a == audit).peekable();
        if mine.peek().is_none() && *audit != "hreflang" {
            continue;
        }
        let pass = mine.all(|(_, passed)| *passed);
        sum += if pass { *w } else { 0.0 };
        weight += w;
    }
    (weight > 0.0).then(|| (sum / weight * 100.0).round() as u32)
}

/// The verdict a finding gives its Lighthouse audit, if it carries one. Lighthouse audits are
/// binary: only an issue fails; a warning tied to an audit passes there.
pub(crate) fn audit_verdict(f: &Finding) -> Option<(&str, bool)> {
    Some((f.audit.as_deref()?, f.kind != FindingType::Issue))
}

fn impact(section: Section, group: &str) -> &'static str {
    match (section, group) {
        (Section::Seo, "Crawling & Indexing") => {
            "Decides whether the page can appear in search results at all"
        }
        (Section::Seo, "Meta Tags") => "Higher click-through from search results",
        (Section::Seo, "Links") => "Better crawling and ranking signals across the site",
        (Section::Seo, "Content") => "Ranks for more searches and keeps visitors reading",
        (Section::Seo, _) => "Better search visibility",
        (Section::Technical, "Security") => "Protects visitors and earns browser and search trust",
        (Section::Technical, _) => "A sounder, more reliable site",
        (Section::Performance, _) => "Faster pages: fewer visitors leave before the page loads",
        (Section::Design, _) => "A better experience on every device, for every visitor",
    }
}

/// The action plan: every non-good finding becomes an item; issues are high priority, warnings
/// that match a Lighthouse audit medium, other warnings low. Ordered by `domain`.
pub fn action_items(findings: &[Tagged]) -> Vec<ActionItem> {
    let mut items: Vec<ActionItem> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for t in findings {
        let f = &t.finding;
        if f.kind == FindingType::Good || !seen.insert(f.id.clone()) {
            continue;
        }
        let priority = match (f.kind, f.audit.is_some()) {
            (FindingType::Issue, _) => Priority::High,
            (_, true) => Priority::Medium,
            _ => Priority::Low,
        };
        items.push(ActionItem {
            priority,
            title: f.title.clone(),
            description: match &f.solution {
                Some(s) => format!("{} {s}", f.description),
                None => f.description.clone(),
            },
            impact: impact(t.section, t.group).to_owned(),
        });
    }
    domain::advice::sort_action_items(&mut items);
    items
}

fn http_diagnostics(site: &SiteData) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut push = |mut d: Diagnostic| {
        d.pro_only = is_pro_only(&d);
        out.push(d);
    };
    let start = site.start_page();
    if let Ok(f) = &start.fetched {
        let ms = f.ttfb.as_millis() as f64;
        if ms > 600.0 {
            push(Diagnostic {
                id: "perf.ttfb".to_owned(),
                kind: if ms > 1800.0 {
                    DiagnosticType::Error
                } else {
                    DiagnosticType::Warning
                },
                title: "Reduce initial server response time".to_owned(),
                description: format!(
                    "The server took {ms:.0} ms to send the first byte; under 600 ms is good."
                ),
                value: format!("{ms:.0} ms"),
                potential: format!("{:.0} ms", ms - 600.0),
                solution: "Cache rendered pages and use a CDN.".to_owned(),
                details: Vec::new(),
                pro_only: false,
            });
        }
    }
    if let Some(doc) = &start.doc {
        let blocking: Vec<&str> = doc
            .scripts
            .iter()
            .filter(|s| s.in_head && !s.non_blocking && !s.is_data)
            .filter_map(|s| s.src.as_deref())
            .chain(
                doc.stylesheets
                    .iter()
                    .filter(|s| s.in_head && !s.non_blocking_media)
                    .map(|s| s.href.as_str()),
            )
            .collect();
        if !blocking.is_empty() {
            let details: Vec<DiagnosticDetail> = blocking
                .iter()
                .map(|u| {
                    let bytes = site
                        .assets
                        .iter()
                        .find(|a| a.url == *u)
                        .map(|a| a.transfer_bytes as f64)
                        .unwrap_or(0.0);
                    DiagnosticDetail {
                        url: (*u).to_owned(),
                        wasted_bytes: bytes,
                        total_bytes: bytes,
                    }
                })
                .collect();
            let total: f64 = details.iter().map(|d| d.total_bytes).sum();
            push(Diagnostic {
                id: "perf.render-blocking".to_owned(),
                kind: DiagnosticType::Warning,
                title: "Eliminate render-blocking resources".to_owned(),
                description: format!(
                    "{} scripts and stylesheets in the head delay the first paint.",
                    blocking.len()
                ),
                value: format!("{} resources", blocking.len()),
                potential: format!("{:.0} KB", total / 1024.0),
                solution: "Defer scripts and inline critical CSS.".to_owned(),
                details,
                pro_only: false,
            });
        }
    }
    let mut large: Vec<&crate::crawl::Asset> = site
        .assets
        .iter()
        .filter(|a| a.transfer_bytes > 150 * 1024)
        .collect();
    large.sort_by_key(|a| std::cmp::Reverse(a.transfer_bytes));
    if !large.is_empty() {
        let total: u64 = large.iter().map(|a| a.transfer_bytes).sum();
        push(Diagnostic {
            id: "perf.large-assets".to_owned(),
            kind: DiagnosticType::Info,
            title: "Large resources".to_owned(),
            description: format!("{} resources are larger than 150 KB.", large.len()),
            value: format!("{:.0} KB", total as f64 / 1024.0),
            potential: String::new(),
            solution: "Compress and resize images, split large scripts.".to_owned(),
            details: large
                .iter()
                .map(|a| DiagnosticDetail {
                    url: a.url.clone(),
                    wasted_bytes: 0.0,
                    total_bytes: a.transfer_bytes as f64,
                })
                .collect(),
            pro_only: false,
        });
    }
    out
}

fn performance(input: &ReportInput<'_>, perf_score: u32, seo_ring: u32) -> PerformanceMetrics {
    let site = input.site;
    let start = site.start_page();
    let html_bytes = start.fetched.as_ref().map_or(0, |f| f.transfer_bytes);
    // What HTTP measures is measured; what needs a browser is filled from the spec's fallback
    // values and named in `estimated`.
    let measured = MeasuredMetrics {
        page_size: Some(
            (html_bytes + site.assets.iter().map(|a| a.transfer_bytes).sum::<u64>()) as f64,
        ),
        request_count: Some((1 + site.assets.len()) as f64),
        ..MeasuredMetrics::default()
    };
    let filled = fill_fallbacks(&measured);
    let mut estimated = filled.estimated.clone();
    // Time to Interactive has no fallback in the spec; without a browser it is estimated as the
    // load time fallback and named as such.
    estimated.push("timeToInteractive".to_owned());
    let mut diagnostics = generate_diagnostics(&measured);
    diagnostics.extend(http_diagnostics(site));
    let lighthouse_results: Vec<LighthouseResult> = input
        .findings
        .iter()
        .filter(|t| t.finding.audit.is_some())
        .map(|t| LighthouseResult {
            title: format!(
                "{} ({})",
                t.finding.title,
                t.finding.audit.as_deref().unwrap_or("")
            ),
            description: t.finding.description.clone(),
        })
        .collect();
    PerformanceMetrics {
        first_contentful_paint: filled.first_contentful_paint,
        largest_contentful_paint: filled.largest_contentful_paint,
        cumulative_layout_shift: filled.cumulative_layout_shift,
        total_blocking_time: filled.total_blocking_time,
        speed_index: filled.speed_index,
        time_to_interactive: filled.estimated_load_time,
        estimated_load_time: filled.estimated_load_time,
        page_size: filled.page_size,
        request_count: filled.request_count.round() as u32,
        mobile_score: perf_score,
        accessibility_score: filled.accessibility_score.round() as u32,
        best_practices_score: filled.best_practices_score.round() as u32,
        seo_score: seo_ring,
        scores: LabScores {
            performance: perf_score,
            accessibility: filled.accessibility_score.round() as u32,
            best_practices: filled.best_practices_score.round() as u32,
            seo: seo_ring,
        },
        diagnostics,
        lighthouse_results,
        meta_tag_suggestions: Some(input.advice.meta_tags.clone()),
        content_optimizations: Some(input.advice.content.clone()),
        premium_optimizations: None,
        estimated,
        lab_runs: Vec::new(),
    }
}

/// A count as the contract's `u32`, saturating (no crawl or link graph comes near the limit).
pub(crate) fn count<N: TryInto<u32>>(n: N) -> u32 {
    n.try_into().unwrap_or(u32::MAX)
}

/// The findings whose id starts with `prefix`, in report order.
fn findings_with(input: &ReportInput<'_>, prefix: &str) -> Vec<Finding> {
    input
        .findings
        .iter()
        .filter(|t| t.finding.id.starts_with(prefix))
        .map(|t| t.finding.clone())
        .collect()
}

fn internal_link_analysis(input: &ReportInput<'_>) -> InternalLinkAnalysis {
    let site = input.site;
    let pages = site
        .pages
        .iter()
        .map(|p| {
            let links = |same: bool| {
                p.doc.as_ref().map(|d| {
                    count(
                        d.anchors
                            .iter()
                            .filter(|a| {
                                a.url.as_ref().is_some_and(|u| {
                                    crate::crawl::same_site(p.final_url(), u) == same
                                })
                            })
                            .count(),
                    )
                })
            };
            CrawledPageSummary {
                url: p.url.to_string(),
                final_url: p.final_url().to_string(),
                status: p.status(),
                depth: p.depth,
                redirects: p
                    .fetched
                    .as_ref()
                    .map(|f| {
                        f.hops
                            .iter()
                            .map(|h| RedirectHop {
                                url: h.url.clone(),
                                status: h.status,
                            })
                            .collect()
                    })
                    .unwrap_or_default(),
                error: p.fetched.as_ref().err().cloned(),
                internal_links: links(true),
                external_links: links(false),
                word_count: p.doc.as_ref().map(|d| count(d.word_count)),
            }
        })
        .collect();
    InternalLinkAnalysis {
        pages_crawled: count(site.pages.len()),
        link_targets_checked: count(site.internal_links.len()),
        blocked_by_robots: site.blocked_by_robots.clone(),
        pages,
        findings: findings_with(input, "links."),
    }
}

fn content_quality_assessment(
    input: &ReportInput<'_>,
    content_score: u32,
) -> ContentQualityAssessment {
    let pages = input
        .site
        .pages
        .iter()
        .filter_map(|p| {
            p.doc.as_ref().map(|d| PageContentSummary {
                url: p.final_url().to_string(),
                word_count: count(d.word_count),
                title: d.titles.first().cloned(),
                h1: d
                    .headings
                    .iter()
                    .find(|(l, _)| *l == 1)
                    .map(|(_, t)| t.clone()),
                top_keywords: crate::checks::content::top_keywords(&d.text, 5)
                    .into_iter()
                    .map(|(keyword, c)| KeywordCount {
                        keyword,
                        count: count(c),
                    })
                    .collect(),
            })
        })
        .collect();
    ContentQualityAssessment {
        score: content_score,
        pages,
        findings: findings_with(input, "content."),
    }
}

fn header_suggestions(input: &ReportInput<'_>) -> Vec<PageHeaderSuggestions> {
    input
        .page_advice
        .iter()
        .map(|(u, a)| {
            let outline: Vec<String> = input
                .site
                .pages
                .iter()
                .find(|p| p.final_url().as_str() == u)
                .and_then(|p| p.doc.as_ref())
                .map(|d| {
                    d.headings
                        .iter()
                        .map(|(l, t)| format!("H{l}: {t}"))
                        .collect()
                })
                .unwrap_or_default();
            PageHeaderSuggestions {
                url: u.clone(),
                outline,
                analysis: a.content.headings.analysis.clone(),
                suggestions: a.content.headings.suggestions.clone(),
            }
        })
        .collect()
}

fn robots_analysis(site: &SiteData) -> RobotsAnalysis {
    let r = &site.robots;
    let parsed = r.robots.as_ref();
    RobotsAnalysis {
        url: r.url.clone(),
        status: r.status,
        found: parsed.is_some(),
        error: r.error.clone(),
        groups: parsed
            .map(|x| {
                x.groups
                    .iter()
                    .map(|g| RobotsGroup {
                        agents: g.agents.clone(),
                        rules: g
                            .rules
                            .iter()
                            .map(|rule| RobotsRule {
                                allow: rule.allow,
                                pattern: rule.pattern.clone(),
                            })
                            .collect(),
                    })
                    .collect()
            })
            .unwrap_or_default(),
        sitemaps: parsed.map(|x| x.sitemaps.clone()).unwrap_or_default(),
        errors: parsed
            .map(|x| {
                x.errors
                    .iter()
                    .map(|e| RobotsProblem {
                        line: count(e.line),
                        content: e.content.clone(),
                        message: e.message.clone(),
                    })
                    .collect()
            })
            .unwrap_or_default(),
        blocks_start_page: !r.allows(crate::config::ROBOTS_TOKEN, site.start_page().final_url()),
        blocked_linked_pages: site
            .blocked_by_robots
            .iter()
            .map(|u| short_url(u))
            .collect(),
    }
}

fn sitemap_analysis(input: &ReportInput<'_>) -> SitemapAnalysis {
    let site = input.site;
    SitemapAnalysis {
        documents: site
            .sitemaps
            .iter()
            .map(|s| {
                let doc = s.parsed.as_ref().ok();
                SitemapDocument {
                    url: s.url.clone(),
                    found_via: s.found_via.to_owned(),
                    status: s.status,
                    kind: doc.map(|d| match d.kind {
                        crate::sitemap::SitemapKind::UrlSet => SitemapKind::UrlSet,
                        crate::sitemap::SitemapKind::Index => SitemapKind::Index,
                    }),
                    entries: doc.map(|d| count(d.locs.len())),
                    invalid_entries: doc.map(|d| count(d.invalid_entries)),
                    error: s.parsed.as_ref().err().cloned(),
                }
            })
            .collect(),
        url_count: count(site.sitemap_urls.len()),
        findings: findings_with(input, "seo.sitemap"),
    }
}

fn professional(input: &ReportInput<'_>, content_score: u32) -> ProfessionalAnalysis {
    let meta_tag_suggestions = input
        .page_advice
        .iter()
        .map(|(u, a)| PageMetaSuggestions {
            url: u.clone(),
            title: a.meta_tags.title.clone(),
            description: a.meta_tags.description.clone(),
            og_tags: a.meta_tags.og_tags.clone(),
        })
        .collect();
    let (domain_authority, backlink_analysis) = match &input.authority {
        Some(Ok(a)) => (
            a.domain_authority,
            Some(BacklinkAnalysis::Figures(a.backlinks.clone())),
        ),
        Some(Err(e)) => (
            None,
            Some(BacklinkAnalysis::Failed(BacklinkFailure {
                error: e.clone(),
            })),
        ),
        None => (None, None),
    };
    ProfessionalAnalysis {
        domain_authority,
        content_quality: Some(content_score),
        backlink_analysis,
        internal_link_analysis: internal_link_analysis(input),
        content_quality_assessment: content_quality_assessment(input, content_score),
        meta_tag_suggestions,
        header_suggestions: header_suggestions(input),
        robots_analysis: robots_analysis(input.site),
        sitemap_analysis: sitemap_analysis(input),
    }
}

/// Build the report.
pub fn build(input: ReportInput<'_>) -> AnalysisReport {
    let seo = score_of(&input.findings, Section::Seo);
    let design = score_of(&input.findings, Section::Design);
    let technical = score_of(&input.findings, Section::Technical);
    let perf = score_of(&input.findings, Section::Performance);
    let seo_ring = lighthouse_seo_score(
        input
            .findings
            .iter()
            .filter_map(|t| audit_verdict(&t.finding)),
    )
    .unwrap_or(seo);
    let content_findings: Vec<Finding> = input
        .findings
        .iter()
        .filter(|t| t.group == "Content")
        .map(|t| t.finding.clone())
        .collect();
    let content_score = findings_score(&content_findings);
    let performance_analysis = performance(&input, perf, seo_ring);
    let professional = input
        .report_type
        .is_professional()
        .then(|| professional(&input, content_score));
    // Without a browser, the palette and fonts are read from the CSS the site declares.
    let start = input.site.start_page();
    let css: Vec<&str> = start
        .doc
        .iter()
        .flat_map(|d| d.inline_css.iter().map(String::as_str))
        .chain(input.site.assets.iter().filter_map(|a| a.css.as_deref()))
        .collect();
    let (colors, fonts) = crate::styles::palette(&css, 8, 4);
    AnalysisReport {
        id: input.id.clone(),
        url: input.url.clone(),
        report_type: input.report_type,
        // The worker stores whether it was paid for; the analyzer only builds it.
        paid: false,
        pages_analyzed: input.site.pages.len() as u32,
        created_at: input.created_at.clone(),
        scores: Scores {
            overall: overall_score(seo, design, technical, perf),
            seo,
            design,
            technical,
            performance: perf,
        },
        seo_analysis: groups(&input.findings, Section::Seo),
        design_analysis: groups(&input.findings, Section::Design),
        // Performance findings are scored apart but shown on the Technical tab, since the
        // Performance tab reads metrics, not groups.
        technical_analysis: {
            let mut g = groups(&input.findings, Section::Technical);
            g.extend(groups(&input.findings, Section::Performance));
            g
        },
        performance_analysis,
        action_items: action_items(&input.findings),
        website_colors: colors,
        website_fonts: fonts,
        screenshots: Screenshots::default(),
        professional,
        branding: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checks::{good, issue};

    fn tagged(audit: &str, pass: bool) -> Finding {
        let id = format!("seo.{audit}");
        if pass {
            good(&id, Some(audit), "ok", "ok")
        } else {
            issue(&id, Some(audit), "bad", "bad", "fix")
        }
    }

    fn score(findings: &[Finding]) -> Option<u32> {
        lighthouse_seo_score(findings.iter().filter_map(audit_verdict))
    }

    #[test]
    fn the_seo_score_counts_the_audits_lighthouse_counts() {
        // A page without hreflang links, canonical or robots.txt, with a meta description
        // missing: Lighthouse scores is-crawlable (4.043), title, description, status code, link
        // text, crawlable anchors and hreflang (passed), so one failure out of 10.043 gives 90.
        let mut findings: Vec<Finding> = [
            "is-crawlable",
            "document-title",
            "http-status-code",
            "link-text",
            "crawlable-anchors",
        ]
        .iter()
        .map(|a| tagged(a, true))
        .collect();
        findings.push(tagged("meta-description", false));
        assert_eq!(score(&findings), Some(90));
        // A failed hreflang link counts as the failure it is: two out of 10.043.
        findings.push(tagged("hreflang", false));
        assert_eq!(score(&findings), Some(80));
        // Images, robots.txt and a canonical count once there is a verdict on them.
        findings.push(tagged("image-alt", true));
        findings.push(tagged("robots-txt", true));
        findings.push(tagged("canonical", false));
        assert_eq!(score(&findings), Some(77));
    }
}
