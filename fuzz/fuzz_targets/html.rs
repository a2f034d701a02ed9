//! Any bytes as the start page of a one-page crawl: parsed, checked, advised on and turned
//! into a report, offline, the way an analysis without a browser does it.

#![no_main]

use std::time::Duration;

use analyzer::crawl::{CrawledPage, SiteData};
use analyzer::fetch::Fetched;
use analyzer::{advisor, page, report, run_checks, tech};
use domain::report::ReportType;
use libfuzzer_sys::fuzz_target;
use url::Url;

/// Served at a path with a non-ASCII segment on an IDN host, so relative links resolve onto
/// non-ASCII URLs.
const BASE: &str = "https://bücher.example/straße/ページ?q=1";

fuzz_target!(|data: &[u8]| {
    let url = Url::parse(BASE).expect("constant URL");
    let text = String::from_utf8_lossy(data);
    let doc = page::parse(&text, &url);
    let fetched = Fetched {
        requested: url.clone(),
        final_url: url.clone(),
        status: 200,
        headers: Default::default(),
        body: data.to_vec(),
        transfer_bytes: data.len() as u64,
        truncated: false,
        hops: Vec::new(),
        ttfb: Duration::from_millis(5),
        elapsed: Duration::from_millis(6),
    };
    let technologies = tech::detect(&text, &doc, &fetched.headers);
    let summary = advisor::PageSummary::from_doc(&url, &doc);
    let advice = advisor::advise_by_rules(&summary);
    let site = SiteData {
        http_version: Some(Ok((url.to_string(), 0))),
        ..SiteData::of_page(CrawledPage {
            url: url.clone(),
            depth: Some(0),
            fetched: Ok(fetched),
            doc: Some(doc),
        })
    };
    let findings = run_checks(&site, &technologies, ReportType::Premium);
    let built = report::build(report::ReportInput {
        id: "fuzz".to_owned(),
        url: url.to_string(),
        report_type: ReportType::Premium,
        site: &site,
        findings,
        tech: &technologies,
        advice,
        page_advice: Vec::new(),
        authority: None,
        created_at: "2026-01-01T00:00:00Z".to_owned(),
    });
    assert!(built.scores.overall <= 100);
});
