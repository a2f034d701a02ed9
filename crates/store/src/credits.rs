//! Credits: spending, granting for a payment, the trial credit, refunds and the audit ledger.
//!
//! Every amount is a [`Credits`] (docs/PRODUCT.md §9.2: the basic report costs half a credit);
//! the columns store half credits ([`Credits::halves`], since migration 14).
//!
//! A user's paid credits (`users.report_credits`, which never expire) and trial credit
//! (`users.trial_credits`, valid until `users.trial_expires_at`) are kept apart so an expired
//! trial can never be spent. Every movement is written to `credit_ledger` in the same
//! transaction as the balance change.

use chrono::{DateTime, Duration, Utc};
use domain::checkout::{SubscriptionStatus, plan_covers_reports};
use domain::credits::Credits;
use sea_orm::sea_query::{Expr, ExprTrait, OnConflict};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter,
    QueryOrder, QuerySelect,
};

use crate::clock::now;
use crate::entity::users::Column as U;
use crate::entity::{credit_ledger, credit_purchases, subscriptions, users};
use crate::{StoreError, StoreResult, begin_write};

/// Which balance credits came from or went to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CreditPool {
    /// Bought or granted credits; they never expire.
    Paid,
    /// The one-time trial credit; it expires.
    Trial,
    /// A subscription with unlimited credits (`domain::checkout::plan_covers_reports`): its
    /// spends are written to the ledger and taken from no balance.
    Plan,
}

impl CreditPool {
    /// The value stored in `credit_ledger.pool`.
    pub fn as_str(self) -> &'static str {
        match self {
            CreditPool::Paid => "paid",
            CreditPool::Trial => "trial",
            CreditPool::Plan => "plan",
        }
    }

    /// The users column holding this pool's balance (a plan has none).
    fn column(self) -> Option<U> {
        match self {
            CreditPool::Paid => Some(U::ReportCredits),
            CreditPool::Trial => Some(U::TrialCredits),
            CreditPool::Plan => None,
        }
    }
}

/// Who pays for a spend: the requester's own trial credit first, then the paid credits of
/// `paid_by` (the requester, or the owner of the team the requester belongs to: members share
/// their owner's paid credits, docs/PRODUCT.md §6.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Payer {
    /// The requesting user, whose trial credit is used first.
    pub user_id: i64,
    /// Whose paid credits pay the rest.
    pub paid_by: i64,
}

impl Payer {
    /// A user paying with their own credits.
    pub fn own(user_id: i64) -> Payer {
        Payer {
            user_id,
            paid_by: user_id,
        }
    }
}

/// What a spend took, and from where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Charge {
    /// Taken from the requester's trial credit.
    pub trial: Credits,
    /// Taken from `paid_by`'s paid credits.
    pub paid: Credits,
    /// Covered by `paid_by`'s unlimited plan: counted, taken from no balance.
    pub plan: Credits,
    /// Whose paid credits (or plan) were used.
    pub paid_by: i64,
}

impl Charge {
    /// Everything the spend cost.
    pub fn total(&self) -> Credits {
        self.trial
            .checked_add(self.paid)
            .and_then(|c| c.checked_add(self.plan))
            .unwrap_or(Credits::MAX)
    }
}

/// The outcome of [`spend_credits`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spend {
    /// The credits were taken.
    Spent(Charge),
    /// The unexpired trial credit and the paid credits together did not cover the amount;
    /// nothing changed. `balance` is what they came to.
    Insufficient {
        /// Spendable credits at the time of the attempt.
        balance: Credits,
    },
}

/// A user's spendable credits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CreditBalance {
    /// Paid credits.
    pub paid: Credits,
    /// Trial credits still valid at the time asked (0 once expired).
    pub trial: Credits,
    /// When the trial credit expires, if a trial was started.
    pub trial_expires_at: Option<DateTime<Utc>>,
}

