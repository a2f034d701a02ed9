//! `POST /api/webhooks/stripe`: Stripe's signed events (`services::billing::webhook`). A bad
//! signature is a 400 (Stripe shows it in the endpoint's log); an event that cannot be applied
//! yet is a 409, which Stripe retries; a handled event, or a repeat of one, is a 200.

use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::HeaderMap;
use axum::routing::post;
use axum::{Json, Router};
use serde_json::{Value, json};

use crate::error::{AppError, AppResult};
use crate::services::billing::{Applied, webhook};
use crate::state::AppState;

/// Stripe's events can be larger than the API's other bodies.
const WEBHOOK_BODY_LIMIT: usize = 512 * 1024;

/// The webhooks resource.
pub fn router() -> Router<AppState> {
    Router::new().route(
        "/webhooks/stripe",
        post(stripe_webhook).layer(DefaultBodyLimit::max(WEBHOOK_BODY_LIMIT)),
    )
}

async fn stripe_webhook(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> AppResult<Json<Value>> {
    let Some(secret) = state.payments.webhook_secret() else {
        return Err(AppError::NotFound(
            "Stripe is not configured: payments are in test mode".to_owned(),
        ));
    };
    let signature = headers
        .get("stripe-signature")
        .and_then(|v| v.to_str().ok());
    let applied = webhook::handle(&state.db, &state.hub, secret, &body, signature).await?;
    Ok(Json(json!({
        "received": true,
        "duplicate": applied == Applied::Duplicate,
    })))
}
