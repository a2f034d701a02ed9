//! Measure one page as the analyzer does and print what the traced load recorded: every request
//! (start and end in ms from the first, type, priority, initiator, render-blocking state, failure)
//! and the figures simulated on Lighthouse's mobile preset. Beside `lighthouse_replay`, it shows
//! where an observed load differs from the one Lighthouse recorded for the same page.
//!
//! `cargo run --release -p analyzer --example observe -- URL [OUT.json]` (private and loopback
//! addresses allowed); with OUT.json the whole observed load is written there. With
//! OBSERVE_WARM_MS=N the browser is started and left N ms before the load (a warm server's case).

use analyzer::AnalyzerConfig;
use analyzer::browser::{BrowserPool, BrowserSettings};

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let Some(url) = args.next() else {
        eprintln!("usage: observe URL [OUT.json]");
        std::process::exit(2);
    };
    let out = args.next();
    let config = AnalyzerConfig {
        allow_private_targets: true,
        ..AnalyzerConfig::default()
    };
    let pool = BrowserPool::from_config(BrowserSettings::default(), &config);
    if let Some(ms) = std::env::var("OBSERVE_WARM_MS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
    {
        let _ = pool.warm().await;
        tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
    }
    let report = match pool.measure(&url).await {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            pool.shutdown().await;
            std::process::exit(1);
        }
    };
    pool.shutdown().await;
    println!("timings: {:?}", report.timings);
    let Some(load) = &report.observed_load else {
        println!("not traced: {:?}", report.simulation_error);
        return;
    };
    let t0 = load.requests.first().map_or(0.0, |r| r.renderer_start_ms);
    for r in &load.requests {
        println!(
            "{:6.0} {:6.0} {:10} {:8} {:7} {:24} {}{} {}",
            r.renderer_start_ms - t0,
            r.network_end_ms - t0,
            r.resource_type,
            r.priority,
            r.initiator.kind,
            r.render_blocking.as_deref().unwrap_or("-"),
            if r.failed { "FAILED " } else { "" },
            r.status,
            r.url.chars().take(100).collect::<String>()
        );
    }
    println!(
        "main-thread events {}, fcp {:?}, lcp {:?} (µs from the first request)",
        load.main_thread.len(),
        load.fcp_ts.map(|t| t - t0 * 1000.0),
        load.lcp_ts.map(|t| t - t0 * 1000.0)
    );
    if let Some(s) = &report.simulated {
        println!("simulated mobile: {:?}", s.mobile);
    }
    println!(
        "observed: FCP {:?} LCP {:?} TBT {} CLS {}; mobile score {:?}",
        report.mobile.first_contentful_paint,
        report.mobile.largest_contentful_paint,
        report.mobile.total_blocking_time,
        report.mobile.cumulative_layout_shift,
        report.mobile_score
    );
    if let Some(path) = out {
        match serde_json::to_string(load) {
            Ok(json) => {
                if let Err(e) = std::fs::write(&path, json) {
                    eprintln!("error: could not write {path}: {e}");
                }
            }
            Err(e) => eprintln!("error: {e}"),
        }
    }
}
