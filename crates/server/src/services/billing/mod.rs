//! Billing (docs/PRODUCT.md §7.10, §7.15, §9.2, §9.3): the
//! buyer starts a checkout, which the server prices from `domain` and records; a
//! [`PaymentProvider`] takes the payment (Stripe Checkout, or the labelled test-payment pages);
//! the payment's confirmation arrives as a [`BillingEvent`], from Stripe's signed webhook
//! ([`webhook`]) or from the test pages' pay, decline and refund buttons, and every event goes
//! through the one function that grants ([`apply_event`]), at most once per event id.
//!
//! What makes a payment count once: the event id (`webhook_events`), the payment id
//! (`credit_purchases`, in the same transaction as the balance and its ledger row), the
//! checkout (closed once, from `open`), the refund id (`refunds`, in the same transaction as the
//! credits it takes back) and the subscription's event time (an older state never wins).

pub mod provider;
pub mod stripe;
pub mod webhook;

use chrono::{DateTime, Months, Utc};
use domain::accounts::TeamRole;
use domain::checkout::{
    self as rules, BillingInterval, BillingOverview, CheckoutKind, CheckoutQuery, CheckoutView,
    PaymentMode, PlanAction, PurchaseView, StartedCheckout, SubscriptionStatus, SubscriptionView,
};
use domain::commerce::report_cost;
use domain::credits::Credits;
use domain::report::ReportType;
use domain::site_url::SiteUrl;
use store::billing::{
    CheckoutStatus, NewCheckout, PaidUpgrade, Refund, RefundOutcome, SubscriptionState,
    UpgradeOutcome,
};
use store::credits::{Grant, Purchase};
use store::entity::{checkout_sessions, users};
use store::jobs::NewAnalysis;
use store::{DatabaseConnection, StoreError};

use self::stripe::PlanChange;
pub use provider::PaymentProvider;

use crate::services::accounts::{AccountError, team_context};
use crate::services::hub::Hub;

