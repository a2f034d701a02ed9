//! Websites by canonical URL, results by id, and the stats counters.

use chrono::{Duration, TimeZone, Utc};
use domain::report::ReportType;
use sea_orm::{EntityTrait, PaginatorTrait};
use serde_json::json;
use store::StoreError;
use store::entity::websites;
use store::results::{NewResult, get_result, insert_result, results_for_website};
use store::websites::{find_website, record_website_analysis};

use crate::support::both;

both!(
    concurrent_analyses_of_one_site_are_all_counted,
    |db, engine| {
        let base = Utc
            .with_ymd_and_hms(2026, 11, 22, 8, 0, 0)
            .single()
            .expect("time");
        let mut handles = Vec::new();
        for i in 0..25 {
            let db = db.clone();
            // Finish times arrive out of order; the latest must win.
            let at = base + Duration::seconds((i * 7) % 25);
            handles.push(tokio::spawn(async move {
                record_website_analysis(&db, "https://example.com/", at)
                    .await
                    .expect("record")
            }));
        }
        let mut counts = Vec::new();
        for handle in handles {
            counts.push(handle.await.expect("join").analysis_count);
        }
        counts.sort_unstable();
        assert_eq!(
            counts,
            (1..=25).collect::<Vec<_>>(),
            "every analysis saw its own count"
        );

        let site = find_website(&db, "https://example.com/")
            .await
            .expect("find")
            .expect("site");
        assert_eq!(site.analysis_count, 25);
        assert_eq!(site.last_analyzed, base + Duration::seconds(24));
        assert_eq!(websites::Entity::find().count(&db).await.expect("count"), 1);

        record_website_analysis(&db, "https://other.example/", base)
            .await
            .expect("other");
        let stats = store::stats::stats(&db).await.expect("stats");
        assert_eq!(stats.websites_analyzed, 2);
    }
);

both!(a_result_is_read_back_by_its_random_id, |db, engine| {
    let site = record_website_analysis(&db, "https://example.com/", store::now())
        .await
        .expect("site");
    let result = NewResult {
        seo_score: 81,
        design_score: 72,
        technical_score: 65,
        performance_score: 93,
        overall_score: 78,
        seo_findings: json!([{"title": "Title", "status": "good", "findings": []}]),
        domain_authority: Some(12),
        website_colors: Some(json!(["#ffffff", "#4f46e5"])),
        screenshot_desktop: Some("screens/a.png".into()),
        ..NewResult::default()
    };
    let first = insert_result(
        &db,
        site.id,
        "https://example.com/",
        ReportType::Basic,
        &result,
    )
    .await
    .expect("insert");
    let second = insert_result(
        &db,
        site.id,
        "https://example.com/",
        ReportType::Basic,
        &result,
    )
    .await
    .expect("insert");
    assert_ne!(first, second);
    assert_eq!(first.get_version_num(), 4, "ids are random (v4) UUIDs");

    let stored = get_result(&db, first).await.expect("get");
    assert_eq!(
        (
            stored.seo_score,
            stored.design_score,
            stored.technical_score,
            stored.performance_score,
            stored.overall_score
        ),
        (81, 72, 65, 93, 78)
    );
    assert_eq!(stored.seo_findings, result.seo_findings);
    assert_eq!(stored.action_items, json!([]));
    assert_eq!(stored.website_colors, result.website_colors);
    assert_eq!(stored.domain_authority, Some(12));
    assert_eq!(stored.backlink_analysis, None);
    assert!(!stored.is_white_labeled);
    assert_eq!(stored.website_id, site.id);

    assert!(matches!(
        get_result(&db, uuid::Uuid::new_v4()).await,
        Err(StoreError::NotFound)
    ));
    assert_eq!(
        results_for_website(&db, site.id, 10)
            .await
            .expect("list")
            .len(),
        2
    );
});
