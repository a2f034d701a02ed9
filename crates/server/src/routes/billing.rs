//! Billing (docs/PRODUCT.md §7.10, §9.2, §9.3): the payment mode, checkouts (start one, read
//! one, and in test-payment mode pay or decline it), the billing overview and plan actions of
//! the dashboard, and test mode's refund and renewal buttons. Behaviour is in
//! `services::billing`; Stripe's webhook is `routes::webhooks`.

use axum::extract::{Path, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use domain::checkout::{BillingOverview, CheckoutQuery, PlanAction};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::error::AppResult;
use crate::extract::{ApiJson, CurrentUser};
use domain::checkout::{CheckoutView, StartedCheckout, UpgradeTarget};

use crate::services::billing;
use crate::state::AppState;

/// The billing resource.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/payments/mode", get(payment_mode))
        .route("/checkout", post(start_checkout))
        .route("/checkout/{id}", get(get_checkout))
        .route("/checkout/upgrade/{token}", get(get_upgrade_target))
        .route("/test-payments/{id}/pay", post(pay_test_checkout))
        .route("/test-payments/{id}/decline", post(decline_test_checkout))
        .route("/test-payments/refund", post(refund_test_payment))
        .route("/test-payments/renewal", post(renew_test_subscription))
        .route("/billing", get(get_billing))
        .route("/billing/subscription", post(change_subscription))
}

/// Who takes payments, and the label every checkout page shows for it.
async fn payment_mode(State(state): State<AppState>) -> Json<Value> {
    let mode = state.payments.mode();
    Json(json!({"mode": mode, "label": mode.label()}))
}

async fn start_checkout(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiJson(query): ApiJson<CheckoutQuery>,
) -> AppResult<Json<StartedCheckout>> {
    Ok(Json(
        billing::start_checkout(&state.db, &state.payments, &current.user, &query).await?,
    ))
}

/// What a mailed report's upgrade link names: its site and report, for the checkout page to
/// price (signed-in buyers only, like every checkout).
async fn get_upgrade_target(
    State(state): State<AppState>,
    _current: CurrentUser,
    Path(token): Path<String>,
) -> AppResult<Json<UpgradeTarget>> {
    Ok(Json(billing::upgrade_target(&state.db, &token).await?))
}

async fn get_checkout(
    State(state): State<AppState>,
    current: CurrentUser,
    Path(id): Path<String>,
) -> AppResult<Json<CheckoutView>> {
    Ok(Json(
        billing::checkout_view(&state.db, &current.user, &id).await?,
    ))
}

async fn pay_test_checkout(
    State(state): State<AppState>,
    current: CurrentUser,
    Path(id): Path<String>,
) -> AppResult<Json<CheckoutView>> {
    test_checkout(&state, &current, &id, true).await
}

async fn decline_test_checkout(
    State(state): State<AppState>,
    current: CurrentUser,
    Path(id): Path<String>,
) -> AppResult<Json<CheckoutView>> {
    test_checkout(&state, &current, &id, false).await
}

/// The test page's pay (`pay`) or decline button.
async fn test_checkout(
    state: &AppState,
    current: &CurrentUser,
    id: &str,
    pay: bool,
) -> AppResult<Json<CheckoutView>> {
    let view = billing::test_payment(
        &state.db,
        &state.hub,
        &state.payments,
        &current.user,
        id,
        pay,
    )
    .await?;
    Ok(Json(view))
}

/// The purchase a test refund names.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RefundBody {
    payment_id: String,
}

async fn refund_test_payment(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiJson(body): ApiJson<RefundBody>,
) -> AppResult<Json<BillingOverview>> {
    billing::test_refund(
        &state.db,
        &state.hub,
        &state.payments,
        &current.user,
        &body.payment_id,
    )
    .await?;
    Ok(Json(
        billing::overview(&state.db, &state.payments, &current.user).await?,
    ))
}

async fn renew_test_subscription(
    State(state): State<AppState>,
    current: CurrentUser,
) -> AppResult<Json<BillingOverview>> {
    billing::test_renewal(&state.db, &state.hub, &state.payments, &current.user).await?;
    Ok(Json(
        billing::overview(&state.db, &state.payments, &current.user).await?,
    ))
}

async fn get_billing(
    State(state): State<AppState>,
    current: CurrentUser,
) -> AppResult<Json<BillingOverview>> {
    Ok(Json(
        billing::overview(&state.db, &state.payments, &current.user).await?,
    ))
}

/// A plan action: pause, resume, cancel (at period end) or reactivate.
#[derive(Debug, Deserialize)]
struct ActionBody {
    action: PlanAction,
}

async fn change_subscription(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiJson(body): ApiJson<ActionBody>,
) -> AppResult<Json<BillingOverview>> {
    Ok(Json(
        billing::plan_action(&state.db, &state.payments, &current.user, body.action).await?,
    ))
}