/// Why a billing request failed.
#[derive(Debug, thiserror::Error)]
pub enum BillingError {
    /// The checkout address cannot be sold; the text says why (and that nothing was charged).
    #[error("{0}")]
    Invalid(String),
    /// Not the caller's to do; the text says why.
    #[error("{0}")]
    Forbidden(String),
    /// No such checkout in the caller's reach.
    #[error("checkout not found")]
    NotFound,
    /// An upgrade link's token names no report request; the text says what to do.
    #[error("{0}")]
    UnknownUpgrade(String),
    /// The request does not fit the current state; the text says why.
    #[error("{0}")]
    Conflict(String),
    /// The payment processor failed or refused; logged, the buyer sees the spec's alert.
    #[error("{message}")]
    Provider {
        /// The spec's alert for this kind of checkout.
        message: &'static str,
        /// What the processor said.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// A webhook's signature is missing, wrong or stale.
    #[error("{0}")]
    Signature(String),
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<AccountError> for BillingError {
    fn from(e: AccountError) -> Self {
        match e {
            AccountError::Store(e) => BillingError::Store(e),
            other => BillingError::Conflict(other.to_string()),
        }
    }
}

/// The account a user's purchases belong to: their own, unless they are a member of someone
/// else's team, whose credits they share and whose owner pays (so they may not buy).
async fn billing_account(
    db: &DatabaseConnection,
    user: &users::Model,
) -> Result<users::Model, BillingError> {
    let (owner, role) = team_context(db, user).await?;
    if role == TeamRole::Owner {
        Ok(owner)
    } else {
        Err(BillingError::Forbidden(format!(
            "Billing is managed by the owner of your team ({}).",
            owner.email
        )))
    }
}

/// What a mailed report's upgrade link names (`upgradeToken`, docs/PRODUCT.md §3.8): the site of
/// the report request carrying the token, and the report. A token that cannot be one of ours is
/// refused before any lookup ([`BillingError::Invalid`]); one no request carries is
/// [`BillingError::UnknownUpgrade`].
pub async fn upgrade_target(
    db: &DatabaseConnection,
    token: &str,
) -> Result<rules::UpgradeTarget, BillingError> {
    let token = rules::check_upgrade_token(token).map_err(|e| BillingError::Invalid(e.0))?;
    let request = store::reports::find_by_upgrade_token(db, token)
        .await?
        .ok_or_else(|| BillingError::UnknownUpgrade(rules::UPGRADE_TOKEN_UNKNOWN.to_owned()))?;
    Ok(rules::UpgradeTarget {
        package: "starter".to_owned(),
        url: request.website_url,
        report_id: request.analysis_result_id.map(|id| id.to_string()),
    })
}

/// Prices the checkout address, records it and asks the provider for a payment page. An
/// upgrade link's token decides the site ([`upgrade_target`], `domain::checkout::with_upgrade_site`).
pub async fn start_checkout(
    db: &DatabaseConnection,
    provider: &PaymentProvider,
    user: &users::Model,
    query: &CheckoutQuery,
) -> Result<StartedCheckout, BillingError> {
    let resolved;
    let query = match query.upgrade_token.as_deref() {
        Some(token) => {
            let target = upgrade_target(db, token).await?;
            resolved = rules::with_upgrade_site(query, &target.url)
                .map_err(|e| BillingError::Invalid(e.0))?;
            &resolved
        }
        None => query,
    };
    let item = rules::resolve_checkout(query).map_err(|e| BillingError::Invalid(e.0))?;
    let account = billing_account(db, user).await?;
    let live = match item.kind {
        CheckoutKind::Plan => store::billing::get_subscription(db, account.id)
            .await?
            .filter(|s| s.status != SubscriptionStatus::Canceled.as_str()),
        _ => None,
    };
    if let Some(sub) = &live
        && sub.plan_id == item.package_id
        && sub.billing_interval == item.interval.map_or("", |i| i.as_str())
        && u32::try_from(sub.extra_seats).ok() == Some(item.extra_seats)
    {
        return Err(BillingError::Conflict(
            "You are already subscribed to this plan.".to_owned(),
        ));
    }
    let id = format!("chk_{}", uuid::Uuid::new_v4().simple());
    let row = store::billing::create_checkout(
        db,
        &NewCheckout {
            id: id.clone(),
            user_id: account.id,
            kind: kind_name(item.kind).to_owned(),
            package_id: item.package_id.clone(),
            credits: item.credits,
            amount_cents: item.amount_cents,
            interval: item.interval.map(|i| i.as_str().to_owned()),
            extra_seats: item.extra_seats,
            report_type: item.report_type.map(|t| t.as_str().to_owned()),
            url: item.url.clone(),
            mode: mode_name(provider.mode()).to_owned(),
        },
    )
    .await?;
    if let Some(sub) = &live
        && change_plan(db, provider, sub, &item).await?
    {
        store::billing::close_checkout(db, &id, CheckoutStatus::Paid, None).await?;
        return Ok(StartedCheckout {
            url: format!("/thank-you?session={id}"),
            id,
            mode: provider.mode(),
            item,
        });
    }
    let url = provider.payment_page(db, &account, &row, &item).await?;
    Ok(StartedCheckout {
        id,
        url,
        mode: provider.mode(),
        item,
    })
}

/// A subscriber's change of plan, interval or seats with Stripe: the live subscription is
/// changed in place (its item replaced, prorated by Stripe) rather than a second one started,
/// and the new plan applied here at once (Stripe's `customer.subscription.updated` then
/// carries the same plan in its metadata). `false` when the provider pays plan changes on a
/// payment page instead (test-payment mode).
async fn change_plan(
    db: &DatabaseConnection,
    provider: &PaymentProvider,
    sub: &store::entity::subscriptions::Model,
    item: &rules::CheckoutItem,
) -> Result<bool, BillingError> {
    let (Some(stripe_id), Some(interval)) = (&sub.stripe_subscription_id, item.interval) else {
        return Ok(false);
    };
    let changed = provider
        .change_plan(
            stripe_id,
            &PlanChange {
                plan_id: &item.package_id,
                interval,
                extra_seats: item.extra_seats,
                amount_cents: item.amount_cents,
                name: &item.name,
            },
        )
        .await?;
    if changed {
        let status = SubscriptionStatus::parse(&sub.status).unwrap_or(SubscriptionStatus::Active);
        let plan = (item.package_id.clone(), interval, item.extra_seats);
        subscription_updated(db, stripe_id, status, Some(&plan), None, None).await?;
    }
    Ok(changed)
}

fn kind_name(kind: CheckoutKind) -> &'static str {
    match kind {
        CheckoutKind::Pack => "pack",
        CheckoutKind::Credits => "credits",
        CheckoutKind::Plan => "plan",
        CheckoutKind::Upgrade => "upgrade",
    }
}

fn kind_of(row: &checkout_sessions::Model) -> CheckoutKind {
    match row.kind.as_str() {
        "pack" => CheckoutKind::Pack,
        "plan" => CheckoutKind::Plan,
        "upgrade" => CheckoutKind::Upgrade,
        _ => CheckoutKind::Credits,
    }
}

fn mode_name(mode: PaymentMode) -> &'static str {
    match mode {
        PaymentMode::Stripe => "stripe",
        PaymentMode::Test => "test",
    }
}

/// A checkout of the caller's (a member sees none: their owner pays).
pub async fn checkout_view(
    db: &DatabaseConnection,
    user: &users::Model,
    id: &str,
) -> Result<CheckoutView, BillingError> {
    let row = own_checkout(db, user, id).await?;
    let kind = kind_of(&row);
    Ok(CheckoutView {
        mode: if row.mode == "stripe" {
            PaymentMode::Stripe
        } else {
            PaymentMode::Test
        },
        kind,
        failure_message: rules::failure_message(kind).to_owned(),
        id: row.id,
        status: row.status,
        package_id: row.package_id,
        credits: row.credits,
        amount_cents: row.amount_cents,
        report_type: row.report_type.as_deref().and_then(ReportType::parse),
        url: row.url,
        interval: row.billing_interval,
        analysis_id: row.analysis_id.map(|id| id.to_string()),
    })
}

