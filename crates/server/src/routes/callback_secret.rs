//! `/api/account/callback-secret`: the secret that signs the callbacks of the signed-in user's
//! API analyses (issue 17; `services::callbacks`): read it (made on first read) and rotate it.
//! A team member reads the team owner's secret, which signs their analyses as the owner's
//! credits pay for them; only the owner rotates it. Session and CSRF as every account route.

use axum::extract::State;
use axum::routing::{get, post};
use axum::{Json, Router};
use domain::callbacks::CallbackSecretView;

use crate::error::AppResult;
use crate::extract::CurrentUser;
use crate::services::callbacks;
use crate::state::AppState;

/// The callback secret resource.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/account/callback-secret", get(get_callback_secret))
        .route(
            "/account/callback-secret/rotate",
            post(rotate_callback_secret),
        )
}

async fn get_callback_secret(
    State(state): State<AppState>,
    current: CurrentUser,
) -> AppResult<Json<CallbackSecretView>> {
    Ok(Json(
        callbacks::secret_view_for(&state.db, &current.user).await?,
    ))
}

async fn rotate_callback_secret(
    State(state): State<AppState>,
    current: CurrentUser,
) -> AppResult<Json<CallbackSecretView>> {
    Ok(Json(
        callbacks::rotate_secret(&state.db, &current.user).await?,
    ))
}
