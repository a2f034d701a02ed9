//! `/api/admin`: who the signed-in administrator is, and the audit log (docs/PRODUCT.md §6.6).
//! Every admin route takes [`AdminUser`]: 401 signed out, 403 for anyone who is not an
//! administrator; the admin area's other resources have routers of their own beside this one.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::routing::get;
use axum::{Json, Router};
use domain::admin::{AdminMe, AuditPage};
use serde::Deserialize;

use crate::error::AppResult;
use crate::extract::AdminUser;
use crate::services::audit;
use crate::state::AppState;

/// The admin identity and audit log resource.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/admin/me", get(me))
        .route("/admin/audit", get(audit_log))
}

async fn me(admin: AdminUser) -> Json<AdminMe> {
    let name = [
        admin.user.first_name.as_deref(),
        admin.user.last_name.as_deref(),
    ]
    .into_iter()
    .flatten()
    .map(str::trim)
    .filter(|s| !s.is_empty())
    .collect::<Vec<_>>()
    .join(" ");
    Json(AdminMe {
        name: if name.is_empty() {
            admin.user.email.clone()
        } else {
            name
        },
        email: admin.user.email,
        level: admin.level,
    })
}

#[derive(Debug, Deserialize)]
struct AuditQuery {
    /// Entries older than this id.
    before: Option<i64>,
}

async fn audit_log(
    State(state): State<AppState>,
    _admin: AdminUser,
    query: Result<Query<AuditQuery>, QueryRejection>,
) -> AppResult<Json<AuditPage>> {
    let Query(query) = query?;
    Ok(Json(audit::audit_page(&state.db, query.before).await?))
}