async fn own_checkout(
    db: &DatabaseConnection,
    user: &users::Model,
    id: &str,
) -> Result<checkout_sessions::Model, BillingError> {
    match store::billing::get_checkout(db, id).await? {
        Some(row) if row.user_id == user.id => Ok(row),
        _ => Err(BillingError::NotFound),
    }
}

/// A confirmed or failed payment, a renewal, a subscription change or a refund: what Stripe's
/// webhook events and the test-payment buttons both become.
#[derive(Debug, Clone, PartialEq)]
pub enum BillingEvent {
    /// A checkout was paid.
    CheckoutCompleted {
        /// Our checkout id (Stripe's `client_reference_id`).
        checkout_id: String,
        /// The payment's id: Stripe's payment intent (packs) or the first invoice (plans).
        payment_id: String,
        /// What was paid, cents.
        amount_cents: i64,
        /// Stripe's customer.
        customer: Option<String>,
        /// Stripe's subscription (plans).
        subscription: Option<String>,
    },
    /// A checkout's payment failed or was abandoned.
    CheckoutFailed {
        /// Our checkout id.
        checkout_id: String,
        /// Declined (the buyer may try again) or expired.
        status: CheckoutStatus,
    },
    /// A subscription's invoice was paid: a new period, and its credits.
    InvoicePaid {
        /// The invoice id (the grant's payment id, so it is granted once).
        invoice_id: String,
        /// The subscription.
        subscription: String,
        /// What was paid, cents.
        amount_cents: i64,
        /// The period it pays for.
        period_start: DateTime<Utc>,
        /// Its end.
        period_end: DateTime<Utc>,
    },
    /// A subscription changed (paused, cancelled at period end, plan or seats changed).
    SubscriptionUpdated {
        /// The subscription.
        subscription: String,
        /// Its new state.
        status: SubscriptionStatus,
        /// A new plan, when it changed (and its interval and seats).
        plan: Option<(String, BillingInterval, u32)>,
        /// The current period.
        period: Option<(DateTime<Utc>, DateTime<Utc>)>,
        /// When the processor created the event (`None`: our own change).
        at: Option<DateTime<Utc>>,
    },
    /// A subscription ended.
    SubscriptionDeleted {
        /// The subscription.
        subscription: String,
        /// When the processor created the event.
        at: Option<DateTime<Utc>>,
    },
    /// A payment intent paid an invoice (Stripe's `invoice_payment.paid`; newer API versions
    /// no longer name the invoice on the charge), so a refund naming only the payment intent
    /// reaches the invoice's credits.
    PaymentLinked {
        /// The payment intent.
        payment_intent: String,
        /// The invoice it paid.
        invoice_id: String,
    },
    /// A payment was refunded: the unspent credits its refunded part bought are taken back.
    Refunded {
        /// The refund's key (one application per key).
        refund_id: String,
        /// The refunded payment (Stripe's payment intent).
        payment_id: String,
        /// The invoice the payment paid, for a subscription's charge (its credits were
        /// granted under the invoice).
        invoice: Option<String>,
        /// The payment's refunded total so far, cents (cumulative, as Stripe reports it).
        amount_refunded: i64,
        /// The payment's whole amount, cents.
        amount: i64,
    },
    /// An event we do not act on.
    Ignored,
}

impl BillingEvent {
    fn kind(&self) -> &'static str {
        match self {
            BillingEvent::CheckoutCompleted { .. } => "checkout.session.completed",
            BillingEvent::CheckoutFailed { .. } => "checkout.session.failed",
            BillingEvent::InvoicePaid { .. } => "invoice.paid",
            BillingEvent::SubscriptionUpdated { .. } => "customer.subscription.updated",
            BillingEvent::SubscriptionDeleted { .. } => "customer.subscription.deleted",
            BillingEvent::PaymentLinked { .. } => "invoice_payment.paid",
            BillingEvent::Refunded { .. } => "charge.refunded",
            BillingEvent::Ignored => "ignored",
        }
    }
}

/// What [`apply_event`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Applied {
    /// The event took effect now.
    Done,
    /// The event (or its payment) was handled before; nothing changed.
    Duplicate,
    /// Nothing to do for it (an event we ignore, or one about something we do not know).
    Skipped,
}

