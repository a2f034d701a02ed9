//! A report survives its trip through the result row, and a row this version cannot read is a
//! data error, never a panic or "not found".

use domain::report::{AnalysisReport, ReportType};
use serde_json::json;
use store::StoreError;
use store::jobs::{NewAnalysis, claim_next_job, complete_job, enqueue_analysis};
use store::results::{NewResult, get_report, get_summary, insert_result};

use crate::support::both;

/// The analyzer's premium snapshot: a real report with every section and professional extras.
pub(crate) fn premium_report() -> AnalysisReport {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../analyzer/tests/snapshots/analyzer__snapshots__premium_report_of_the_planted_site.snap"
    );
    let text = std::fs::read_to_string(path).expect("the analyzer's premium snapshot");
    // An insta snapshot is a `---` header followed by the value.
    let json = text.splitn(3, "---\n").nth(2).expect("snapshot body");
    serde_json::from_str(json).expect("the snapshot is a report")
}

both!(a_report_survives_its_row, |db, engine| {
    let mut report = premium_report();
    report.url = "https://shop.example/".to_owned();
    report.screenshots.desktop = Some("/files/shots/desktop.png".to_owned());
    report.screenshots.mobile = Some("file:///tmp/mobile.png".to_owned());
    enqueue_analysis(
        &db,
        &NewAnalysis {
            url: report.url.clone(),
            canonical_url: report.url.clone(),
            report_type: ReportType::Premium,
            requested_pages: 20,
            requester_user_id: None,
            requester_ip: None,
        },
    )
    .await
    .expect("enqueue");
    let job = claim_next_job(&db, "w").await.expect("claim").expect("job");
    let row = NewResult::from_report(&report).expect("row");
    assert_eq!(row.screenshot_desktop.as_deref(), Some("shots/desktop.png"));
    assert_eq!(
        row.screenshot_mobile, None,
        "only blobs we serve are stored"
    );
    let id = complete_job(&db, job.id, "w", &row)
        .await
        .expect("complete");

    let stored = get_report(&db, id).await.expect("report");
    assert_eq!(stored.id, id.to_string());
    chrono::DateTime::parse_from_rfc3339(&stored.created_at).expect("RFC 3339 time");
    let expected = AnalysisReport {
        id: stored.id.clone(),
        created_at: stored.created_at.clone(),
        screenshots: domain::report::Screenshots {
            desktop: Some("/files/shots/desktop.png".to_owned()),
            mobile: None,
        },
        ..report.clone()
    };
    assert_eq!(stored, expected, "{engine:?}");

    let summary = get_summary(&db, id).await.expect("summary");
    assert_eq!(summary.url, report.url);
    assert_eq!(summary.scores, report.scores);
});

both!(an_unreadable_row_is_a_data_error, |db, engine| {
    let site = store::websites::record_website_analysis(&db, "https://odd.example/", store::now())
        .await
        .expect("site");
    let row = NewResult {
        seo_findings: json!({"not": "a list of groups"}),
        ..NewResult::default()
    };
    let id = insert_result(
        &db,
        site.id,
        "https://odd.example/",
        ReportType::Basic,
        &row,
    )
    .await
    .expect("insert");
    match get_report(&db, id).await {
        Err(StoreError::Data { what, source }) => {
            assert!(what.contains("seo_findings"), "{what}");
            assert!(source.is_some(), "the JSON error is kept as the source");
        }
        other => panic!("{engine:?}: expected a data error, got {other:?}"),
    }
    assert!(matches!(
        get_report(&db, uuid::Uuid::new_v4()).await,
        Err(StoreError::NotFound)
    ));
});

/// The professional columns of a report stored while those sections were untyped JSON (the
/// fixture `crates/domain` reads too), and of older reports without some of them.
fn stored_professional_columns() -> serde_json::Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../domain/tests/stored/premium-report-before-typed-sections.json"
    );
    let text = std::fs::read_to_string(path).expect("the stored report fixture");
    let report: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    report["professional"].clone()
}

both!(
    a_row_stored_before_the_sections_were_typed_still_reads,
    |db, engine| {
        let pro = stored_professional_columns();
        let site =
            store::websites::record_website_analysis(&db, "https://old.example/", store::now())
                .await
                .expect("site");
        let row = NewResult {
            content_quality: Some(42),
            backlink_analysis: Some(pro["backlinkAnalysis"].clone()),
            internal_link_analysis: Some(pro["internalLinkAnalysis"].clone()),
            content_quality_assessment: Some(pro["contentQualityAssessment"].clone()),
            meta_tag_suggestions: Some(pro["metaTagSuggestions"].clone()),
            header_suggestions: Some(pro["headerSuggestions"].clone()),
            robots_analysis: Some(pro["robotsAnalysis"].clone()),
            sitemap_analysis: Some(pro["sitemapAnalysis"].clone()),
            performance_analysis: Some(
                serde_json::to_value(premium_report().performance_analysis).expect("JSON"),
            ),
            ..NewResult::default()
        };
        let id = insert_result(
            &db,
            site.id,
            "https://old.example/",
            ReportType::Standard,
            &row,
        )
        .await
        .expect("insert");
        let report = get_report(&db, id).await.expect("the old row reads");
        let read = report.professional.expect("professional sections");
        assert_eq!(
            serde_json::to_value(&read).expect("JSON"),
            pro,
            "{engine:?}: the typed sections hold exactly what was stored"
        );

        // A row written before the sections other than backlinks were kept reads them as empty.
        let older = NewResult {
            backlink_analysis: Some(json!({"error": "the link graph is unavailable"})),
            performance_analysis: row.performance_analysis.clone(),
            ..NewResult::default()
        };
        let id = insert_result(
            &db,
            site.id,
            "https://old.example/",
            ReportType::Standard,
            &older,
        )
        .await
        .expect("insert");
        let read = get_report(&db, id)
            .await
            .expect("the older row reads")
            .professional
            .expect("professional sections");
        assert!(matches!(
            read.backlink_analysis,
            Some(domain::professional::BacklinkAnalysis::Failed(_))
        ));
        assert!(read.internal_link_analysis.pages.is_empty());
        assert!(read.robots_analysis.groups.is_empty());
        assert!(read.meta_tag_suggestions.is_empty());
    }
);
