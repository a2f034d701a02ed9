//! `/api/v1`, the public API: analyses over HTTP with an API key (`Authorization: Bearer`).
//! Every route passes `extract::gate` (the key, the rate limit, the usage record); every
//! error is `{"error": {"code", "message"}}` (`error::V1Error`).
//!
//! - `POST /analyses` `{url, reportType, callbackUrl?}` with an optional `Idempotency-Key`: 201
//!   and the queued analysis; 200 with `Idempotent-Replayed: true` for a key used before
//!   (nothing is charged again). With `callbackUrl`, a signed callback is posted there when the
//!   analysis completes or fails (`services::callbacks`); `GET /analyses/{id}` shows its
//!   delivery and attempts.
//! - `GET /analyses` (`page`, `perPage`), `GET /analyses/{id}`, `GET /analyses/{id}/report`
//!   (the report JSON, the web's contract type), `GET /analyses/{id}/report.pdf`.
//! - `GET /usage`: credits, calls and the rate limit.
//! - `GET /openapi.json`: the OpenAPI 3.1 document of all of this (public, no key), built from
//!   the `#[utoipa::path]` attributes below and `routes::openapi`.
//! - `GET /status`: the service's live status (public, no key; `routes::status`).

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use axum::middleware::from_fn_with_state;
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use axum::{Json, Router};
use domain::api::{
    ApiAnalysis, ApiAnalysisPage, ApiErrorBody, ApiErrorCode, ApiUsage, CreateAnalysisRequest,
};
use domain::report::AnalysisReport;
use serde::Deserialize;
use std::sync::LazyLock;
use utoipa::OpenApi as _;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use crate::error::V1Error;
use crate::extract::{ApiCaller, ClientIp, V1Json, gate};
use crate::routes::openapi::{ApiDoc, PdfFile};
use crate::services::{analyses, api, callbacks};
use crate::state::AppState;
use store::jobs::ApiOptions;

/// The header a client sends to make a submission safe to retry.
const IDEMPOTENCY_KEY: &str = "idempotency-key";
/// Answered on a submission that returned an earlier one's analysis.
const REPLAYED: HeaderName = HeaderName::from_static("idempotent-replayed");

/// The gated routes with their OpenAPI operations, registered together: the document and the
/// router come from this one list, so no route goes undocumented.
fn documented() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .routes(routes!(list_analyses, create_analysis))
        .routes(routes!(get_analysis))
        .routes(routes!(get_report))
        .routes(routes!(get_report_pdf))
        .routes(routes!(get_usage))
}

/// Adds the public routes (no key, not counted) with their operations.
fn public(router: OpenApiRouter<AppState>) -> OpenApiRouter<AppState> {
    router
        .routes(routes!(get_openapi))
        .routes(routes!(crate::routes::status::get_status))
}

/// The OpenAPI document of `/api/v1`, paths relative to its server `/api/v1`.
pub fn openapi() -> utoipa::openapi::OpenApi {
    let mut doc = public(OpenApiRouter::<AppState>::with_openapi(
        documented().into_openapi(),
    ))
    .into_openapi();
    crate::routes::openapi::add_shared(&mut doc);
    crate::routes::openapi::add_webhooks(&mut doc);
    doc
}

/// The document as served, built once.
static DOCUMENT: LazyLock<String> = LazyLock::new(|| {
    openapi()
        .to_pretty_json()
        .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
});

/// The public API, to nest at `/api/v1`; `state` is the gate's.
pub fn router(state: AppState) -> Router<AppState> {
    let (gated, _) = documented()
        .route_layer(from_fn_with_state(state, gate))
        .split_for_parts();
    let (open, _) = public(OpenApiRouter::new()).split_for_parts();
    gated
        .merge(open)
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

/// Submit an analysis
///
/// Queues an analysis of `url` and spends its price in credits (basic 0.5, standard 1,
/// premium 2). With an `Idempotency-Key`, a retry returns the first submission's analysis and
/// is never charged again. With a `callbackUrl`, a signed JSON callback is posted there when
/// the analysis completes or fails (see the guide at /api-docs#callbacks).
#[utoipa::path(
    post,
    path = "/analyses",
    tag = "analyses",
    operation_id = "createAnalysis",
    request_body = CreateAnalysisRequest,
    params(
        ("Idempotency-Key" = Option<String>, Header,
            description = "1-255 visible ASCII characters (a UUID): the same key returns the same analysis and is charged once")
    ),
    responses(
        (status = 201, description = "queued; its price was spent", body = ApiAnalysis),
        (status = 200, description = "this `Idempotency-Key` was used before for the same request: its analysis, not charged again", body = ApiAnalysis,
            headers(("Idempotent-Replayed" = String, description = "`true`"))),
        (status = 400, description = "malformed JSON or `Idempotency-Key` (`invalid_request`)", body = ApiErrorBody),
        (status = 402, description = "the account's credits do not cover the report (`insufficient_credits`)", body = ApiErrorBody),
        (status = 409, description = "this `Idempotency-Key` was used for another address or report type (`idempotency_key_reused`)", body = ApiErrorBody),
        (status = 413, description = "the body is too large (`payload_too_large`)", body = ApiErrorBody),
        (status = 415, description = "the body is not JSON (`unsupported_media_type`)", body = ApiErrorBody),
        (status = 422, description = "a field is missing or wrong (`invalid_request`), the address cannot be analysed (`invalid_url`) or the `callbackUrl` cannot be called back (`invalid_callback_url`)", body = ApiErrorBody),
    ),
    security(("apiKey" = []))
)]
async fn create_analysis(
    State(state): State<AppState>,
    caller: ApiCaller,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    V1Json(body): V1Json<CreateAnalysisRequest>,
) -> Result<Response, V1Error> {
    let idempotency_key = idempotency_key(&headers)?;
    let callback_url = body
        .callback_url
        .as_deref()
        .map(|raw| callbacks::check_callback_url(raw, state.config.allow_private_targets))
        .transpose()?;
    let submitted = analyses::submit_api_analysis(
        &state.db,
        &state.hub,
        ip,
        &caller.user,
        body.report_type,
        &body.url,
        &ApiOptions {
            idempotency_key,
            callback_url: callback_url.as_deref(),
        },
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
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
struct PageQuery {
    /// The page, from 1.
    #[param(minimum = 1)]
    page: Option<u32>,
    /// Analyses per page (20 unless given).
    #[param(minimum = 1, maximum = 100)]
    per_page: Option<u32>,
}

/// List the account's analyses
///
/// The analyses of the key's account (a team member's own), newest first, by page.
#[utoipa::path(
    get,
    path = "/analyses",
    tag = "analyses",
    operation_id = "listAnalyses",
    params(PageQuery),
    responses(
        (status = 200, description = "one page of analyses", body = ApiAnalysisPage),
        (status = 400, description = "a page or page size out of range (`invalid_request`)", body = ApiErrorBody),
    ),
    security(("apiKey" = []))
)]
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

