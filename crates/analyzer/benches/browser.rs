//! Browser benchmark (`cargo bench -p analyzer --bench browser`): prints figures, asserts none.
//!
//! 1. One bare navigation in a warm browser: open a tab, load the page to its load event,
//!    close the tab (median of runs).
//! 2. The whole basic browser measurement of the same page (the traced phone load, settle,
//!    metrics, the desktop view, both screenshots, design probes, axe-core), and the whole basic report
//!    (HTTP analysis and browser measurement side by side, then the merge). Medians and the
//!    ratio to the bare navigation. Goal: at most 3x and under 2 s.
//!    Every timed step starts from an idle warm browser (`BrowserPool::settled`) and also
//!    reports the processor time it cost (this process and its Chromium processes).
//! 3. Ten concurrent measurements through one pool: wall time, throughput and the peak
//!    resident memory of this process plus its Chromium processes.
//!
//! The fixture page is served on 127.0.0.1 by the benchmark itself.

#[path = "../tests/support/server.rs"]
mod server;

use std::collections::BTreeMap;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use analyzer::browser::proxy::RequestGuard;
use analyzer::browser::{BrowserPool, BrowserSettings, merge_into};
use analyzer::guard::{Policy, StaticResolver};
use analyzer::{AnalyzeOptions, Analyzer, AnalyzerConfig};
use domain::report::Screenshots;
use server::{Reply, Site, TestServer};

const RUNS: usize = 9;
const CONCURRENT: usize = 10;

const PAGE: &str = r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Harbour Coffee Roasters | Fresh single-origin coffee in Bristol</title>
<meta name="description" content="Single-origin coffee roasted every week in Bristol. Order beans online, visit our café by the harbour, or book a brewing class with our baristas.">
<link rel="stylesheet" href="/site.css">
<script src="/site.js" defer></script>
</head>
<body>
<header><nav aria-label="Main"><a href="/">Home</a><a href="/shop">Shop</a><a href="/classes">Classes</a><a href="/about">About</a><a href="/contact">Contact</a></nav></header>
<main>
<h1>Fresh single-origin coffee, roasted in Bristol</h1>
<img src="/hero.svg" width="1200" height="500" alt="Coffee beans cooling after the roast">
<section><h2>This week's roasts</h2>
<p>We roast small batches every Tuesday and ship the same day, so your beans arrive within days of roasting. This week: a washed Ethiopian with notes of bergamot and peach, and a natural Brazilian that tastes of chocolate and hazelnut.</p>
<img src="/bag.svg" width="300" height="300" alt="A bag of Ethiopian beans">
</section>
<section><h2>Brewing classes</h2><p>Learn pour-over, espresso and latte art with our baristas on Saturday mornings. Classes take six people and last two hours.</p></section>
</main>
<footer><a href="/privacy">Privacy</a> <a href="/terms">Terms</a> <a href="/contact">Contact</a></footer>
</body>
</html>"#;

const CSS: &str = "body{margin:0;font:18px/1.6 Georgia,serif;color:#222;background:#fffaf3}header{background:#3b2414}nav a{display:inline-block;padding:16px;color:#fff}main{max-width:60rem;margin:auto;padding:1rem}img{max-width:100%;height:auto}h1,h2{font-family:Helvetica,Arial,sans-serif;color:#3b2414}footer{padding:2rem;background:#eee}";
const JS: &str = "document.querySelectorAll('nav a').forEach(function(a){a.addEventListener('click',function(){});});";

fn svg(w: u32, h: u32, fill: &str) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\"><rect width=\"{w}\" height=\"{h}\" fill=\"{fill}\"/><circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#6f4e37\"/></svg>",
        w / 2,
        h / 2,
        h / 3
    )
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The `/proc` folders of this process and of every process whose command line names this
/// process's Chromium profile folders, by pid.
fn our_processes() -> Vec<(u32, std::path::PathBuf)> {
    let me = std::process::id();
    let marker = format!("sitelens-chromium-{me}-");
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| {
            let pid = e.file_name().to_str()?.parse::<u32>().ok()?;
            let ours = pid == me
                || std::fs::read(e.path().join("cmdline"))
                    .map(|c| String::from_utf8_lossy(&c).contains(&marker))
                    .unwrap_or(false);
            ours.then(|| (pid, e.path()))
        })
        .collect()
}

