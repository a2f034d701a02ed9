//! Stripe's API, the few calls Sitelens makes: a customer per buyer, a Checkout Session per
//! checkout (a one-time payment, or a subscription with its price per period), and changes to a
//! subscription (pause, resume, cancel at period end, keep). Requests are form-encoded as
//! Stripe's API takes them (<https://docs.stripe.com/api>), over rustls, to
//! `SITELENS_STRIPE_API_BASE` (a local emulator in tests).

use std::time::Duration;

use domain::checkout::{BillingInterval, CheckoutItem, CheckoutKind, PlanAction};
use serde::Deserialize;
use store::DatabaseConnection;
use store::entity::{checkout_sessions, users};

use super::BillingError;
use crate::config::Stripe;

/// A client of Stripe's API.
#[derive(Clone)]
pub struct StripeApi {
    http: reqwest::Client,
    key: String,
    webhook_secret: String,
    base: String,
    origin: String,
}

/// The part of Stripe's objects we read.
#[derive(Debug, Deserialize)]
struct Created {
    id: String,
    #[serde(default)]
    url: Option<String>,
}

#[derive(Debug, Deserialize)]
struct StripeFailure {
    error: StripeFailureBody,
}

#[derive(Debug, Deserialize)]
struct StripeFailureBody {
    #[serde(default)]
    message: String,
}

/// A call Stripe refused or that did not reach it.
#[derive(Debug, thiserror::Error)]
#[error("stripe {call}: {detail}")]
pub struct StripeCallError {
    call: &'static str,
    detail: String,
}

impl StripeApi {
    /// A client for the configured account; `origin` is our public origin (return addresses).
    pub fn new(config: &Stripe, origin: &str) -> Self {
        let _ = rustls::crypto::ring::default_provider().install_default();
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(20))
            .build()
            .unwrap_or_default();
        StripeApi {
            http,
            key: config.secret_key.0.clone(),
            webhook_secret: config.webhook_secret.0.clone(),
            base: config.api_base.clone(),
            origin: origin.to_owned(),
        }
    }

    /// The webhook endpoint's signing secret.
    pub fn webhook_secret(&self) -> &str {
        &self.webhook_secret
    }

    async fn post(
        &self,
        call: &'static str,
        path: &str,
        form: &[(String, String)],
    ) -> Result<Created, StripeCallError> {
        let fail = |detail: String| StripeCallError { call, detail };
        let body = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs(form)
            .finish();
        let res = self
            .http
            .post(format!("{}/v1/{path}", self.base))
            .basic_auth(&self.key, Some(""))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body)
            .send()
            .await
            .map_err(|e| fail(e.to_string()))?;
        let status = res.status();
        let body = res.bytes().await.map_err(|e| fail(e.to_string()))?;
        if !status.is_success() {
            let message = serde_json::from_slice::<StripeFailure>(&body)
                .map(|f| f.error.message)
                .unwrap_or_default();
            return Err(fail(format!("{status}: {message}")));
        }
        serde_json::from_slice(&body).map_err(|e| fail(format!("unreadable answer ({e})")))
    }

    /// The buyer's Stripe customer, created on their first checkout.
    pub async fn customer(
        &self,
        db: &DatabaseConnection,
        account: &users::Model,
    ) -> Result<String, BillingError> {
        if let Some(id) = &account.stripe_customer_id {
            return Ok(id.clone());
        }
        let form = vec![
            ("email".to_owned(), account.email.clone()),
            ("metadata[user_id]".to_owned(), account.id.to_string()),
        ];
        let customer = self
            .post("create customer", "customers", &form)
            .await
            .map_err(|e| provider_error(CheckoutKind::Pack, e))?;
        store::billing::set_stripe_customer(db, account.id, &customer.id).await?;
        Ok(customer.id)
    }

    /// Creates the Checkout Session of a recorded checkout; returns its id and hosted page.
    pub async fn create_checkout_session(
        &self,
        db: &DatabaseConnection,
        account: &users::Model,
        row: &checkout_sessions::Model,
        item: &CheckoutItem,
    ) -> Result<(String, String), BillingError> {
        let customer = self.customer(db, account).await?;
        let mut form: Vec<(String, String)> = vec![
            ("client_reference_id".into(), row.id.clone()),
            ("customer".into(), customer),
            ("metadata[checkout_id]".into(), row.id.clone()),
            (
                "success_url".into(),
                format!("{}/payment-success?session={}", self.origin, row.id),
            ),
            (
                "cancel_url".into(),
                format!("{}/payment?session={}&canceled=true", self.origin, row.id),
            ),
            ("line_items[0][quantity]".into(), "1".into()),
            ("line_items[0][price_data][currency]".into(), "usd".into()),
            (
                "line_items[0][price_data][unit_amount]".into(),
                item.amount_cents.to_string(),
            ),
            (
                "line_items[0][price_data][product_data][name]".into(),
                item.name.clone(),
            ),
        ];
        match item.interval {
            Some(interval) if item.kind == CheckoutKind::Plan => {
                form.push(("mode".into(), "subscription".into()));
                form.push((
                    "line_items[0][price_data][recurring][interval]".into(),
                    match interval {
                        BillingInterval::Monthly => "month",
                        BillingInterval::Yearly => "year",
                    }
                    .into(),
                ));
                form.push((
                    "subscription_data[metadata][checkout_id]".into(),
                    row.id.clone(),
                ));
            }
            _ => {
                form.push(("mode".into(), "payment".into()));
                form.push((
                    "payment_intent_data[metadata][checkout_id]".into(),
                    row.id.clone(),
                ));
            }
        }
        let session = self
            .post("create checkout session", "checkout/sessions", &form)
            .await
            .map_err(|e| provider_error(item.kind, e))?;
        let url = session.url.ok_or_else(|| {
            provider_error(
                item.kind,
                StripeCallError {
                    call: "create checkout session",
                    detail: "no hosted page address in the answer".into(),
                },
            )
        })?;
        Ok((session.id, url))
    }

    /// Pauses (collection voided), resumes, cancels at period end or keeps a subscription.
    pub async fn change_subscription(
        &self,
        subscription: &str,
        action: PlanAction,
    ) -> Result<(), BillingError> {
        let form: Vec<(String, String)> = match action {
            PlanAction::Pause => vec![("pause_collection[behavior]".into(), "void".into())],
            PlanAction::Resume => vec![("pause_collection".into(), String::new())],
            PlanAction::Cancel => vec![("cancel_at_period_end".into(), "true".into())],
            PlanAction::Reactivate => vec![("cancel_at_period_end".into(), "false".into())],
        };
        self.post(
            "update subscription",
            &format!("subscriptions/{subscription}"),
            &form,
        )
        .await
        .map_err(|e| provider_error(CheckoutKind::Plan, e))?;
        Ok(())
    }
}

fn provider_error(kind: CheckoutKind, e: StripeCallError) -> BillingError {
    BillingError::Provider {
        message: domain::checkout::failure_message(kind),
        source: Box::new(e),
    }
}
