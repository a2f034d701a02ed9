//! The contact forms: `POST /api/contact` (general), `/api/contact/enterprise`,
//! `/api/contact/agency` and `/api/contact/partner`. Each stores the message and mails it to
//! sales (see [`crate::services::contact`]).

use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use domain::contact::{
    AgencyContactForm, EnterpriseContactForm, PartnerEnquiryForm, SalesMessage, agency_message,
    enterprise_message, general_message, partner_message,
};
use domain::forms::{ContactForm, FieldError};
use serde_json::{Value, json};

use crate::error::AppResult;
use crate::extract::ApiJson;
use crate::services::contact::{SalesInbox, submit};
use crate::state::AppState;

/// The contact resource.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/contact", post(create_contact))
        .route("/contact/enterprise", post(create_enterprise))
        .route("/contact/agency", post(create_agency))
        .route("/contact/partner", post(create_partner))
}

/// Stores and mails a checked message; the answer the forms expect.
async fn accept(
    state: &AppState,
    checked: Result<SalesMessage, Vec<FieldError>>,
) -> AppResult<Json<Value>> {
    let inbox = SalesInbox {
        mailer: &state.mailer,
        sales_email: state.config.sales_email.as_deref(),
    };
    submit(&state.db, inbox, checked).await?;
    Ok(Json(
        json!({"success": true, "message": "Thanks! We will reply within one working day."}),
    ))
}

async fn create_contact(
    State(state): State<AppState>,
    ApiJson(form): ApiJson<ContactForm>,
) -> AppResult<Json<Value>> {
    accept(&state, general_message(&form)).await
}

async fn create_enterprise(
    State(state): State<AppState>,
    ApiJson(form): ApiJson<EnterpriseContactForm>,
) -> AppResult<Json<Value>> {
    accept(&state, enterprise_message(&form)).await
}

async fn create_agency(
    State(state): State<AppState>,
    ApiJson(form): ApiJson<AgencyContactForm>,
) -> AppResult<Json<Value>> {
    accept(&state, agency_message(&form)).await
}

async fn create_partner(
    State(state): State<AppState>,
    ApiJson(form): ApiJson<PartnerEnquiryForm>,
) -> AppResult<Json<Value>> {
    accept(&state, partner_message(&form)).await
}
