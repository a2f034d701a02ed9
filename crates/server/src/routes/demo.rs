//! The sample report's files (`services::demo`): its screenshots under `/demo/`, and
//! `GET /api/demo`, the report in the shape of `GET /api/results/{id}`. The `/demo` page itself
//! is one of the app's pages (`services::pages`).

use axum::Router;
use axum::extract::Path;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::error::{AppError, AppResult};
use crate::services::demo;
use crate::state::AppState;

/// `/demo/{file}`: the sample's screenshots.
pub fn router() -> Router<AppState> {
    Router::new().route("/demo/{file}", get(get_screenshot))
}

/// `/demo` under `/api`: the sample report as JSON.
pub fn api_router() -> Router<AppState> {
    Router::new().route("/demo", get(get_report))
}

/// The sample report, `{success: true, data}`; it changes only with the binary.
async fn get_report() -> Response {
    let body = format!("{{\"success\":true,\"data\":{}}}", demo::REPORT_JSON.trim());
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        body,
    )
        .into_response()
}

/// A screenshot of the sample, or 404.
async fn get_screenshot(Path(file): Path<String>) -> AppResult<Response> {
    let bytes =
        demo::screenshot(&file).ok_or_else(|| AppError::NotFound("no such file".to_owned()))?;
    Ok((
        [
            (header::CONTENT_TYPE, HeaderValue::from_static("image/png")),
            (
                header::CACHE_CONTROL,
                HeaderValue::from_static("public, max-age=3600"),
            ),
        ],
        bytes,
    )
        .into_response())
}
