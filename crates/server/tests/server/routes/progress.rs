//! `GET /api/analysis-progress/{id}`: the stream of one analysis, also across processes.

use serde_json::json;

use super::{Case, case};
use crate::support::{Engine, WEB_ONLY, config, fixture_site, run_on, spawn_app};

/// Ids and methods the stream refuses.
pub fn malformed() -> Vec<Case> {
    vec![
        // GET /api/analysis-progress/{id}
        case("GET", "/api/analysis-progress/nope", None, "", 404),
        case(
            "GET",
            "/api/analysis-progress/00000000-0000-4000-8000-000000000000",
            None,
            "",
            404,
        ),
        case(
            "POST",
            "/api/analysis-progress/00000000-0000-4000-8000-000000000000",
            None,
            "",
            405,
        ),
    ]
}

/// A web-only process streams the progress of a job that a separate worker process runs,
/// both sharing PostgreSQL (progress crosses processes through LISTEN/NOTIFY).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn progress_crosses_processes_on_postgres() {
    run_on(Engine::Postgres, |db| async move {
        let site = fixture_site().await;
        let cfg = config(&db);
        let web = spawn_app(cfg.clone(), WEB_ONLY).await;
        let mut worker = std::process::Command::new(env!("CARGO_BIN_EXE_sitelens"))
            .arg("worker")
            .env("SITELENS_DATABASE_URL", &db.url)
            .env("SITELENS_DATA_DIR", &cfg.data_dir)
            .env("SITELENS_ALLOW_PRIVATE_TARGETS", "true")
            .env("SITELENS_CHROMIUM", "off")
            .env("RUST_LOG", "warn")
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("worker process starts");
        let res = web
            .post_json("/api/analyze", &json!({"url": format!("http://{site}/")}))
            .await;
        let id = res.json["analysisId"].as_str().expect("id").to_owned();
        let events = web.follow(&id).await;
        let _ = worker.kill();
        let _ = worker.wait();
        assert_eq!(
            events.first().and_then(|e| e["type"].as_str()),
            Some("connected")
        );
        assert_eq!(
            events.last().and_then(|e| e["type"].as_str()),
            Some("complete"),
            "{events:?}"
        );
        let result_id = events
            .last()
            .and_then(|e| e["resultId"].as_str())
            .expect("result")
            .to_owned();
        assert_eq!(
            web.get(&format!("/api/results/{result_id}")).await.status,
            200
        );
        web.running.shutdown().await;
    })
    .await;
}