impl CreditBalance {
    /// Everything spendable now.
    pub fn total(&self) -> Credits {
        self.paid.checked_add(self.trial).unwrap_or(Credits::MAX)
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
    /// Credits to add: whole credits (a pack, a custom amount or a plan's monthly credits).
    pub credits: Credits,
    /// What was paid, in cents.
    pub amount_paid_cents: i64,
    /// The pack or plan bought, e.g. `credit-5`.
    pub package_type: String,
}

/// A stored half-credit count (never negative: the columns have a check) as [`Credits`].
pub(crate) fn stored(halves: i32) -> Credits {
    Credits::from_halves(u32::try_from(halves).unwrap_or(0))
}

/// [`Credits`] as a stored half-credit count ([`Credits::MAX`] fits by construction).
pub(crate) fn halves(credits: Credits) -> i32 {
    i32::try_from(credits.halves()).unwrap_or(i32::MAX)
}

/// Spends `amount` credits for `payer`: the requester's unexpired trial credit first, the rest
/// from the paid credits of `payer.paid_by`; never below zero. The ledger gets a row per pool
/// used, with `reference` (the job, for an analysis).
pub async fn spend_credits(
    db: &DatabaseConnection,
    payer: Payer,
    amount: Credits,
    reference: Option<&str>,
) -> StoreResult<Spend> {
    let txn = begin_write(db).await?;
    let spend = spend_in(&txn, payer, amount, reference).await?;
    match spend {
        Spend::Spent(_) => txn.commit().await?,
        Spend::Insufficient { .. } => txn.rollback().await?,
    }
    Ok(spend)
}

/// [`spend_credits`] inside the caller's write transaction; on [`Spend::Insufficient`]
/// nothing was changed. When `payer.paid_by`'s subscription covers reports
/// (`domain::checkout::plan_covers_reports`: Enterprise's unlimited credits, while paid for),
/// the whole amount is the plan's: no balance changes and the ledger gets one `plan` row.
///
/// The payer's rows are read `FOR UPDATE` on PostgreSQL (in id order, so an owner and a member
/// spending at once cannot deadlock), and SQLite's write transaction already excludes other
/// writers, so the balance read is the one the updates change. The updates are guarded
/// (`... WHERE credits >= amount`) all the same: a hundred concurrent spends against a balance
/// of fifty succeed exactly fifty times, on both engines.
pub(crate) async fn spend_in<C: ConnectionTrait>(
    txn: &C,
    payer: Payer,
    amount: Credits,
    reference: Option<&str>,
) -> StoreResult<Spend> {
    let at = now();
    let mut ids = vec![payer.user_id, payer.paid_by];
    ids.sort_unstable();
    ids.dedup();
    let rows = users::Entity::find()
        .filter(U::Id.is_in(ids))
        .order_by_asc(U::Id)
        .lock_exclusive()
        .all(txn)
        .await?;
    let requester = rows
        .iter()
        .find(|u| u.id == payer.user_id)
        .ok_or(StoreError::NotFound)?;
    let owner = rows
        .iter()
        .find(|u| u.id == payer.paid_by)
        .ok_or(StoreError::NotFound)?;
    let trial_left = if requester.trial_expires_at.is_some_and(|e| e > at) {
        stored(requester.trial_credits)
    } else {
        Credits::ZERO
    };
    if plan_covers(txn, payer.paid_by, at).await? {
        ledger(
            txn,
            payer.paid_by,
            -halves(amount),
            CreditPool::Plan,
            "spend",
            reference,
            at,
        )
        .await?;
        return Ok(Spend::Spent(Charge {
            trial: Credits::ZERO,
            paid: Credits::ZERO,
            plan: amount,
            paid_by: payer.paid_by,
        }));
    }
    let paid_left = stored(owner.report_credits);
    let insufficient = Spend::Insufficient {
        balance: trial_left.checked_add(paid_left).unwrap_or(Credits::MAX),
    };
    let from_trial = trial_left.min(amount);
    let Some(from_paid) = amount
        .checked_sub(from_trial)
        .filter(|rest| *rest <= paid_left)
    else {
        return Ok(insufficient);
    };
    for (user, amount, pool) in [
        (payer.user_id, from_trial, CreditPool::Trial),
        (payer.paid_by, from_paid, CreditPool::Paid),
    ] {
        if amount.is_zero() {
            continue;
        }
        if !take(txn, user, amount, pool, at).await? {
            // Only reachable if a row changed under us, which the lock rules out; the caller
            // rolls back, so a part taken before is undone too.
            return Ok(insufficient);
        }
        ledger(txn, user, -halves(amount), pool, "spend", reference, at).await?;
    }
    Ok(Spend::Spent(Charge {
        trial: from_trial,
        paid: from_paid,
        plan: Credits::ZERO,
        paid_by: payer.paid_by,
    }))
}

/// Whether `user_id`'s subscription covers their reports at `at` (the rule is `domain`'s).
pub async fn plan_covers<C: ConnectionTrait>(
    txn: &C,
    user_id: i64,
    at: DateTime<Utc>,
) -> StoreResult<bool> {
    let Some(sub) = subscriptions::Entity::find()
        .filter(subscriptions::Column::UserId.eq(user_id))
        .one(txn)
        .await?
    else {
        return Ok(false);
    };
    Ok(
        SubscriptionStatus::parse(&sub.status).is_some_and(|status| {
            plan_covers_reports(
                &sub.plan_id,
                status,
                sub.current_period_end.timestamp(),
                at.timestamp(),
            )
        }),
    )
}

/// Gives back, inside the caller's transaction, what a spend took: the trial part to
/// `trial_user`, the paid part to `charge.paid_by`, each with a `refund` ledger row naming
/// `reference`. A user deleted since is skipped (there is no balance left to return to).
pub(crate) async fn refund_in<C: ConnectionTrait>(
    txn: &C,
    trial_user: i64,
    charge: &Charge,
    reference: Option<&str>,
) -> StoreResult<()> {
    let at = now();
    for (user, amount, pool) in [
        (trial_user, charge.trial, CreditPool::Trial),
        (charge.paid_by, charge.paid, CreditPool::Paid),
        (charge.paid_by, charge.plan, CreditPool::Plan),
    ] {
        if amount.is_zero() {
            continue;
        }
        let n = halves(amount);
        // A plan's part goes back to no balance; its ledger row still says it was returned.
        let returned = match pool.column() {
            Some(column) => add_to(txn, user, column, n, at).await?,
            None => user_exists(txn, user).await?,
        };
        if returned {
            ledger(txn, user, n, pool, "refund", reference, at).await?;
        }
    }
    Ok(())
}

/// Gives back `amount` credits to one pool of a user, with a `refund` ledger row (an admin's
/// correction; a failed paid analysis is refunded by [`crate::jobs::fail_job`] itself).
pub async fn refund_credits(
    db: &DatabaseConnection,
    user_id: i64,
    amount: Credits,
    pool: CreditPool,
    reference: Option<&str>,
) -> StoreResult<()> {
    let at = now();
    let n = halves(amount);
    let Some(column) = pool.column() else {
        return Err(StoreError::Conflict(
            "a plan holds no credits to give back".into(),
        ));
    };
    let txn = begin_write(db).await?;
    if !add_to(&txn, user_id, column, n, at).await? {
        return Err(StoreError::NotFound);
    }
    ledger(&txn, user_id, n, pool, "refund", reference, at).await?;
    txn.commit().await?;
    Ok(())
}

/// Grants the credits of a payment exactly once per payment id.
///
/// The purchase row (unique by payment id) and the balance increment are one transaction: a
/// webhook delivered ten times at once grants once, and a failure leaves neither. A purchase
/// is of whole credits (`credit_purchases.credits_added` keeps whole credits, the receipt of
/// what was bought); a fraction is refused.
pub async fn grant_purchase(db: &DatabaseConnection, purchase: &Purchase) -> StoreResult<Grant> {
    grant_under(db, purchase, None).await
}

/// [`grant_purchase`] of a grant made under another payment (`parent`: a yearly plan's later
/// month under the year's invoice, a plan upgrade's difference under the period's payment), so
/// a refund of that payment reaches this grant too ([`crate::billing::apply_refund`]).
pub async fn grant_under(
    db: &DatabaseConnection,
    purchase: &Purchase,
    parent: Option<&str>,
) -> StoreResult<Grant> {
    let txn = begin_write(db).await?;
    let grant = grant_in(&txn, purchase, parent).await?;
    match grant {
        Grant::Granted => txn.commit().await?,
        Grant::AlreadyGranted => txn.rollback().await?,
    }
    Ok(grant)
}

/// [`grant_under`] inside the caller's write transaction; on [`Grant::AlreadyGranted`]
/// nothing was changed.
pub(crate) async fn grant_in<C: ConnectionTrait>(
    txn: &C,
    purchase: &Purchase,
    parent: Option<&str>,
) -> StoreResult<Grant> {
    let at = now();
    if !purchase.credits.halves().is_multiple_of(2) {
        return Err(StoreError::Conflict(
            "a purchase is of whole credits".into(),
        ));
    }
    let bought = i32::try_from(purchase.credits.halves() / 2)
        .map_err(|_| StoreError::Conflict("credit amount too large".into()))?;
    let n = halves(purchase.credits);
    let inserted = credit_purchases::Entity::insert(credit_purchases::ActiveModel {
        user_id: Set(Some(purchase.user_id)),
        stripe_payment_intent_id: Set(purchase.payment_id.clone()),
        credits_added: Set(bought),
        amount_paid_cents: Set(purchase.amount_paid_cents),
        package_type: Set(purchase.package_type.clone()),
        parent_payment_id: Set(parent.map(str::to_owned)),
        created_at: Set(at),
        ..Default::default()
    })
    .on_conflict(
        OnConflict::column(credit_purchases::Column::StripePaymentIntentId)
            .do_nothing()
            .to_owned(),
    )
    .exec_without_returning(txn)
    .await?;
    if inserted == 0 {
        return Ok(Grant::AlreadyGranted);
    }
    if !add_to(txn, purchase.user_id, U::ReportCredits, n, at).await? {
        return Err(StoreError::NotFound);
    }
    ledger(
        txn,
        purchase.user_id,
        n,
        CreditPool::Paid,
        "purchase",
        Some(&purchase.payment_id),
        at,
    )
    .await?;
    Ok(Grant::Granted)
}

/// Adds credits that were not bought (a subscription's monthly credits, an admin grant).
pub async fn grant_credits(
    db: &DatabaseConnection,
    user_id: i64,
    credits: Credits,
    reason: &str,
    reference: Option<&str>,
) -> StoreResult<()> {
    let at = now();
    let n = halves(credits);
    let txn = begin_write(db).await?;
    if !add_to(&txn, user_id, U::ReportCredits, n, at).await? {
        return Err(StoreError::NotFound);
    }
    ledger(&txn, user_id, n, CreditPool::Paid, reason, reference, at).await?;
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
    credits: Credits,
    valid_for: Duration,
) -> StoreResult<DateTime<Utc>> {
    let at = now();
    let expires_at = at + valid_for;
    let n = halves(credits);
    let txn = begin_write(db).await?;
    let updated = users::Entity::update_many()
        .col_expr(U::HasUsedTrial, Expr::value(true))
        .col_expr(U::TrialCredits, Expr::value(n))
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
    ledger(&txn, user_id, n, CreditPool::Trial, "trial", None, at).await?;
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
        paid: stored(user.report_credits),
        trial: if trial_valid {
            stored(user.trial_credits)
        } else {
            Credits::ZERO
        },
        trial_expires_at: user.trial_expires_at,
    })
}

