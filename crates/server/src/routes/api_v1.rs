//! `/api/v1`, the public API: analyses over HTTP with an API key (`Authorization: Bearer`).
//! Every route passes `extract::gate` (the key, the rate limit, the usage record); every
//! error is `{"error": {"code", "message"}}` (`error::V1Error`).
//!
//! - `POST /analyses` `{url, reportType}` with an optional `Idempotency-Key`: 201 and the
//!   queued analysis; 200 with `Idempotent-Replayed: true` for a key used before (nothing is
//!   charged again).
//! - `GET /analyses` (`page`, `perPage`), `GET /analyses/{id}`, `GET /analyses/{id}/report`
//!   (the report JSON, the web's contract type), `GET /analyses/{id}/report.pdf`.
//! - `GET /usage`: credits, calls and the rate limit.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use axum::middleware::from_fn_with_state;
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get};
use axum::{Json, Router};
use domain::api::{ApiAnalysis, ApiAnalysisPage, ApiErrorCode, ApiUsage, CreateAnalysisRequest};
use domain::report::AnalysisReport;
use serde::Deserialize;
use uuid::Uuid;

use crate::error::V1Error;
use crate::extract::{ApiCaller, ClientIp, V1Json, gate};
use crate::services::{analyses, api};
use crate::state::AppState;

/// The header a client sends to make a submission safe to retry.
const IDEMPOTENCY_KEY: &str = "idempotency-key";
/// Answered on a submission that returned an earlier one's analysis.
const REPLAYED: HeaderName = HeaderName::from_static("idempotent-replayed");

/// The public API, to nest at `/api/v1`; `state` is the gate's.
pub fn router(state: AppState) -> Router<AppState> {
    Router::new()
        .route("/analyses", get(list_analyses).post(create_analysis))
        .route("/analyses/{id}", get(get_analysis))
        .route("/analyses/{id}/report", get(get_report))
        .route("/analyses/{id}/report.pdf", get(get_report_pdf))
        .route("/usage", get(get_usage))
        .route_layer(from_fn_with_state(state, gate))
        .fallback(any(|| async {
            V1Error::new(
                StatusCode::NOT_FOUND,
                ApiErrorCode::NotFound,
                "no such endpoint of the API",
            )
        }))
        .method_not_allowed_fallback(|| async {
            V1Error::new(
                StatusCode::METHOD_NOT_ALLOWED,
                ApiErrorCode::MethodNotAllowed,
                "this endpoint does not accept that method",
            )
        })
}

/// An analysis id from the path: anything that is not a UUID names nothing of the caller's.
fn analysis_id(raw: &str) -> Result<Uuid, V1Error> {
    Uuid::parse_str(raw.trim()).map_err(|_| {
        V1Error::new(
            StatusCode::NOT_FOUND,
            ApiErrorCode::NotFound,
            "analysis not found",
        )
    })
}

fn idempotency_key(headers: &HeaderMap) -> Result<Option<&str>, V1Error> {
    let Some(value) = headers.get(IDEMPOTENCY_KEY) else {
        return Ok(None);
    };
    let key = value.to_str().map_err(|_| {
        V1Error::invalid(
            StatusCode::BAD_REQUEST,
            "the Idempotency-Key header may only hold visible ASCII characters (a UUID works)",
        )
    })?;
    domain::api::validate_idempotency_key(key)
        .map_err(|m| V1Error::invalid(StatusCode::BAD_REQUEST, m))?;
    Ok(Some(key))
}

async fn create_analysis(
    State(state): State<AppState>,
    caller: ApiCaller,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    V1Json(body): V1Json<CreateAnalysisRequest>,
) -> Result<Response, V1Error> {
    let key = idempotency_key(&headers)?;
    let submitted = analyses::submit_api_analysis(
        &state.db,
        &state.hub,
        ip,
        &caller.user,
        body.report_type,
        &body.url,
        key,
    )
    .await?;
    let view = submitted.job.api_view();
    Ok(if submitted.replayed {
        (
            StatusCode::OK,
            [(REPLAYED, HeaderValue::from_static("true"))],
            Json(view),
        )
            .into_response()
    } else {
        (StatusCode::CREATED, Json(view)).into_response()
    })
}

/// `GET /analyses`'s query.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct PageQuery {
    page: Option<u32>,
    per_page: Option<u32>,
}

async fn list_analyses(
    State(state): State<AppState>,
    caller: ApiCaller,
    query: Result<Query<PageQuery>, QueryRejection>,
) -> Result<Json<ApiAnalysisPage>, V1Error> {
    let Query(query) = query?;
    Ok(Json(
        api::analyses_page(&state.db, &caller.user, query.page, query.per_page).await?,
    ))
}

async fn get_analysis(
    State(state): State<AppState>,
    caller: ApiCaller,
    Path(raw): Path<String>,
) -> Result<Json<ApiAnalysis>, V1Error> {
    let job = api::own_analysis(&state.db, &caller.user, analysis_id(&raw)?).await?;
    Ok(Json(job.api_view()))
}

async fn get_report(
    State(state): State<AppState>,
    caller: ApiCaller,
    Path(raw): Path<String>,
) -> Result<Json<AnalysisReport>, V1Error> {
    Ok(Json(
        api::own_report(&state.db, &caller.user, analysis_id(&raw)?).await?,
    ))
}

async fn get_report_pdf(
    State(state): State<AppState>,
    caller: ApiCaller,
    Path(raw): Path<String>,
) -> Result<Response, V1Error> {
    let report = api::own_report(&state.db, &caller.user, analysis_id(&raw)?).await?;
    Ok(crate::routes::reports::pdf_response(&state, report).await?)
}

async fn get_usage(
    State(state): State<AppState>,
    caller: ApiCaller,
) -> Result<Json<ApiUsage>, V1Error> {
    Ok(Json(api::usage(&state.db, &caller.user).await?))
}
