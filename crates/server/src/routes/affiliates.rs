//! The affiliate programme's routes (docs/PRODUCT.md §3.10-§3.13): the signed-in user's
//! application (`POST /api/affiliates/apply`, one per account and e-mail) and dashboard
//! (`GET /api/affiliates/me`), the approved affiliate's code and link for the share widget
//! (`GET /api/affiliates/link`, nulls for everyone else), the marketing banners (`GET /api/affiliates/banners/728x90.svg`),
//! and [`track_referral`], the layer that records a `?ref=CODE` visit to any page and sets the
//! referral cookie.

use axum::extract::{FromRequestParts, Path, Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use domain::affiliates::{AffiliateApplication, AffiliateDashboard, REFERRAL_PARAM, banner_svg};
use serde_json::{Value, json};

use crate::error::{AppError, AppResult};
use crate::extract::{ApiJson, ClientIp, CurrentUser, MaybeUser};
use crate::services::affiliates::{self, Visit};
use crate::state::AppState;

/// The affiliate resource.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/affiliates/apply", post(apply))
        .route("/affiliates/me", get(me))
        .route("/affiliates/link", get(link))
        .route("/affiliates/banners/{file}", get(banner))
}

async fn apply(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiJson(form): ApiJson<AffiliateApplication>,
) -> AppResult<(StatusCode, Json<AffiliateDashboard>)> {
    let view = affiliates::apply(&state.db, &state.config, &current.user, &form).await?;
    Ok((StatusCode::CREATED, Json(view)))
}

async fn me(
    State(state): State<AppState>,
    current: CurrentUser,
) -> AppResult<Json<AffiliateDashboard>> {
    Ok(Json(
        affiliates::dashboard(&state.db, &state.config, &current.user).await?,
    ))
}

async fn link(State(state): State<AppState>, MaybeUser(user): MaybeUser) -> AppResult<Json<Value>> {
    let referral = match user {
        Some(current) => affiliates::referral(&state.db, &state.config, &current.user).await?,
        None => None,
    };
    let (code, link) = referral.unzip();
    Ok(Json(json!({ "code": code, "referralLink": link })))
}

async fn banner(Path(file): Path<String>) -> AppResult<Response> {
    let svg = file
        .strip_suffix(".svg")
        .and_then(|size| size.split_once('x'))
        .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
        .and_then(|(w, h)| banner_svg(w, h))
        .ok_or_else(|| AppError::NotFound("No banner of that size.".to_owned()))?;
    Ok((
        [
            (header::CONTENT_TYPE, "image/svg+xml; charset=utf-8"),
            (header::CACHE_CONTROL, "public, max-age=86400"),
        ],
        svg,
    )
        .into_response())
}

/// The `ref` of a query string, when there is one.
fn referral_code(query: &str) -> Option<String> {
    url::form_urlencoded::parse(query.as_bytes())
        .find(|(k, _)| k == REFERRAL_PARAM)
        .map(|(_, v)| v.into_owned())
        .filter(|v| !v.is_empty())
}

/// A page visited with `?ref=CODE` (any page of the site, not the API): the click is recorded
/// (address hashed, counted once a day; nothing for an unknown or unapproved code or the
/// affiliate's own account) and the answer sets the referral cookie. Tracking never fails the
/// page: an error is logged.
pub async fn track_referral(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    request: Request,
    next: Next,
) -> Response {
    let code = (request.method() == Method::GET && !request.uri().path().starts_with("/api/"))
        .then(|| request.uri().query().and_then(referral_code))
        .flatten();
    let Some(code) = code else {
        return next.run(request).await;
    };
    let (mut parts, body) = request.into_parts();
    let user = MaybeUser::from_request_parts(&mut parts, &state)
        .await
        .ok()
        .and_then(|m| m.0)
        .map(|c| c.user.id);
    let header_text = |name: header::HeaderName| {
        parts
            .headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let visit = Visit {
        code,
        ip,
        user_agent: header_text(header::USER_AGENT),
        referrer: header_text(header::REFERER),
        landing_page: parts
            .uri
            .path_and_query()
            .map_or_else(|| "/".to_owned(), |p| p.as_str().to_owned()),
        user_id: user,
    };
    let cookie: Option<HeaderValue> =
        match affiliates::track(&state.db, &state.config, &visit, store::now()).await {
            Ok(Some(outcome)) => Some(affiliates::referral_cookie(
                &state.config,
                &state.cookies,
                outcome.click_id(),
            )),
            Ok(None) => None,
            Err(e) => {
                tracing::error!(error = %e, "referral click not recorded");
                None
            }
        };
    let mut response = next.run(Request::from_parts(parts, body)).await;
    if let Some(cookie) = cookie {
        response.headers_mut().append(header::SET_COOKIE, cookie);
    }
    response
}