/// Get an analysis
///
/// Its status and progress; poll it until `status` is `complete` or `failed`. When it was
/// submitted with a `callbackUrl`, `callback` says where the callback's delivery is, with
/// every attempt (time, HTTP status or error, duration).
#[utoipa::path(
    get,
    path = "/analyses/{id}",
    tag = "analyses",
    operation_id = "getAnalysis",
    params(("id" = String, Path, description = "the analysis id (a UUID)")),
    responses(
        (status = 200, description = "the analysis", body = ApiAnalysis),
        (status = 404, description = "no such analysis of this account (`not_found`)", body = ApiErrorBody),
    ),
    security(("apiKey" = []))
)]
async fn get_analysis(
    State(state): State<AppState>,
    caller: ApiCaller,
    Path(raw): Path<String>,
) -> Result<Json<ApiAnalysis>, V1Error> {
    Ok(Json(
        api::own_analysis_view(&state.db, &caller.user, analysis_id(&raw)?).await?,
    ))
}

/// Get an analysis's report
///
/// The completed analysis's report as JSON: the same document the web app shows.
#[utoipa::path(
    get,
    path = "/analyses/{id}/report",
    tag = "analyses",
    operation_id = "getReport",
    params(("id" = String, Path, description = "the analysis id (a UUID)")),
    responses(
        (status = 200, description = "the report", body = AnalysisReport),
        (status = 404, description = "no such analysis of this account (`not_found`)", body = ApiErrorBody),
        (status = 409, description = "the analysis is not finished (`analysis_not_finished`) or failed (`analysis_failed`)", body = ApiErrorBody),
    ),
    security(("apiKey" = []))
)]
async fn get_report(
    State(state): State<AppState>,
    caller: ApiCaller,
    Path(raw): Path<String>,
) -> Result<Json<AnalysisReport>, V1Error> {
    Ok(Json(
        api::own_report(&state.db, &caller.user, analysis_id(&raw)?).await?,
    ))
}

/// Get an analysis's report as PDF
///
/// The completed analysis's report as a PDF file.
#[utoipa::path(
    get,
    path = "/analyses/{id}/report.pdf",
    tag = "analyses",
    operation_id = "getReportPdf",
    params(("id" = String, Path, description = "the analysis id (a UUID)")),
    responses(
        (status = 200, description = "the report as PDF", body = PdfFile, content_type = "application/pdf"),
        (status = 404, description = "no such analysis of this account (`not_found`)", body = ApiErrorBody),
        (status = 409, description = "the analysis is not finished (`analysis_not_finished`) or failed (`analysis_failed`)", body = ApiErrorBody),
    ),
    security(("apiKey" = []))
)]
async fn get_report_pdf(
    State(state): State<AppState>,
    caller: ApiCaller,
    Path(raw): Path<String>,
) -> Result<Response, V1Error> {
    let report = api::own_report(&state.db, &caller.user, analysis_id(&raw)?).await?;
    Ok(crate::routes::reports::pdf_response(&state, report).await?)
}

/// Get usage
///
/// The account's credits, its API calls and this key's rate limit.
#[utoipa::path(
    get,
    path = "/usage",
    tag = "account",
    operation_id = "getUsage",
    responses(
        (status = 200, description = "credits, calls and the rate limit", body = ApiUsage),
    ),
    security(("apiKey" = []))
)]
async fn get_usage(
    State(state): State<AppState>,
    caller: ApiCaller,
) -> Result<Json<ApiUsage>, V1Error> {
    Ok(Json(api::usage(&state.db, &caller.user).await?))
}

/// Get this document
///
/// The OpenAPI 3.1 document of `/api/v1`; public, no key.
#[utoipa::path(
    get,
    path = "/openapi.json",
    tag = "meta",
    operation_id = "getOpenApi",
    responses(
        (status = 200, description = "the OpenAPI document", content_type = "application/json", body = Object),
    )
)]
async fn get_openapi() -> Response {
    (
        [(
            axum::http::header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        DOCUMENT.as_str(),
    )
        .into_response()
}
