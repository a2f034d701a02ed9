//! PDF report benchmark (`just bench`): renders professional reports of 1, 10 and 20 crawled
//! pages and prints the median render time and the file's size.
//!
//! The reports are the demo's measured standard report (`crates/server/demo/report.json`, with
//! its screenshots) with its per-page professional sections (crawled pages, content, meta tags
//! and headings by page) replicated to the page count, each copy at its own address: the work
//! grows with the pages as a real crawl's would.

use std::time::{Duration, Instant};

use domain::report::AnalysisReport;
use server::services::pdf::{Brand, render};

#[allow(dead_code)]
mod common;

const DEMO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/demo");
/// Renders per size; the median is printed.
const RUNS: usize = 15;

/// The demo report with `pages` crawled pages.
fn report(pages: usize) -> AnalysisReport {
    let text = std::fs::read_to_string(format!("{DEMO}/report.json")).expect("the demo report");
    let mut report: AnalysisReport = serde_json::from_str(&text).expect("a report");
    report.paid = true;
    report.pages_analyzed = pages as u32;
    let pro = report.professional.as_mut().expect("professional sections");
    let at = |url: &str, i: usize| {
        if i == 0 {
            url.to_owned()
        } else {
            format!("{}/page-{i}", url.trim_end_matches('/'))
        }
    };
    fn grow<T: Clone>(list: &mut Vec<T>, pages: usize, mut rename: impl FnMut(&mut T, usize)) {
        let template = list.clone();
        list.clear();
        for i in 0..pages {
            if let Some(t) = template.get(i % template.len().max(1)) {
                let mut copy = t.clone();
                rename(&mut copy, i);
                list.push(copy);
            }
        }
    }
    let links = &mut pro.internal_link_analysis;
    links.pages_crawled = pages as u32;
    grow(&mut links.pages, pages, |p, i| {
        p.url = at(&p.url, i);
        p.final_url = at(&p.final_url, i);
    });
    grow(&mut pro.content_quality_assessment.pages, pages, |p, i| {
        p.url = at(&p.url, i)
    });
    grow(&mut pro.meta_tag_suggestions, pages, |p, i| {
        p.url = at(&p.url, i)
    });
    grow(&mut pro.header_suggestions, pages, |p, i| {
        p.url = at(&p.url, i)
    });
    report
}

fn main() {
    let screenshots = [
        std::fs::read(format!("{DEMO}/desktop.png")).ok(),
        std::fs::read(format!("{DEMO}/mobile.png")).ok(),
    ];
    let brand = Brand::default();
    println!("pdf: median of {RUNS} renders (desktop and mobile screenshots included)");
    for pages in [1, 10, 20] {
        let report = report(pages);
        let mut times = Vec::with_capacity(RUNS);
        let mut size = 0;
        let mut pdf_pages = 0;
        for _ in 0..RUNS {
            let start = Instant::now();
            let bytes = render(&report, &screenshots, &brand).expect("renders");
            times.push(start.elapsed());
            size = bytes.len();
            pdf_pages = lopdf::Document::load_mem(&bytes)
                .map(|d| d.get_pages().len())
                .unwrap_or(0);
        }
        times.sort();
        let median: Duration = common::percentile(&times, 0.5);
        println!(
            "  {pages:>2} crawled pages: {pdf_pages:>2} PDF pages, {:>7.1} ms, {:>6.1} KB",
            median.as_secs_f64() * 1000.0,
            size as f64 / 1024.0
        );
    }
}
