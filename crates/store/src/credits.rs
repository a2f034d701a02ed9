//! Credits: spending, granting for a payment, the trial credit, refunds and the audit ledger.
//!
//! A user's paid credits (`users.report_credits`, which never expire) and trial credit
//! (`users.trial_credits`, valid until `users.trial_expires_at`) are kept apart so an expired
//! trial can never be spent. Every movement is written to `credit_ledger` in the same
//! transaction as the balance change.

use chrono::{DateTime, Duration, Utc};
use sea_orm::sea_query::{Expr, ExprTrait, OnConflict};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter,
    QueryOrder, QuerySelect,
};

use crate::clock::now;
use crate::entity::users::Column as U;
use crate::entity::{credit_ledger, credit_purchases, users};
use crate::{StoreError, StoreResult, begin_write};

/// Which balance credits came from or went to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CreditPool {
    /// Bought or granted credits; they never expire.
    Paid,
    /// The one-time trial credit; it expires.
    Trial,
}

impl CreditPool {
    /// The value stored in `credit_ledger.pool`.
    pub fn as_str(self) -> &'static str {
        match self {
            CreditPool::Paid => "paid",
            CreditPool::Trial => "trial",
        }
    }
}

/// The outcome of [`spend_credits`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spend {
    /// The credits were taken from this pool.
    Spent(CreditPool),
    /// Neither an unexpired trial credit nor the paid balance covered the amount; nothing
    /// changed.
    Insufficient,
}

/// A user's spendable credits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CreditBalance {
    /// Paid credits.
    pub paid: i32,
    /// Trial credits still valid at the time asked (0 once expired).
    pub trial: i32,
    /// When the trial credit expires, if a trial was started.
    pub trial_expires_at: Option<DateTime<Utc>>,
}

impl CreditBalance {
    /// Everything spendable now.
    pub fn total(&self) -> i32 {
        self.paid + self.trial
    }
}

/// The outcome of [`grant_purchase`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grant {
    /// The credits were added; this is the first delivery of the payment.
    Granted,
    /// This payment was granted before; nothing changed.
    AlreadyGranted,
}

/// A completed payment to turn into credits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Purchase {
    /// Who paid.
    pub user_id: i64,
    /// The payment's id at the processor (Stripe payment intent id, or a test-mode id).
    pub payment_id: String,
    /// Credits to add.
    pub credits: u32,
    /// What was paid, in cents.
    pub amount_paid_cents: i64,
    /// The pack or plan bought, e.g. `credit-5`.
    pub package_type: String,
}

/// Spends `amount` credits of a user, taking an unexpired trial credit first, then paid
/// credits; never below zero.
///
/// Each attempt is one guarded `UPDATE ... WHERE credits >= amount`, so a hundred concurrent
/// spends against a balance of fifty succeed exactly fifty times, on both engines.
pub async fn spend_credits(
    db: &DatabaseConnection,
    user_id: i64,
    amount: u32,
    reference: Option<&str>,
) -> StoreResult<Spend> {
    let txn = begin_write(db).await?;
    let spend = spend_in(&txn, user_id, amount, reference).await?;
    match spend {
        Spend::Spent(_) => txn.commit().await?,
        Spend::Insufficient => {
            txn.rollback().await?;
            ensure_user_exists(db, user_id).await?;
        }
    }
    Ok(spend)
}

/// [`spend_credits`] inside the caller's write transaction; on [`Spend::Insufficient`]
/// nothing was changed.
pub(crate) async fn spend_in<C: ConnectionTrait>(
    txn: &C,
    user_id: i64,
    amount: u32,
    reference: Option<&str>,
) -> StoreResult<Spend> {
    let at = now();
    let amount =
        i32::try_from(amount).map_err(|_| StoreError::Conflict("amount too large".into()))?;
    let trial = users::Entity::update_many()
        .col_expr(U::TrialCredits, Expr::col(U::TrialCredits).sub(amount))
        .col_expr(U::UpdatedAt, Expr::value(at))
        .filter(U::Id.eq(user_id))
        .filter(U::TrialCredits.gte(amount))
        .filter(U::TrialExpiresAt.gt(at))
        .exec(txn)
        .await?;
    let pool = if trial.rows_affected == 1 {
        CreditPool::Trial
    } else {
        let paid = users::Entity::update_many()
            .col_expr(U::ReportCredits, Expr::col(U::ReportCredits).sub(amount))
            .col_expr(U::UpdatedAt, Expr::value(at))
            .filter(U::Id.eq(user_id))
            .filter(U::ReportCredits.gte(amount))
            .exec(txn)
            .await?;
        if paid.rows_affected != 1 {
            return Ok(Spend::Insufficient);
        }
        CreditPool::Paid
    };
    ledger(txn, user_id, -amount, pool, "spend", reference, at).await?;
    Ok(Spend::Spent(pool))
}

