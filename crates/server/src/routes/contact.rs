//! `POST /api/contact`: the contact form.

use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use domain::forms::ContactForm;

use crate::error::AppResult;
use crate::extract::ApiJson;
use crate::services::contact::submit_contact;
use crate::state::AppState;

/// The contact resource.
pub fn router() -> Router<AppState> {
    Router::new().route("/contact", post(create_contact))
}

async fn create_contact(
    State(state): State<AppState>,
    ApiJson(form): ApiJson<ContactForm>,
) -> AppResult<Json<serde_json::Value>> {
    submit_contact(&state.db, &form).await?;
    Ok(Json(
        serde_json::json!({"success": true, "message": "Thanks! We will reply within two working days."}),
    ))
}
