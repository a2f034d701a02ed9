//! The admin area's affiliate routes (`/api/admin/affiliates...`, docs/PRODUCT.md §3.10-§3.13,
//! issue 16): applications by status, approve, reject with a reason, conversions, payouts, the
//! payout run and a payout's confirmation. Every administrator reads; only `admin` and `owner`
//! change, and every change is written to the audit log in its own transaction.

use axum::extract::{Path, Query, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use domain::affiliates::{
    AdminAffiliateView, AffiliateStatus, ConfirmPayoutRequest, ConnectedAccountRequest,
    ConversionView, PayoutView, ReviewRequest,
};
use serde::Deserialize;

use crate::error::{AppError, AppResult};
use crate::extract::{AdminUser, ApiJson};
use crate::routes::parse_row_id;
use crate::services::affiliates;
use crate::state::AppState;

/// The admin affiliate resource (paths relative to `/api`).
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/admin/affiliates", get(list))
        .route("/admin/affiliates/conversions", get(conversions))
        .route("/admin/affiliates/payouts", get(payouts))
        .route("/admin/affiliates/payouts/run", post(run_payouts))
        .route("/admin/affiliates/payouts/{id}/confirm", post(confirm))
        .route("/admin/affiliates/{id}/approve", post(approve))
        .route("/admin/affiliates/{id}/reject", post(reject))
        .route(
            "/admin/affiliates/{id}/stripe-account",
            post(connected_account),
        )
}

#[derive(Debug, Deserialize)]
struct StatusFilter {
    #[serde(default)]
    status: Option<String>,
}

async fn list(
    State(state): State<AppState>,
    _admin: AdminUser,
    Query(filter): Query<StatusFilter>,
) -> AppResult<Json<Vec<AdminAffiliateView>>> {
    let status = match filter
        .status
        .as_deref()
        .filter(|s| !s.is_empty() && *s != "all")
    {
        Some(s) => Some(AffiliateStatus::parse(s).ok_or_else(|| {
            AppError::BadRequest("status is pending, approved, rejected or all".to_owned())
        })?),
        None => None,
    };
    let rows = store::affiliates::list_affiliates(&state.db, status).await?;
    Ok(Json(rows.iter().map(affiliates::admin_view).collect()))
}

async fn conversions(
    State(state): State<AppState>,
    _admin: AdminUser,
) -> AppResult<Json<Vec<ConversionView>>> {
    let rows = store::affiliates::conversions_of(&state.db, None, 500).await?;
    Ok(Json(rows.iter().map(affiliates::conversion_view).collect()))
}

async fn payouts(
    State(state): State<AppState>,
    _admin: AdminUser,
    Query(filter): Query<StatusFilter>,
) -> AppResult<Json<Vec<PayoutView>>> {
    let status = filter
        .status
        .as_deref()
        .filter(|s| !s.is_empty() && *s != "all");
    let rows = store::affiliates::payouts_of(&state.db, None, status).await?;
    Ok(Json(rows.iter().map(affiliates::payout_view).collect()))
}

async fn run_payouts(
    State(state): State<AppState>,
    admin: AdminUser,
) -> AppResult<Json<Vec<PayoutView>>> {
    admin.require_change()?;
    let audit = |p: &store::entity::affiliate_payouts::Model| {
        admin.acting().entry(
            "affiliate.payout_propose",
            "affiliate_payout",
            Some(p.id.to_string()),
            None,
            serde_json::json!({ "affiliateId": p.affiliate_id, "amountCents": p.amount_cents }),
        )
    };
    let rows = store::affiliates::propose_payouts(&state.db, store::now(), Some(&audit)).await?;
    Ok(Json(rows.iter().map(affiliates::payout_view).collect()))
}

async fn confirm(
    State(state): State<AppState>,
    admin: AdminUser,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<ConfirmPayoutRequest>,
) -> AppResult<Json<PayoutView>> {
    admin.require_change()?;
    let id = parse_row_id(&id, "No such payout.")?;
    let view = affiliates::confirm_payout(
        &state.db,
        &state.config,
        id,
        body.method,
        &body.note,
        store::now(),
        |detail| {
            admin.acting().entry(
                "affiliate.payout_confirm",
                "affiliate_payout",
                Some(id.to_string()),
                Some(body.note.trim().to_owned()).filter(|n| !n.is_empty()),
                detail,
            )
        },
    )
    .await?;
    Ok(Json(view))
}

async fn review(
    state: AppState,
    admin: AdminUser,
    id: String,
    body: ReviewRequest,
    approve: bool,
) -> AppResult<Json<AdminAffiliateView>> {
    admin.require_change()?;
    let id = parse_row_id(&id, "No such affiliate application.")?;
    let action = if approve {
        "affiliate.approve"
    } else {
        "affiliate.reject"
    };
    let view = affiliates::review(&state.db, id, approve, &body.reason, |reason, detail| {
        admin
            .acting()
            .entry(action, "affiliate", Some(id.to_string()), reason, detail)
    })
    .await?;
    Ok(Json(view))
}

async fn approve(
    State(state): State<AppState>,
    admin: AdminUser,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<ReviewRequest>,
) -> AppResult<Json<AdminAffiliateView>> {
    review(state, admin, id, body, true).await
}

async fn reject(
    State(state): State<AppState>,
    admin: AdminUser,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<ReviewRequest>,
) -> AppResult<Json<AdminAffiliateView>> {
    review(state, admin, id, body, false).await
}

async fn connected_account(
    State(state): State<AppState>,
    admin: AdminUser,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<ConnectedAccountRequest>,
) -> AppResult<Json<AdminAffiliateView>> {
    admin.require_change()?;
    let id = parse_row_id(&id, "No such affiliate application.")?;
    let view = affiliates::set_connected_account(&state.db, id, &body, |reason, detail| {
        admin.acting().entry(
            "affiliate.stripe_account",
            "affiliate",
            Some(id.to_string()),
            Some(reason),
            detail,
        )
    })
    .await?;
    Ok(Json(view))
}
