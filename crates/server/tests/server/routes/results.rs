//! `GET /api/results/{id}`.

use serde_json::{Value, json};

use super::{Case, case};
use crate::support::{TestDb, WEB_ONLY, config, each_engine, spawn_app};

/// Ids that name no result.
pub fn malformed() -> Vec<Case> {
    vec![
        // GET /api/results/{id}
        case("GET", "/api/results/not-a-uuid", None, "", 404),
        case("GET", "/api/results/", None, "", 404),
        case("GET", "/api/results/1", None, "", 404),
        case("GET", "/api/results/%00", None, "", 404),
        case(
            "GET",
            "/api/results/00000000-0000-4000-8000-000000000000",
            None,
            "",
            404,
        ),
        case(
            "DELETE",
            "/api/results/00000000-0000-4000-8000-000000000000",
            None,
            "",
            405,
        ),
    ]
}

/// With the database gone, a known analysis is a 503 with a clear message, never "analysis
/// not found"; so are the other calls that need the database.
async fn outage(db: TestDb) {
    let engine = db.engine;
    let app = spawn_app(config(&db), WEB_ONLY).await;
    let res = app
        .post_json("/api/analyze", &json!({"url": "https://example.com/"}))
        .await;
    assert_eq!(res.status, 200, "{engine:?}: {}", res.json);
    let id = res.json["analysisId"].as_str().expect("id").to_owned();
    // Closing the pool ends every connection of the running server, as an outage does.
    app.running.db.clone().close().await.expect("close");
    for path in [
        format!("/api/results/{id}"),
        format!("/api/analysis-progress/{id}"),
        "/api/stats".to_owned(),
    ] {
        let answer = app.get(&path).await;
        assert_eq!(answer.status, 503, "{engine:?} {path}: {}", answer.json);
        assert_unavailable(&answer.json, &path);
    }
    let answer = app
        .post_json("/api/analyze", &json!({"url": "https://example.org/"}))
        .await;
    assert_eq!(answer.status, 503, "{engine:?}: {}", answer.json);
    assert_unavailable(&answer.json, "POST /api/analyze");
    assert_eq!(app.get("/readyz").await.status, 503);
    app.running.shutdown().await;
}

fn assert_unavailable(body: &Value, context: &str) {
    assert_eq!(body["success"], false, "{context}");
    assert_eq!(
        body["error"], "the service is temporarily unavailable, please try again in a minute",
        "{context}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_database_outage_is_503_not_not_found() {
    each_engine(outage).await;
}
