//! `/healthz` and `/readyz`.

use serde_json::json;

use crate::support::{Engine, WEB_ONLY, config, run_on, spawn_app};

/// A migrated database without a browser is ready; the process is alive.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn ready_with_a_migrated_database() {
    run_on(Engine::Sqlite, |db| async move {
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let ready = app.get("/readyz").await;
        assert_eq!(ready.status, 200);
        assert_eq!(
            ready.json,
            json!({
                "ready": true,
                "database": true,
                "migrations": "applied",
                "blobs": {"store": "local", "reachable": true},
                "browser": "off",
                "payments": "test",
            })
        );
        assert_eq!(app.get("/healthz").await.json, json!({"status": "ok"}));
        app.running.shutdown().await;
    })
    .await;
}
