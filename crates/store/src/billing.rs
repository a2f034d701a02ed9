//! Billing records: checkouts, handled webhook events, subscriptions and refunds.
//!
//! Credits themselves move only through [`crate::credits`] (a payment through
//! [`crate::credits::grant_purchase`], unique by payment id); what lives here makes every other
//! effect of a payment happen once: a checkout closes once (a guarded update from `open`), an
//! event id is recorded once (`webhook_events`' primary key), a refund is applied once
//! (`refunds`' primary key, in the same transaction as the credits it takes back), and a
//! subscription never goes back to an older state (`last_event_at`).

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, ExprTrait, OnConflict};
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection,
    EntityTrait, IntoActiveModel, QueryFilter, QueryOrder, QuerySelect,
};

use crate::clock::now;
use crate::credits::{CreditPool, Grant, Payer, Purchase, Spend, grant_in, ledger, spend_in};
use crate::entity::users::Column as U;
use crate::entity::{
    checkout_sessions, credit_purchases, payment_aliases, refunds, subscriptions, users,
    webhook_events,
};
use crate::jobs::{NewAnalysis, enqueue_in};
use crate::{StoreError, StoreResult, begin_write};
use domain::checkout::{BillingInterval, SubscriptionStatus, refund_credits};
use domain::credits::Credits;
use uuid::Uuid;

/// A checkout's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckoutStatus {
    /// Waiting for the payment.
    Open,
    /// Paid and granted.
    Paid,
    /// The payment was declined.
    Declined,
    /// Abandoned at the processor.
    Expired,
}

impl CheckoutStatus {
    /// The stored form.
    pub fn as_str(self) -> &'static str {
        match self {
            CheckoutStatus::Open => "open",
            CheckoutStatus::Paid => "paid",
            CheckoutStatus::Declined => "declined",
            CheckoutStatus::Expired => "expired",
        }
    }
}

/// A checkout to record before the buyer is sent to pay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewCheckout {
    /// Our random id.
    pub id: String,
    /// The buyer.
    pub user_id: i64,
    /// pack, credits, plan or upgrade.
    pub kind: String,
    /// The package id.
    pub package_id: String,
    /// Credits granted on payment; `None` is unlimited.
    pub credits: Option<u32>,
    /// The price, cents.
    pub amount_cents: u32,
    /// A plan's interval.
    pub interval: Option<String>,
    /// A plan's extra seats.
    pub extra_seats: u32,
    /// The upgrade's report type.
    pub report_type: Option<String>,
    /// The upgrade's site.
    pub url: Option<String>,
    /// test or stripe.
    pub mode: String,
}

fn to_i32(n: u32) -> StoreResult<i32> {
    i32::try_from(n).map_err(|_| StoreError::Conflict("number too large".into()))
}

/// Records a new open checkout.
pub async fn create_checkout(
    db: &DatabaseConnection,
    c: &NewCheckout,
) -> StoreResult<checkout_sessions::Model> {
    let model = checkout_sessions::ActiveModel {
        id: Set(c.id.clone()),
        user_id: Set(c.user_id),
        kind: Set(c.kind.clone()),
        package_id: Set(c.package_id.clone()),
        credits: Set(c.credits.map(to_i32).transpose()?),
        amount_cents: Set(i64::from(c.amount_cents)),
        billing_interval: Set(c.interval.clone()),
        extra_seats: Set(to_i32(c.extra_seats)?),
        report_type: Set(c.report_type.clone()),
        url: Set(c.url.clone()),
        mode: Set(c.mode.clone()),
        provider_ref: Set(None),
        status: Set(CheckoutStatus::Open.as_str().to_owned()),
        payment_id: Set(None),
        created_at: Set(now()),
        completed_at: Set(None),
        analysis_id: Set(None),
    };
    Ok(model.insert(db).await?)
}

/// A checkout by our id.
pub async fn get_checkout(
    db: &DatabaseConnection,
    id: &str,
) -> StoreResult<Option<checkout_sessions::Model>> {
    Ok(checkout_sessions::Entity::find_by_id(id.to_owned())
        .one(db)
        .await?)
}

