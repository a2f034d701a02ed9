//! `GET /api/v1/status`: the service's live status and its last day of health samples, the
//! JSON twin of the `/api-status` page. Public (no key), never counted against a key; it
//! answers 200 whatever the state it reports (the body says `operational`, `degraded` or
//! `down`), so a monitor reads the state rather than guessing from a status code. Readiness
//! for a load balancer stays `/readyz`.

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use domain::status::ApiStatus;

use crate::services::status::StatusSources;
use crate::state::AppState;

/// Get the service's status
///
/// Whether the API, the analysis queue, the workers, the browser and the database work now,
/// and a health sample of each minute of the last 24 hours; public, no key. The answer is
/// 200 whatever the state it reports.
#[utoipa::path(
    get,
    path = "/status",
    tag = "status",
    operation_id = "getStatus",
    responses(
        (status = 200, description = "the service's status now and its last 24 hours", body = ApiStatus),
    )
)]
pub async fn get_status(State(state): State<AppState>) -> Response {
    let status = StatusSources::new(state.db.clone(), &state.config)
        .current(chrono::Utc::now())
        .await;
    (
        // Live figures: a cache in between must not show an old state.
        [(header::CACHE_CONTROL, HeaderValue::from_static("no-store"))],
        Json(status),
    )
        .into_response()
}
