//! The sample report of `/demo` (`crates/server/demo/`, see `server::services::demo`): it is a
//! report of the current contract, it was measured (no estimated figure, both screenshots), and
//! today's analyzer still says the same of the fixture site. `UPDATE_DEMO=1` measures the site
//! again with Chromium and rewrites the files:
//!
//! ```sh
//! UPDATE_DEMO=1 cargo test -p server --test server services::demo
//! ```

use std::path::{Path, PathBuf};

use analyzer::browser::merge::analyze_with_browser;
use analyzer::browser::{BlobStore, BrowserPool, BrowserSettings};
use analyzer::{AnalyzeOptions, Analyzer, AnalyzerConfig};
use domain::report::{AnalysisReport, FindingType, ReportType, SectionGroup};
use futures::future::BoxFuture;
use server::services::demo;

/// Pages the sample crawls: a standard (professional) report, so every section is there.
const PAGES: usize = 10;

/// The fixture site's port while the sample is measured, so its address stays the same from one
/// regeneration to the next.
const SITE_PORT: u16 = 47806;

fn demo_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("demo")
}

/// The bakery site the e2e tests analyse too.
fn site_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../e2e/fixtures/site")
}

/// Serves the fixture site's folder on 127.0.0.1 (port 0: any free port).
async fn serve_site(port: u16) -> std::net::SocketAddr {
    let app = axum::Router::new().fallback_service(tower_http::services::ServeDir::new(site_dir()));
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .unwrap_or_else(|e| panic!("bind 127.0.0.1:{port} for the fixture site: {e}"));
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    addr
}

/// Group title, finding id and verdict of every finding, in order.
fn verdicts(groups: &[SectionGroup]) -> Vec<(String, String, FindingType)> {
    groups
        .iter()
        .flat_map(|g| {
            g.findings
                .iter()
                .map(|f| (g.title.clone(), f.id.clone(), f.kind))
        })
        .collect()
}

/// Width and height from a PNG's header.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG file");
    let word = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    (word(16), word(20))
}

/// Keeps the screenshots in `crates/server/demo/` under the names `/demo/…` serves.
struct DemoScreenshots;

impl BlobStore for DemoScreenshots {
    fn put<'a>(
        &'a self,
        key: &'a str,
        _content_type: &'a str,
        bytes: &'a [u8],
    ) -> BoxFuture<'a, std::io::Result<String>> {
        Box::pin(async move {
            let name = ["desktop.png", "mobile.png"]
                .into_iter()
                .find(|n| key.ends_with(&format!("-{n}")))
                .ok_or_else(|| std::io::Error::other(format!("unexpected screenshot {key}")))?;
            std::fs::write(demo_dir().join(name), bytes)?;
            Ok(format!("{}{name}", demo::SCREENSHOT_PREFIX))
        })
    }
}

fn analyzer() -> Analyzer {
    Analyzer::new(AnalyzerConfig::allowing_private_targets()).expect("analyzer")
}

/// Measures the fixture site with Chromium and rewrites `crates/server/demo/`.
async fn regenerate() {
    let config = AnalyzerConfig::allowing_private_targets();
    let pool = BrowserPool::from_config(BrowserSettings::default(), &config);
    assert!(
        pool.settings()
            .chromium
            .as_ref()
            .is_some_and(|p| p.exists()),
        "UPDATE_DEMO needs Chromium (SITELENS_CHROMIUM or /usr/bin/chromium)"
    );
    let site = serve_site(SITE_PORT).await;
    let options = AnalyzeOptions::for_pages(PAGES);
    let (mut report, failure) = analyze_with_browser(
        &analyzer(),
        &pool,
        &DemoScreenshots,
        &format!("http://{site}/"),
        &options,
        &|_| {},
    )
    .await
    .expect("the fixture site is analysed");
    pool.shutdown().await;
    assert!(
        failure.is_none(),
        "the browser measured the site: {failure:?}"
    );
    report.id = demo::SAMPLE_ID.to_owned();
    // The sample shows a professional report whole, as its buyer sees it.
    report.paid = true;
    let json = serde_json::to_string_pretty(&report).expect("json");
    std::fs::write(demo_dir().join("report.json"), json + "\n").expect("write report.json");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_sample_report_is_current_and_measured() {
    if std::env::var_os("UPDATE_DEMO").is_some() {
        regenerate().await;
    }
    let text = std::fs::read_to_string(demo_dir().join("report.json")).expect("report.json");
    let stale = "the sample report is stale: run `UPDATE_DEMO=1 cargo test -p server --test server services::demo`";

    // The current contract, field for field: nothing the type lacks, nothing it would add.
    let stored: serde_json::Value = serde_json::from_str(&text).expect("json");
    let sample: AnalysisReport = serde_json::from_value(stored.clone()).expect(stale);
    assert_eq!(
        serde_json::to_value(&sample).expect("json"),
        stored,
        "{stale}"
    );

    // Measured by the browser, every section there.
    assert_eq!(sample.id, demo::SAMPLE_ID);
    assert_eq!(sample.report_type, ReportType::Standard);
    assert!(sample.paid, "the sample shows the whole paid report");
    let perf = &sample.performance_analysis;
    assert!(perf.estimated.is_empty(), "estimated: {:?}", perf.estimated);
    assert!(!perf.lab_runs.is_empty(), "lab runs");
    assert!(perf.premium_optimizations.is_some(), "premium suite");
    assert!(sample.professional.is_some(), "professional sections");
    assert!(!sample.action_items.is_empty(), "an action plan");
    assert!(!sample.website_colors.is_empty() && !sample.website_fonts.is_empty());
    for (shot, size) in [
        (&sample.screenshots.desktop, (1280, 800)),
        (&sample.screenshots.mobile, (375, 667)),
    ] {
        let name = shot
            .as_deref()
            .and_then(|s| s.strip_prefix(demo::SCREENSHOT_PREFIX))
            .expect("a screenshot /demo/ serves");
        let bytes = demo::screenshot(name).expect("embedded");
        assert_eq!(png_size(bytes), size, "{name}");
    }

    // Today's analyzer reads the same site the same way (the HTTP side; the browser's figures
    // vary from run to run and machine to machine).
    let site = serve_site(0).await;
    let fresh = analyzer()
        .analyze(
            &format!("http://{site}/"),
            &AnalyzeOptions::for_pages(PAGES),
            &|_| {},
        )
        .await
        .expect("the fixture site is analysed");
    assert_eq!(fresh.pages_analyzed, sample.pages_analyzed, "{stale}");
    assert_eq!(
        verdicts(&fresh.seo_analysis),
        verdicts(&sample.seo_analysis),
        "{stale}"
    );
    assert_eq!(fresh.scores.seo, sample.scores.seo, "{stale}");
}