/// Applies one event, at most once per `event_id`: the one path from a confirmed payment to
/// credits, for Stripe's webhook and the test-payment buttons alike.
///
/// The effect comes first and the event id is recorded after it, so a failure half-way leaves
/// the event unrecorded and its redelivery completes it; each effect is itself idempotent (by
/// payment, checkout, refund or event time), so concurrent deliveries of one event grant once.
pub async fn apply_event(
    db: &DatabaseConnection,
    hub: &Hub,
    event_id: &str,
    event: &BillingEvent,
) -> Result<Applied, BillingError> {
    if store::billing::event_handled(db, event_id).await? {
        return Ok(Applied::Duplicate);
    }
    // A charge that does not name its invoice (newer API versions) is found by the invoice its
    // payment intent paid, for the credits and the affiliate's commission alike.
    let linked;
    let event = match event {
        BillingEvent::Refunded {
            payment_id,
            invoice: None,
            ..
        } => match store::billing::payment_of_alias(db, payment_id).await? {
            Some(invoice) => {
                let mut e = event.clone();
                if let BillingEvent::Refunded { invoice: i, .. } = &mut e {
                    *i = Some(invoice);
                }
                linked = e;
                &linked
            }
            None => event,
        },
        _ => event,
    };
    let applied = match event {
        BillingEvent::CheckoutCompleted {
            checkout_id,
            payment_id,
            amount_cents,
            customer,
            subscription,
        } => {
            checkout_completed(
                db,
                hub,
                checkout_id,
                payment_id,
                *amount_cents,
                customer.as_deref(),
                subscription.as_deref(),
            )
            .await?
        }
        BillingEvent::CheckoutFailed {
            checkout_id,
            status,
        } => {
            if store::billing::close_checkout(db, checkout_id, *status, None).await? {
                Applied::Done
            } else {
                Applied::Skipped
            }
        }
        BillingEvent::InvoicePaid {
            invoice_id,
            subscription,
            amount_cents,
            period_start,
            period_end,
        } => {
            invoice_paid(
                db,
                invoice_id,
                subscription,
                *amount_cents,
                *period_start,
                *period_end,
            )
            .await?
        }
        BillingEvent::SubscriptionUpdated {
            subscription,
            status,
            plan,
            period,
            at,
        } => subscription_updated(db, subscription, *status, plan.as_ref(), *period, *at).await?,
        BillingEvent::SubscriptionDeleted { subscription, at } => {
            subscription_updated(
                db,
                subscription,
                SubscriptionStatus::Canceled,
                None,
                None,
                *at,
            )
            .await?
        }
        BillingEvent::Refunded {
            refund_id,
            payment_id,
            invoice,
            amount_refunded,
            amount,
        } => {
            let payments: Vec<&str> = std::iter::once(payment_id.as_str())
                .chain(invoice.as_deref())
                .collect();
            refunded(db, refund_id, &payments, *amount_refunded, *amount).await?
        }
        BillingEvent::PaymentLinked {
            payment_intent,
            invoice_id,
        } => {
            store::billing::link_payment(db, payment_intent, invoice_id).await?;
            Applied::Done
        }
        BillingEvent::Ignored => Applied::Skipped,
    };
    // Before the event is recorded, so a redelivery completes it; once per payment by itself.
    crate::services::affiliates::after_billing_event(db, event).await?;
    store::billing::record_event(db, event_id, event.kind()).await?;
    Ok(applied)
}

async fn checkout_completed(
    db: &DatabaseConnection,
    hub: &Hub,
    checkout_id: &str,
    payment_id: &str,
    amount_cents: i64,
    customer: Option<&str>,
    subscription: Option<&str>,
) -> Result<Applied, BillingError> {
    let Some(row) = store::billing::get_checkout(db, checkout_id).await? else {
        tracing::warn!(%checkout_id, "payment for an unknown checkout: nothing granted");
        return Ok(Applied::Skipped);
    };
    if amount_cents != row.amount_cents {
        // The price was fixed before the buyer paid; a different amount means the payment is
        // not the one this checkout asked for. Grant nothing; the operator sees why.
        tracing::error!(
            %checkout_id, paid = amount_cents, price = row.amount_cents,
            "payment amount differs from the checkout's price: nothing granted"
        );
        return Ok(Applied::Skipped);
    }
    let granted = if kind_of(&row) == CheckoutKind::Upgrade {
        return start_upgrade(db, hub, &row, payment_id).await;
    } else if kind_of(&row) == CheckoutKind::Plan {
        start_subscription(db, &row, payment_id, customer, subscription).await?
    } else {
        let grant = store::credits::grant_purchase(db, &purchase_of(&row, payment_id)).await?;
        grant == Grant::Granted
    };
    let closed =
        store::billing::close_checkout(db, checkout_id, CheckoutStatus::Paid, Some(payment_id))
            .await?;
    Ok(if granted || closed {
        Applied::Done
    } else {
        Applied::Duplicate
    })
}

