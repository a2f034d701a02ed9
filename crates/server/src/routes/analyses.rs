//! `POST /api/analyze` (docs/PRODUCT.md §7.2): queue a free analysis.

use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use domain::report::{AnalyzeRequest, AnalyzeResponse};

use crate::error::AppResult;
use crate::extract::{ApiJson, ClientIp, MaybeUser};
use crate::services::analyses::submit_free_analysis;
use crate::state::AppState;

/// The analyses resource.
pub fn router() -> Router<AppState> {
    Router::new().route("/analyze", post(create_analysis))
}

/// Validates, spends a free analysis and queues the job; answers its id.
async fn create_analysis(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    MaybeUser(user): MaybeUser,
    ApiJson(req): ApiJson<AnalyzeRequest>,
) -> AppResult<Json<AnalyzeResponse>> {
    let requester = user.map(|u| u.user.id);
    let id = submit_free_analysis(&state.db, &state.hub, ip, requester, &req.url).await?;
    Ok(Json(AnalyzeResponse {
        success: true,
        analysis_id: Some(id.to_string()),
        data: None,
        error: None,
    }))
}
