//! Whole reports as snapshots (insta), with what varies between runs redacted: the report id,
//! the time, the fixture server's port and measured milliseconds.

use analyzer::AnalyzeOptions;

use crate::support::server::TestServer;
use crate::support::util::analyze;

fn settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.add_filter(r"127\.0\.0\.1:\d+", "[fixture]");
    s.add_filter(r"\d+ ms", "[n] ms");
    s.set_sort_maps(true);
    s
}

#[tokio::test]
async fn basic_report_of_the_good_page() {
    let server = TestServer::start(crate::checks::good_site).await;
    let report = analyze(&server.url("/"), AnalyzeOptions::basic()).await;
    settings().bind(|| {
        insta::assert_json_snapshot!(report, {
            ".id" => "[id]",
            ".createdAt" => "[time]",
            // The page is served gzipped with the port inside, so its size varies by a byte.
            ".performanceAnalysis.pageSize" => "[bytes]",
        });
    });
}

#[tokio::test]
async fn premium_report_of_the_planted_site() {
    let server = TestServer::start(crate::site::planted_site).await;
    let report = analyze(&server.url("/"), AnalyzeOptions::for_pages(20)).await;
    settings().bind(|| {
        insta::assert_json_snapshot!(report, {
            ".id" => "[id]",
            ".createdAt" => "[time]",
        });
    });
}