/// An upgrade's payment: its credit granted and spent on the professional report of its site,
/// and that analysis queued, once per checkout ([`store::billing::complete_upgrade`]); the
/// buyer's pages follow the analysis the checkout names, so a reload never pays twice.
async fn start_upgrade(
    db: &DatabaseConnection,
    hub: &Hub,
    row: &checkout_sessions::Model,
    payment_id: &str,
) -> Result<Applied, BillingError> {
    let report_type = row.report_type.as_deref().and_then(ReportType::parse);
    let site = row.url.as_deref().map(SiteUrl::parse);
    let (Some(report_type), Some(Ok(site))) = (report_type, site) else {
        // Written by `start_checkout` from `domain`'s upgrade item, so never missing; granted
        // as credits all the same, so the buyer keeps what they paid for.
        tracing::error!(checkout_id = %row.id, "upgrade checkout without a report: credits granted");
        let grant = store::credits::grant_purchase(db, &purchase_of(row, payment_id)).await?;
        store::billing::close_checkout(db, &row.id, CheckoutStatus::Paid, Some(payment_id)).await?;
        return Ok(if grant == Grant::Granted {
            Applied::Done
        } else {
            Applied::Duplicate
        });
    };
    let outcome = store::billing::complete_upgrade(
        db,
        &PaidUpgrade {
            checkout_id: row.id.clone(),
            purchase: purchase_of(row, payment_id),
            cost: report_cost(report_type),
            analysis: NewAnalysis {
                url: site.to_string(),
                canonical_url: site.to_string(),
                report_type,
                requested_pages: report_type.pages(),
                requester_user_id: Some(row.user_id),
                requester_ip: None,
            },
        },
    )
    .await?;
    Ok(match outcome {
        UpgradeOutcome::Started { .. } => {
            hub.job_queued().await;
            Applied::Done
        }
        UpgradeOutcome::GrantedOnly => Applied::Done,
        UpgradeOutcome::AlreadyClosed => Applied::Duplicate,
    })
}

/// The credits a pack, custom amount or upgrade checkout's payment grants.
fn purchase_of(row: &checkout_sessions::Model, payment_id: &str) -> Purchase {
    Purchase {
        user_id: row.user_id,
        payment_id: payment_id.to_owned(),
        credits: Credits::whole(u32::try_from(row.credits.unwrap_or(0)).unwrap_or(0)),
        amount_paid_cents: row.amount_cents,
        package_type: row.package_id.clone(),
    }
}

/// The end of a period of `interval` starting at `start`.
pub fn period_end(start: DateTime<Utc>, interval: BillingInterval) -> DateTime<Utc> {
    start
        .checked_add_months(Months::new(interval.months()))
        .unwrap_or(start)
}

async fn start_subscription(
    db: &DatabaseConnection,
    row: &checkout_sessions::Model,
    payment_id: &str,
    customer: Option<&str>,
    subscription: Option<&str>,
) -> Result<bool, BillingError> {
    let interval = row
        .billing_interval
        .as_deref()
        .and_then(BillingInterval::parse)
        .unwrap_or(BillingInterval::Monthly);
    let start = store::now();
    let end = period_end(start, interval);
    // A test subscription gets an id of the same shape, so renewals and changes find it alike.
    let subscription = subscription
        .map(str::to_owned)
        .unwrap_or_else(|| format!("sub_test_{}", row.id.trim_start_matches("chk_")));
    store::billing::put_subscription(
        db,
        &SubscriptionState {
            user_id: row.user_id,
            plan_id: row.package_id.clone(),
            user_plan: rules::plan_short_name(&row.package_id),
            interval: interval.as_str().to_owned(),
            status: SubscriptionStatus::Active.as_str().to_owned(),
            extra_seats: u32::try_from(row.extra_seats).unwrap_or(0),
            amount_cents: u32::try_from(row.amount_cents).unwrap_or(0),
            period_start: start,
            period_end: end,
            paused_at: None,
            stripe_subscription_id: Some(subscription),
            stripe_customer_id: customer.map(str::to_owned),
            period_payment_id: Some(payment_id.to_owned()),
            event_at: None,
        },
    )
    .await?;
    // The first period's credits, under the first payment's id: Stripe's `invoice.paid` for
    // that invoice finds them granted.
    grant_period(
        db,
        row.user_id,
        &row.package_id,
        payment_id,
        row.amount_cents,
    )
    .await
}

/// Grants a plan's monthly credits for one paid invoice (an unlimited plan records the
/// payment with no credits: its spending is not counted).
async fn grant_period(
    db: &DatabaseConnection,
    user_id: i64,
    plan_id: &str,
    payment_id: &str,
    amount_cents: i64,
) -> Result<bool, BillingError> {
    let credits = rules::monthly_credits(plan_id).flatten().unwrap_or(0);
    let grant = store::credits::grant_purchase(
        db,
        &Purchase {
            user_id,
            payment_id: payment_id.to_owned(),
            credits: Credits::whole(credits),
            amount_paid_cents: amount_cents,
            package_type: plan_id.to_owned(),
        },
    )
    .await?;
    Ok(grant == Grant::Granted)
}

