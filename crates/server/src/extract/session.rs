//! The signed-in user, from the session cookie, and the cross-site request checks.
//!
//! CSRF (docs/PRODUCT.md §10.1): a request that changes state (any method but GET, HEAD and
//! OPTIONS) made with a session cookie must carry the session's token in `X-CSRF-Token`, and
//! must not come from another site by the browser's own account of it: `Sec-Fetch-Site`, when
//! sent, is `same-origin` or `none`, and `Origin`, when sent, is our public origin. The cookie
//! is also `SameSite=Lax`, so browsers do not attach it to cross-site POSTs at all; the checks
//! hold even where that fails (old browsers, a sibling subdomain).

use axum::extract::{FromRef, FromRequestParts};
use axum::http::header::{COOKIE, ORIGIN};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method};
use std::sync::Arc;
use store::DatabaseConnection;
use store::entity::{sessions, users};

use crate::error::AppError;
use crate::services::accounts::{IssuedSession, authenticate};
use crate::state::CookiePolicy;

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "sitelens_session";
/// The header that carries the CSRF token.
pub const CSRF_HEADER: &str = "x-csrf-token";

/// Message of a refused cross-site request.
const CROSS_SITE: &str =
    "This request came from another site and was refused. Reload the page and try again.";

/// The signed-in user of a request; rejects with 401 when there is none, and with 403 when a
/// state-changing request fails the CSRF checks.
#[derive(Debug, Clone)]
pub struct CurrentUser {
    /// The user.
    pub user: users::Model,
    /// The session (its `id` is the token's hash, its `csrf_token` the page's token).
    pub session: sessions::Model,
}

/// The signed-in user when there is one; still rejects a state-changing request that carries a
/// session cookie but fails the CSRF checks.
#[derive(Debug, Clone)]
pub struct MaybeUser(pub Option<CurrentUser>);

/// A state-changing request that needs no session (sign-in, sign-up, password reset): it must
/// still come from our own pages, so a login form on another site cannot sign a visitor into an
/// attacker's account (login CSRF).
#[derive(Debug, Clone, Copy)]
pub struct SameOrigin;

/// The value of the cookie `name` the request carries, when it is not empty.
pub fn cookie_value(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(n, _)| *n == name)
        .map(|(_, value)| value.trim().to_owned())
        .filter(|v| !v.is_empty())
}

fn cookie_token(headers: &HeaderMap) -> Option<String> {
    cookie_value(headers, SESSION_COOKIE)
}

fn changes_state(method: &Method) -> bool {
    !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// The browser's own account of where the request came from.
fn from_our_site(headers: &HeaderMap, origin: &str) -> bool {
    let fetch_site_ok = headers
        .get("sec-fetch-site")
        .and_then(|v| v.to_str().ok())
        .is_none_or(|v| matches!(v, "same-origin" | "none"));
    let origin_ok = headers
        .get(ORIGIN)
        .and_then(|v| v.to_str().ok())
        .is_none_or(|v| v.trim_end_matches('/') == origin);
    fetch_site_ok && origin_ok
}

/// Compares two tokens in time independent of where they first differ.
fn same_token(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

async fn resolve(
    parts: &Parts,
    db: &DatabaseConnection,
    policy: &CookiePolicy,
) -> Result<Option<CurrentUser>, AppError> {
    let Some(token) = cookie_token(&parts.headers) else {
        return Ok(None);
    };
    let Some(signed_in) = authenticate(db, &token).await? else {
        return Ok(None);
    };
    if changes_state(&parts.method) {
        let sent = parts
            .headers
            .get(CSRF_HEADER)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        if !from_our_site(&parts.headers, &policy.origin)
            || !same_token(sent, &signed_in.session.csrf_token)
        {
            return Err(AppError::Forbidden(CROSS_SITE.to_owned()));
        }
    }
    Ok(Some(CurrentUser {
        user: signed_in.user,
        session: signed_in.session,
    }))
}

impl<S> FromRequestParts<S> for MaybeUser
where
    S: Send + Sync,
    DatabaseConnection: FromRef<S>,
    Arc<CookiePolicy>: FromRef<S>,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        let db = DatabaseConnection::from_ref(state);
        let policy = Arc::<CookiePolicy>::from_ref(state);
        Ok(MaybeUser(resolve(parts, &db, &policy).await?))
    }
}

impl<S> FromRequestParts<S> for CurrentUser
where
    S: Send + Sync,
    DatabaseConnection: FromRef<S>,
    Arc<CookiePolicy>: FromRef<S>,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        MaybeUser::from_request_parts(parts, state)
            .await?
            .0
            .ok_or_else(|| AppError::Unauthorized("Please sign in to continue".to_owned()))
    }
}

impl<S> FromRequestParts<S> for SameOrigin
where
    S: Send + Sync,
    Arc<CookiePolicy>: FromRef<S>,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        let policy = Arc::<CookiePolicy>::from_ref(state);
        if changes_state(&parts.method) && !from_our_site(&parts.headers, &policy.origin) {
            return Err(AppError::Forbidden(CROSS_SITE.to_owned()));
        }
        Ok(SameOrigin)
    }
}

/// The `Set-Cookie` value that stores a new session in the browser: HttpOnly (no script reads
/// it), SameSite=Lax, Secure behind HTTPS, for the session's lifetime.
pub fn session_cookie(policy: &CookiePolicy, session: &IssuedSession) -> HeaderValue {
    let max_age = i64::from(domain::accounts::SESSION_DAYS) * 86_400;
    cookie(policy, &session.token, max_age)
}

/// The `Set-Cookie` value that removes the session cookie.
pub fn cleared_cookie(policy: &CookiePolicy) -> HeaderValue {
    cookie(policy, "", 0)
}

fn cookie(policy: &CookiePolicy, value: &str, max_age: i64) -> HeaderValue {
    let secure = if policy.secure { "; Secure" } else { "" };
    let text = format!(
        "{SESSION_COOKIE}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age}{secure}"
    );
    // The token is URL-safe base64, so the value is always a valid header.
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static(""))
}
