//! What the admin area reads and changes (issue 16 item 4): the figures of the overview, user
//! search, a user's sessions and keys, and the administrators' changes — a credit adjustment,
//! the trial granted again, disabling and enabling an account, ending its sessions, changing an
//! admin level and retrying a failed analysis. Each change writes its audit-log row
//! ([`crate::audit::record`]) in the transaction that makes it, so neither exists without the
//! other.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use domain::admin::AdminLevel;
use domain::admin_area::{AdjustDirection, LAST_OWNER_MESSAGE, adjusted_balance};
use domain::credits::Credits;
use sea_orm::sea_query::{Expr, ExprTrait, Func, LikeExpr, Query};
use sea_orm::{
    ColumnTrait, Condition, DatabaseConnection, EntityTrait, PaginatorTrait, QueryFilter,
    QueryOrder, QuerySelect,
};
use uuid::Uuid;

use crate::audit::{NewAuditEntry, record};
use crate::clock::now;
use crate::credits::{CreditPool, Payer, Spend, halves, ledger, spend_in, stored};
use crate::entity::users::Column as U;
use crate::entity::{
    analysis_jobs, api_keys, credit_ledger, credit_purchases, refunds, sessions, subscriptions,
    users, whitelabel_branding,
};
use crate::jobs::{Job, JobStatus, charge_of};
use crate::{StoreError, StoreResult, begin_write};

/// The rows the overview's figures are computed from, since a moment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OverviewRows {
    /// Each analysis queued since: when, and its status.
    pub jobs: Vec<(DateTime<Utc>, String)>,
    /// When each account made since was made.
    pub signups: Vec<DateTime<Utc>>,
    /// Each payment recorded since: when, and cents.
    pub payments: Vec<(DateTime<Utc>, i64)>,
    /// Each refund recorded since: when, and cents.
    pub refunds: Vec<(DateTime<Utc>, i64)>,
    /// Each credit movement since: its reason and delta in half credits.
    pub ledger: Vec<(String, i32)>,
    /// Accounts made since that have at least one payment.
    pub signups_who_paid: u64,
    /// Every account.
    pub users: u64,
    /// Every account with at least one payment.
    pub users_who_paid: u64,
}

/// The ids of the accounts that have paid at least once.
fn payers() -> sea_orm::sea_query::SelectStatement {
    Query::select()
        .column(credit_purchases::Column::UserId)
        .from(credit_purchases::Entity)
        .and_where(Expr::col(credit_purchases::Column::UserId).is_not_null())
        .to_owned()
}

/// The overview's rows since `since`.
pub async fn overview_rows(
    db: &DatabaseConnection,
    since: DateTime<Utc>,
) -> StoreResult<OverviewRows> {
    let jobs = analysis_jobs::Entity::find()
        .select_only()
        .column(analysis_jobs::Column::CreatedAt)
        .column(analysis_jobs::Column::Status)
        .filter(analysis_jobs::Column::CreatedAt.gte(since))
        .into_tuple::<(DateTime<Utc>, String)>()
        .all(db)
        .await?;
    let signups = users::Entity::find()
        .select_only()
        .column(U::CreatedAt)
        .filter(U::CreatedAt.gte(since))
        .into_tuple::<DateTime<Utc>>()
        .all(db)
        .await?;
    let payments = credit_purchases::Entity::find()
        .select_only()
        .column(credit_purchases::Column::CreatedAt)
        .column(credit_purchases::Column::AmountPaidCents)
        .filter(credit_purchases::Column::CreatedAt.gte(since))
        .into_tuple::<(DateTime<Utc>, i64)>()
        .all(db)
        .await?;
    let refunds = refunds::Entity::find()
        .select_only()
        .column(refunds::Column::CreatedAt)
        .column(refunds::Column::AmountCents)
        .filter(refunds::Column::CreatedAt.gte(since))
        .into_tuple::<(DateTime<Utc>, i64)>()
        .all(db)
        .await?;
    let ledger = credit_ledger::Entity::find()
        .select_only()
        .column(credit_ledger::Column::Reason)
        .column(credit_ledger::Column::Delta)
        .filter(credit_ledger::Column::CreatedAt.gte(since))
        .into_tuple::<(String, i32)>()
        .all(db)
        .await?;
    let signups_who_paid = users::Entity::find()
        .filter(U::CreatedAt.gte(since))
        .filter(U::Id.in_subquery(payers()))
        .count(db)
        .await?;
    let users = users::Entity::find().count(db).await?;
    let users_who_paid = users::Entity::find()
        .filter(U::Id.in_subquery(payers()))
        .count(db)
        .await?;
    Ok(OverviewRows {
        jobs,
        signups,
        payments,
        refunds,
        ledger,
        signups_who_paid,
        users,
        users_who_paid,
    })
}