/// Grants the monthly credits of yearly plans as each month of their paid year begins
/// (`domain::checkout::credit_months_due`; the first month's came with the year's payment). Each
/// month's grant has its own purchase id (the subscription, its period and the month), so a
/// month is granted once however often and wherever this runs. Returns the grants made.
pub async fn grant_due_plan_months(
    db: &DatabaseConnection,
    now: DateTime<Utc>,
) -> Result<u64, BillingError> {
    let mut granted = 0;
    for sub in store::billing::yearly_subscriptions_owing_months(db).await? {
        let Some(credits) = rules::monthly_credits(&sub.plan_id).flatten() else {
            continue; // unlimited, or a plan this version does not know
        };
        let paid_by = sub.period_payment_id.as_deref();
        if let Some(payment) = paid_by
            && store::billing::refunded_in_full(db, payment).await?
        {
            continue; // the year's payment was refunded: its months are no longer owed
        }
        let start = sub.current_period_start.timestamp();
        let due = rules::credit_months_due(
            start,
            sub.current_period_end.timestamp(),
            BillingInterval::Yearly.months(),
            now.timestamp(),
        );
        let subscription = sub
            .stripe_subscription_id
            .clone()
            .unwrap_or_else(|| format!("sub_row_{}", sub.id));
        for month in 2..=due {
            let grant = store::credits::grant_under(
                db,
                &Purchase {
                    user_id: sub.user_id,
                    payment_id: format!("{subscription}:{start}:month-{month}"),
                    credits: Credits::whole(credits),
                    // The year was paid by its invoice; a month's grant is not a payment.
                    amount_paid_cents: 0,
                    package_type: sub.plan_id.clone(),
                },
                paid_by,
            )
            .await?;
            if grant == Grant::Granted {
                granted += 1;
            }
        }
    }
    Ok(granted)
}

async fn invoice_paid(
    db: &DatabaseConnection,
    invoice_id: &str,
    subscription: &str,
    amount_cents: i64,
    period_start: DateTime<Utc>,
    period_end: DateTime<Utc>,
) -> Result<Applied, BillingError> {
    let Some(sub) = store::billing::find_subscription_by_stripe_id(db, subscription).await? else {
        // The checkout that creates it has not been handled yet: Stripe delivers events in any
        // order and retries, so answer "not yet" and let the retry find it.
        return Err(BillingError::Conflict(format!(
            "subscription {subscription} is not known yet"
        )));
    };
    let granted = grant_period(db, sub.user_id, &sub.plan_id, invoice_id, amount_cents).await?;
    // The invoice of the current period or a later one pays for it (a subscription update may
    // have moved the period on before the invoice arrived).
    if granted && period_end >= sub.current_period_end {
        let status = SubscriptionStatus::parse(&sub.status).unwrap_or(SubscriptionStatus::Active);
        let status = if status == SubscriptionStatus::PastDue {
            SubscriptionStatus::Active
        } else {
            status
        };
        put_state(
            db,
            &sub,
            status,
            None,
            Some((period_start, period_end)),
            None,
            Some(invoice_id),
        )
        .await?;
    }
    Ok(if granted {
        Applied::Done
    } else {
        Applied::Duplicate
    })
}

/// Writes a subscription's new state; `paid_by` is the payment of a period it starts.
async fn put_state(
    db: &DatabaseConnection,
    sub: &store::entity::subscriptions::Model,
    status: SubscriptionStatus,
    plan: Option<&(String, BillingInterval, u32)>,
    period: Option<(DateTime<Utc>, DateTime<Utc>)>,
    at: Option<DateTime<Utc>>,
    paid_by: Option<&str>,
) -> Result<bool, BillingError> {
    let (plan_id, interval, extra_seats) = match plan {
        Some((p, i, s)) => (p.clone(), *i, *s),
        None => (
            sub.plan_id.clone(),
            BillingInterval::parse(&sub.billing_interval).unwrap_or(BillingInterval::Monthly),
            u32::try_from(sub.extra_seats).unwrap_or(0),
        ),
    };
    let amount = rules::plan_charge_cents(&plan_id, interval, extra_seats)
        .unwrap_or(u32::try_from(sub.amount_cents).unwrap_or(0));
    let (start, end) = period.unwrap_or((sub.current_period_start, sub.current_period_end));
    let now = store::now();
    Ok(store::billing::put_subscription(
        db,
        &SubscriptionState {
            user_id: sub.user_id,
            user_plan: if status == SubscriptionStatus::Canceled {
                "basic".to_owned()
            } else {
                rules::plan_short_name(&plan_id)
            },
            plan_id,
            interval: interval.as_str().to_owned(),
            status: status.as_str().to_owned(),
            extra_seats,
            amount_cents: amount,
            period_start: start,
            period_end: end,
            paused_at: (status == SubscriptionStatus::Paused).then_some(now),
            stripe_subscription_id: None,
            stripe_customer_id: None,
            period_payment_id: paid_by.map(str::to_owned),
            event_at: at,
        },
    )
    .await?)
}