/// Notes the processor's session id of a checkout.
pub async fn set_provider_ref(
    db: &DatabaseConnection,
    id: &str,
    reference: &str,
) -> StoreResult<()> {
    let updated = checkout_sessions::Entity::update_many()
        .col_expr(
            checkout_sessions::Column::ProviderRef,
            Expr::value(reference.to_owned()),
        )
        .filter(checkout_sessions::Column::Id.eq(id))
        .exec(db)
        .await?;
    if updated.rows_affected == 1 {
        Ok(())
    } else {
        Err(StoreError::NotFound)
    }
}

/// Closes an open checkout as paid, declined or expired; `false` when it was not open (closed
/// before, by this delivery's twin or by the buyer's other tab).
pub async fn close_checkout(
    db: &DatabaseConnection,
    id: &str,
    status: CheckoutStatus,
    payment_id: Option<&str>,
) -> StoreResult<bool> {
    let updated = checkout_sessions::Entity::update_many()
        .col_expr(
            checkout_sessions::Column::Status,
            Expr::value(status.as_str()),
        )
        .col_expr(
            checkout_sessions::Column::PaymentId,
            Expr::value(payment_id.map(str::to_owned)),
        )
        .col_expr(checkout_sessions::Column::CompletedAt, Expr::value(now()))
        .filter(checkout_sessions::Column::Id.eq(id))
        .filter(checkout_sessions::Column::Status.eq(CheckoutStatus::Open.as_str()))
        .exec(db)
        .await?;
    Ok(updated.rows_affected == 1)
}

/// An upgrade checkout's payment: the professional report it buys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PaidUpgrade {
    /// Our checkout id.
    pub checkout_id: String,
    /// The payment, granted as a purchase (its credits cover the report).
    pub purchase: Purchase,
    /// What the report costs.
    pub cost: Credits,
    /// The analysis to queue, owned by the buyer.
    pub analysis: NewAnalysis,
}

/// The outcome of [`complete_upgrade`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UpgradeOutcome {
    /// The payment was granted, the report's credits spent and its analysis queued.
    Started {
        /// The analysis.
        analysis_id: Uuid,
    },
    /// The payment was granted but its credits did not cover the report (nothing queued; the
    /// credits stay with the buyer).
    GrantedOnly,
    /// The checkout was not open (closed before by this payment's other delivery, or
    /// declined); nothing changed.
    AlreadyClosed,
}

/// Completes an upgrade checkout once: closes it as paid (guarded from `open`), grants its
/// payment, spends the report's cost for the buyer and queues the analysis, naming it on the
/// checkout, in one transaction. However often and however concurrently the payment is
/// confirmed, one analysis is paid for and started; a failure leaves nothing written.
pub async fn complete_upgrade(
    db: &DatabaseConnection,
    upgrade: &PaidUpgrade,
) -> StoreResult<UpgradeOutcome> {
    let txn = begin_write(db).await?;
    // The guarded update is the point where concurrent confirmations are ordered: a second
    // one waits on the row (PostgreSQL) or the database (SQLite) and then finds it closed.
    let closed = checkout_sessions::Entity::update_many()
        .col_expr(
            checkout_sessions::Column::Status,
            Expr::value(CheckoutStatus::Paid.as_str()),
        )
        .col_expr(
            checkout_sessions::Column::PaymentId,
            Expr::value(upgrade.purchase.payment_id.clone()),
        )
        .col_expr(checkout_sessions::Column::CompletedAt, Expr::value(now()))
        .filter(checkout_sessions::Column::Id.eq(&upgrade.checkout_id))
        .filter(checkout_sessions::Column::Status.eq(CheckoutStatus::Open.as_str()))
        .exec(&txn)
        .await?;
    if closed.rows_affected != 1 {
        txn.rollback().await?;
        return Ok(UpgradeOutcome::AlreadyClosed);
    }
    if grant_in(&txn, &upgrade.purchase, None).await? == Grant::AlreadyGranted {
        // The payment was granted under another checkout: this one is closed, nothing more.
        txn.commit().await?;
        return Ok(UpgradeOutcome::AlreadyClosed);
    }
    let id = Uuid::new_v4();
    let payer = Payer::own(upgrade.purchase.user_id);
    let Spend::Spent(charge) = spend_in(&txn, payer, upgrade.cost, Some(&id.to_string())).await?
    else {
        txn.commit().await?;
        return Ok(UpgradeOutcome::GrantedOnly);
    };
    let analysis = NewAnalysis {
        requester_user_id: Some(payer.user_id),
        ..upgrade.analysis.clone()
    };
    enqueue_in(&txn, &analysis, id, Some(&charge)).await?;
    checkout_sessions::Entity::update_many()
        .col_expr(checkout_sessions::Column::AnalysisId, Expr::value(id))
        .filter(checkout_sessions::Column::Id.eq(&upgrade.checkout_id))
        .exec(&txn)
        .await?;
    txn.commit().await?;
    Ok(UpgradeOutcome::Started { analysis_id: id })
}

