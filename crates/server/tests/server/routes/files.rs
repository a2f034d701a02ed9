//! Files served as they are: the web app's hashed assets and the screenshots of reports,
//! cached for a year.

use serde_json::json;

use crate::support::{BOTH, Engine, WEB_ONLY, config, fixture_site, run_on, spawn_app};

/// Hashed assets are cached for a year.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn assets_are_immutable() {
    run_on(Engine::Sqlite, |db| async move {
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let asset = app
            .http
            .get(format!("{}/assets/app-abc123.js", app.base))
            .send()
            .await
            .expect("asset");
        assert_eq!(asset.status(), 200);
        assert_eq!(
            asset.headers()["cache-control"],
            "public, max-age=31536000, immutable"
        );
        app.running.shutdown().await;
    })
    .await;
}

/// With Chromium, the report carries measured lab figures and both screenshots, served as files.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn browser_reports_carry_screenshots() {
    let chromium = "/usr/bin/chromium";
    if !std::path::Path::new(chromium).exists() {
        assert!(
            std::env::var("CI").ok().as_deref() != Some("true"),
            "Chromium is required under CI=true"
        );
        eprintln!("\n!!!!! {chromium} not installed: SKIPPING the browser journey !!!!!\n");
        return;
    }
    run_on(Engine::Sqlite, |db| async move {
        let site = fixture_site().await;
        let mut cfg = config(&db);
        cfg.chromium = server::config::Chromium::Path(chromium.into());
        let app = spawn_app(cfg, BOTH).await;
        let res = app
            .post_json("/api/analyze", &json!({"url": format!("http://{site}/")}))
            .await;
        let id = res.json["analysisId"].as_str().expect("id").to_owned();
        let events = app.follow(&id).await;
        let done = events.last().expect("event");
        assert_eq!(done["type"], "complete", "{events:?}");
        let result = app
            .get(&format!(
                "/api/results/{}",
                done["resultId"].as_str().expect("result")
            ))
            .await;
        let data = &result.json["data"];
        let estimated: Vec<&str> = data["performanceAnalysis"]["estimated"]
            .as_array()
            .expect("estimated list")
            .iter()
            .filter_map(|v| v.as_str())
            .collect();
        assert!(
            !estimated.contains(&"firstContentfulPaint"),
            "FCP is measured: {estimated:?}"
        );
        for (shot, width) in [("desktop", 1280u32), ("mobile", 375u32)] {
            let path = data["screenshots"][shot]
                .as_str()
                .unwrap_or_else(|| panic!("{shot} screenshot in {data}"));
            assert!(path.starts_with("/files/"), "{path}");
            let png = app
                .http
                .get(format!("{}{path}", app.base))
                .send()
                .await
                .expect("screenshot");
            assert_eq!(png.status(), 200);
            assert_eq!(
                png.headers()["cache-control"],
                "public, max-age=31536000, immutable"
            );
            let bytes = png.bytes().await.expect("png");
            assert_eq!(&bytes[1..4], b"PNG");
            let w = u32::from_be_bytes([bytes[16], bytes[17], bytes[18], bytes[19]]);
            assert_eq!(w, width, "{shot} width");
        }
        app.running.shutdown().await;
    })
    .await;
}