/// Gives back credits taken by [`spend_credits`] (for example when a paid analysis failed).
pub async fn refund_credits(
    db: &DatabaseConnection,
    user_id: i64,
    amount: u32,
    pool: CreditPool,
    reference: Option<&str>,
) -> StoreResult<()> {
    let at = now();
    let amount =
        i32::try_from(amount).map_err(|_| StoreError::Conflict("amount too large".into()))?;
    let column = match pool {
        CreditPool::Paid => U::ReportCredits,
        CreditPool::Trial => U::TrialCredits,
    };
    let txn = begin_write(db).await?;
    if !add_to(&txn, user_id, column, amount, at).await? {
        return Err(StoreError::NotFound);
    }
    ledger(&txn, user_id, amount, pool, "refund", reference, at).await?;
    txn.commit().await?;
    Ok(())
}

/// Grants the credits of a payment exactly once per payment id.
///
/// The purchase row (unique by payment id) and the balance increment are one transaction: a
/// webhook delivered ten times at once grants once, and a failure leaves neither.
pub async fn grant_purchase(db: &DatabaseConnection, purchase: &Purchase) -> StoreResult<Grant> {
    let at = now();
    let credits = i32::try_from(purchase.credits)
        .map_err(|_| StoreError::Conflict("credit amount too large".into()))?;
    let txn = begin_write(db).await?;
    let inserted = credit_purchases::Entity::insert(credit_purchases::ActiveModel {
        user_id: Set(Some(purchase.user_id)),
        stripe_payment_intent_id: Set(purchase.payment_id.clone()),
        credits_added: Set(credits),
        amount_paid_cents: Set(purchase.amount_paid_cents),
        package_type: Set(purchase.package_type.clone()),
        created_at: Set(at),
        ..Default::default()
    })
    .on_conflict(
        OnConflict::column(credit_purchases::Column::StripePaymentIntentId)
            .do_nothing()
            .to_owned(),
    )
    .exec_without_returning(&txn)
    .await?;
    if inserted == 0 {
        txn.rollback().await?;
        return Ok(Grant::AlreadyGranted);
    }
    if !add_to(&txn, purchase.user_id, U::ReportCredits, credits, at).await? {
        txn.rollback().await?;
        return Err(StoreError::NotFound);
    }
    ledger(
        &txn,
        purchase.user_id,
        credits,
        CreditPool::Paid,
        "purchase",
        Some(&purchase.payment_id),
        at,
    )
    .await?;
    txn.commit().await?;
    Ok(Grant::Granted)
}

/// Adds credits that were not bought (a subscription's monthly credits, an admin grant).
pub async fn grant_credits(
    db: &DatabaseConnection,
    user_id: i64,
    credits: u32,
    reason: &str,
    reference: Option<&str>,
) -> StoreResult<()> {
    let at = now();
    let credits =
        i32::try_from(credits).map_err(|_| StoreError::Conflict("amount too large".into()))?;
    let txn = begin_write(db).await?;
    if !add_to(&txn, user_id, U::ReportCredits, credits, at).await? {
        return Err(StoreError::NotFound);
    }
    ledger(
        &txn,
        user_id,
        credits,
        CreditPool::Paid,
        reason,
        reference,
        at,
    )
    .await?;
    txn.commit().await?;
    Ok(())
}