/// Whether a webhook event was handled before.
pub async fn event_handled(db: &DatabaseConnection, id: &str) -> StoreResult<bool> {
    Ok(webhook_events::Entity::find_by_id(id.to_owned())
        .one(db)
        .await?
        .is_some())
}

/// Records a webhook event as handled; `false` when it was recorded before.
pub async fn record_event(db: &DatabaseConnection, id: &str, kind: &str) -> StoreResult<bool> {
    let inserted = webhook_events::Entity::insert(webhook_events::ActiveModel {
        id: Set(id.to_owned()),
        kind: Set(kind.to_owned()),
        received_at: Set(now()),
    })
    .on_conflict(
        OnConflict::column(webhook_events::Column::Id)
            .do_nothing()
            .to_owned(),
    )
    .exec_without_returning(db)
    .await?;
    Ok(inserted == 1)
}

/// How many webhook events of `kind` were handled (the operator's view of deliveries).
pub async fn events_handled(db: &DatabaseConnection, kind: &str) -> StoreResult<u64> {
    use sea_orm::PaginatorTrait;
    Ok(webhook_events::Entity::find()
        .filter(webhook_events::Column::Kind.eq(kind))
        .count(db)
        .await?)
}

/// A subscription's new state, with what the user row mirrors of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubscriptionState {
    /// The subscriber.
    pub user_id: i64,
    /// `business-plan`, `agency-plan` or `enterprise-plan`.
    pub plan_id: String,
    /// The plan name the user row carries (`business`; `basic` once ended).
    pub user_plan: String,
    /// monthly or yearly.
    pub interval: String,
    /// The stored `SubscriptionStatus`.
    pub status: String,
    /// Extra seats bought.
    pub extra_seats: u32,
    /// Price of each period, cents.
    pub amount_cents: u32,
    /// The paid period.
    pub period_start: DateTime<Utc>,
    /// Its end.
    pub period_end: DateTime<Utc>,
    /// When it was paused, if it is.
    pub paused_at: Option<DateTime<Utc>>,
    /// Stripe's subscription id.
    pub stripe_subscription_id: Option<String>,
    /// Stripe's customer id.
    pub stripe_customer_id: Option<String>,
    /// The payment that paid this period (the first checkout's or the period's invoice), when
    /// this state starts a period; `None` keeps the one recorded.
    pub period_payment_id: Option<String>,
    /// When the processor's event that carries this state was created (`None`: our own
    /// change, always applied).
    pub event_at: Option<DateTime<Utc>>,
}

