//! Our simulation against Lighthouse's on the very same observed load: a local page measured by
//! Lighthouse 12.8.2 (`lighthouse URL -GA=DIR`), its DevTools log and main-thread trace kept in
//! `fixtures/lighthouse/` (the trace trimmed to the page's main thread), and the metrics and
//! render-blocking verdicts Lighthouse computed from them.

use std::io::Read;

use analyzer::browser::artifacts::observed_load;
use domain::throttling::MOBILE_SLOW_4G;
use serde_json::Value;

fn fixture(name: &str) -> Value {
    let path = format!(
        "{}/tests/fixtures/lighthouse/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut text = String::new();
    if name.ends_with(".gz") {
        flate2::read::GzDecoder::new(file)
            .read_to_string(&mut text)
            .unwrap_or_else(|e| panic!("{path}: {e}"));
    } else {
        std::io::BufReader::new(file)
            .read_to_string(&mut text)
            .unwrap_or_else(|e| panic!("{path}: {e}"));
    }
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn the_simulation_reproduces_lighthouses_metrics_on_its_own_load() {
    let expected = fixture("probe.expected.json");
    let log = fixture("probe.devtoolslog.json.gz");
    let trace = fixture("probe.trace.json.gz");
    let load = observed_load(
        log.as_array().expect("log"),
        &trace,
        expected["observedSpeedIndex"].as_f64(),
    )
    .expect("the load");
    // A stylesheet, a second stylesheet, a script that inserts another script that fetches
    // JSON, a hero image: nine requests.
    assert_eq!(load.requests.len(), 9);
    let ours = analyzer::simulation::simulate(&load, &MOBILE_SLOW_4G).expect("simulated");
    for (id, mine) in [
        ("first-contentful-paint", ours.first_contentful_paint),
        ("largest-contentful-paint", ours.largest_contentful_paint),
        ("speed-index", ours.speed_index),
        ("total-blocking-time", ours.total_blocking_time),
        ("interactive", ours.time_to_interactive),
    ] {
        let theirs = expected[id].as_f64().expect(id);
        assert!(
            (mine - theirs).abs() < 0.5,
            "{id}: Lighthouse {theirs}, Sitelens {mine}"
        );
    }
    // The same three render-blocking resources, with the same simulated durations.
    let mut theirs: Vec<(String, f64)> = expected["render-blocking-resources"]["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|i| {
            (
                i[0].as_str().unwrap_or("").to_owned(),
                i[1].as_f64().unwrap_or(0.0),
            )
        })
        .collect();
    let mut mine: Vec<(String, f64)> = ours
        .render_blocking
        .iter()
        .map(|r| (r.url.clone(), r.wasted_ms))
        .collect();
    theirs.sort_by(|a, b| a.0.cmp(&b.0));
    mine.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(mine, theirs);
}