/// Up to `limit` users whose address, name or user name contains `text` (lower-case; `%` and
/// `_` match themselves), newest first; the newest users when `text` is empty.
pub async fn search_users(
    db: &DatabaseConnection,
    text: &str,
    limit: u64,
) -> StoreResult<Vec<users::Model>> {
    let mut query = users::Entity::find();
    if !text.is_empty() {
        let escaped = text
            .replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_");
        let pattern = format!("%{escaped}%");
        let mut any = Condition::any();
        for column in [U::Email, U::FirstName, U::LastName, U::Username] {
            any = any.add(
                Expr::expr(Func::lower(Expr::col(column)))
                    .like(LikeExpr::new(pattern.clone()).escape('\\')),
            );
        }
        query = query.filter(any);
    }
    Ok(query
        .order_by_desc(U::CreatedAt)
        .order_by_desc(U::Id)
        .limit(limit)
        .all(db)
        .await?)
}

/// The addresses of the users with these ids (deleted ones left out).
pub async fn emails_of(db: &DatabaseConnection, ids: &[i64]) -> StoreResult<HashMap<i64, String>> {
    let mut ids = ids.to_vec();
    ids.sort_unstable();
    ids.dedup();
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let rows = users::Entity::find()
        .select_only()
        .column(U::Id)
        .column(U::Email)
        .filter(U::Id.is_in(ids))
        .into_tuple::<(i64, String)>()
        .all(db)
        .await?;
    Ok(rows.into_iter().collect())
}

/// A user's live sessions at `at`, and unrevoked API keys.
pub async fn access_counts(
    db: &DatabaseConnection,
    user_id: i64,
    at: DateTime<Utc>,
) -> StoreResult<(u64, u64)> {
    let sessions = sessions::Entity::find()
        .filter(sessions::Column::UserId.eq(user_id))
        .filter(sessions::Column::ExpiresAt.gt(at))
        .count(db)
        .await?;
    let keys = api_keys::Entity::find()
        .filter(api_keys::Column::UserId.eq(user_id))
        .filter(api_keys::Column::RevokedAt.is_null())
        .count(db)
        .await?;
    Ok((sessions, keys))
}

/// A user's paid credits before and after an adjustment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjusted {
    /// Before.
    pub before: Credits,
    /// After.
    pub after: Credits,
}

