//! `GET /api/results/{id}` (docs/PRODUCT.md §7.7): `{success, data}` with the report, by report id
//! or by analysis id.

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use domain::report::ResultResponse;

use crate::error::{AppError, AppResult};
use crate::routes::parse_id;
use crate::services::reports::find_report;
use crate::state::AppState;

/// The results resource.
pub fn router() -> Router<AppState> {
    Router::new().route("/results/{id}", get(get_result))
}

/// The report as JSON; a result never changes, so its serialised body is cached.
async fn get_result(State(state): State<AppState>, Path(raw): Path<String>) -> AppResult<Response> {
    let id = parse_id(&raw, "analysis")?;
    let body = match state.results.get(&id) {
        Some(body) => body,
        None => {
            let report = find_report(&state.db, id).await?;
            let json = serde_json::to_vec(&ResultResponse {
                public_url: None,
                success: true,
                data: report,
            })
            .map_err(AppError::internal)?;
            let body = Bytes::from(json);
            state.results.put(id, body.clone());
            body
        }
    };
    Ok((
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        Body::from(body),
    )
        .into_response())
}
