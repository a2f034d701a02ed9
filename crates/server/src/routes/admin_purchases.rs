//! `/api/admin/purchases` and `/api/admin/whitelabel` (issue 16 item 4), read by every
//! administrator level: payments, subscriptions and refunds with their accounts, and the
//! white-label brandings as stored (no custom domain is verified yet; the list says so).

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use domain::admin_area::{AdminPurchases, AdminWhitelabelRow};

use crate::error::AppResult;
use crate::extract::AdminUser;
use crate::services::admin_records;
use crate::state::AppState;

/// The purchases and white-label resources.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/admin/purchases", get(purchases))
        .route("/admin/whitelabel", get(whitelabel))
}

async fn purchases(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> AppResult<Json<AdminPurchases>> {
    Ok(Json(admin_records::purchases(&state.db).await?))
}

async fn whitelabel(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> AppResult<Json<Vec<AdminWhitelabelRow>>> {
    Ok(Json(admin_records::whitelabel(&state.db).await?))
}
