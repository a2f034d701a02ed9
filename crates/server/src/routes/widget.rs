//! The embeddable audit widget (issue 15 item 5), `services::widget`:
//!
//! - the agency's side, signed in (session and CSRF as every account route), under
//!   `/api/account/widget`: the overview with its keys, create a key (white-label accounts only,
//!   403 otherwise), change a key's origins, revoke it, the leads by page and `leads.csv`;
//! - the public side, called from the agency's pages on other origins: `GET /widget.js` (the
//!   script, from the built web app), and under `/api/widget/{key}`: `config`, `POST leads`
//!   and `analyses/{id}` (progress), each answered with CORS for the key's allowed origins
//!   only (preflight included); another origin gets a 403 without
//!   `Access-Control-Allow-Origin`, an unknown or revoked key a 404.

use axum::body::Body;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use axum::{Json, Router};
use domain::forms::LeadForm;
use domain::widget::{
    SCRIPT_MAX_AGE_SECONDS, WidgetKeyView, WidgetLeadAccepted, WidgetLeadPage, WidgetOrigins,
    WidgetOverview,
};
use serde::Deserialize;
use serde_json::json;

use crate::error::{AppError, AppResult};
use crate::extract::{ApiJson, ClientIp, CurrentUser};
use crate::routes::parse_row_id;
use crate::services::widget::{self, Delivery, Widget};
use crate::state::AppState;

/// The widget's API routes (nested under `/api`).
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/account/widget", get(get_overview))
        .route("/account/widget/keys", post(create_key))
        .route(
            "/account/widget/keys/{id}",
            put(update_origins).delete(revoke_key),
        )
        .route("/account/widget/leads", get(list_leads))
        .route("/account/widget/leads.csv", get(export_leads))
        .route("/widget/{key}/config", get(get_config).options(preflight))
        .route("/widget/{key}/leads", post(submit_lead).options(preflight))
        .route(
            "/widget/{key}/analyses/{id}",
            get(get_progress).options(preflight),
        )
}

/// The script's route, at the site's root.
pub fn script_router() -> Router<AppState> {
    Router::new().route("/widget.js", get(get_script))
}

async fn get_overview(
    State(state): State<AppState>,
    current: CurrentUser,
) -> AppResult<Json<WidgetOverview>> {
    Ok(Json(
        widget::overview(&state.db, &state.config, &current.user).await?,
    ))
}

async fn create_key(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiJson(body): ApiJson<WidgetOrigins>,
) -> AppResult<(StatusCode, Json<WidgetKeyView>)> {
    let key = widget::create_key(
        &state.db,
        &state.config,
        &current.user,
        &body.allowed_origins,
    )
    .await?;
    Ok((StatusCode::CREATED, Json(key)))
}

async fn update_origins(
    State(state): State<AppState>,
    current: CurrentUser,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<WidgetOrigins>,
) -> AppResult<Json<WidgetKeyView>> {
    let id = parse_row_id(&id, "You have no such widget key")?;
    Ok(Json(
        widget::update_origins(
            &state.db,
            &state.config,
            &current.user,
            id,
            &body.allowed_origins,
        )
        .await?,
    ))
}

async fn revoke_key(
    State(state): State<AppState>,
    current: CurrentUser,
    Path(id): Path<String>,
) -> AppResult<Json<serde_json::Value>> {
    let id = parse_row_id(&id, "You have no such widget key")?;
    widget::revoke_key(&state.db, &state.config, &current.user, id).await?;
    Ok(Json(
        json!({"success": true, "message": "The widget key is revoked: pages using it no longer show the form"}),
    ))
}

/// `?page=&perPage=` of the leads list.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct PageQuery {
    page: Option<u32>,
    per_page: Option<u32>,
}

async fn list_leads(
    State(state): State<AppState>,
    current: CurrentUser,
    Query(q): Query<PageQuery>,
) -> AppResult<Json<WidgetLeadPage>> {
    Ok(Json(
        widget::leads_page(&state.db, &state.config, &current.user, q.page, q.per_page).await?,
    ))
}

async fn export_leads(State(state): State<AppState>, current: CurrentUser) -> AppResult<Response> {
    let csv = widget::leads_csv(&state.db, &state.config, &current.user).await?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/csv; charset=utf-8"),
            ),
            (
                header::CONTENT_DISPOSITION,
                HeaderValue::from_static("attachment; filename=\"widget-leads.csv\""),
            ),
            (
                header::CACHE_CONTROL,
                HeaderValue::from_static("private, no-store"),
            ),
        ],
        csv,
    )
        .into_response())
}

