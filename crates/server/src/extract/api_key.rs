//! The public API's door (`/api/v1`): the bearer key, the per-key rate limit, and the record
//! of every call.
//!
//! [`gate`] runs around every `/api/v1` route: it authenticates `Authorization: Bearer <key>`
//! (401 otherwise), counts the request in the key's window in the database (so every server
//! process shares one count; 429 with `Retry-After` past the limit), runs the handler with the
//! [`ApiCaller`] in the request, adds the `RateLimit-Limit`, `RateLimit-Remaining` and
//! `RateLimit-Reset` headers (IETF draft "RateLimit header fields for HTTP") and records the
//! call in `api_usage` and `users.api_calls`, with its route, method, status and time.

use std::time::Instant;

use axum::extract::{FromRequest, FromRequestParts, MatchedPath, Request, State};
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderName, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use domain::api::{RATE_WINDOW_SECONDS, rate_window};
use store::api_keys::ApiCall;

use crate::chain::Chain;
use crate::error::V1Error;
use crate::services::api::rate_limit;
pub use crate::services::api_keys::ApiCaller;
use crate::state::AppState;

/// `RateLimit-Limit`: requests a key may make per window.
pub const RATELIMIT_LIMIT: HeaderName = HeaderName::from_static("ratelimit-limit");
/// `RateLimit-Remaining`: requests left in this window.
pub const RATELIMIT_REMAINING: HeaderName = HeaderName::from_static("ratelimit-remaining");
/// `RateLimit-Reset`: seconds until the window ends.
pub const RATELIMIT_RESET: HeaderName = HeaderName::from_static("ratelimit-reset");

/// The key a request carries in `Authorization: Bearer <key>` (the scheme in any case).
fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(AUTHORIZATION)?.to_str().ok()?.trim();
    let (scheme, key) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| key.trim())
}

/// The middleware of every `/api/v1` route; see the module's documentation.
pub async fn gate(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    let started = Instant::now();
    let caller = match bearer(req.headers()) {
        Some(key) => crate::services::api_keys::authenticate(&state.db, key).await,
        None => Ok(None),
    };
    let caller = match caller {
        Ok(Some(caller)) => caller,
        Ok(None) => return V1Error::unauthorized().into_response(),
        Err(e) => return V1Error::from(e).into_response(),
    };
    let endpoint = req
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| req.uri().path().to_owned(), |p| p.as_str().to_owned());
    let method = req.method().to_string();
    let limit = rate_limit(&caller.user);
    let window = rate_window(store::now().timestamp_millis());
    let counted = store::api_keys::count_request(
        &state.db,
        caller.key.id,
        window.start,
        RATE_WINDOW_SECONDS,
        limit,
    )
    .await;
    let count = match counted {
        Ok(count) => count,
        Err(e) => return V1Error::from(e).into_response(),
    };
    let mut response = if count.allowed {
        req.extensions_mut().insert(caller.clone());
        next.run(req).await
    } else {
        V1Error::rate_limited(limit, window.reset_after).into_response()
    };
    let used = count.used;
    let headers = response.headers_mut();
    headers.insert(RATELIMIT_LIMIT, HeaderValue::from(limit));
    headers.insert(
        RATELIMIT_REMAINING,
        HeaderValue::from(limit.saturating_sub(used)),
    );
    headers.insert(RATELIMIT_RESET, HeaderValue::from(window.reset_after));
    let call = ApiCall {
        endpoint,
        method,
        response_time_ms: i32::try_from(started.elapsed().as_millis()).unwrap_or(i32::MAX),
        status_code: i32::from(response.status().as_u16()),
        api_key_id: Some(caller.key.id),
    };
    // The answer is ready; a call that cannot be recorded is logged, not turned into an error.
    if let Err(e) = store::api_keys::record_api_call(&state.db, caller.user.id, &call).await {
        tracing::error!(error = %Chain(&e), "API call not recorded");
    }
    response
}

impl<S: Send + Sync> FromRequestParts<S> for ApiCaller {
    type Rejection = V1Error;

    /// The caller [`gate`] authenticated; a route outside the gate has none (401).
    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, V1Error> {
        parts
            .extensions
            .get::<ApiCaller>()
            .cloned()
            .ok_or_else(V1Error::unauthorized)
    }
}

/// Like `axum::Json`, but a body that is missing, malformed or of the wrong shape is answered
/// in the public API's error shape.
#[derive(Debug, Clone, Copy, Default, FromRequest)]
#[from_request(via(axum::Json), rejection(V1Error))]
pub struct V1Json<T>(pub T);
