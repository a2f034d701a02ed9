//! Stripe's webhook: the signature check and the events Sitelens acts on.
//!
//! The `Stripe-Signature` header is checked by [`crate::services::signature`] (Stripe's documented
//! scheme, which our own callbacks sign with too). Events are read from the raw JSON (only the fields we need), so the
//! shapes of older API versions, which a local emulator sends, read as well as current ones.

use chrono::{DateTime, Utc};
use domain::checkout::{BillingInterval, SubscriptionStatus};
use serde_json::Value;
use store::DatabaseConnection;
use store::billing::CheckoutStatus;

use super::{Applied, BillingError, BillingEvent, apply_event};
use crate::services::hub::Hub;
use crate::services::signature;

/// Checks a `Stripe-Signature` header against the raw body at `now` (unix seconds).
pub fn verify_signature(
    payload: &[u8],
    header: &str,
    secret: &str,
    now: i64,
) -> Result<(), BillingError> {
    signature::verify(payload, header, secret, now).map_err(|e| BillingError::Signature(e.0))
}

/// Verifies, reads and applies one delivery. An event that is not JSON or lacks an id is a
/// client error; a verified event of a kind we do not act on is acknowledged.
pub async fn handle(
    db: &DatabaseConnection,
    hub: &Hub,
    secret: &str,
    payload: &[u8],
    signature: Option<&str>,
) -> Result<Applied, BillingError> {
    let Some(signature) = signature else {
        return Err(BillingError::Signature(
            "the Stripe-Signature header is missing".to_owned(),
        ));
    };
    verify_signature(payload, signature, secret, Utc::now().timestamp())?;
    let event: Value = serde_json::from_slice(payload)
        .map_err(|_| BillingError::Invalid("the event is not JSON".to_owned()))?;
    let Some(id) = event["id"].as_str() else {
        return Err(BillingError::Invalid("the event has no id".to_owned()));
    };
    let parsed = parse_event(&event);
    apply_event(db, hub, id, &parsed).await
}

fn text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        // An expanded object: its id.
        Value::Object(o) => o.get("id").and_then(Value::as_str).map(str::to_owned),
        _ => None,
    }
}

fn time(v: &Value) -> Option<DateTime<Utc>> {
    v.as_i64().and_then(|s| DateTime::from_timestamp(s, 0))
}

