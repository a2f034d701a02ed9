//! Files served as they are: the web app's hashed assets and the screenshots of reports,
//! cached for a year.

use serde_json::json;

use crate::support::{
    BOTH, Engine, WEB_ONLY, assert_error_shape, config, fixture_site, run_on, spawn_app,
};

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

/// A stored blob is streamed with its content type, length, entity tag and a year of caching;
/// a client holding the current copy gets 304; a missing blob, or a key Sitelens never writes,
/// is a 404 in the API's error shape, never a 500.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn blobs_are_streamed_with_their_type_and_missing_ones_are_404() {
    run_on(Engine::Sqlite, |db| async move {
        let cfg = config(&db);
        let png = b"\x89PNG\r\n\x1a\n-not-really-an-image";
        let dir = cfg.blob_dir();
        std::fs::create_dir_all(&dir).expect("blob folder");
        std::fs::write(dir.join("abc-desktop.png"), png).expect("blob");
        let app = spawn_app(cfg, WEB_ONLY).await;
        let url = format!("{}/files/abc-desktop.png", app.base);
        let res = app.http.get(&url).send().await.expect("blob");
        assert_eq!(res.status(), 200);
        assert_eq!(res.headers()["content-type"], "image/png");
        assert_eq!(
            res.headers()["cache-control"],
            "public, max-age=31536000, immutable"
        );
        assert_eq!(res.headers()["x-content-type-options"], "nosniff");
        assert_eq!(
            res.headers()["content-length"],
            png.len().to_string().as_str()
        );
        assert!(res.headers().contains_key("last-modified"));
        let etag = res.headers()["etag"].to_str().expect("etag").to_owned();
        assert!(etag.starts_with('"') && etag.ends_with('"'), "{etag}");
        assert_eq!(&res.bytes().await.expect("bytes")[..], png);

        let again = app
            .http
            .get(&url)
            .header("if-none-match", &etag)
            .send()
            .await
            .expect("conditional");
        assert_eq!(again.status(), 304);
        assert_eq!(again.headers()["etag"], etag.as_str());
        let other = app
            .http
            .get(&url)
            .header("if-none-match", "\"something-else\"")
            .send()
            .await
            .expect("stale copy");
        assert_eq!(other.status(), 200);

        let head = app.http.head(&url).send().await.expect("head");
        assert_eq!(head.status(), 200);
        assert_eq!(head.headers()["content-type"], "image/png");

        for missing in [
            "/files/00000000-0000-4000-8000-000000000000-desktop.png",
            "/files/..%2fdb.sqlite",
            "/files/a%5cb.png",
            "/files/nested/none.png",
        ] {
            let res = app.get(missing).await;
            assert_eq!(res.status, 404, "{missing}");
            assert_error_shape(&res.json, missing);
        }
        app.running.shutdown().await;
    })
    .await;
}

/// A bucket that does not answer makes `/files` a 503 with a fixed message (never a 500, never
/// the storage's own error text) and the node not ready, while the rest of the site still
/// answers.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_unreachable_bucket_is_503_and_not_ready() {
    run_on(Engine::Sqlite, |db| async move {
        let mut cfg = config(&db);
        // Port 1 on loopback: nothing listens, every request is refused at once.
        cfg.blob_storage = server::config::BlobStorage::S3(server::config::S3Storage {
            bucket: "shots".to_owned(),
            prefix: String::new(),
            endpoint: Some("http://127.0.0.1:1".to_owned()),
            region: "us-east-1".to_owned(),
            credentials: Some(("test".to_owned(), server::config::Secret("test".to_owned()))),
        });
        let app = spawn_app(cfg, WEB_ONLY).await;
        let res = app.get("/files/abc-desktop.png").await;
        assert_eq!(res.status, 503);
        assert_error_shape(&res.json, "unreachable bucket");
        let text = res.json["error"].as_str().unwrap_or_default();
        assert!(text.contains("temporarily unavailable"), "{text}");
        assert!(!text.contains("127.0.0.1"), "no storage detail: {text}");
        let ready = app.get("/readyz").await;
        assert_eq!(ready.status, 503);
        assert_eq!(
            ready.json["blobs"],
            json!({"store": "s3://shots", "reachable": false})
        );
        assert_eq!(ready.json["database"], true);
        assert_eq!(app.get("/healthz").await.status, 200);
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
