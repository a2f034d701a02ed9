//! The accounts API (docs/PRODUCT.md §10.1): `/api/accounts/*` signs up, in and out and handles
//! the e-mailed links; `/api/account` is the signed-in user's own account (read, change
//! password or address, delete, download my data).

use axum::extract::State;
use axum::http::header::{CONTENT_DISPOSITION, SET_COOKIE};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use domain::accounts::{Account, EmailChange, PasswordChange, SignInForm};
use domain::forms::Registration;
use serde::Deserialize;
use serde_json::json;

use crate::error::AppResult;
use crate::extract::{
    ApiJson, ClientIp, CurrentUser, MaybeUser, SameOrigin, cleared_cookie, session_cookie,
};
use crate::services::accounts::{self, IssuedSession};
use crate::state::AppState;

/// The accounts resource.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/accounts/sign-up", post(sign_up))
        .route("/accounts/sign-in", post(sign_in))
        .route("/accounts/sign-out", post(sign_out))
        .route("/accounts/sign-out-everywhere", post(sign_out_everywhere))
        .route("/accounts/forgot-password", post(forgot_password))
        .route("/accounts/reset-password", post(reset_password))
        .route("/accounts/verify-email", post(verify_email))
        .route("/accounts/resend-verification", post(resend_verification))
        .route("/account", get(get_account))
        .route("/session", get(get_session))
        .route("/account/password", post(change_password))
        .route("/account/email", post(change_email))
        .route("/account/delete", post(delete_account))
        .route("/account/export", get(export_data))
}

/// A body holding one token from an e-mailed link.
#[derive(Debug, Deserialize)]
struct TokenBody {
    token: String,
}

/// The reset form: the link's token and the new password.
#[derive(Debug, Deserialize)]
struct ResetBody {
    token: String,
    password: String,
}

/// The forgotten-password form.
#[derive(Debug, Deserialize)]
struct EmailBody {
    email: String,
}

/// Deleting an account is confirmed with its password.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct DeleteBody {
    #[serde(default)]
    current_password: String,
}

fn ok(message: &str) -> Json<serde_json::Value> {
    Json(json!({"success": true, "message": message}))
}

/// Answers a new session: the cookie, and the account with the session's CSRF token.
async fn signed_in(state: &AppState, session: IssuedSession) -> AppResult<Response> {
    let user = store::users::get_user(&state.db, session.user_id).await?;
    let account = accounts::account_view(&state.db, &user, &session.csrf_token).await?;
    let mut headers = HeaderMap::new();
    headers.insert(SET_COOKIE, session_cookie(&state.cookies, &session));
    Ok((headers, Json(json!({"success": true, "account": account}))).into_response())
}

/// Answers with the session cookie removed.
fn signed_out(state: &AppState, message: &str) -> Response {
    let mut headers = HeaderMap::new();
    headers.insert(SET_COOKIE, cleared_cookie(&state.cookies));
    (headers, ok(message)).into_response()
}

async fn sign_up(
    State(state): State<AppState>,
    _: SameOrigin,
    headers: HeaderMap,
    ApiJson(form): ApiJson<Registration>,
) -> AppResult<Response> {
    let session = accounts::sign_up(&state.db, &state.mailer, &state.links, &form).await?;
    let (db, config) = (&state.db, &state.config);
    crate::services::affiliates::attribute(db, config, &headers, session.user_id, store::now())
        .await;
    signed_in(&state, session).await
}

async fn sign_in(
    State(state): State<AppState>,
    _: SameOrigin,
    ClientIp(ip): ClientIp,
    ApiJson(form): ApiJson<SignInForm>,
) -> AppResult<Response> {
    let session = accounts::sign_in(&state.db, ip, &form).await?;
    signed_in(&state, session).await
}

async fn sign_out(State(state): State<AppState>, current: CurrentUser) -> AppResult<Response> {
    accounts::sign_out(&state.db, &current.session.id).await?;
    Ok(signed_out(&state, "Signed out"))
}

async fn sign_out_everywhere(
    State(state): State<AppState>,
    current: CurrentUser,
) -> AppResult<Response> {
    accounts::sign_out_everywhere(&state.db, current.user.id).await?;
    Ok(signed_out(&state, "Signed out on every device"))
}

async fn forgot_password(
    State(state): State<AppState>,
    _: SameOrigin,
    ApiJson(body): ApiJson<EmailBody>,
) -> AppResult<Json<serde_json::Value>> {
    accounts::request_password_reset(&state.db, &state.mailer, &state.links, &body.email).await?;
    Ok(ok(
        "If an account uses this address, we have sent it a link to reset the password.",
    ))
}

async fn reset_password(
    State(state): State<AppState>,
    _: SameOrigin,
    ApiJson(body): ApiJson<ResetBody>,
) -> AppResult<Json<serde_json::Value>> {
    accounts::reset_password(&state.db, &body.token, &body.password).await?;
    Ok(ok("Your password has been changed. Please sign in."))
}

async fn verify_email(
    State(state): State<AppState>,
    _: SameOrigin,
    ApiJson(body): ApiJson<TokenBody>,
) -> AppResult<Json<serde_json::Value>> {
    accounts::verify_email(&state.db, &body.token).await?;
    Ok(ok("Your email address is verified."))
}

async fn resend_verification(
    State(state): State<AppState>,
    current: CurrentUser,
) -> AppResult<Json<serde_json::Value>> {
    accounts::resend_verification(&state.db, &state.mailer, &state.links, &current.user).await?;
    Ok(ok("We have sent you a new verification link."))
}

async fn get_account(
    State(state): State<AppState>,
    current: CurrentUser,
) -> AppResult<Json<Account>> {
    Ok(Json(
        accounts::account_view(&state.db, &current.user, &current.session.csrf_token).await?,
    ))
}

/// The visitor's account, or `null` when signed out: what every page's header asks on load, so
/// a signed-out visitor gets an answer rather than a 401 in the browser's console.
async fn get_session(
    State(state): State<AppState>,
    MaybeUser(current): MaybeUser,
) -> AppResult<Json<Option<Account>>> {
    Ok(Json(match current {
        Some(c) => Some(accounts::account_view(&state.db, &c.user, &c.session.csrf_token).await?),
        None => None,
    }))
}

async fn change_password(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiJson(form): ApiJson<PasswordChange>,
) -> AppResult<Response> {
    let session = accounts::change_password(&state.db, &current.user, &form).await?;
    signed_in(&state, session).await
}

async fn change_email(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiJson(form): ApiJson<EmailChange>,
) -> AppResult<Json<serde_json::Value>> {
    accounts::change_email(&state.db, &state.mailer, &state.links, &current.user, &form).await?;
    Ok(ok(
        "Your email address has been changed. Check your inbox to verify it.",
    ))
}

async fn delete_account(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiJson(body): ApiJson<DeleteBody>,
) -> AppResult<Response> {
    accounts::delete_account(&state.db, &current.user, &body.current_password).await?;
    Ok(signed_out(
        &state,
        "Your account, its reports and its data have been deleted.",
    ))
}

async fn export_data(State(state): State<AppState>, current: CurrentUser) -> AppResult<Response> {
    let data = accounts::export_data(&state.db, &current.user).await?;
    let mut headers = HeaderMap::new();
    headers.insert(
        CONTENT_DISPOSITION,
        HeaderValue::from_static("attachment; filename=\"sitelens-my-data.json\""),
    );
    Ok((headers, Json(data)).into_response())
}