/// Turns a Stripe event into what [`apply_event`] acts on.
pub fn parse_event(event: &Value) -> BillingEvent {
    let object = &event["data"]["object"];
    let at = time(&event["created"]);
    match event["type"].as_str().unwrap_or_default() {
        "checkout.session.completed" | "checkout.session.async_payment_succeeded" => {
            // A delayed payment method completes the session unpaid; its later success event
            // carries `paid`.
            if object["payment_status"].as_str() == Some("unpaid") {
                return BillingEvent::Ignored;
            }
            let Some(checkout_id) = text(&object["client_reference_id"])
                .or_else(|| text(&object["metadata"]["checkout_id"]))
            else {
                return BillingEvent::Ignored;
            };
            // A plan's first payment is its first invoice (its `invoice.paid` then finds it
            // granted); a pack's is its payment intent (what a refund names).
            let payment_id = text(&object["invoice"])
                .or_else(|| text(&object["payment_intent"]))
                .or_else(|| text(&object["id"]))
                .unwrap_or_default();
            BillingEvent::CheckoutCompleted {
                checkout_id,
                payment_id,
                amount_cents: object["amount_total"].as_i64().unwrap_or(-1),
                customer: text(&object["customer"]),
                subscription: text(&object["subscription"]),
            }
        }
        "checkout.session.expired" | "checkout.session.async_payment_failed" => {
            match text(&object["client_reference_id"]) {
                Some(checkout_id) => BillingEvent::CheckoutFailed {
                    checkout_id,
                    status: if event["type"] == "checkout.session.expired" {
                        CheckoutStatus::Expired
                    } else {
                        CheckoutStatus::Declined
                    },
                },
                None => BillingEvent::Ignored,
            }
        }
        // `invoice.payment_succeeded` is the older name of the same moment (emulators and older
        // endpoints send it); both are applied once per invoice.
        "invoice.paid" | "invoice.payment_succeeded" => {
            // Newer API versions moved the subscription under `parent`.
            let subscription = text(&object["subscription"])
                .or_else(|| text(&object["parent"]["subscription_details"]["subscription"]));
            let (Some(invoice_id), Some(subscription)) = (text(&object["id"]), subscription) else {
                return BillingEvent::Ignored;
            };
            let line = &object["lines"]["data"][0]["period"];
            let (Some(start), Some(end)) = (
                time(&line["start"]).or_else(|| time(&object["period_start"])),
                time(&line["end"]).or_else(|| time(&object["period_end"])),
            ) else {
                return BillingEvent::Ignored;
            };
            BillingEvent::InvoicePaid {
                invoice_id,
                subscription,
                amount_cents: object["amount_paid"].as_i64().unwrap_or(0),
                period_start: start,
                period_end: end,
            }
        }
        "customer.subscription.updated" => {
            let Some(subscription) = text(&object["id"]) else {
                return BillingEvent::Ignored;
            };
            let status = if object["cancel_at_period_end"].as_bool() == Some(true) {
                SubscriptionStatus::CancelAtPeriodEnd
            } else if !object["pause_collection"].is_null()
                || object["status"].as_str() == Some("paused")
            {
                SubscriptionStatus::Paused
            } else {
                match object["status"].as_str() {
                    Some("past_due" | "unpaid") => SubscriptionStatus::PastDue,
                    Some("canceled" | "incomplete_expired") => SubscriptionStatus::Canceled,
                    _ => SubscriptionStatus::Active,
                }
            };
            let period = match (
                time(&object["current_period_start"])
                    .or_else(|| time(&object["items"]["data"][0]["current_period_start"])),
                time(&object["current_period_end"])
                    .or_else(|| time(&object["items"]["data"][0]["current_period_end"])),
            ) {
                (Some(s), Some(e)) => Some((s, e)),
                _ => None,
            };
            BillingEvent::SubscriptionUpdated {
                subscription,
                status,
                plan: plan_of(object),
                period,
                at,
            }
        }
        "customer.subscription.deleted" => match text(&object["id"]) {
            Some(subscription) => BillingEvent::SubscriptionDeleted { subscription, at },
            None => BillingEvent::Ignored,
        },
        // Newer API versions name an invoice's payment intent only here (the charge and the
        // invoice no longer name each other); a refund of that payment intent then finds the
        // invoice's credits.
        "invoice_payment.paid" => match (
            text(&object["invoice"]),
            text(&object["payment"]["payment_intent"]),
        ) {
            (Some(invoice_id), Some(payment_intent)) => BillingEvent::PaymentLinked {
                payment_intent,
                invoice_id,
            },
            _ => BillingEvent::Ignored,
        },
        "charge.refunded" => {
            let Some(charge) = text(&object["id"]) else {
                return BillingEvent::Ignored;
            };
            // A subscription's charge names its invoice (older API versions put it on the
            // charge); a charge without a payment intent is known by its invoice alone.
            let invoice = text(&object["invoice"]);
            let Some(payment_id) = text(&object["payment_intent"]).or_else(|| invoice.clone())
            else {
                return BillingEvent::Ignored;
            };
            // Stripe's `amount_refunded` is the charge's running total.
            let refunded = object["amount_refunded"].as_i64().unwrap_or(0);
            BillingEvent::Refunded {
                // One application per charge and refunded total: a second partial refund of
                // the same charge is a new total, so a new key, and counts what it adds.
                refund_id: format!("{charge}:{refunded}"),
                payment_id,
                invoice,
                amount_refunded: refunded,
                amount: object["amount"].as_i64().unwrap_or(0),
            }
        }
        _ => BillingEvent::Ignored,
    }
}

/// The plan a subscription object names in its metadata (`plan_id`, `interval`,
/// `extra_seats`), which Sitelens writes when it changes a plan; `None` leaves the plan as is.
fn plan_of(object: &Value) -> Option<(String, BillingInterval, u32)> {
    let meta = &object["metadata"];
    let plan = domain::checkout::find_plan(meta["plan_id"].as_str()?)?;
    let interval = BillingInterval::parse(meta["interval"].as_str().unwrap_or("monthly"))?;
    let seats = meta["extra_seats"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    Some((plan.id, interval, seats))
}
