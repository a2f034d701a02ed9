//! `GET /api/check-trial-eligibility` (docs/PRODUCT.md §7.5).

use axum::Router;
use axum::routing::get;

use crate::error::AppError;
use crate::state::AppState;

/// The trial resource.
pub fn router() -> Router<AppState> {
    Router::new().route("/check-trial-eligibility", get(check_trial_eligibility))
}

/// The server has no sign-in yet (accounts, docs/PRODUCT.md §10.1, are still to be built), so every
/// visitor is anonymous and the answer is 401; the home page then treats the visitor as new
/// (docs/PRODUCT.md §7.5).
async fn check_trial_eligibility() -> AppError {
    AppError::Unauthorized("sign in to check free trial eligibility".to_owned())
}
