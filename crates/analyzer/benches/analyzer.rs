//! Analyzer benchmarks (`cargo bench -p analyzer --bench analyzer`), printing their figures:
//!
//! 1. the basic analysis of one fixture page, without a browser;
//! 2. a 20-page professional crawl with every check (goal: under 1 s);
//! 3. raw crawl throughput on a generated 500-page local site, in pages per second.
//!
//! Every site is served by the fixture server on 127.0.0.1; no name resolves, so nothing leaves
//! the machine.

use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use analyzer::guard::StaticResolver;
use analyzer::{AnalyzeOptions, Analyzer, AnalyzerConfig};
use url::Url;

#[path = "../tests/support/server.rs"]
#[allow(missing_docs)]
mod server;

use server::{Reply, Site, TestServer, fixture};

fn config() -> AnalyzerConfig {
    AnalyzerConfig {
        exempt_addresses: vec![IpAddr::V4(Ipv4Addr::LOCALHOST)],
        resolver: Some(Arc::new(StaticResolver::new())),
        ..AnalyzerConfig::default()
    }
}

/// A generated site of `n` pages: page i links to pages 5i+1..5i+5, the home page and two
/// neighbours, so the crawl is breadth-first over a wide tree; a sitemap lists every page.
fn generated_site(base: &str, n: usize) -> Site {
    let template = fixture("page.html", base);
    let mut site = Site::new();
    let mut sitemap = String::from(
        r#"<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">"#,
    );
    for i in 0..n {
        let path = if i == 0 {
            "/".to_owned()
        } else {
            format!("/page/{i}")
        };
        let mut links: Vec<usize> = (5 * i + 1..=5 * i + 5).filter(|j| *j < n).collect();
        links.extend([0, (i + 1) % n, (i + n - 1) % n]);
        let links: String = links
            .iter()
            .map(|j| {
                let href = if *j == 0 {
                    "/".to_owned()
                } else {
                    format!("/page/{j}")
                };
                format!("<li><a href=\"{href}\">Oak furniture article number {j}</a></li>")
            })
            .collect();
        let text: String = (0..60)
            .map(|k| format!("Sentence {k} of page {i} is about oak tables, chairs and shelves. "))
            .collect();
        let html = template
            .replace(
                "{{title}}",
                &format!("Oak furniture article number {i} | Acme workshop"),
            )
            .replace("{{h1}}", &format!("Oak furniture article {i}"))
            .replace("{{text}}", &text)
            .replace("{{links}}", &links);
        site.add(&path, Reply::html(html));
        sitemap.push_str(&format!("<url><loc>{base}{path}</loc></url>"));
    }
    sitemap.push_str("</urlset>");
    site.add(
        "/robots.txt",
        Reply::text(
            "text/plain",
            format!("User-agent: *\nDisallow: /private/\nSitemap: {base}/sitemap.xml\n"),
        ),
    );
    site.add("/sitemap.xml", Reply::text("application/xml", sitemap));
    site
}

fn stats(label: &str, mut times: Vec<Duration>) {
    times.sort();
    let mean = times.iter().sum::<Duration>() / times.len() as u32;
    println!(
        "{label}: mean {:.1} ms, median {:.1} ms, min {:.1} ms, max {:.1} ms ({} runs)",
        mean.as_secs_f64() * 1000.0,
        times[times.len() / 2].as_secs_f64() * 1000.0,
        times[0].as_secs_f64() * 1000.0,
        times[times.len() - 1].as_secs_f64() * 1000.0,
        times.len()
    );
}

fn main() {
    // `cargo test --benches` runs this with --bench absent; keep that run short.
    let quick = !std::env::args().any(|a| a == "--bench");
    let runs = if quick { 2 } else { 20 };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async move {
        let analyzer = Analyzer::new(config()).expect("analyzer");

        // 1. Basic analysis of one page.
        let one = TestServer::start(|base| {
            Site::new().route("/", Reply::html(fixture("good.html", base)))
        })
        .await;
        let mut times = Vec::new();
        for _ in 0..runs {
            let t = Instant::now();
            let r = analyzer
                .analyze(&one.url("/"), &AnalyzeOptions::basic(), &|_| {})
                .await
                .expect("report");
            times.push(t.elapsed());
            assert_eq!(r.pages_analyzed, 1);
        }
        stats("basic analysis, 1 page, no browser", times);

        // 2. A 20-page professional crawl with every check.
        let twenty = TestServer::start(|base| generated_site(base, 60)).await;
        let mut times = Vec::new();
        for _ in 0..runs {
            let t = Instant::now();
            let r = analyzer
                .analyze(&twenty.url("/"), &AnalyzeOptions::for_pages(20), &|_| {})
                .await
                .expect("report");
            times.push(t.elapsed());
            assert_eq!(r.pages_analyzed, 20);
        }
        stats("premium analysis, 20 pages, all checks", times);

        // 3. Raw crawl throughput on 500 pages.
        let big = TestServer::start(|base| generated_site(base, 500)).await;
        let start = Url::parse(&big.url("/")).expect("url");
        let rounds = if quick { 1 } else { 3 };
        for _ in 0..rounds {
            let t = Instant::now();
            let site = analyzer.crawl(&start, 500).await.expect("crawl");
            let secs = t.elapsed().as_secs_f64();
            assert_eq!(site.pages.len(), 500);
            println!(
                "crawl throughput, 500 pages: {:.2} s, {:.0} pages/s (per-host concurrency {})",
                secs,
                500.0 / secs,
                analyzer.fetcher().config().per_host_concurrency
            );
        }
    });
}
