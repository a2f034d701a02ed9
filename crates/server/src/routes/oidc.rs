//! `/api/accounts/oidc`: sign-in through an OpenID Connect provider, when one is configured
//! (`SITELENS_OIDC_*`, docs/PRODUCT.md §10.1). `GET /api/accounts/oidc` tells the sign-in page
//! whether to offer it; `start` sends the browser to the provider; `callback` is where the
//! provider sends it back, signed in or not. The flow is `services::oidc`.

use axum::extract::{Query, State};
use axum::http::header::{LOCATION, SET_COOKIE};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;

use crate::chain::Chain;
use crate::error::{AppError, AppResult};
use crate::extract::{cookie_value, session_cookie};
use crate::services::accounts::{self, AccountError};
use crate::services::oidc::{OidcError, PENDING_MINUTES, Pending};
use crate::state::{AppState, CookiePolicy};

/// The cookie that carries a started sign-in to the callback.
const PENDING_COOKIE: &str = "sitelens_oidc";
/// The path it is sent on: the callback only.
const PENDING_PATH: &str = "/api/accounts/oidc";

/// The OpenID Connect sign-in resource.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/accounts/oidc", get(provider))
        .route("/accounts/oidc/start", get(start))
        .route("/accounts/oidc/callback", get(callback))
}

/// Whether sign-in through a provider is offered, and the provider's name for its button.
async fn provider(State(state): State<AppState>) -> Json<serde_json::Value> {
    Json(match &state.oidc {
        Some(oidc) => json!({"enabled": true, "name": oidc.name()}),
        None => json!({"enabled": false, "name": null}),
    })
}

/// `start?redirect_url=`: where to return after signing in (kept on our origin).
#[derive(Debug, Deserialize)]
struct StartQuery {
    #[serde(default)]
    redirect_url: String,
}

/// The provider's answer (RFC 6749 §4.1.2): a code and our state, or an error.
#[derive(Debug, Deserialize)]
struct CallbackQuery {
    #[serde(default)]
    code: String,
    #[serde(default)]
    state: String,
    #[serde(default)]
    error: Option<String>,
}

fn see_other(location: &str, cookies: &[HeaderValue]) -> Response {
    let mut headers = HeaderMap::new();
    if let Ok(value) = HeaderValue::from_str(location) {
        headers.insert(LOCATION, value);
    }
    for c in cookies {
        headers.append(SET_COOKIE, c.clone());
    }
    (StatusCode::SEE_OTHER, headers).into_response()
}

fn pending_cookie(policy: &CookiePolicy, value: &str, max_age: i64) -> HeaderValue {
    let secure = if policy.secure { "; Secure" } else { "" };
    // SameSite=Lax: the provider's redirect back is a top-level GET, which carries it.
    let text = format!(
        "{PENDING_COOKIE}={value}; Path={PENDING_PATH}; HttpOnly; SameSite=Lax; Max-Age={max_age}{secure}"
    );
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static(""))
}

fn read_pending(headers: &HeaderMap) -> Option<Pending> {
    cookie_value(headers, PENDING_COOKIE).and_then(|value| Pending::decode(&value))
}

async fn start(
    State(state): State<AppState>,
    Query(query): Query<StartQuery>,
) -> AppResult<Response> {
    let Some(oidc) = &state.oidc else {
        return Err(AppError::NotFound(
            "sign-in through a provider is not set up".into(),
        ));
    };
    let return_to = domain::accounts::safe_return_path(&query.redirect_url, &state.cookies.origin);
    match oidc.begin(return_to.clone()).await {
        Ok((url, pending)) => Ok(see_other(
            &url,
            &[pending_cookie(
                &state.cookies,
                &pending.encode(),
                PENDING_MINUTES * 60,
            )],
        )),
        Err(e) => {
            tracing::warn!(error = %Chain(&e), "OpenID Connect sign-in could not start");
            Ok(failed(
                &state,
                domain::accounts::PROVIDER_FAILED_MESSAGE,
                &return_to,
            ))
        }
    }
}

/// Back to the sign-in page with the message to show.
fn failed(state: &AppState, message: &str, return_to: &str) -> Response {
    let mut url = url::form_urlencoded::Serializer::new(String::new());
    url.append_pair("error", message)
        .append_pair("redirect_url", return_to);
    see_other(
        &format!("/accounts/sign-in?{}", url.finish()),
        &[pending_cookie(&state.cookies, "", 0)],
    )
}

async fn callback(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(query): Query<CallbackQuery>,
) -> AppResult<Response> {
    let Some(oidc) = &state.oidc else {
        return Err(AppError::NotFound(
            "sign-in through a provider is not set up".into(),
        ));
    };
    let pending = read_pending(&headers);
    let return_to = pending
        .as_ref()
        .map_or("/dashboard", |p| p.return_to.as_str())
        .to_owned();
    if let Some(error) = query.error {
        tracing::info!(%error, "the OpenID Connect provider refused the sign-in");
        return Ok(failed(
            &state,
            domain::accounts::PROVIDER_FAILED_MESSAGE,
            &return_to,
        ));
    }
    let identity = match oidc
        .finish(pending.as_ref(), &query.state, &query.code)
        .await
    {
        Ok(identity) => identity,
        Err(e) => {
            match &e {
                OidcError::Expired => tracing::info!(error = %e, "OpenID Connect callback refused"),
                _ => tracing::warn!(error = %Chain(&e), "OpenID Connect sign-in failed"),
            }
            let message = match e {
                OidcError::Expired => domain::accounts::LINK_INVALID_MESSAGE,
                _ => domain::accounts::PROVIDER_FAILED_MESSAGE,
            };
            return Ok(failed(&state, message, &return_to));
        }
    };
    match accounts::sign_in_with_provider(
        &state.db,
        &state.mailer,
        &state.links,
        oidc.issuer(),
        &identity,
    )
    .await
    {
        Ok(session) => {
            // A new account made by this sign-in may be a referral; an older one never is.
            let (db, config, id) = (&state.db, &state.config, session.user_id);
            crate::services::affiliates::attribute(db, config, &headers, id, store::now()).await;
            Ok(see_other(
                &return_to,
                &[
                    session_cookie(&state.cookies, &session),
                    pending_cookie(&state.cookies, "", 0),
                ],
            ))
        }
        Err(AccountError::Forbidden(message)) => Ok(failed(&state, &message, &return_to)),
        Err(AccountError::EmailTaken) => Ok(failed(
            &state,
            domain::accounts::EMAIL_TAKEN_MESSAGE,
            &return_to,
        )),
        Err(e) => Err(e.into()),
    }
}
