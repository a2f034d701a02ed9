//! `/api/admin/jobs` (issue 16 item 4): the newest analyses, filtered by status, failed ones
//! with their error, for every administrator level; retrying a failed one is a change (admin
//! or owner), with its reason.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use domain::admin_area::{AdminJobRow, ReasonedAction};
use serde::Deserialize;

use crate::error::{AppError, AppResult};
use crate::extract::{AdminUser, ApiJson};
use crate::services::admin_records;
use crate::state::AppState;

/// The jobs resource.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/admin/jobs", get(list))
        .route("/admin/jobs/{id}/retry", post(retry))
}

#[derive(Debug, Deserialize)]
struct JobsQuery {
    /// `queued`, `running`, `complete` or `failed`; all when absent.
    status: Option<String>,
}

async fn list(
    State(state): State<AppState>,
    _admin: AdminUser,
    query: Result<Query<JobsQuery>, QueryRejection>,
) -> AppResult<Json<Vec<AdminJobRow>>> {
    let Query(query) = query?;
    Ok(Json(
        admin_records::jobs(&state.db, query.status.as_deref()).await?,
    ))
}

async fn retry(
    State(state): State<AppState>,
    admin: AdminUser,
    Path(id): Path<String>,
    body: Result<ApiJson<ReasonedAction>, AppError>,
) -> AppResult<Json<AdminJobRow>> {
    admin.require_change()?;
    let ApiJson(body) = body?;
    Ok(Json(
        admin_records::retry(&state.db, &state.hub, &admin.acting(), &id, &body.reason).await?,
    ))
}