async fn subscription_updated(
    db: &DatabaseConnection,
    subscription: &str,
    status: SubscriptionStatus,
    plan: Option<&(String, BillingInterval, u32)>,
    period: Option<(DateTime<Utc>, DateTime<Utc>)>,
    at: Option<DateTime<Utc>>,
) -> Result<Applied, BillingError> {
    let Some(sub) = store::billing::find_subscription_by_stripe_id(db, subscription).await? else {
        return Err(BillingError::Conflict(format!(
            "subscription {subscription} is not known yet"
        )));
    };
    let changed = put_state(db, &sub, status, plan, period, at, None).await?;
    if changed
        && status != SubscriptionStatus::Canceled
        && let Some((plan_id, _, _)) = plan
    {
        let start = period.map_or(sub.current_period_start, |(s, _)| s);
        grant_plan_change(db, &sub, subscription, plan_id, start).await?;
    }
    Ok(if changed {
        Applied::Done
    } else {
        Applied::Skipped
    })
}

/// A change of plan's credits for the month under way (`domain::checkout::plan_change_credits`:
/// an upgrade's difference), granted at once under the period's payment, so a refund of that
/// payment reaches them. Once per subscription, period and new plan: moving down and back up
/// within a period grants nothing more.
async fn grant_plan_change(
    db: &DatabaseConnection,
    sub: &store::entity::subscriptions::Model,
    subscription: &str,
    plan_id: &str,
    period_start: DateTime<Utc>,
) -> Result<(), BillingError> {
    let credits = rules::plan_change_credits(&sub.plan_id, plan_id);
    if credits == 0 {
        return Ok(());
    }
    store::credits::grant_under(
        db,
        &Purchase {
            user_id: sub.user_id,
            payment_id: format!("{subscription}:{}:plan-{plan_id}", period_start.timestamp()),
            credits: Credits::whole(credits),
            // Paid by the provider's prorated charge, not by this grant.
            amount_paid_cents: 0,
            package_type: plan_id.to_owned(),
        },
        sub.period_payment_id.as_deref(),
    )
    .await?;
    Ok(())
}

async fn refunded(
    db: &DatabaseConnection,
    refund_id: &str,
    payments: &[&str],
    refunded_total: i64,
    amount: i64,
) -> Result<Applied, BillingError> {
    // A pack's credits were granted under its payment intent, a plan's under the invoice the
    // charge paid: the first of them that was granted is the one refunded.
    let mut purchase = None;
    for id in payments {
        if let Some(p) = store::credits::find_purchase(db, id).await? {
            purchase = Some(p);
            break;
        }
    }
    let Some(purchase) = purchase else {
        tracing::warn!(
            ?payments,
            "refund of an unknown payment: no credits taken back"
        );
        return Ok(Applied::Skipped);
    };
    let outcome = store::billing::apply_refund(
        db,
        &Refund {
            id: refund_id.to_owned(),
            payment_id: purchase.stripe_payment_intent_id,
            refunded_total_cents: refunded_total,
            payment_amount_cents: amount,
        },
    )
    .await?;
    Ok(match outcome {
        RefundOutcome::Applied { .. } => Applied::Done,
        RefundOutcome::AlreadyApplied => Applied::Duplicate,
        RefundOutcome::UnknownPayment => Applied::Skipped,
    })
}

/// The test-payment buttons: pay or decline a test checkout, through [`apply_event`] exactly as
/// Stripe's webhook would. Only in test-payment mode; only the buyer's own checkout.
pub async fn test_payment(
    db: &DatabaseConnection,
    hub: &Hub,
    provider: &PaymentProvider,
    user: &users::Model,
    checkout_id: &str,
    pay: bool,
) -> Result<CheckoutView, BillingError> {
    require_test_mode(provider)?;
    let row = own_checkout(db, user, checkout_id).await?;
    if row.status != CheckoutStatus::Open.as_str() {
        return Err(BillingError::Conflict(format!(
            "This checkout is already {}.",
            row.status
        )));
    }
    let short = row.id.trim_start_matches("chk_");
    let event = if pay {
        BillingEvent::CheckoutCompleted {
            checkout_id: row.id.clone(),
            payment_id: if kind_of(&row) == CheckoutKind::Plan {
                format!("in_test_{short}")
            } else {
                format!("pi_test_{short}")
            },
            amount_cents: row.amount_cents,
            customer: None,
            subscription: None,
        }
    } else {
        BillingEvent::CheckoutFailed {
            checkout_id: row.id.clone(),
            status: CheckoutStatus::Declined,
        }
    };
    let event_id = format!("evt_test_{}_{short}", if pay { "paid" } else { "declined" });
    apply_event(db, hub, &event_id, &event).await?;
    checkout_view(db, user, checkout_id).await
}

fn require_test_mode(provider: &PaymentProvider) -> Result<(), BillingError> {
    if provider.mode() == PaymentMode::Test {
        Ok(())
    } else {
        Err(BillingError::NotFound)
    }
}

