//! Signed callbacks of the public API (issue 17): each account's signing secret, the durable
//! queue of callback deliveries and the record of every attempt.
//!
//! A delivery is queued in the very transaction that completes or fails its analysis
//! (`jobs::complete_job`, `jobs::fail_job`, `jobs::recover_stale_jobs`), so an event is never
//! lost between the two, whatever process dies when. A process that sends it first claims it
//! with one guarded update (`attempts = seen AND state = 'pending' AND next_attempt_at <=
//! now`), which counts the attempt and moves `next_attempt_at` to the end of a lease: two
//! processes sharing the database never make the same attempt, and an attempt whose process
//! died is made again once its lease is over. Every attempt's outcome is a row of
//! `callback_attempts`, written with the delivery's next state in one transaction.
//!
//! Functions take the time as an argument, so tests can step through the retry schedule
//! without waiting for it.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use domain::api::ApiAnalysis;
use domain::callbacks::{ApiCallback, CallbackAttempt, CallbackEventType, CallbackState};
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter,
    QueryOrder, QuerySelect,
};
use uuid::Uuid;

use crate::entity::callback_attempts::Column as A;
use crate::entity::callback_deliveries::Column as D;
use crate::entity::callback_secrets::Column as S;
use crate::entity::{analysis_jobs, callback_attempts, callback_deliveries, callback_secrets};
use crate::jobs::Job;
use crate::{StoreError, StoreResult, begin_write};

/// `callback_deliveries.state` of a delivery still to be made.
pub const PENDING: &str = "pending";
/// `callback_deliveries.state` of a delivery the receiver acknowledged.
pub const DELIVERED: &str = "delivered";
/// `callback_deliveries.state` of a delivery given up.
pub const FAILED: &str = "failed";

/// Queues the callback of `job` (a row just completed or failed in `txn`) if it was submitted
/// with a callback address. It is signed with the secret of the account that paid for it (the
/// team owner for a member, as for credits).
pub(crate) async fn enqueue_in<T: ConnectionTrait>(
    txn: &T,
    job: &analysis_jobs::Model,
    event: CallbackEventType,
    at: DateTime<Utc>,
) -> StoreResult<()> {
    let Some(url) = &job.callback_url else {
        return Ok(());
    };
    let Some(account_id) = job.charged_user_id.or(job.requester_user_id) else {
        return Ok(());
    };
    callback_deliveries::Entity::insert(callback_deliveries::ActiveModel {
        event_id: Set(Uuid::new_v4()),
        job_id: Set(job.id),
        event_type: Set(event.as_str().to_owned()),
        account_id: Set(account_id),
        url: Set(url.clone()),
        state: Set(PENDING.to_owned()),
        attempts: Set(0),
        next_attempt_at: Set(Some(at)),
        created_at: Set(at),
        finished_at: Set(None),
        ..Default::default()
    })
    .exec_without_returning(txn)
    .await?;
    Ok(())
}

/// The callback secret of `user_id`, if one was made.
pub async fn secret_of(
    db: &DatabaseConnection,
    user_id: i64,
) -> StoreResult<Option<callback_secrets::Model>> {
    Ok(callback_secrets::Entity::find_by_id(user_id)
        .one(db)
        .await?)
}

/// The callback secret of `user_id`, stored as `fresh` if the account has none yet. Concurrent
/// first uses store one secret: the others' inserts do nothing and they read it.
pub async fn ensure_secret(
    db: &DatabaseConnection,
    user_id: i64,
    fresh: &str,
    at: DateTime<Utc>,
) -> StoreResult<callback_secrets::Model> {
    if let Some(existing) = secret_of(db, user_id).await? {
        return Ok(existing);
    }
    callback_secrets::Entity::insert(callback_secrets::ActiveModel {
        user_id: Set(user_id),
        secret: Set(fresh.to_owned()),
        created_at: Set(at),
    })
    .on_conflict(OnConflict::column(S::UserId).do_nothing().to_owned())
    .exec_without_returning(db)
    .await?;
    secret_of(db, user_id).await?.ok_or(StoreError::NotFound)
}

