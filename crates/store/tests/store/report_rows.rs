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