/// Test-payment mode's refund button (`/test-checkout-flows`): refunds one of the owner's test
/// purchases through [`apply_event`], as Stripe's `charge.refunded` would.
pub async fn test_refund(
    db: &DatabaseConnection,
    hub: &Hub,
    provider: &PaymentProvider,
    user: &users::Model,
    payment_id: &str,
) -> Result<(), BillingError> {
    require_test_mode(provider)?;
    let account = billing_account(db, user).await?;
    let purchase = match store::credits::find_purchase(db, payment_id).await? {
        Some(p) if p.user_id == Some(account.id) => p,
        _ => return Err(BillingError::NotFound),
    };
    let event = BillingEvent::Refunded {
        refund_id: format!("re_test_{payment_id}"),
        payment_id: payment_id.to_owned(),
        invoice: None,
        amount_refunded: purchase.amount_paid_cents,
        amount: purchase.amount_paid_cents,
    };
    apply_event(db, hub, &format!("evt_test_refund_{payment_id}"), &event).await?;
    Ok(())
}

/// Test-payment mode's renewal button (`/test-checkout-flows`): the next period's invoice is
/// paid, through [`apply_event`], as Stripe's `invoice.paid` would.
pub async fn test_renewal(
    db: &DatabaseConnection,
    hub: &Hub,
    provider: &PaymentProvider,
    user: &users::Model,
) -> Result<(), BillingError> {
    require_test_mode(provider)?;
    let account = billing_account(db, user).await?;
    let sub = live_subscription(db, account.id).await?;
    let interval =
        BillingInterval::parse(&sub.billing_interval).unwrap_or(BillingInterval::Monthly);
    let start = sub.current_period_end;
    let invoice = format!("in_test_{}_{}", sub.id, start.timestamp());
    let event = BillingEvent::InvoicePaid {
        invoice_id: invoice.clone(),
        subscription: sub.stripe_subscription_id.clone().unwrap_or_default(),
        amount_cents: sub.amount_cents,
        period_start: start,
        period_end: period_end(start, interval),
    };
    apply_event(db, hub, &format!("evt_{invoice}"), &event).await?;
    Ok(())
}

async fn live_subscription(
    db: &DatabaseConnection,
    user_id: i64,
) -> Result<store::entity::subscriptions::Model, BillingError> {
    match store::billing::get_subscription(db, user_id).await? {
        Some(s) if s.status != SubscriptionStatus::Canceled.as_str() => Ok(s),
        _ => Err(BillingError::Conflict(
            "You have no subscription. Choose a plan on the pricing page.".to_owned(),
        )),
    }
}

/// Pause, resume, cancel at period end, or keep a subscription due to end. With Stripe the
/// change is asked of Stripe, whose `customer.subscription.updated` event then applies it; in
/// test-payment mode the same event is applied at once.
pub async fn plan_action(
    db: &DatabaseConnection,
    provider: &PaymentProvider,
    user: &users::Model,
    action: PlanAction,
) -> Result<BillingOverview, BillingError> {
    let account = billing_account(db, user).await?;
    let sub = live_subscription(db, account.id).await?;
    let status = SubscriptionStatus::parse(&sub.status).unwrap_or(SubscriptionStatus::Active);
    let next = rules::check_plan_action(status, action).map_err(BillingError::Conflict)?;
    let stripe_id = sub.stripe_subscription_id.clone().unwrap_or_default();
    provider.change_subscription(&stripe_id, action).await?;
    // Our own change is applied at once (no event time: it never loses to an older event, and
    // Stripe's own event for it, arriving later, carries the same state).
    subscription_updated(db, &stripe_id, next, None, None, None).await?;
    overview(db, provider, user).await
}

/// The dashboard's billing section: the plan and the purchases.
pub async fn overview(
    db: &DatabaseConnection,
    provider: &PaymentProvider,
    user: &users::Model,
) -> Result<BillingOverview, BillingError> {
    let account = billing_account(db, user).await?;
    let subscription = store::billing::get_subscription(db, account.id)
        .await?
        .filter(|s| s.status != SubscriptionStatus::Canceled.as_str())
        .and_then(|s| {
            let plan = rules::find_plan(&s.plan_id)?;
            let extra_seats = u32::try_from(s.extra_seats).unwrap_or(0);
            Some(SubscriptionView {
                plan_name: plan.name,
                interval: BillingInterval::parse(&s.billing_interval)?,
                status: SubscriptionStatus::parse(&s.status)?,
                seats: rules::subscription_seats(&s.plan_id, extra_seats),
                monthly_credits: plan.credits,
                amount_cents: u32::try_from(s.amount_cents).unwrap_or(0),
                current_period_end: s.current_period_end.to_rfc3339(),
                plan_id: s.plan_id,
                extra_seats,
            })
        });
    let purchases = store::billing::purchases(db, account.id, 50)
        .await?
        .into_iter()
        .map(|p| PurchaseView {
            created_at: p.created_at.to_rfc3339(),
            package_id: p.package_type,
            credits: i64::from(p.credits_added),
            amount_cents: p.amount_paid_cents,
            reference: p.stripe_payment_intent_id,
        })
        .collect();
    Ok(BillingOverview {
        mode: provider.mode(),
        subscription,
        purchases,
    })
}