/// The built script: JavaScript, cached for a few minutes (its address never changes), usable
/// from any origin.
async fn get_script(State(state): State<AppState>, headers: HeaderMap) -> AppResult<Response> {
    let script = &state.widget;
    let Some(body) = &script.body else {
        return Err(AppError::NotFound(
            "the widget script is not built: run `just web`".to_owned(),
        ));
    };
    let etag = HeaderValue::from_str(&script.etag).map_err(AppError::internal)?;
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .is_some_and(|v| v.as_bytes() == etag.as_bytes());
    let mut res = if fresh {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        Response::new(Body::from(body.clone()))
    };
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/javascript; charset=utf-8"),
    );
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_str(&format!("public, max-age={SCRIPT_MAX_AGE_SECONDS}"))
            .map_err(AppError::internal)?,
    );
    h.insert(header::ETAG, etag);
    h.insert(
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        HeaderValue::from_static("*"),
    );
    h.insert(
        "cross-origin-resource-policy",
        HeaderValue::from_static("cross-origin"),
    );
    Ok(res)
}

fn origin_of(headers: &HeaderMap) -> Option<&str> {
    headers.get(header::ORIGIN).and_then(|v| v.to_str().ok())
}

/// The key of a public request and the allowed origin it came from; a refusal is answered as
/// it is (404 unknown key, 403 other origin), without CORS headers.
async fn allowed(
    state: &AppState,
    key: &str,
    headers: &HeaderMap,
) -> Result<(Widget, String), Response> {
    let widget = widget::find_key(&state.db, key)
        .await
        .map_err(|e| AppError::from(e).into_response())?;
    let origin = widget
        .check_origin(origin_of(headers))
        .map_err(|e| AppError::from(e).into_response())?;
    Ok((widget, origin))
}

/// Adds the CORS answer for an allowed `origin` to `res`.
fn with_cors(mut res: Response, origin: &str) -> Response {
    let h = res.headers_mut();
    if let Ok(v) = HeaderValue::from_str(origin) {
        h.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, v);
    }
    h.insert(header::VARY, HeaderValue::from_static("Origin"));
    h.insert(
        header::ACCESS_CONTROL_EXPOSE_HEADERS,
        HeaderValue::from_static("Retry-After"),
    );
    res
}

/// A public answer: the JSON with its `Cache-Control`, or the error.
fn json_answer<T: serde::Serialize>(
    result: Result<T, widget::WidgetError>,
    cache: &'static str,
) -> Response {
    match result {
        Ok(value) => {
            let mut res = Json(value).into_response();
            res.headers_mut()
                .insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
            res
        }
        Err(e) => AppError::from(e).into_response(),
    }
}

/// Answers a CORS preflight for an allowed origin (the lead form posts JSON).
async fn preflight(
    State(state): State<AppState>,
    Path(params): Path<Vec<(String, String)>>,
    headers: HeaderMap,
) -> Response {
    let key = params
        .iter()
        .find(|(name, _)| name == "key")
        .map_or("", |(_, v)| v.as_str());
    let (_, origin) = match allowed(&state, key, &headers).await {
        Ok(ok) => ok,
        Err(refused) => return refused,
    };
    let mut res = with_cors(StatusCode::NO_CONTENT.into_response(), &origin);
    let h = res.headers_mut();
    h.insert(
        header::ACCESS_CONTROL_ALLOW_METHODS,
        HeaderValue::from_static("GET, POST"),
    );
    h.insert(
        header::ACCESS_CONTROL_ALLOW_HEADERS,
        HeaderValue::from_static("content-type"),
    );
    h.insert(
        header::ACCESS_CONTROL_MAX_AGE,
        HeaderValue::from_static("600"),
    );
    res
}

async fn get_config(
    State(state): State<AppState>,
    Path(key): Path<String>,
    headers: HeaderMap,
) -> Response {
    let (widget, origin) = match allowed(&state, &key, &headers).await {
        Ok(ok) => ok,
        Err(refused) => return refused,
    };
    let config = widget::config(&state.db, &widget).await;
    with_cors(json_answer(config, "private, max-age=60"), &origin)
}

async fn submit_lead(
    State(state): State<AppState>,
    Path(key): Path<String>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    body: Result<ApiJson<LeadForm>, AppError>,
) -> Response {
    let (widget, origin) = match allowed(&state, &key, &headers).await {
        Ok(ok) => ok,
        Err(refused) => return refused,
    };
    let delivery = Delivery {
        config: &state.config,
        hub: &state.hub,
        mailer: &state.mailer,
    };
    let form = body.ok().map(|ApiJson(form)| form);
    let res = match widget::submit_lead(&state.db, delivery, &widget, ip, form.as_ref()).await {
        Ok(id) => {
            let base = widget::report_base(&state.db, &state.config, &widget).await;
            (
                StatusCode::CREATED,
                Json(WidgetLeadAccepted {
                    success: true,
                    analysis_id: id.to_string(),
                    report_url: widget::report_url(&base, id),
                }),
            )
                .into_response()
        }
        Err(e) => AppError::from(e).into_response(),
    };
    with_cors(res, &origin)
}

async fn get_progress(
    State(state): State<AppState>,
    Path((key, id)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    let (widget, origin) = match allowed(&state, &key, &headers).await {
        Ok(ok) => ok,
        Err(refused) => return refused,
    };
    let progress = widget::progress(&state.db, &state.config, &widget, &id).await;
    with_cors(json_answer(progress, "no-store"), &origin)
}
