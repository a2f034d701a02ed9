//! Replay Lighthouse's saved artifacts through our simulation and print both sets of metrics, so
//! a gap in a corpus run can be told apart: a gap on Lighthouse's own load is in our simulation,
//! a gap only on ours is in what our load observed.
//!
//! `cargo run --release -p analyzer --example lighthouse_replay -- DIR...` where each DIR holds
//! what `lighthouse URL -GA=DIR` gathered, with its report either in DIR/lhr.json or beside DIR as
//! `<name>.lighthouse.json` for a DIR named `<name>.artifacts` (the layout `e2e/corpus.mjs
//! --artifacts` writes). With several DIRs it prints one line per page and the median gaps.

use std::path::{Path, PathBuf};

const METRICS: [&str; 5] = [
    "first-contentful-paint",
    "largest-contentful-paint",
    "speed-index",
    "total-blocking-time",
    "interactive",
];

fn read(path: &Path) -> Result<serde_json::Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

fn report_path(dir: &Path) -> PathBuf {
    let inside = dir.join("lhr.json");
    if inside.exists() {
        return inside;
    }
    let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    dir.with_file_name(format!(
        "{}.lighthouse.json",
        name.trim_end_matches(".artifacts")
    ))
}

/// Lighthouse's and our figures for one page, in the order of [`METRICS`], and both scores.
struct Row {
    theirs: [f64; 5],
    ours: [f64; 5],
    their_score: Option<f64>,
    our_score: Option<u32>,
}

fn replay(dir: &Path) -> Result<Row, String> {
    let log = read(&dir.join("defaultPass.devtoolslog.json"))?;
    let trace = read(&dir.join("defaultPass.trace.json"))?;
    let lhr = read(&report_path(dir))?;
    let audits = &lhr["audits"];
    let observed_si = audits["metrics"]["details"]["items"][0]["observedSpeedIndex"].as_f64();
    let load = analyzer::browser::artifacts::observed_load(
        log.as_array().ok_or("the devtools log is not an array")?,
        &trace,
        observed_si,
    )
    .ok_or("no main frame or document in the log")?;
    let ours = analyzer::simulation::simulate(&load, &domain::throttling::MOBILE_SLOW_4G)
        .map_err(|e| e.to_string())?;
    let cls = audits["cumulative-layout-shift"]["numericValue"].as_f64();
    let our_score = domain::score::performance_score(
        &domain::score::LabValues {
            first_contentful_paint: Some(ours.first_contentful_paint),
            speed_index: Some(ours.speed_index),
            largest_contentful_paint: Some(ours.largest_contentful_paint),
            total_blocking_time: Some(ours.total_blocking_time),
            cumulative_layout_shift: cls,
        },
        domain::score::FormFactor::Mobile,
    );
    Ok(Row {
        theirs: METRICS.map(|id| audits[id]["numericValue"].as_f64().unwrap_or(f64::NAN)),
        ours: [
            ours.first_contentful_paint,
            ours.largest_contentful_paint,
            ours.speed_index,
            ours.total_blocking_time,
            ours.time_to_interactive,
        ],
        their_score: lhr["categories"]["performance"]["score"].as_f64(),
        our_score,
    })
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.retain(|x| x.is_finite());
    xs.sort_by(f64::total_cmp);
    match xs.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => xs[n / 2],
        n => (xs[n / 2 - 1] + xs[n / 2]) / 2.0,
    }
}

fn main() {
    let dirs: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    if dirs.is_empty() {
        eprintln!("usage: lighthouse_replay DIR...");
        std::process::exit(2);
    }
    println!("page | score LH / replay | FCP | LCP | SI | TBT | TTI   (Lighthouse → replay, ms)");
    let mut gaps: Vec<Vec<f64>> = vec![Vec::new(); METRICS.len() + 1];
    for dir in &dirs {
        let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or("?");
        match replay(dir) {
            Ok(row) => {
                let their = row.their_score.map(|s| (s * 100.0).round());
                let score = format!(
                    "{} / {}",
                    their.map_or("–".into(), |s| s.to_string()),
                    row.our_score.map_or("–".into(), |s| s.to_string())
                );
                if let (Some(t), Some(o)) = (their, row.our_score) {
                    gaps[METRICS.len()].push((f64::from(o) - t).abs());
                }
                let cells: Vec<String> = (0..METRICS.len())
                    .map(|i| {
                        gaps[i].push(row.ours[i] - row.theirs[i]);
                        format!("{:.0} → {:.0}", row.theirs[i], row.ours[i])
                    })
                    .collect();
                println!("{name} | {score} | {}", cells.join(" | "));
            }
            Err(e) => println!("{name} | not replayed: {e}"),
        }
    }
    if dirs.len() > 1 {
        for (i, id) in METRICS.iter().enumerate() {
            let abs = gaps[i].iter().map(|g| g.abs()).collect();
            println!(
                "{id:26} median diff {:+8.1} ms, median |diff| {:8.1} ms",
                median(gaps[i].clone()),
                median(abs)
            );
        }
        let scores = gaps[METRICS.len()].clone();
        let max = scores.iter().copied().fold(0.0, f64::max);
        println!(
            "performance score |gap|: median {:.1}, max {max:.0}",
            median(scores)
        );
    }
}
