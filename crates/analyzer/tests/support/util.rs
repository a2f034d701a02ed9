//! Helpers shared by the test modules.

#![allow(dead_code)]

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::{Arc, Mutex};

use analyzer::guard::StaticResolver;
use analyzer::{AnalyzeOptions, Analyzer, AnalyzerConfig, ProgressUpdate};
use domain::report::{AnalysisReport, Finding, FindingType};

/// The guard stays on; only 127.0.0.1 is exempt, and no name resolves, so a test can never
/// send traffic anywhere but the fixture server.
/// A server on 127.0.0.1 that accepts connections and never answers; the count of connections
/// it accepted.
pub async fn silent_server() -> (std::net::SocketAddr, Arc<std::sync::atomic::AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let accepted = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = accepted.clone();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((s, _)) = listener.accept().await {
            counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            held.push(s);
        }
    });
    (addr, accepted)
}

pub fn test_config() -> AnalyzerConfig {
    AnalyzerConfig {
        exempt_addresses: vec![IpAddr::V4(Ipv4Addr::LOCALHOST)],
        resolver: Some(Arc::new(StaticResolver::new())),
        ..AnalyzerConfig::default()
    }
}

pub fn analyzer() -> Analyzer {
    Analyzer::new(test_config()).expect("analyzer")
}

pub async fn analyze(url: &str, options: AnalyzeOptions) -> AnalysisReport {
    analyzer()
        .analyze(url, &options, &|_| {})
        .await
        .unwrap_or_else(|e| panic!("analysis of {url} failed: {e}"))
}

pub async fn analyze_with_progress(
    url: &str,
    options: AnalyzeOptions,
) -> (AnalysisReport, Vec<ProgressUpdate>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let s = seen.clone();
    let report = analyzer()
        .analyze(url, &options, &move |p| {
            if let Ok(mut v) = s.lock() {
                v.push(p);
            }
        })
        .await
        .expect("analysis");
    let v = seen.lock().map(|v| v.clone()).unwrap_or_default();
    (report, v)
}

/// Every finding of the report (SEO, design, technical groups), by id.
pub fn findings(report: &AnalysisReport) -> HashMap<String, Finding> {
    report
        .seo_analysis
        .iter()
        .chain(&report.design_analysis)
        .chain(&report.technical_analysis)
        .flat_map(|g| g.findings.iter().cloned())
        .map(|f| (f.id.clone(), f))
        .collect()
}

pub fn kind_of(report: &AnalysisReport, id: &str) -> FindingType {
    findings(report).get(id).map(|f| f.kind).unwrap_or_else(|| {
        panic!("no finding {id}; have {:?}", {
            let mut k: Vec<String> = findings(report).keys().cloned().collect();
            k.sort();
            k
        })
    })
}

pub fn finding<'a>(map: &'a HashMap<String, Finding>, id: &str) -> &'a Finding {
    map.get(id).unwrap_or_else(|| panic!("no finding {id}"))
}