/// Replaces the callback secret of `user_id` with `fresh` (making it if there was none): from
/// this statement on, every callback of the account, retries included, is signed with it.
pub async fn rotate_secret(
    db: &DatabaseConnection,
    user_id: i64,
    fresh: &str,
    at: DateTime<Utc>,
) -> StoreResult<callback_secrets::Model> {
    callback_secrets::Entity::insert(callback_secrets::ActiveModel {
        user_id: Set(user_id),
        secret: Set(fresh.to_owned()),
        created_at: Set(at),
    })
    .on_conflict(
        OnConflict::column(S::UserId)
            .update_columns([S::Secret, S::CreatedAt])
            .to_owned(),
    )
    .exec_without_returning(db)
    .await?;
    secret_of(db, user_id).await?.ok_or(StoreError::NotFound)
}

/// Pending deliveries due at `now`, the longest waiting first.
pub async fn due_deliveries(
    db: &DatabaseConnection,
    now: DateTime<Utc>,
    limit: u64,
) -> StoreResult<Vec<callback_deliveries::Model>> {
    Ok(callback_deliveries::Entity::find()
        .filter(D::State.eq(PENDING))
        .filter(D::NextAttemptAt.lte(now))
        .order_by_asc(D::NextAttemptAt)
        .order_by_asc(D::Id)
        .limit(limit)
        .all(db)
        .await?)
}

/// When the earliest pending delivery is due, if any is pending.
pub async fn next_due(db: &DatabaseConnection) -> StoreResult<Option<DateTime<Utc>>> {
    Ok(callback_deliveries::Entity::find()
        .filter(D::State.eq(PENDING))
        .filter(D::NextAttemptAt.is_not_null())
        .order_by_asc(D::NextAttemptAt)
        .one(db)
        .await?
        .and_then(|d| d.next_attempt_at))
}

/// Claims the next attempt of `delivery` (as read by [`due_deliveries`]) at `now`: counts it
/// and holds the delivery until `lease_until`. False when another process claimed it first or
/// it is no longer due.
pub async fn claim_delivery(
    db: &DatabaseConnection,
    delivery: &callback_deliveries::Model,
    now: DateTime<Utc>,
    lease_until: DateTime<Utc>,
) -> StoreResult<bool> {
    let claimed = callback_deliveries::Entity::update_many()
        .col_expr(D::Attempts, Expr::value(delivery.attempts + 1))
        .col_expr(D::NextAttemptAt, Expr::value(lease_until))
        .filter(D::Id.eq(delivery.id))
        .filter(D::Attempts.eq(delivery.attempts))
        .filter(D::State.eq(PENDING))
        .filter(D::NextAttemptAt.lte(now))
        .exec(db)
        .await?;
    Ok(claimed.rows_affected == 1)
}

/// What one attempt gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttemptRecord {
    /// When the request was sent.
    pub at: DateTime<Utc>,
    /// The receiver's HTTP status, when it answered.
    pub status_code: Option<u16>,
    /// Why no answer counted, when none came.
    pub error: Option<String>,
    /// How long it took, milliseconds.
    pub duration_ms: u32,
    /// The answer's first characters.
    pub response_excerpt: Option<String>,
}

/// What becomes of a delivery after an attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterAttempt {
    /// The receiver acknowledged it, at this time.
    Delivered(DateTime<Utc>),
    /// It is tried again at this time.
    RetryAt(DateTime<Utc>),
    /// No more attempts, as of this time.
    GiveUp(DateTime<Utc>),
}