/// The newest `limit` ledger entries of a user, newest first; `delta` is in half credits
/// ([`ledger_delta`] reads it).
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

/// A ledger row's movement: whether it added credits, and how many.
pub fn ledger_delta(row: &credit_ledger::Model) -> (bool, Credits) {
    (
        row.delta >= 0,
        Credits::from_halves(row.delta.unsigned_abs()),
    )
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

/// Whether the user exists, inside the caller's transaction.
pub(crate) async fn user_exists<C: ConnectionTrait>(db: &C, user_id: i64) -> StoreResult<bool> {
    Ok(users::Entity::find_by_id(user_id).one(db).await?.is_some())
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

/// Takes `amount` from one pool of a user, guarded: never below zero, and a trial credit only
/// while it is valid. `false` when the pool does not hold it.
async fn take<C: ConnectionTrait>(
    txn: &C,
    user_id: i64,
    amount: Credits,
    pool: CreditPool,
    at: DateTime<Utc>,
) -> StoreResult<bool> {
    let n = halves(amount);
    let Some(column) = pool.column() else {
        return Ok(false);
    };
    let mut update = users::Entity::update_many()
        .col_expr(column, Expr::col(column).sub(n))
        .col_expr(U::UpdatedAt, Expr::value(at))
        .filter(U::Id.eq(user_id))
        .filter(Expr::col(column).gte(n));
    if pool == CreditPool::Trial {
        update = update.filter(U::TrialExpiresAt.gt(at));
    }
    Ok(update.exec(txn).await?.rows_affected == 1)
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
