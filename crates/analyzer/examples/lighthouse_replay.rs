//! Replay Lighthouse's saved artifacts through our simulation and print both sets of metrics:
//! `cargo run -p analyzer --example lighthouse_replay -- DIR` where DIR holds what
//! `lighthouse URL -GA=DIR --output=json --output-path=DIR/lhr.json` saved.

use std::path::PathBuf;

fn read(path: PathBuf) -> serde_json::Value {
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn main() {
    let dir = PathBuf::from(
        std::env::args()
            .nth(1)
            .expect("usage: lighthouse_replay DIR"),
    );
    let log = read(dir.join("defaultPass.devtoolslog.json"));
    let trace = read(dir.join("defaultPass.trace.json"));
    let lhr = read(dir.join("lhr.json"));
    let audits = &lhr["audits"];
    let observed_si = audits["metrics"]["details"]["items"][0]["observedSpeedIndex"].as_f64();
    let load = analyzer::browser::artifacts::observed_load(
        log.as_array().expect("log array"),
        &trace,
        observed_si,
    )
    .expect("a main frame and its documents");
    let ours = analyzer::simulation::simulate(&load, &domain::throttling::MOBILE_SLOW_4G)
        .expect("simulated");
    for (id, mine) in [
        ("first-contentful-paint", ours.first_contentful_paint),
        ("largest-contentful-paint", ours.largest_contentful_paint),
        ("speed-index", ours.speed_index),
        ("total-blocking-time", ours.total_blocking_time),
        ("interactive", ours.time_to_interactive),
    ] {
        let theirs = audits[id]["numericValue"].as_f64().unwrap_or(f64::NAN);
        println!(
            "{id:26} lighthouse {theirs:9.1}  sitelens {mine:9.1}  diff {:+8.1}",
            mine - theirs
        );
    }
    println!(
        "requests {}, main-thread events {}",
        load.requests.len(),
        load.main_thread.len()
    );
}