/// Writes a subscription's state and mirrors it on the user row, in one transaction. A state
/// from an event older than the last one applied is ignored (`false`).
pub async fn put_subscription(db: &DatabaseConnection, s: &SubscriptionState) -> StoreResult<bool> {
    let at = now();
    let txn = begin_write(db).await?;
    let existing = subscriptions::Entity::find()
        .filter(subscriptions::Column::UserId.eq(s.user_id))
        .one(&txn)
        .await?;
    if let (Some(row), Some(event_at)) = (&existing, s.event_at)
        && row.last_event_at.is_some_and(|last| last > event_at)
    {
        txn.rollback().await?;
        return Ok(false);
    }
    let last_event_at = s
        .event_at
        .or_else(|| existing.as_ref().and_then(|r| r.last_event_at));
    let mut row = match existing {
        Some(row) => row.into_active_model(),
        None => subscriptions::ActiveModel {
            user_id: Set(s.user_id),
            created_at: Set(at),
            ..Default::default()
        },
    };
    row.plan_id = Set(s.plan_id.clone());
    row.billing_interval = Set(s.interval.clone());
    row.status = Set(s.status.clone());
    row.extra_seats = Set(to_i32(s.extra_seats)?);
    row.amount_cents = Set(i64::from(s.amount_cents));
    row.current_period_start = Set(s.period_start);
    row.current_period_end = Set(s.period_end);
    if s.stripe_subscription_id.is_some() {
        row.stripe_subscription_id = Set(s.stripe_subscription_id.clone());
    }
    if s.period_payment_id.is_some() {
        row.period_payment_id = Set(s.period_payment_id.clone());
    }
    row.last_event_at = Set(last_event_at);
    row.updated_at = Set(at);
    row.save(&txn).await?;
    let mut user = users::Entity::update_many()
        .col_expr(U::SubscriptionPlan, Expr::value(s.user_plan.clone()))
        .col_expr(U::SubscriptionStatus, Expr::value(s.status.clone()))
        .col_expr(U::SubscriptionRenewsAt, Expr::value(s.period_end))
        .col_expr(U::SubscriptionPausedAt, Expr::value(s.paused_at))
        .col_expr(U::UpdatedAt, Expr::value(at));
    if let Some(id) = &s.stripe_subscription_id {
        user = user.col_expr(U::StripeSubscriptionId, Expr::value(id.clone()));
    }
    if let Some(id) = &s.stripe_customer_id {
        user = user.col_expr(U::StripeCustomerId, Expr::value(id.clone()));
    }
    let updated = user.filter(U::Id.eq(s.user_id)).exec(&txn).await?;
    if updated.rows_affected != 1 {
        txn.rollback().await?;
        return Err(StoreError::NotFound);
    }
    txn.commit().await?;
    Ok(true)
}

/// A user's subscription, if they ever had one.
pub async fn get_subscription(
    db: &DatabaseConnection,
    user_id: i64,
) -> StoreResult<Option<subscriptions::Model>> {
    Ok(subscriptions::Entity::find()
        .filter(subscriptions::Column::UserId.eq(user_id))
        .one(db)
        .await?)
}

/// Yearly subscriptions whose paid period may still owe monthly credits: every one that is not
/// paused or ended (a paused one catches up when it resumes; its year was paid in advance).
pub async fn yearly_subscriptions_owing_months(
    db: &DatabaseConnection,
) -> StoreResult<Vec<subscriptions::Model>> {
    Ok(subscriptions::Entity::find()
        .filter(subscriptions::Column::BillingInterval.eq(BillingInterval::Yearly.as_str()))
        .filter(subscriptions::Column::Status.is_not_in([
            SubscriptionStatus::Paused.as_str(),
            SubscriptionStatus::Canceled.as_str(),
        ]))
        .order_by_asc(subscriptions::Column::Id)
        .all(db)
        .await?)
}

/// The subscription Stripe knows by `stripe_id`.
pub async fn find_subscription_by_stripe_id(
    db: &DatabaseConnection,
    stripe_id: &str,
) -> StoreResult<Option<subscriptions::Model>> {
    Ok(subscriptions::Entity::find()
        .filter(subscriptions::Column::StripeSubscriptionId.eq(stripe_id))
        .one(db)
        .await?)
}

/// The user Stripe knows by a customer id.
pub async fn find_user_by_stripe_customer(
    db: &DatabaseConnection,
    customer_id: &str,
) -> StoreResult<Option<users::Model>> {
    Ok(users::Entity::find()
        .filter(U::StripeCustomerId.eq(customer_id))
        .one(db)
        .await?)
}

