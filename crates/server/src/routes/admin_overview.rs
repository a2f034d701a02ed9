//! `GET /api/admin/overview`: the business at a glance (issue 16 item 4), for every
//! administrator level; `services::admin_overview` computes it from stored rows.

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use domain::admin_area::AdminOverview;

use crate::error::AppResult;
use crate::extract::AdminUser;
use crate::services::admin_overview;
use crate::state::AppState;

/// The overview resource.
pub fn router() -> Router<AppState> {
    Router::new().route("/admin/overview", get(overview))
}

async fn overview(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> AppResult<Json<AdminOverview>> {
    Ok(Json(
        admin_overview::overview(&state.db, store::now()).await?,
    ))
}
