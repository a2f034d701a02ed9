//! `GET /api/stats` (docs/PRODUCT.md §7.4): the home page's counter.

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use domain::report::{StatsData, StatsResponse};

use crate::error::AppResult;
use crate::state::AppState;

/// The stats resource.
pub fn router() -> Router<AppState> {
    Router::new().route("/stats", get(get_stats))
}

async fn get_stats(State(state): State<AppState>) -> AppResult<Json<StatsResponse>> {
    let total = state.stats.websites_analyzed(&state.db).await?;
    Ok(Json(StatsResponse {
        success: true,
        message: "Statistics retrieved".to_owned(),
        data: StatsData {
            total_websites_analyzed: total.to_string(),
        },
    }))
}