/// Notes a user's Stripe customer id.
pub async fn set_stripe_customer(
    db: &DatabaseConnection,
    user_id: i64,
    customer_id: &str,
) -> StoreResult<()> {
    users::Entity::update_many()
        .col_expr(U::StripeCustomerId, Expr::value(customer_id.to_owned()))
        .filter(U::Id.eq(user_id))
        .exec(db)
        .await?;
    Ok(())
}

/// Extra seats of a user's live subscription (0 without one).
pub async fn extra_seats(db: &DatabaseConnection, user_id: i64) -> StoreResult<u32> {
    Ok(get_subscription(db, user_id)
        .await?
        .filter(|s| s.status != "canceled")
        .map_or(0, |s| u32::try_from(s.extra_seats).unwrap_or(0)))
}

/// A refund to apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refund {
    /// The processor's key for this refund (a charge and its refunded total): applied once.
    pub id: String,
    /// The refunded payment (`credit_purchases`' payment id).
    pub payment_id: String,
    /// The payment's refunded total after this refund, cents (Stripe's `amount_refunded`).
    pub refunded_total_cents: i64,
    /// The payment's whole amount, cents.
    pub payment_amount_cents: i64,
}

/// The outcome of [`apply_refund`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefundOutcome {
    /// The refund was recorded and `removed` unspent credits taken back from `user_id`.
    Applied {
        /// The buyer.
        user_id: Option<i64>,
        /// Credits taken back: at most the refund's, never more than the balance held.
        removed: Credits,
    },
    /// This refund, or a larger refunded total of the same payment, was applied before;
    /// nothing changed.
    AlreadyApplied,
    /// No purchase has that payment id; nothing changed.
    UnknownPayment,
}

/// Applies a refund once: records what it adds to the payment's refunded total and takes back
/// the credits that part bought (`domain::checkout::refund_credits`) from the buyer's unspent
/// paid balance (never below zero; credits already spent stay spent), with a ledger row, in
/// one transaction. The purchase row is locked first, so two refunds of one payment are
/// applied one after the other, each counting only what it adds.
pub async fn apply_refund(db: &DatabaseConnection, refund: &Refund) -> StoreResult<RefundOutcome> {
    let at = now();
    let txn = begin_write(db).await?;
    let Some(purchase) = credit_purchases::Entity::find()
        .filter(credit_purchases::Column::StripePaymentIntentId.eq(&refund.payment_id))
        .lock_exclusive()
        .one(&txn)
        .await?
    else {
        txn.rollback().await?;
        return Ok(RefundOutcome::UnknownPayment);
    };
    let before = refunded_cents(&txn, &refund.payment_id).await?;
    let added = refund.refunded_total_cents - before;
    if added <= 0 {
        txn.rollback().await?;
        return Ok(RefundOutcome::AlreadyApplied);
    }
    let inserted = refunds::Entity::insert(refunds::ActiveModel {
        id: Set(refund.id.clone()),
        user_id: Set(purchase.user_id),
        payment_id: Set(refund.payment_id.clone()),
        amount_cents: Set(added),
        credits_removed: Set(0),
        created_at: Set(at),
    })
    .on_conflict(
        OnConflict::column(refunds::Column::Id)
            .do_nothing()
            .to_owned(),
    )
    .exec_without_returning(&txn)
    .await?;
    if inserted == 0 {
        txn.rollback().await?;
        return Ok(RefundOutcome::AlreadyApplied);
    }
    let amount = if refund.payment_amount_cents > 0 {
        refund.payment_amount_cents
    } else {
        purchase.amount_paid_cents
    };
    // What the payment granted: its own credits and those granted under it since (a yearly
    // plan's later months, a plan upgrade's difference), so refunding a year's invoice reaches
    // every month it paid for.
    let under: i64 = credit_purchases::Entity::find()
        .filter(credit_purchases::Column::ParentPaymentId.eq(&refund.payment_id))
        .all(&txn)
        .await?
        .iter()
        .map(|p| i64::from(p.credits_added))
        .sum();
    let granted = u32::try_from(i64::from(purchase.credits_added) + under).unwrap_or(u32::MAX);
    let credits = Credits::whole(refund_credits(
        granted,
        amount,
        before,
        refund.refunded_total_cents,
    ));
    let mut removed = Credits::ZERO;
    if let Some(user_id) = purchase.user_id {
        // The row is locked (PostgreSQL `FOR UPDATE`; SQLite's write transaction holds the
        // whole database), so the balance read here is the one the guarded update changes.
        let balance = users::Entity::find_by_id(user_id)
            .lock_exclusive()
            .one(&txn)
            .await?
            .map_or(0, |u| Ord::max(u.report_credits, 0));
        // Balances, ledger deltas and `credits_removed` count half credits (`Credits::halves`).
        let take = Ord::min(balance, to_i32(credits.halves())?);
        if take > 0 {
            let updated = users::Entity::update_many()
                .col_expr(
                    U::ReportCredits,
                    Expr::col(U::ReportCredits).sub(Expr::value(take)),
                )
                .col_expr(U::UpdatedAt, Expr::value(at))
                .filter(U::Id.eq(user_id))
                .filter(U::ReportCredits.gte(take))
                .exec(&txn)
                .await?;
            if updated.rows_affected != 1 {
                txn.rollback().await?;
                return Err(StoreError::Conflict("balance changed during refund".into()));
            }
            ledger(
                &txn,
                user_id,
                -take,
                CreditPool::Paid,
                "refund",
                Some(refund.id.as_str()),
                at,
            )
            .await?;
            refunds::Entity::update_many()
                .col_expr(refunds::Column::CreditsRemoved, Expr::value(take))
                .filter(refunds::Column::Id.eq(&refund.id))
                .exec(&txn)
                .await?;
            removed = Credits::from_halves(u32::try_from(take).unwrap_or(0));
        }
    }
    txn.commit().await?;
    Ok(RefundOutcome::Applied {
        user_id: purchase.user_id,
        removed,
    })
}