/// Adds or removes paid credits of a user, with a ledger row (`reason`, `reference`) and the
/// audit row (`audit`, its detail completed with the balances), in one transaction. The user's
/// row is locked while the new balance is decided by `domain::admin_area::adjusted_balance`, so
/// a balance never goes below zero however many adjustments and spends race; `Ok(Err(message))`
/// when it refuses (nothing written).
pub async fn adjust_paid_credits(
    db: &DatabaseConnection,
    user_id: i64,
    direction: AdjustDirection,
    amount: Credits,
    reason: &str,
    reference: &str,
    mut audit: NewAuditEntry,
) -> StoreResult<Result<Adjusted, String>> {
    let at = now();
    let txn = begin_write(db).await?;
    let user = users::Entity::find_by_id(user_id)
        .lock_exclusive()
        .one(&txn)
        .await?
        .ok_or(StoreError::NotFound)?;
    let before = stored(user.report_credits);
    let after = match adjusted_balance(before, direction, amount) {
        Ok(after) => after,
        Err(message) => {
            txn.rollback().await?;
            return Ok(Err(message));
        }
    };
    let changed = users::Entity::update_many()
        .col_expr(U::ReportCredits, Expr::value(halves(after)))
        .col_expr(U::UpdatedAt, Expr::value(at))
        .filter(U::Id.eq(user_id))
        .filter(U::ReportCredits.eq(user.report_credits))
        .exec(&txn)
        .await?;
    if changed.rows_affected != 1 {
        txn.rollback().await?;
        return Err(StoreError::Conflict("the balance changed meanwhile".into()));
    }
    let delta = match direction {
        AdjustDirection::Add => halves(amount),
        AdjustDirection::Remove => -halves(amount),
    };
    ledger(
        &txn,
        user_id,
        delta,
        CreditPool::Paid,
        reason,
        Some(reference),
        at,
    )
    .await?;
    if let Some(detail) = audit.detail.as_object_mut() {
        detail.insert("before".into(), serde_json::json!(before));
        detail.insert("after".into(), serde_json::json!(after));
    }
    record(&txn, &audit).await?;
    txn.commit().await?;
    Ok(Ok(Adjusted { before, after }))
}

/// Lets a user start the free trial again (`users.has_used_trial` back to false), with the
/// audit row. `false` when they had not used it (nothing written).
pub async fn regrant_trial(
    db: &DatabaseConnection,
    user_id: i64,
    audit: &NewAuditEntry,
) -> StoreResult<bool> {
    let txn = begin_write(db).await?;
    let changed = users::Entity::update_many()
        .col_expr(U::HasUsedTrial, Expr::value(false))
        .col_expr(U::UpdatedAt, Expr::value(now()))
        .filter(U::Id.eq(user_id))
        .filter(U::HasUsedTrial.eq(true))
        .exec(&txn)
        .await?;
    if changed.rows_affected != 1 {
        txn.rollback().await?;
        crate::credits::ensure_user_exists(db, user_id).await?;
        return Ok(false);
    }
    record(&txn, audit).await?;
    txn.commit().await?;
    Ok(true)
}

/// Disables (`disabled` true: sets `disabled_at` and ends every session) or enables a user,
/// with the audit row. `None` when the account already was in that state (nothing written),
/// else the sessions ended.
pub async fn set_disabled(
    db: &DatabaseConnection,
    user_id: i64,
    disabled: bool,
    audit: &NewAuditEntry,
) -> StoreResult<Option<u64>> {
    let at = now();
    let txn = begin_write(db).await?;
    let mut update = users::Entity::update_many()
        .col_expr(U::UpdatedAt, Expr::value(at))
        .filter(U::Id.eq(user_id));
    update = if disabled {
        update
            .col_expr(U::DisabledAt, Expr::value(at))
            .filter(U::DisabledAt.is_null())
    } else {
        update
            .col_expr(U::DisabledAt, Expr::value(Option::<DateTime<Utc>>::None))
            .filter(U::DisabledAt.is_not_null())
    };
    if update.exec(&txn).await?.rows_affected != 1 {
        txn.rollback().await?;
        crate::credits::ensure_user_exists(db, user_id).await?;
        return Ok(None);
    }
    let ended = if disabled {
        end_sessions_in(&txn, user_id).await?
    } else {
        0
    };
    record(&txn, audit).await?;
    txn.commit().await?;
    Ok(Some(ended))
}

async fn end_sessions_in<C: sea_orm::ConnectionTrait>(txn: &C, user_id: i64) -> StoreResult<u64> {
    Ok(sessions::Entity::delete_many()
        .filter(sessions::Column::UserId.eq(user_id))
        .exec(txn)
        .await?
        .rows_affected)
}

