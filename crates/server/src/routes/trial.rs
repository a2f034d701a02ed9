//! `GET /api/check-trial-eligibility` and `POST /api/start-free-trial` (docs/PRODUCT.md §7.5,
//! §7.6, §5.6, §9.1).

use axum::extract::State;
use axum::routing::{get, post};
use axum::{Json, Router};
use domain::report::TrialEligibilityResponse;
use serde_json::json;

use crate::error::AppResult;
use crate::extract::CurrentUser;
use crate::services::accounts;
use crate::state::AppState;

/// The trial resource.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/check-trial-eligibility", get(check_trial_eligibility))
        .route("/start-free-trial", post(start_free_trial))
}

/// Whether the signed-in user may start the trial; anonymous visitors get 401, which the home
/// page reads as a new visitor (docs/PRODUCT.md §7.5).
async fn check_trial_eligibility(current: CurrentUser) -> Json<TrialEligibilityResponse> {
    Json(TrialEligibilityResponse {
        eligible: accounts::trial_eligible(&current.user),
    })
}

/// Starts the trial: 1 credit valid 7 days, once per user; a second call is a 409 with the
/// 'already used' message (docs/PRODUCT.md §5.6).
async fn start_free_trial(
    State(state): State<AppState>,
    current: CurrentUser,
) -> AppResult<Json<serde_json::Value>> {
    let expires = accounts::start_trial(&state.db, &current.user).await?;
    Ok(Json(json!({
        "success": true,
        "message": domain::accounts::TRIAL_STARTED_MESSAGE,
        "credits": domain::commerce::TRIAL_CREDITS,
        "expiresAt": expires.to_rfc3339(),
    })))
}
