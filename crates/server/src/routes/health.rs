//! `/healthz` (the process answers) and `/readyz` (the database answers, migrations are
//! applied and blob storage answers; the browser's state and the payment mode, Stripe or
//! test payments, are reported but do not decide readiness).

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{Value, json};

use crate::chain::Chain;
use crate::state::AppState;

/// The health checks.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
}

async fn healthz() -> Json<Value> {
    Json(json!({"status": "ok"}))
}

async fn readyz(State(state): State<AppState>) -> (StatusCode, Json<Value>) {
    let database = store::ping(&state.db).await.is_ok();
    let migrations = matches!(store::pending_migrations(&state.db).await, Ok(0));
    // A node that cannot read blob storage would serve reports without their screenshots.
    let blobs = match state.blobs.check().await {
        Ok(()) => true,
        Err(e) => {
            tracing::warn!(error = %Chain(&e), "readiness: blob storage does not answer");
            false
        }
    };
    let ready = database && migrations && blobs;
    let status = if ready {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (
        status,
        Json(json!({
            "ready": ready,
            "database": database,
            "migrations": if migrations { "applied" } else { "pending" },
            "blobs": {"store": state.blobs.name(), "reachable": blobs},
            "browser": state.config.browser_status(),
            "payments": state.payments.mode(),
        })),
    )
}