/// Proportional set size (kB: shared pages divided among the processes sharing them) of our
/// processes. Plain RSS would count Chromium's shared libraries once per process.
fn pss_kb() -> u64 {
    our_processes()
        .iter()
        .filter_map(|(_, dir)| std::fs::read_to_string(dir.join("smaps_rollup")).ok())
        .filter_map(|rollup| {
            rollup
                .lines()
                .find_map(|l| l.strip_prefix("Pss:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .sum()
}

/// Processor time (user + system, ms) of each of our processes.
fn cpu_by_process() -> BTreeMap<u32, f64> {
    let tick_ms = 1000.0 / 100.0; // USER_HZ is 100 on Linux
    our_processes()
        .into_iter()
        .filter_map(|(pid, dir)| {
            let stat = std::fs::read_to_string(dir.join("stat")).ok()?;
            // After the command name, utime and stime are the 12th and 13th fields.
            let fields: Vec<&str> = stat.rsplit(')').next()?.split_whitespace().collect();
            let ticks: f64 = fields
                .get(11..13)?
                .iter()
                .filter_map(|x| x.parse::<f64>().ok())
                .sum();
            Some((pid, ticks * tick_ms))
        })
        .collect()
}

/// Processor time spent since `before` (processes that started since count whole).
fn cpu_since(before: &BTreeMap<u32, f64>) -> f64 {
    cpu_by_process()
        .iter()
        .map(|(pid, t)| t - before.get(pid).copied().unwrap_or(0.0))
        .sum()
}

fn config() -> AnalyzerConfig {
    AnalyzerConfig {
        exempt_addresses: vec![IpAddr::V4(Ipv4Addr::LOCALHOST)],
        resolver: Some(Arc::new(StaticResolver::new())),
        ..AnalyzerConfig::default()
    }
}

fn pool() -> BrowserPool {
    let guard = RequestGuard::new(
        Policy {
            allow_private: false,
            exempt: vec![IpAddr::V4(Ipv4Addr::LOCALHOST)],
        },
        Some(Arc::new(StaticResolver::new())),
    );
    BrowserPool::new(BrowserSettings::default(), guard)
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let site = TestServer::start(|_| {
        Site::new()
            .route("/", Reply::html(PAGE))
            .route("/site.css", Reply::text("text/css", CSS))
            .route("/site.js", Reply::text("text/javascript", JS))
            .route(
                "/hero.svg",
                Reply::text("image/svg+xml", svg(1200, 500, "#c8a27a")),
            )
            .route(
                "/bag.svg",
                Reply::text("image/svg+xml", svg(300, 300, "#e9dcc9")),
            )
            .route(
                "/robots.txt",
                Reply::text("text/plain", "User-agent: *\nAllow: /\n"),
            )
    })
    .await;
    let pool = pool();
    // SITELENS_BENCH_URL=http://127.0.0.1:PORT/ measures that page once and prints the figures
    // (for comparing with Lighthouse on the same page).
    if let Ok(url) = std::env::var("SITELENS_BENCH_URL") {
        // One warm-up load: the figures below come from a warm browser.
        let _ = pool.measure(&url).await;
        match pool.measure(&url).await {
            Ok(r) => {
                println!("simulated desktop score {:?}", r.desktop_score);
                {
                    let (name, m, score) = ("mobile (observed)", &r.mobile, r.mobile_score);
                    println!(
                        "{name}: TTFB {:?} FCP {:?} LCP {:?} CLS {:.3} TBT {:.0} SI {:?} TTI {:?} bytes {:.0} requests {} score {:?}",
                        m.time_to_first_byte,
                        m.first_contentful_paint,
                        m.largest_contentful_paint,
                        m.cumulative_layout_shift,
                        m.total_blocking_time,
                        m.speed_index.map(f64::round),
                        m.time_to_interactive.map(f64::round),
                        m.transferred_bytes,
                        m.request_count,
                        score
                    );
                }
                println!(
                    "accessibility passes: {:?}",
                    r.accessibility
                        .audits
                        .iter()
                        .filter(|a| a.passed && a.weight > 0.0)
                        .map(|a| (&a.id, a.weight))
                        .collect::<Vec<_>>()
                );
                println!(
                    "accessibility {:?} (failed: {:?}); best practices {:?} (failed: {:?})",
                    r.accessibility.score,
                    r.accessibility
                        .audits
                        .iter()
                        .filter(|a| !a.passed)
                        .map(|a| &a.id)
                        .collect::<Vec<_>>(),
                    r.best_practices.score,
                    r.best_practices
                        .audits
                        .iter()
                        .filter(|a| !a.passed)
                        .map(|a| &a.id)
                        .collect::<Vec<_>>()
                );
            }
            Err(e) => eprintln!("measure failed: {e}"),
        }
        pool.shutdown().await;
        return;
    }
    let url = site.url("/");
    let launch = Instant::now();
    if let Err(e) = pool.warm().await {
        eprintln!("no browser: {e}");
        return;
    }
    println!(
        "chromium launch: {:.0} ms",
        launch.elapsed().as_secs_f64() * 1000.0
    );
    // Warm-up: first loads pay for code caches and font setup.
    for _ in 0..2 {
        let _ = pool.bare_navigation(&url).await;
        let _ = pool.measure(&url).await;
    }

    // Interleaved, so the ratio compares runs made under the same machine load (the machine
    // is shared): bare navigation, browser measurement, whole report, again and again.
    let analyzer = Analyzer::new(config()).expect("analyzer");
    let basic = AnalyzeOptions::basic();
    let mut bare = Vec::new();
    let mut measured = Vec::new();
    let mut whole = Vec::new();
    let mut ratios = Vec::new();
    let mut whole_ratios = Vec::new();
    let mut phases = Vec::new();
    let mut bare_cpu = Vec::new();
    let mut measured_cpu = Vec::new();
    for _ in 0..RUNS {
        // Every timed step starts from an idle warm browser: the previous step's tabs are
        // closed and the next measurement's tabs are ready.
        pool.settled().await;
        let cpu = cpu_by_process();
        let b = match pool.bare_navigation(&url).await {
            Ok(d) => d.as_secs_f64() * 1000.0,
            Err(e) => {
                eprintln!("bare navigation failed: {e}");
                continue;
            }
        };
        bare_cpu.push(cpu_since(&cpu));
        pool.settled().await;
        let cpu = cpu_by_process();
        let t = Instant::now();
        let m = match pool.measure(&url).await {
            Ok(r) => {
                phases.push(r.timings);
                t.elapsed().as_secs_f64() * 1000.0
            }
            Err(e) => {
                eprintln!("measure failed: {e}");
                continue;
            }
        };
        measured_cpu.push(cpu_since(&cpu));
        pool.settled().await;
        let t = Instant::now();
        let (report, browser) =
            tokio::join!(analyzer.analyze(&url, &basic, &|_| {}), pool.measure(&url));
        if let (Ok(mut report), Ok(browser)) = (report, browser) {
            merge_into(&mut report, &browser, Screenshots::default(), false);
            let w = t.elapsed().as_secs_f64() * 1000.0;
            whole.push(w);
            whole_ratios.push(w / b);
        }
        bare.push(b);
        measured.push(m);
        ratios.push(m / b);
    }
    if bare.is_empty() || measured.is_empty() {
        eprintln!("no figures");
        return;
    }
    let b = median(bare);
    let m = median(measured.clone());
    println!(
        "bare navigation (warm browser, new tab, load event): median {b:.0} ms, processor time {:.0} ms",
        median(bare_cpu)
    );
    println!(
        "browser measurement (desktop + mobile, metrics, 2 screenshots, design, axe-core): median {m:.0} ms, min {:.0} ms, processor time {:.0} ms; ratio to the bare navigation of the same round: median {:.2}x",
        measured.iter().copied().fold(f64::INFINITY, f64::min),
        median(measured_cpu),
        median(ratios)
    );
    if !whole.is_empty() {
        println!(
            "whole basic report (HTTP analysis + browser measurement + merge): median {:.0} ms; ratio median {:.2}x",
            median(whole),
            median(whole_ratios)
        );
    }
    phases.sort_by(|a, b| a.total_ms.total_cmp(&b.total_ms));
    if let Some(p) = phases.get(phases.len() / 2) {
        println!(
            "phases of the median run: total {:.0} ms; run {:.0} ms (axe-core {:.0} ms), queue {:.0} ms",
            p.total_ms, p.run_ms, p.axe_ms, p.queue_ms
        );
        let fmt = |steps: &[(String, f64)]| {
            steps
                .iter()
                .map(|(k, v)| format!("{k} {v:.0}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        println!("  steps (ms): {}", fmt(&p.steps));
    }

    // Ten at once through one pool (default 4 tabs: two measurements in flight).
    pool.settled().await;
    let peak = Arc::new(AtomicU64::new(pss_kb()));
    let done = Arc::new(AtomicBool::new(false));
    let (p, d) = (peak.clone(), done.clone());
    let sampler = tokio::spawn(async move {
        while !d.load(Ordering::Relaxed) {
            p.fetch_max(pss_kb(), Ordering::Relaxed);
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    });
    let t = Instant::now();
    let pool = Arc::new(pool);
    let tasks: Vec<_> = (0..CONCURRENT)
        .map(|_| {
            let pool = pool.clone();
            let url = url.clone();
            tokio::spawn(async move { pool.measure(&url).await.is_ok() })
        })
        .collect();
    let mut ok = 0;
    for task in tasks {
        if task.await.unwrap_or(false) {
            ok += 1;
        }
    }
    let wall = t.elapsed().as_secs_f64();
    done.store(true, Ordering::Relaxed);
    let _ = sampler.await;
    println!(
        "{CONCURRENT} concurrent measurements ({} tabs): {ok} ok in {:.2} s = {:.2} per second; peak memory (PSS of this process + chromium) {:.0} MB",
        pool.settings().max_tabs,
        wall,
        ok as f64 / wall,
        peak.load(Ordering::Relaxed) as f64 / 1024.0
    );
    pool.shutdown().await;
}
