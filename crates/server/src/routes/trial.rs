//! `GET /api/check-trial-eligibility` (SPEC.md section 7).

use axum::Router;
use axum::routing::get;

use crate::error::AppError;
use crate::state::AppState;

/// The trial resource.
pub fn router() -> Router<AppState> {
    Router::new().route("/check-trial-eligibility", get(check_trial_eligibility))
}

/// Accounts arrive with a later issue, so every visitor is anonymous and the answer is 401
/// (the home page then treats the visitor as new).
async fn check_trial_eligibility() -> AppError {
    AppError::Unauthorized("sign in to check free trial eligibility".to_owned())
}
