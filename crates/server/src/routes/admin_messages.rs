//! Admin panels for contact messages and the mail outbox (issue 16 item 4), under `/api/admin`:
//! `GET /admin/messages?kind=&status=&q=&before=`, `GET /admin/messages/{id}`,
//! `POST /admin/messages/{id}/answered`, `GET /admin/outbox?status=&before=` and
//! `POST /admin/outbox/{id}/retry`. Every level reads; changes need the admin level.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use domain::contact::{ContactMessagePage, ContactMessageView, OutboxEmailView, OutboxPage};

use super::parse_row_id;
use crate::error::{AppError, AppResult};
use crate::extract::AdminUser;
use crate::services::admin_messages::{self as service, MessagesQuery, OutboxQuery};
use crate::state::AppState;

/// The messages and outbox resources.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/admin/messages", get(list_messages))
        .route("/admin/messages/{id}", get(show_message))
        .route("/admin/messages/{id}/answered", post(mark_answered))
        .route("/admin/outbox", get(list_outbox))
        .route("/admin/outbox/{id}/retry", post(retry_email))
}

fn query<T>(q: Result<Query<T>, QueryRejection>) -> AppResult<T> {
    q.map(|Query(q)| q)
        .map_err(|e| AppError::BadRequest(e.body_text()))
}

async fn list_messages(
    State(state): State<AppState>,
    _admin: AdminUser,
    q: Result<Query<MessagesQuery>, QueryRejection>,
) -> AppResult<Json<ContactMessagePage>> {
    Ok(Json(service::list_messages(&state.db, query(q)?).await?))
}

async fn show_message(
    State(state): State<AppState>,
    _admin: AdminUser,
    Path(id): Path<String>,
) -> AppResult<Json<ContactMessageView>> {
    let id = parse_row_id(&id, "Message not found.")?;
    Ok(Json(service::show_message(&state.db, id).await?))
}

async fn mark_answered(
    State(state): State<AppState>,
    admin: AdminUser,
    Path(id): Path<String>,
) -> AppResult<Json<ContactMessageView>> {
    let id = parse_row_id(&id, "Message not found.")?;
    admin.require_change()?;
    Ok(Json(
        service::mark_answered(&state.db, &admin.acting(), id).await?,
    ))
}

async fn list_outbox(
    State(state): State<AppState>,
    _admin: AdminUser,
    q: Result<Query<OutboxQuery>, QueryRejection>,
) -> AppResult<Json<OutboxPage>> {
    Ok(Json(service::list_outbox(&state.db, query(q)?).await?))
}

async fn retry_email(
    State(state): State<AppState>,
    admin: AdminUser,
    Path(id): Path<String>,
) -> AppResult<Json<OutboxEmailView>> {
    let id = parse_row_id(&id, "E-mail not found.")?;
    admin.require_change()?;
    Ok(Json(
        service::retry_email(&state.db, &state.mailer, &admin.acting(), id).await?,
    ))
}