/// Records the attempt `attempt_number` (as claimed) of delivery `delivery_id` and moves the
/// delivery on, in one transaction. The delivery moves only if that claim is still the latest
/// (an attempt whose lease ran out and was claimed again is recorded, but decides nothing).
pub async fn record_attempt(
    db: &DatabaseConnection,
    delivery_id: i64,
    attempt_number: i32,
    attempt: &AttemptRecord,
    after: AfterAttempt,
) -> StoreResult<()> {
    let txn = begin_write(db).await?;
    callback_attempts::Entity::insert(callback_attempts::ActiveModel {
        delivery_id: Set(delivery_id),
        attempted_at: Set(attempt.at),
        status_code: Set(attempt.status_code.map(i32::from)),
        error: Set(attempt.error.clone()),
        duration_ms: Set(i32::try_from(attempt.duration_ms).unwrap_or(i32::MAX)),
        response_excerpt: Set(attempt.response_excerpt.clone()),
        ..Default::default()
    })
    .exec_without_returning(&txn)
    .await?;
    let update = callback_deliveries::Entity::update_many()
        .filter(D::Id.eq(delivery_id))
        .filter(D::Attempts.eq(attempt_number))
        .filter(D::State.eq(PENDING));
    let update = match after {
        AfterAttempt::Delivered(at) => update
            .col_expr(D::State, Expr::value(DELIVERED))
            .col_expr(D::FinishedAt, Expr::value(at))
            .col_expr(D::NextAttemptAt, Expr::value(Option::<DateTime<Utc>>::None)),
        AfterAttempt::RetryAt(at) => update.col_expr(D::NextAttemptAt, Expr::value(at)),
        AfterAttempt::GiveUp(at) => update
            .col_expr(D::State, Expr::value(FAILED))
            .col_expr(D::FinishedAt, Expr::value(at))
            .col_expr(D::NextAttemptAt, Expr::value(Option::<DateTime<Utc>>::None)),
    };
    update.exec(&txn).await?;
    txn.commit().await?;
    Ok(())
}

fn state_of(delivery: &callback_deliveries::Model) -> StoreResult<CallbackState> {
    match delivery.state.as_str() {
        PENDING => Ok(CallbackState::Pending),
        DELIVERED => Ok(CallbackState::Delivered),
        FAILED => Ok(CallbackState::Failed),
        other => Err(StoreError::data(format!(
            "stored callback state {other:?} is unknown"
        ))),
    }
}

fn attempt_view(row: &callback_attempts::Model) -> CallbackAttempt {
    CallbackAttempt {
        at: row.attempted_at.to_rfc3339(),
        status_code: row.status_code.and_then(|s| u16::try_from(s).ok()),
        error: row.error.clone(),
        duration_ms: u32::try_from(row.duration_ms).unwrap_or(0),
        response_excerpt: row.response_excerpt.clone(),
    }
}

/// `jobs` as `/api/v1` shows them, each with its callback's delivery and attempts (two queries
/// for the whole list).
pub async fn api_views(db: &DatabaseConnection, jobs: &[Job]) -> StoreResult<Vec<ApiAnalysis>> {
    let ids: Vec<Uuid> = jobs
        .iter()
        .filter(|j| j.callback_url.is_some())
        .map(|j| j.id)
        .collect();
    let mut deliveries: HashMap<Uuid, callback_deliveries::Model> = HashMap::new();
    let mut attempts: HashMap<i64, Vec<CallbackAttempt>> = HashMap::new();
    if !ids.is_empty() {
        // Oldest first, so the newest delivery of a job is the one kept.
        for d in callback_deliveries::Entity::find()
            .filter(D::JobId.is_in(ids))
            .order_by_asc(D::Id)
            .all(db)
            .await?
        {
            deliveries.insert(d.job_id, d);
        }
        let delivery_ids: Vec<i64> = deliveries.values().map(|d| d.id).collect();
        for a in callback_attempts::Entity::find()
            .filter(A::DeliveryId.is_in(delivery_ids))
            .order_by_asc(A::Id)
            .all(db)
            .await?
        {
            attempts
                .entry(a.delivery_id)
                .or_default()
                .push(attempt_view(&a));
        }
    }
    jobs.iter()
        .map(|job| {
            let mut view = job.api_view();
            if let (Some(callback), Some(d)) = (view.callback.as_mut(), deliveries.get(&job.id)) {
                *callback = ApiCallback {
                    url: d.url.clone(),
                    state: state_of(d)?,
                    event_id: Some(d.event_id.to_string()),
                    next_attempt_at: d
                        .next_attempt_at
                        .filter(|_| d.state == PENDING)
                        .map(|t| t.to_rfc3339()),
                    attempts: attempts.remove(&d.id).unwrap_or_default(),
                };
            }
            Ok(view)
        })
        .collect()
}
