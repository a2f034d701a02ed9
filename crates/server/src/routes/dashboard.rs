//! `GET /api/dashboard`: the signed-in user's credits, trial expiry and the analyses of every
//! site their team analysed, for the score-trend charts.

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use domain::accounts::DashboardData;

use crate::error::AppResult;
use crate::extract::CurrentUser;
use crate::services::accounts;
use crate::state::AppState;

/// The dashboard resource.
pub fn router() -> Router<AppState> {
    Router::new().route("/dashboard", get(get_dashboard))
}

async fn get_dashboard(
    State(state): State<AppState>,
    current: CurrentUser,
) -> AppResult<Json<DashboardData>> {
    Ok(Json(
        accounts::dashboard(&state.db, &current.user, &current.session.csrf_token).await?,
    ))
}
