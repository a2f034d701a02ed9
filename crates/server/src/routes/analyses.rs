//! `POST /api/analyze` (docs/PRODUCT.md §7.2): queue a free analysis, or with `reportType` a
//! paid one (docs/PRODUCT.md §9.2).

use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use domain::report::{AnalyzeRequest, AnalyzeResponse};

use crate::error::AppResult;
use crate::extract::{ApiJson, ClientIp, MaybeUser};
use crate::services::analyses::{submit_free_analysis, submit_paid_analysis};
use crate::state::AppState;

/// The analyses resource.
pub fn router() -> Router<AppState> {
    Router::new().route("/analyze", post(create_analysis))
}

/// Validates, spends a free analysis (or, for a `reportType`, the signed-in user's credits:
/// 401 signed out, 402 short of credits) and queues the job; answers its id.
async fn create_analysis(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    MaybeUser(user): MaybeUser,
    ApiJson(req): ApiJson<AnalyzeRequest>,
) -> AppResult<Json<AnalyzeResponse>> {
    let user = user.map(|u| u.user);
    let id = match req.report_type {
        Some(report_type) => {
            submit_paid_analysis(
                &state.db,
                &state.hub,
                ip,
                user.as_ref(),
                report_type,
                &req.url,
            )
            .await?
        }
        None => {
            let requester = user.map(|u| u.id);
            submit_free_analysis(&state.db, &state.hub, ip, requester, &req.url).await?
        }
    };
    Ok(Json(AnalyzeResponse {
        success: true,
        analysis_id: Some(id.to_string()),
        data: None,
        error: None,
    }))
}