/// Ends every session of a user (sign out everywhere), with the audit row; how many ended.
pub async fn end_sessions(
    db: &DatabaseConnection,
    user_id: i64,
    audit: &NewAuditEntry,
) -> StoreResult<u64> {
    let txn = begin_write(db).await?;
    if !crate::credits::user_exists(&txn, user_id).await? {
        txn.rollback().await?;
        return Err(StoreError::NotFound);
    }
    let ended = end_sessions_in(&txn, user_id).await?;
    record(&txn, audit).await?;
    txn.commit().await?;
    Ok(ended)
}

/// Sets a user's admin level (`None`: an ordinary user), with the audit row, unless that would
/// leave no owner: the owners' rows are locked first, so two owners demoting each other at once
/// cannot both succeed. `Ok(Err(message))` when refused (nothing written).
pub async fn change_admin_level(
    db: &DatabaseConnection,
    user_id: i64,
    level: Option<AdminLevel>,
    audit: &NewAuditEntry,
) -> StoreResult<Result<(), String>> {
    let txn = begin_write(db).await?;
    let owners = users::Entity::find()
        .filter(U::IsAdmin.eq(true))
        .filter(U::AdminLevel.eq(AdminLevel::Owner.as_str()))
        .order_by_asc(U::Id)
        .lock_exclusive()
        .all(&txn)
        .await?;
    let target_is_owner = owners.iter().any(|o| o.id == user_id);
    if target_is_owner && level != Some(AdminLevel::Owner) && owners.len() <= 1 {
        txn.rollback().await?;
        return Ok(Err(LAST_OWNER_MESSAGE.to_owned()));
    }
    let changed = users::Entity::update_many()
        .col_expr(U::IsAdmin, Expr::value(level.is_some()))
        .col_expr(
            U::AdminLevel,
            Expr::value(level.map_or("user", AdminLevel::as_str)),
        )
        .col_expr(U::UpdatedAt, Expr::value(now()))
        .filter(U::Id.eq(user_id))
        .exec(&txn)
        .await?;
    if changed.rows_affected != 1 {
        txn.rollback().await?;
        return Err(StoreError::NotFound);
    }
    record(&txn, audit).await?;
    txn.commit().await?;
    Ok(Ok(()))
}

/// The outcome of [`retry_failed_job`].
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Retry {
    /// The job is queued again.
    Queued(Job),
    /// The job has not failed; nothing changed.
    NotFailed,
    /// The job's credits were given back when it failed and its payer cannot cover them again;
    /// nothing changed.
    Insufficient {
        /// What the payer could spend.
        balance: Credits,
    },
}