/// Whether a payment's refunds add up to all of it: nothing more is granted under a payment
/// refunded in full (a yearly plan's remaining months).
pub async fn refunded_in_full(db: &DatabaseConnection, payment_id: &str) -> StoreResult<bool> {
    let Some(purchase) = crate::credits::find_purchase(db, payment_id).await? else {
        return Ok(false);
    };
    let refunded = refunded_cents(db, payment_id).await?;
    Ok(purchase.amount_paid_cents > 0 && refunded >= purchase.amount_paid_cents)
}

/// What the refunds recorded for a payment add up to, cents.
async fn refunded_cents<C: ConnectionTrait>(db: &C, payment_id: &str) -> StoreResult<i64> {
    Ok(refunds::Entity::find()
        .filter(refunds::Column::PaymentId.eq(payment_id))
        .all(db)
        .await?
        .iter()
        .map(|r| r.amount_cents)
        .sum())
}

/// Records that `alias` (a payment intent) is another id of `payment_id` (the invoice it paid).
/// The first link recorded for an alias stays.
pub async fn link_payment(
    db: &DatabaseConnection,
    alias: &str,
    payment_id: &str,
) -> StoreResult<()> {
    payment_aliases::Entity::insert(payment_aliases::ActiveModel {
        alias: Set(alias.to_owned()),
        payment_id: Set(payment_id.to_owned()),
        created_at: Set(now()),
    })
    .on_conflict(
        OnConflict::column(payment_aliases::Column::Alias)
            .do_nothing()
            .to_owned(),
    )
    .exec_without_returning(db)
    .await?;
    Ok(())
}

/// The payment `alias` was recorded as another id of, if any.
pub async fn payment_of_alias(db: &DatabaseConnection, alias: &str) -> StoreResult<Option<String>> {
    Ok(payment_aliases::Entity::find_by_id(alias.to_owned())
        .one(db)
        .await?
        .map(|a| a.payment_id))
}

/// A user's purchases and paid invoices, newest first.
pub async fn purchases(
    db: &DatabaseConnection,
    user_id: i64,
    limit: u64,
) -> StoreResult<Vec<credit_purchases::Model>> {
    Ok(credit_purchases::Entity::find()
        .filter(credit_purchases::Column::UserId.eq(user_id))
        .order_by_desc(credit_purchases::Column::Id)
        .limit(limit)
        .all(db)
        .await?)
}