/// Starts a user's one free trial: `credits` trial credits valid for `valid_for`
/// (docs/PRODUCT.md §9.1: 1 credit, 7 days; the constants live in the domain crate).
///
/// Returns when the trial expires. A second call fails with [`StoreError::Conflict`], even
/// when both calls race.
pub async fn start_trial(
    db: &DatabaseConnection,
    user_id: i64,
    credits: u32,
    valid_for: Duration,
) -> StoreResult<DateTime<Utc>> {
    let at = now();
    let expires_at = at + valid_for;
    let credits =
        i32::try_from(credits).map_err(|_| StoreError::Conflict("amount too large".into()))?;
    let txn = begin_write(db).await?;
    let updated = users::Entity::update_many()
        .col_expr(U::HasUsedTrial, Expr::value(true))
        .col_expr(U::TrialCredits, Expr::value(credits))
        .col_expr(U::TrialExpiresAt, Expr::value(expires_at))
        .col_expr(U::UpdatedAt, Expr::value(at))
        .filter(U::Id.eq(user_id))
        .filter(U::HasUsedTrial.eq(false))
        .exec(&txn)
        .await?;
    if updated.rows_affected != 1 {
        txn.rollback().await?;
        ensure_user_exists(db, user_id).await?;
        return Err(StoreError::Conflict("trial already used".into()));
    }
    ledger(&txn, user_id, credits, CreditPool::Trial, "trial", None, at).await?;
    txn.commit().await?;
    Ok(expires_at)
}

/// A user's spendable credits at `at`.
pub async fn credit_balance(
    db: &DatabaseConnection,
    user_id: i64,
    at: DateTime<Utc>,
) -> StoreResult<CreditBalance> {
    let user = users::Entity::find_by_id(user_id)
        .one(db)
        .await?
        .ok_or(StoreError::NotFound)?;
    let trial_valid = user.trial_expires_at.is_some_and(|expires| expires > at);
    Ok(CreditBalance {
        paid: user.report_credits,
        trial: if trial_valid { user.trial_credits } else { 0 },
        trial_expires_at: user.trial_expires_at,
    })
}

/// The newest `limit` ledger entries of a user, newest first.
pub async fn credit_history(
    db: &DatabaseConnection,
    user_id: i64,
    limit: u64,
) -> StoreResult<Vec<credit_ledger::Model>> {
    Ok(credit_ledger::Entity::find()
        .filter(credit_ledger::Column::UserId.eq(user_id))
        .order_by_desc(credit_ledger::Column::Id)
        .limit(limit)
        .all(db)
        .await?)
}

/// The purchase recorded for a payment id, if any.
pub async fn find_purchase(
    db: &DatabaseConnection,
    payment_id: &str,
) -> StoreResult<Option<credit_purchases::Model>> {
    Ok(credit_purchases::Entity::find()
        .filter(credit_purchases::Column::StripePaymentIntentId.eq(payment_id))
        .one(db)
        .await?)
}

pub(crate) async fn ensure_user_exists(db: &DatabaseConnection, user_id: i64) -> StoreResult<()> {
    match users::Entity::find_by_id(user_id).one(db).await? {
        Some(_) => Ok(()),
        None => Err(StoreError::NotFound),
    }
}

pub(crate) async fn ledger<C: ConnectionTrait>(
    db: &C,
    user_id: i64,
    delta: i32,
    pool: CreditPool,
    reason: &str,
    reference: Option<&str>,
    at: DateTime<Utc>,
) -> StoreResult<()> {
    credit_ledger::Entity::insert(credit_ledger::ActiveModel {
        user_id: Set(user_id),
        delta: Set(delta),
        pool: Set(pool.as_str().to_owned()),
        reason: Set(reason.to_owned()),
        reference: Set(reference.map(str::to_owned)),
        created_at: Set(at),
        ..Default::default()
    })
    .exec_without_returning(db)
    .await?;
    Ok(())
}

/// Adds `amount` to a balance column of a user; `false` when there is no such user.
async fn add_to<C: ConnectionTrait>(
    db: &C,
    user_id: i64,
    column: U,
    amount: i32,
    at: DateTime<Utc>,
) -> StoreResult<bool> {
    let updated = users::Entity::update_many()
        .col_expr(column, Expr::col(column).add(amount))
        .col_expr(U::UpdatedAt, Expr::value(at))
        .filter(U::Id.eq(user_id))
        .exec(db)
        .await?;
    Ok(updated.rows_affected == 1)
}