/// Queues a failed analysis again, as new: no error, no progress, no attempts, its place in
/// the queue by its first submission. A paid analysis is charged exactly once for the report
/// it finally delivers: when its failure gave the credits back, they are spent again here (the
/// same cost, from the same payer, the ledger rows naming the job); when they were not given
/// back, nothing more is taken. With the audit row, in one transaction; the job's row is
/// locked, so two retries at once queue it once.
pub async fn retry_failed_job(
    db: &DatabaseConnection,
    job_id: Uuid,
    audit: &NewAuditEntry,
) -> StoreResult<Retry> {
    use analysis_jobs::Column as C;
    let at = now();
    let txn = begin_write(db).await?;
    let row = analysis_jobs::Entity::find_by_id(job_id)
        .lock_exclusive()
        .one(&txn)
        .await?
        .ok_or(StoreError::NotFound)?;
    if row.status != JobStatus::Failed.as_str() {
        txn.rollback().await?;
        return Ok(Retry::NotFailed);
    }
    let mut requeue = analysis_jobs::Entity::update_many()
        .col_expr(C::Status, Expr::value(JobStatus::Queued.as_str()))
        .col_expr(C::Error, Expr::value(Option::<String>::None))
        .col_expr(C::Message, Expr::value("Queued again by an administrator"))
        .col_expr(C::Progress, Expr::value(0))
        .col_expr(C::Step, Expr::value(Option::<String>::None))
        .col_expr(C::Attempts, Expr::value(0))
        .col_expr(C::ClaimedBy, Expr::value(Option::<String>::None))
        .col_expr(C::HeartbeatAt, Expr::value(Option::<DateTime<Utc>>::None))
        .col_expr(C::StartedAt, Expr::value(Option::<DateTime<Utc>>::None))
        .col_expr(C::FinishedAt, Expr::value(Option::<DateTime<Utc>>::None))
        .col_expr(C::UpdatedAt, Expr::value(at))
        .filter(C::Id.eq(job_id))
        .filter(C::Status.eq(JobStatus::Failed.as_str()));
    if let (Some(charge), Some(_)) = (charge_of(&row), row.credits_refunded_at) {
        let payer = Payer {
            user_id: row.requester_user_id.unwrap_or(charge.paid_by),
            paid_by: charge.paid_by,
        };
        match spend_in(&txn, payer, charge.total(), Some(&job_id.to_string())).await? {
            Spend::Insufficient { balance } => {
                txn.rollback().await?;
                return Ok(Retry::Insufficient { balance });
            }
            Spend::Spent(now_charged) => {
                requeue = requeue
                    .col_expr(C::TrialCharge, Expr::value(halves(now_charged.trial)))
                    .col_expr(C::PaidCharge, Expr::value(halves(now_charged.paid)))
                    .col_expr(C::PlanCharge, Expr::value(halves(now_charged.plan)))
                    .col_expr(C::ChargedUserId, Expr::value(now_charged.paid_by))
                    .col_expr(
                        C::CreditsRefundedAt,
                        Expr::value(Option::<DateTime<Utc>>::None),
                    );
            }
        }
    }
    let queued = requeue.exec_with_returning(&txn).await?;
    let Some(row) = queued.into_iter().next() else {
        txn.rollback().await?;
        return Ok(Retry::NotFailed);
    };
    record(&txn, audit).await?;
    txn.commit().await?;
    Ok(Retry::Queued(Job::try_from(row)?))
}

/// The newest `limit` payments (packs, custom credits, plan invoices).
pub async fn recent_purchases(
    db: &DatabaseConnection,
    limit: u64,
) -> StoreResult<Vec<credit_purchases::Model>> {
    Ok(credit_purchases::Entity::find()
        .order_by_desc(credit_purchases::Column::Id)
        .limit(limit)
        .all(db)
        .await?)
}

/// The newest `limit` subscriptions, by last change.
pub async fn recent_subscriptions(
    db: &DatabaseConnection,
    limit: u64,
) -> StoreResult<Vec<subscriptions::Model>> {
    Ok(subscriptions::Entity::find()
        .order_by_desc(subscriptions::Column::UpdatedAt)
        .order_by_desc(subscriptions::Column::Id)
        .limit(limit)
        .all(db)
        .await?)
}

/// The newest `limit` refunds.
pub async fn recent_refunds(
    db: &DatabaseConnection,
    limit: u64,
) -> StoreResult<Vec<refunds::Model>> {
    Ok(refunds::Entity::find()
        .order_by_desc(refunds::Column::CreatedAt)
        .limit(limit)
        .all(db)
        .await?)
}

/// The newest `limit` white-label brandings, by last change.
pub async fn whitelabel_brandings(
    db: &DatabaseConnection,
    limit: u64,
) -> StoreResult<Vec<whitelabel_branding::Model>> {
    Ok(whitelabel_branding::Entity::find()
        .order_by_desc(whitelabel_branding::Column::UpdatedAt)
        .order_by_desc(whitelabel_branding::Column::Id)
        .limit(limit)
        .all(db)
        .await?)
}
