//! `/api/admin/users` and `/api/admin/admins` (issue 16 item 4): every administrator reads
//! (search, one user's picture, the administrators); admins and owners change an account
//! (credits, the trial, disable or enable, sign out everywhere), each change with its reason;
//! only owners change admin levels. The level is checked before the body is read, so a
//! support account gets 403 whatever it sends.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use domain::admin_area::{
    AdminLevelChange, AdminListRow, AdminUserDetail, AdminUserRow, CreditAdjustment, ReasonedAction,
};
use serde::Deserialize;

use crate::error::{AppError, AppResult};
use crate::extract::{AdminUser, ApiJson};
use crate::routes::parse_row_id;
use crate::services::admin_users::{self, AdminError};
use crate::state::AppState;

/// The users and administrators resources.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/admin/users", get(search))
        .route("/admin/users/{id}", get(detail))
        .route("/admin/users/{id}/credits", post(adjust_credits))
        .route("/admin/users/{id}/trial", post(regrant_trial))
        .route("/admin/users/{id}/disable", post(disable))
        .route("/admin/users/{id}/enable", post(enable))
        .route("/admin/users/{id}/sign-out", post(sign_out))
        .route("/admin/admins", get(admins).post(change_level))
}

impl From<AdminError> for AppError {
    fn from(e: AdminError) -> Self {
        match e {
            AdminError::Invalid(m) => AppError::Unprocessable(m),
            AdminError::Refused(m) => AppError::Forbidden(m),
            AdminError::Conflict(m) => AppError::Conflict(m),
            AdminError::NotFound(m) => AppError::NotFound(m),
            AdminError::Store(e) => e.into(),
        }
    }
}

const NO_SUCH_USER: &str = "No such account.";

#[derive(Debug, Deserialize)]
struct SearchQuery {
    /// Address, name or user name, in part.
    #[serde(default)]
    q: String,
}

async fn search(
    State(state): State<AppState>,
    _admin: AdminUser,
    query: Result<Query<SearchQuery>, QueryRejection>,
) -> AppResult<Json<Vec<AdminUserRow>>> {
    let Query(query) = query?;
    Ok(Json(admin_users::search(&state.db, &query.q).await?))
}

async fn detail(
    State(state): State<AppState>,
    _admin: AdminUser,
    Path(id): Path<String>,
) -> AppResult<Json<AdminUserDetail>> {
    let id = parse_row_id(&id, NO_SUCH_USER)?;
    Ok(Json(
        admin_users::detail(&state.db, id, store::now()).await?,
    ))
}

/// The id and body of a change, once the administrator's level allows changes.
fn change<T>(
    admin: &AdminUser,
    id: &str,
    body: Result<ApiJson<T>, AppError>,
) -> AppResult<(i64, T)> {
    admin.require_change()?;
    let id = parse_row_id(id, NO_SUCH_USER)?;
    let ApiJson(body) = body?;
    Ok((id, body))
}

async fn adjust_credits(
    State(state): State<AppState>,
    admin: AdminUser,
    Path(id): Path<String>,
    body: Result<ApiJson<CreditAdjustment>, AppError>,
) -> AppResult<Json<AdminUserDetail>> {
    let (id, body) = change(&admin, &id, body)?;
    admin_users::adjust_credits(&state.db, &admin.acting(), id, &body).await?;
    Ok(Json(
        admin_users::detail(&state.db, id, store::now()).await?,
    ))
}

async fn regrant_trial(
    State(state): State<AppState>,
    admin: AdminUser,
    Path(id): Path<String>,
    body: Result<ApiJson<ReasonedAction>, AppError>,
) -> AppResult<Json<AdminUserDetail>> {
    let (id, body) = change(&admin, &id, body)?;
    let at = store::now();
    admin_users::regrant_trial(&state.db, &admin.acting(), id, &body.reason, at).await?;
    Ok(Json(admin_users::detail(&state.db, id, at).await?))
}

async fn disable(
    State(state): State<AppState>,
    admin: AdminUser,
    Path(id): Path<String>,
    body: Result<ApiJson<ReasonedAction>, AppError>,
) -> AppResult<Json<AdminUserDetail>> {
    let (id, body) = change(&admin, &id, body)?;
    admin_users::set_disabled(&state.db, &admin.acting(), id, true, &body.reason).await?;
    Ok(Json(
        admin_users::detail(&state.db, id, store::now()).await?,
    ))
}

async fn enable(
    State(state): State<AppState>,
    admin: AdminUser,
    Path(id): Path<String>,
    body: Result<ApiJson<ReasonedAction>, AppError>,
) -> AppResult<Json<AdminUserDetail>> {
    let (id, body) = change(&admin, &id, body)?;
    admin_users::set_disabled(&state.db, &admin.acting(), id, false, &body.reason).await?;
    Ok(Json(
        admin_users::detail(&state.db, id, store::now()).await?,
    ))
}

async fn sign_out(
    State(state): State<AppState>,
    admin: AdminUser,
    Path(id): Path<String>,
    body: Result<ApiJson<ReasonedAction>, AppError>,
) -> AppResult<Json<AdminUserDetail>> {
    let (id, body) = change(&admin, &id, body)?;
    admin_users::sign_out_everywhere(&state.db, &admin.acting(), id, &body.reason).await?;
    Ok(Json(
        admin_users::detail(&state.db, id, store::now()).await?,
    ))
}

async fn admins(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> AppResult<Json<Vec<AdminListRow>>> {
    Ok(Json(admin_users::admins(&state.db).await?))
}

async fn change_level(
    State(state): State<AppState>,
    admin: AdminUser,
    body: Result<ApiJson<AdminLevelChange>, AppError>,
) -> AppResult<Json<Vec<AdminListRow>>> {
    admin.require_owner()?;
    let ApiJson(body) = body?;
    admin_users::change_level(
        &state.db,
        &admin.acting(),
        &body.email,
        body.level,
        &body.reason,
    )
    .await?;
    Ok(Json(admin_users::admins(&state.db).await?))
}
