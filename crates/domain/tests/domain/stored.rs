//! Reports stored before the professional sections were typed still read, unchanged.
//!
//! `tests/stored/premium-report-before-typed-sections.json` is a premium report as the analyzer
//! wrote it while those sections were untyped JSON (its snapshot of the planted fixture site);
//! the older backlink shapes below are what it wrote before followed links were counted, when the
//! link graph failed, and without a link graph.

use domain::professional::{BacklinkAnalysis, SitemapKind};
use domain::report::AnalysisReport;
use serde_json::{Value, json};

fn stored_report() -> Value {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/stored/premium-report-before-typed-sections.json"
    ))
    .expect("the stored report fixture");
    serde_json::from_str(&text).expect("the fixture is JSON")
}

#[test]
fn a_report_stored_before_the_sections_were_typed_reads_and_writes_back_the_same() {
    let stored = stored_report();
    let report: AnalysisReport =
        serde_json::from_value(stored.clone()).expect("the stored report reads");
    let pro = report.professional.as_ref().expect("professional sections");

    let Some(BacklinkAnalysis::Figures(backlinks)) = &pro.backlink_analysis else {
        panic!("backlink figures expected: {:?}", pro.backlink_analysis)
    };
    assert_eq!(backlinks.provider, "sitelens-link-graph");
    assert_eq!(backlinks.evidence.pages_in_graph, 11);
    assert_eq!(backlinks.authority_score, None);
    let links = &pro.internal_link_analysis;
    assert_eq!(links.pages_crawled, 13);
    assert_eq!(links.pages.len(), 13);
    assert!(
        links
            .pages
            .iter()
            .any(|p| p.url.ends_with("/orphan") && p.depth.is_none())
    );
    assert!(
        links
            .findings
            .iter()
            .any(|f| f.id == "links.broken-internal")
    );
    assert_eq!(pro.content_quality_assessment.score, 42);
    assert!(
        pro.content_quality_assessment.pages[0]
            .top_keywords
            .iter()
            .all(|k| k.count > 0)
    );
    assert_eq!(pro.meta_tag_suggestions.len(), pro.header_suggestions.len());
    assert_eq!(
        pro.header_suggestions[0].outline,
        ["H1: Handmade oak furniture"]
    );
    assert_eq!(
        pro.robots_analysis.blocked_linked_pages,
        ["/private/secret"]
    );
    assert_eq!(pro.robots_analysis.groups[0].rules[0].pattern, "/private/");
    assert_eq!(pro.sitemap_analysis.url_count, 6);
    assert_eq!(
        pro.sitemap_analysis.documents[0].kind,
        Some(SitemapKind::UrlSet)
    );

    // Written back, it is the same JSON: the types hold every field the untyped sections had.
    // The one field added since, `paid`, reads as false (a stored report was not paid for unless
    // its row says so).
    let mut written = serde_json::to_value(&report).expect("serializes");
    let paid = written
        .as_object_mut()
        .and_then(|o| o.remove("paid"))
        .expect("the paid flag is written");
    assert_eq!(paid, Value::Bool(false));
    assert_eq!(written, stored);
}

#[test]
fn older_backlink_shapes_still_read() {
    let base = stored_report();
    let with_backlinks = |backlinks: Value| {
        let mut report = base.clone();
        report["professional"]["backlinkAnalysis"] = backlinks;
        serde_json::from_value::<AnalysisReport>(report)
            .expect("reads")
            .professional
            .expect("professional sections")
            .backlink_analysis
    };

    // Before followed links were counted: no followedBacklinks, no followedLinks.
    let before_followed = json!({
        "provider": "sitelens-link-graph",
        "domain": "shop.example",
        "evidence": {"pagesInGraph": 40, "domainsInGraph": 3},
        "backlinks": 2,
        "referringDomains": 1,
        "topReferringDomains": [{"domain": "blog.example", "links": 2}],
        "authorityScore": 37,
        "note": "2 links from 1 sites point to shop.example."
    });
    let Some(BacklinkAnalysis::Figures(f)) = with_backlinks(before_followed) else {
        panic!("figures expected")
    };
    assert_eq!((f.backlinks, f.followed_backlinks), (2, 0));
    assert_eq!(f.top_referring_domains[0].domain, "blog.example");
    assert_eq!(f.top_referring_domains[0].followed_links, 0);
    assert_eq!(f.authority_score, Some(37));

    // The link graph failed.
    let failed = with_backlinks(json!({"error": "the link graph is unavailable"}));
    let Some(BacklinkAnalysis::Failed(failure)) = failed else {
        panic!("a failure expected, got {failed:?}")
    };
    assert_eq!(failure.error, "the link graph is unavailable");

    // Built without a link graph.
    assert_eq!(with_backlinks(Value::Null), None);
}

#[test]
fn a_malformed_section_is_an_error_not_a_guess() {
    let mut report = stored_report();
    report["professional"]["robotsAnalysis"]["groups"] = json!("not a list");
    assert!(serde_json::from_value::<AnalysisReport>(report).is_err());
}
