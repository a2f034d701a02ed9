//! Stripe's API, the few calls Sitelens makes, through async-stripe (hyper over rustls with
//! ring, no OpenSSL): a customer per buyer, a Checkout Session per checkout (a one-time payment,
//! or a subscription with its price per period), changes to a subscription (pause, resume,
//! cancel at period end, keep) and a change of plan, which replaces the subscription's item
//! (Stripe prorates it by default) instead of starting a second subscription. Requests go to
//! `SITELENS_STRIPE_API_BASE` (a local emulator in tests).
//!
//! The requests are async-stripe's typed builders; each answer is read into the few fields we
//! use ([`Created`], [`SubscriptionItems`]), so an answer shaped by another API version (an
//! emulator's) reads as well as Stripe's own.

use std::collections::HashMap;
use std::time::Duration;

use domain::checkout::{BillingInterval, CheckoutItem, CheckoutKind, PlanAction};
use store::DatabaseConnection;
use store::entity::{checkout_sessions, users};
use stripe::StripeRequest;
use stripe_billing::plan::{CreatePlan, CreatePlanInlineProductParams, CreatePlanProduct};
use stripe_billing::subscription::{
    RetrieveSubscription, UpdateSubscription, UpdateSubscriptionItems,
    UpdateSubscriptionPauseCollection, UpdateSubscriptionPauseCollectionBehavior,
};
use stripe_checkout::checkout_session::{
    CreateCheckoutSession, CreateCheckoutSessionLineItems, CreateCheckoutSessionLineItemsPriceData,
    CreateCheckoutSessionLineItemsPriceDataRecurring,
    CreateCheckoutSessionLineItemsPriceDataRecurringInterval,
    CreateCheckoutSessionPaymentIntentData, CreateCheckoutSessionSubscriptionData, ProductData,
};
use stripe_client_core::{RequestBuilder, StripeMethod};
use stripe_core::customer::CreateCustomer;

use super::BillingError;
use crate::config::Stripe;

/// A client of Stripe's API.
#[derive(Clone)]
pub struct StripeApi {
    client: stripe::Client,
    webhook_secret: String,
    origin: String,
}

/// The part of a created or changed object we read: its id, and a Checkout Session's page.
#[derive(Debug, miniserde::Deserialize)]
struct Created {
    id: String,
    url: Option<String>,
}

/// The part of a subscription a change of plan needs: its items' ids.
#[derive(Debug, miniserde::Deserialize)]
struct SubscriptionItems {
    items: ItemList,
}

#[derive(Debug, miniserde::Deserialize)]
struct ItemList {
    data: Vec<Item>,
}

#[derive(Debug, miniserde::Deserialize)]
struct Item {
    id: String,
}

/// A call Stripe refused or that did not reach it.
#[derive(Debug, thiserror::Error)]
#[error("stripe {call}: {detail}")]
pub struct StripeCallError {
    call: &'static str,
    detail: String,
}

/// A plan as the subscription's metadata names it (read back by the webhook's `plan_of`).
pub struct PlanChange<'a> {
    /// `business-plan`, `agency-plan` or `enterprise-plan`.
    pub plan_id: &'a str,
    /// Its billing interval.
    pub interval: BillingInterval,
    /// Extra seats.
    pub extra_seats: u32,
    /// What each period costs, cents (from `domain`).
    pub amount_cents: u32,
    /// What the buyer reads on Stripe's invoices.
    pub name: &'a str,
}

impl StripeApi {
    /// A client for the configured account; `origin` is our public origin (return addresses).
    pub fn new(config: &Stripe, origin: &str) -> Self {
        let _ = rustls::crypto::ring::default_provider().install_default();
        // async-stripe joins `v1/…` to the base, which must end with a slash.
        let base = format!("{}/", config.api_base.trim_end_matches('/'));
        let client = stripe::ClientBuilder::new(config.secret_key.0.clone())
            .url(base)
            .timeout(Duration::from_secs(20))
            .build()
            .unwrap_or_else(|e| panic!("the Stripe configuration was checked at start-up: {e}"));
        StripeApi {
            client,
            webhook_secret: config.webhook_secret.0.clone(),
            origin: origin.to_owned(),
        }
    }

    /// The webhook endpoint's signing secret.
    pub fn webhook_secret(&self) -> &str {
        &self.webhook_secret
    }

