//! `GET /api/results/{id}` (docs/PRODUCT.md §7.7): `{success, data}` with the report, by report id
//! or by analysis id; with `publicUrl` when the report is branded by an agency whose custom domain
//! is verified (`services::custom_domains`).

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

/// The report as JSON; a result never changes, so its serialised body is cached — unless it
/// wears an agency's brand, which its agency may change at any time.
async fn get_result(State(state): State<AppState>, Path(raw): Path<String>) -> AppResult<Response> {
    let id = parse_id(&raw, "analysis")?;
    let body = match state.results.get(&id) {
        Some(body) => body,
        None => {
            let report = find_report(&state.db, id).await?;
            let branded = report.branding.is_some();
            let json = serde_json::to_vec(&ResultResponse {
                public_url: None,
                success: true,
                data: report,
            })
            .map_err(AppError::internal)?;
            let body = Bytes::from(json);
            if !branded {
                state.results.put(id, body.clone());
            }
            body
        }
    };
    // Custom domains (issue 15 item 3): the branded report's address on its agency's domain.
    let body = match state.domains.report_public_base(&state.db, id).await {
        Some(base) => {
            let url = format!("{base}/results/{}", report_id(&body, id));
            crate::services::custom_domains::with_public_url(&body, &url)
        }
        None => body,
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

/// The report's own id in a results body (the request may name its analysis instead).
fn report_id(body: &Bytes, requested: uuid::Uuid) -> String {
    #[derive(serde::Deserialize)]
    struct Data {
        id: String,
    }
    #[derive(serde::Deserialize)]
    struct Body {
        data: Data,
    }
    serde_json::from_slice::<Body>(body)
        .map(|b| b.data.id)
        .unwrap_or_else(|_| requested.to_string())
}