    async fn send<T: miniserde::Deserialize>(
        &self,
        call: &'static str,
        request: RequestBuilder,
    ) -> Result<T, StripeCallError> {
        request
            .customize::<T>()
            .send(&self.client)
            .await
            .map_err(|e| StripeCallError {
                call,
                detail: e.to_string(),
            })
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
        let request = CreateCustomer::new()
            .email(account.email.clone())
            .metadata(HashMap::from([(
                "user_id".to_owned(),
                account.id.to_string(),
            )]));
        let customer: Created = self
            .send("create customer", request.build())
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
        let ours = || HashMap::from([("checkout_id".to_owned(), row.id.clone())]);
        let mut price = CreateCheckoutSessionLineItemsPriceData::new(stripe_types::Currency::USD);
        price.unit_amount = Some(i64::from(item.amount_cents));
        price.product_data = Some(ProductData::new(item.name.clone()));
        let mut request = CreateCheckoutSession::new()
            .client_reference_id(row.id.clone())
            .customer(customer)
            .metadata(ours())
            .success_url(format!(
                "{}/payment-success?session={}",
                self.origin, row.id
            ))
            .cancel_url(format!(
                "{}/payment?session={}&canceled=true",
                self.origin, row.id
            ));
        match item.interval {
            Some(interval) if item.kind == CheckoutKind::Plan => {
                price.recurring = Some(CreateCheckoutSessionLineItemsPriceDataRecurring::new(
                    match interval {
                        BillingInterval::Monthly => {
                            CreateCheckoutSessionLineItemsPriceDataRecurringInterval::Month
                        }
                        BillingInterval::Yearly => {
                            CreateCheckoutSessionLineItemsPriceDataRecurringInterval::Year
                        }
                    },
                ));
                let mut data = CreateCheckoutSessionSubscriptionData::new();
                data.metadata = Some(ours());
                request = request
                    .mode(stripe_checkout::CheckoutSessionMode::Subscription)
                    .subscription_data(data);
            }
            _ => {
                let mut data = CreateCheckoutSessionPaymentIntentData::new();
                data.metadata = Some(ours());
                request = request
                    .mode(stripe_checkout::CheckoutSessionMode::Payment)
                    .payment_intent_data(data);
            }
        }
        let mut line = CreateCheckoutSessionLineItems::new();
        line.quantity = Some(1);
        line.price_data = Some(price);
        let request = request.line_items(vec![line]);
        let session: Created = self
            .send("create checkout session", request.build())
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
        let update = UpdateSubscription::new(subscription);
        let request = match action {
            PlanAction::Pause => update
                .pause_collection(UpdateSubscriptionPauseCollection::new(
                    UpdateSubscriptionPauseCollectionBehavior::Void,
                ))
                .build(),
            // Resuming clears `pause_collection`, which Stripe takes as an empty value; the
            // typed builder has no way to say "empty", so this one request is written out.
            PlanAction::Resume => {
                RequestBuilder::new(StripeMethod::Post, format!("/subscriptions/{subscription}"))
                    .form(&HashMap::from([("pause_collection", "")]))
            }
            PlanAction::Cancel => update.cancel_at_period_end(true).build(),
            PlanAction::Reactivate => update.cancel_at_period_end(false).build(),
        };
        let _: Created = self
            .send("update subscription", request)
            .await
            .map_err(|e| provider_error(CheckoutKind::Plan, e))?;
        Ok(())
    }

    /// Moves a subscription to another plan, interval or number of seats: a price for the new
    /// plan (a Stripe plan with its product), then the subscription's item replaced by it, with
    /// Stripe's default proration (`create_prorations`: the unused time is credited and the new
    /// price charged for the rest of the period on the next invoice). The metadata names the
    /// plan, so Stripe's `customer.subscription.updated` carries it back to the webhook.
    pub async fn change_plan(
        &self,
        subscription: &str,
        change: &PlanChange<'_>,
    ) -> Result<(), BillingError> {
        let fail = |e| provider_error(CheckoutKind::Plan, e);
        let current: SubscriptionItems = self
            .send(
                "read subscription",
                RetrieveSubscription::new(subscription).build(),
            )
            .await
            .map_err(fail)?;
        let [item] = current.items.data.as_slice() else {
            return Err(fail(StripeCallError {
                call: "read subscription",
                detail: format!(
                    "{} items, where Sitelens makes one",
                    current.items.data.len()
                ),
            }));
        };
        let plan: Created = self
            .send(
                "create plan",
                CreatePlan::new(
                    stripe_types::Currency::USD,
                    match change.interval {
                        BillingInterval::Monthly => stripe_shared::PlanInterval::Month,
                        BillingInterval::Yearly => stripe_shared::PlanInterval::Year,
                    },
                )
                .amount(i64::from(change.amount_cents))
                .product(CreatePlanProduct::InlineProductParams(
                    CreatePlanInlineProductParams::new(change.name),
                ))
                .build(),
            )
            .await
            .map_err(fail)?;
        let mut replaced = UpdateSubscriptionItems::new();
        replaced.id = Some(item.id.clone());
        replaced.plan = Some(plan.id);
        let request = UpdateSubscription::new(subscription)
            .items(vec![replaced])
            .metadata(HashMap::from([
                ("plan_id".to_owned(), change.plan_id.to_owned()),
                ("interval".to_owned(), change.interval.as_str().to_owned()),
                ("extra_seats".to_owned(), change.extra_seats.to_string()),
            ]));
        let _: Created = self
            .send("update subscription", request.build())
            .await
            .map_err(fail)?;
        Ok(())
    }
}

fn provider_error(kind: CheckoutKind, e: StripeCallError) -> BillingError {
    BillingError::Provider {
        message: domain::checkout::failure_message(kind),
        source: Box::new(e),
    }
}
