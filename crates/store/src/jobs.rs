//! The analysis job queue (docs/ARCHITECTURE.md §4).
//!
//! A job is `queued` until a worker claims it (`running`), then `complete` (with a result) or
//! `failed`. A running job belongs to the worker named in `claimed_by`; every later change by
//! that worker is guarded by `claimed_by` and `status`, so a worker whose job was taken away
//! (because it stopped heartbeating) gets [`StoreError::Conflict`] and stops. Progress is stored
//! on the row, so any web node can tell a late client the latest state.

use chrono::{DateTime, Utc};
use domain::report::{ProgressEvent, ProgressEventType, ReportType};
use sea_orm::sea_query::{Expr, ExprTrait, Func, LockBehavior, LockType, Order, Query};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter,
    QueryOrder, QuerySelect,
};
use uuid::Uuid;

use crate::allowance::{FreeAnalysis, record_in};
use crate::clock::now;
use crate::credits::{Charge, Payer, Spend, refund_in, spend_in, stored};
use crate::entity::analysis_jobs;
use crate::entity::analysis_jobs::Column as C;
use crate::results::{NewResult, insert_result};
use crate::stats::{ANALYSES_COMPLETED, increment};
use crate::{StoreError, StoreResult, begin_write, callbacks, websites};
use domain::callbacks::CallbackEventType;
use domain::credits::Credits;

/// How many times a job may be claimed: the first run and one retry after an interruption.
pub const MAX_JOB_ATTEMPTS: i32 = 2;

/// The error stored on a job that was interrupted [`MAX_JOB_ATTEMPTS`] times.
pub const INTERRUPTED_TWICE: &str = "the analysis was interrupted twice and has been stopped";

/// Where a job is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobStatus {
    /// Waiting for a worker.
    Queued,
    /// Claimed by a worker.
    Running,
    /// Finished with a result.
    Complete,
    /// Finished without a result.
    Failed,
}

impl JobStatus {
    /// The value stored in `analysis_jobs.status`.
    pub fn as_str(self) -> &'static str {
        match self {
            JobStatus::Queued => "queued",
            JobStatus::Running => "running",
            JobStatus::Complete => "complete",
            JobStatus::Failed => "failed",
        }
    }

    /// Reads a stored status.
    pub fn parse(value: &str) -> Option<JobStatus> {
        match value {
            "queued" => Some(JobStatus::Queued),
            "running" => Some(JobStatus::Running),
            "complete" => Some(JobStatus::Complete),
            "failed" => Some(JobStatus::Failed),
            _ => None,
        }
    }
}

/// An analysis job as stored in `analysis_jobs`, with its status and depth typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// Random id; also the analysis id clients know.
    pub id: Uuid,
    /// The website it counts against.
    pub website_id: i64,
    /// The address as the visitor typed it.
    pub url: String,
    /// The normalised address.
    pub canonical_url: String,
    /// Where the job is in its life.
    pub status: JobStatus,
    /// Report depth.
    pub report_type: ReportType,
    /// Pages to crawl.
    pub requested_pages: u32,
    /// Percent done, 0-100.
    pub progress: u8,
    /// The current step, while running.
    pub step: Option<String>,
    /// What is happening, for a person.
    pub message: Option<String>,
    /// Why the job failed, for the visitor.
    pub error: Option<String>,
    /// How many times a worker claimed it.
    pub attempts: u32,
    /// The worker that owns it while running.
    pub claimed_by: Option<String>,
    /// The owner's last sign of life.
    pub heartbeat_at: Option<DateTime<Utc>>,
    /// When it was queued.
    pub created_at: DateTime<Utc>,
    /// When it last changed.
    pub updated_at: DateTime<Utc>,
    /// When a worker first started it.
    pub started_at: Option<DateTime<Utc>>,
    /// When it completed or failed.
    pub finished_at: Option<DateTime<Utc>>,
    /// The signed-in requester, if any.
    pub requester_user_id: Option<i64>,
    /// The requester's address.
    pub requester_ip: Option<String>,
    /// The report it produced.
    pub result_id: Option<Uuid>,
    /// What a paid analysis cost, and who paid; `None` for a free one.
    pub charge: Option<Charge>,
    /// When a failed paid analysis gave its credits back.
    pub credits_refunded_at: Option<DateTime<Utc>>,
    /// Where an API client asked to be called back when it ends.
    pub callback_url: Option<String>,
}

/// The charge recorded on a job row, if it cost anything.
pub(crate) fn charge_of(row: &analysis_jobs::Model) -> Option<Charge> {
    let charge = Charge {
        trial: stored(row.trial_charge),
        paid: stored(row.paid_charge),
        plan: stored(row.plan_charge),
        paid_by: row
            .charged_user_id
            .or(row.requester_user_id)
            .unwrap_or_default(),
    };
    (!charge.total().is_zero()).then_some(charge)
}

impl TryFrom<analysis_jobs::Model> for Job {
    type Error = StoreError;

    fn try_from(row: analysis_jobs::Model) -> StoreResult<Job> {
        let status = JobStatus::parse(&row.status).ok_or_else(|| {
            StoreError::data(format!("stored job status {:?} is unknown", row.status))
        })?;
        let report_type = parse_tier(&row.tier)?;
        let charge = charge_of(&row);
        Ok(Job {
            id: row.id,
            website_id: row.website_id,
            url: row.url,
            canonical_url: row.canonical_url,
            status,
            report_type,
            requested_pages: u32::try_from(row.requested_pages).unwrap_or(0),
            progress: u8::try_from(row.progress.clamp(0, 100)).unwrap_or(0),
            step: row.step,
            message: row.message,
            error: row.error,
            attempts: u32::try_from(row.attempts).unwrap_or(0),
            claimed_by: row.claimed_by,
            heartbeat_at: row.heartbeat_at,
            created_at: row.created_at,
            updated_at: row.updated_at,
            started_at: row.started_at,
            finished_at: row.finished_at,
            requester_user_id: row.requester_user_id,
            requester_ip: row.requester_ip,
            result_id: row.result_id,
            charge,
            credits_refunded_at: row.credits_refunded_at,
            callback_url: row.callback_url,
        })
    }
}

impl Job {
    /// The progress event that tells a client this job's stored state (docs/PRODUCT.md §7.3).
    pub fn progress_event(&self) -> ProgressEvent {
        let kind = match self.status {
            JobStatus::Complete => ProgressEventType::Complete,
            JobStatus::Failed => ProgressEventType::Error,
            JobStatus::Queued | JobStatus::Running => ProgressEventType::Progress,
        };
        let message = match kind {
            ProgressEventType::Error => self
                .error
                .clone()
                .unwrap_or_else(|| "Analysis failed".to_owned()),
            ProgressEventType::Complete => "Analysis complete!".to_owned(),
            _ => self
                .message
                .clone()
                .unwrap_or_else(|| "Waiting for a free analyser".to_owned()),
        };
        ProgressEvent {
            kind,
            analysis_id: self.id.to_string(),
            step: self.step.clone().filter(|s| s != "complete"),
            progress: u32::from(self.progress),
            message,
            timestamp: self.updated_at.timestamp_millis() as f64,
            result_id: self.result_id.map(|id| id.to_string()),
        }
    }

    /// The job as `/api/v1` shows it: its status, progress and what it cost.
    pub fn api_view(&self) -> domain::api::ApiAnalysis {
        use domain::api::AnalysisStatus;
        domain::api::ApiAnalysis {
            id: self.id.to_string(),
            url: self.canonical_url.clone(),
            report_type: self.report_type,
            status: match self.status {
                JobStatus::Queued => AnalysisStatus::Queued,
                JobStatus::Running => AnalysisStatus::Running,
                JobStatus::Complete => AnalysisStatus::Complete,
                JobStatus::Failed => AnalysisStatus::Failed,
            },
            progress: u32::from(self.progress),
            step: self.step.clone().filter(|s| s != "complete"),
            message: self.message.clone(),
            error: self.error.clone(),
            cost: self.charge.map_or(Credits::ZERO, |c| c.total()),
            created_at: self.created_at.to_rfc3339(),
            finished_at: self.finished_at.map(|t| t.to_rfc3339()),
            // Where the delivery is comes from `callbacks::api_views`; until the analysis
            // ends there is nothing to deliver.
            callback: self
                .callback_url
                .clone()
                .map(|url| domain::callbacks::ApiCallback {
                    url,
                    state: domain::callbacks::CallbackState::Waiting,
                    event_id: None,
                    next_attempt_at: None,
                    attempts: Vec::new(),
                }),
        }
    }

    /// Whether a failure of this job gives its visitor's free analysis back: an anonymous
    /// basic analysis used one (docs/PRODUCT.md §9.1).
    pub fn used_free_allowance(&self) -> bool {
        self.charge.is_none()
            && self.report_type == ReportType::Basic
            && self.requester_user_id.is_none()
    }
}

/// Reads the tier stored in `analysis_jobs.tier` or `analysis_results.tier` (written as
/// [`ReportType::as_str`]).
pub(crate) fn parse_tier(value: &str) -> StoreResult<ReportType> {
    ReportType::parse(value)
        .ok_or_else(|| StoreError::data(format!("stored tier {value:?} is unknown")))
}

/// An analysis to queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewAnalysis {
    /// The address as the visitor typed it.
    pub url: String,
    /// The normalised address (the website's identity).
    pub canonical_url: String,
    /// Report depth (docs/PRODUCT.md §9.2).
    pub report_type: ReportType,
    /// Pages to crawl.
    pub requested_pages: u32,
    /// The signed-in requester, if any.
    pub requester_user_id: Option<i64>,
    /// The requester's address.
    pub requester_ip: Option<String>,
}

/// Jobs changed by [`recover_stale_jobs`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recovery {
    /// Put back in the queue for another attempt.
    pub requeued: Vec<Uuid>,
    /// Failed with [`INTERRUPTED_TWICE`].
    pub failed: Vec<Uuid>,
}

/// Counts the analysis on its website (creating the website on first sight) and queues the
/// job, in one transaction.
pub async fn enqueue_analysis(db: &DatabaseConnection, analysis: &NewAnalysis) -> StoreResult<Job> {
    let txn = begin_write(db).await?;
    let job = enqueue_in(&txn, analysis, Uuid::new_v4(), None).await?;
    txn.commit().await?;
    Ok(job)
}

/// A free analysis: counts it against the visitor address's daily allowance (see
/// [`crate::allowance::record_free_analysis`]) and queues it, in one transaction, so an
/// allowance is never used up by an analysis that was not queued. `None` when the address has
/// used its `limit` for the UTC day.
pub async fn enqueue_free_analysis(
    db: &DatabaseConnection,
    ip_address: &str,
    at: DateTime<Utc>,
    limit: u32,
    analysis: &NewAnalysis,
) -> StoreResult<Option<Job>> {
    let txn = begin_write(db).await?;
    match record_in(&txn, ip_address, &analysis.canonical_url, at, limit).await? {
        FreeAnalysis::LimitReached => {
            txn.rollback().await?;
            Ok(None)
        }
        FreeAnalysis::Allowed { .. } => {
            let job = enqueue_in(&txn, analysis, Uuid::new_v4(), None).await?;
            txn.commit().await?;
            Ok(Some(job))
        }
    }
}

/// The outcome of [`enqueue_paid_analysis`].
// Made once per request and matched at once: boxing the job would only add an allocation.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PaidAnalysis {
    /// The credits were spent and the job queued.
    Queued(Job),
    /// The payer's credits did not cover the cost; nothing was written.
    Insufficient {
        /// What the payer could spend.
        balance: Credits,
    },
}

/// A paid analysis: spends `cost` for `payer` (see [`crate::credits::spend_credits`]; the
/// ledger rows name the job), queues the job owned by `payer.user_id` with its charge recorded,
/// in one transaction: a credit is never spent on an analysis that was not queued, and an
/// analysis is never queued unpaid. `analysis.requester_user_id` is replaced by the payer.
pub async fn enqueue_paid_analysis(
    db: &DatabaseConnection,
    payer: Payer,
    cost: Credits,
    analysis: &NewAnalysis,
) -> StoreResult<PaidAnalysis> {
    let id = Uuid::new_v4();
    let analysis = NewAnalysis {
        requester_user_id: Some(payer.user_id),
        ..analysis.clone()
    };
    let txn = begin_write(db).await?;
    match spend_in(&txn, payer, cost, Some(&id.to_string())).await? {
        Spend::Insufficient { balance } => {
            txn.rollback().await?;
            Ok(PaidAnalysis::Insufficient { balance })
        }
        Spend::Spent(charge) => {
            let job = enqueue_in(&txn, &analysis, id, Some(&charge)).await?;
            txn.commit().await?;
            Ok(PaidAnalysis::Queued(job))
        }
    }
}

/// The outcome of [`enqueue_paid_analysis_once`].
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeyedAnalysis {
    /// The credits were spent and the job queued under the key.
    Queued(Job),
    /// The requester queued a job under this key before: that job, nothing charged again.
    Existing(Job),
    /// The payer's credits did not cover the cost and no job has the key; nothing was written.
    Insufficient {
        /// What the payer could spend.
        balance: Credits,
    },
}

/// [`enqueue_paid_analysis`] at most once per requester and `idempotency_key` (an API client's
/// `Idempotency-Key`): a submission whose key the requester used before answers the job queued
/// then and spends nothing.
///
/// The unique index on `(requester_user_id, idempotency_key)` decides, not a check in memory:
/// concurrent submissions with one key queue one job. Each spends inside its own transaction
/// and writes the key on its job; every one but the first fails on the index (PostgreSQL makes
/// it wait for the first to commit; SQLite runs one writer at a time), rolls back its spend and
/// answers the first one's job. A submission that finds the credits already spent by the first
/// looks for the key's job before answering that the credits do not cover it.
///
/// A key names its job only while the job was queued at or after `keys_valid_since` (the API
/// keeps keys for a day, `domain::api::IDEMPOTENCY_KEY_TTL_SECONDS`): an older job with the key
/// loses it here first, so the submission queues (and charges) a new analysis, exactly when the
/// key expires rather than when the periodic sweep ([`expire_idempotency_keys`]) comes by.
pub async fn enqueue_paid_analysis_once(
    db: &DatabaseConnection,
    payer: Payer,
    cost: Credits,
    analysis: &NewAnalysis,
    idempotency_key: &str,
    keys_valid_since: DateTime<Utc>,
) -> StoreResult<KeyedAnalysis> {
    enqueue_api_analysis(
        db,
        payer,
        cost,
        analysis,
        &ApiOptions {
            idempotency_key: Some(idempotency_key),
            callback_url: None,
        },
        keys_valid_since,
    )
    .await
}

/// What an API submission adds to a paid analysis.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ApiOptions<'a> {
    /// The client's `Idempotency-Key`: at most one job per requester and key.
    pub idempotency_key: Option<&'a str>,
    /// Where to post the callback when the analysis ends (checked by the caller).
    pub callback_url: Option<&'a str>,
}

/// [`enqueue_paid_analysis`] for an API client: with an idempotency key, as
/// [`enqueue_paid_analysis_once`] (which this is); with a callback address, stored on the job
/// in the same transaction. Without a key, a job is always queued (or the credits fall short).
/// Keys of jobs queued before `keys_valid_since` are forgotten first, as there.
pub async fn enqueue_api_analysis(
    db: &DatabaseConnection,
    payer: Payer,
    cost: Credits,
    analysis: &NewAnalysis,
    options: &ApiOptions<'_>,
    keys_valid_since: DateTime<Utc>,
) -> StoreResult<KeyedAnalysis> {
    let key = options.idempotency_key;
    if let Some(key) = key {
        forget_idempotency_keys(db, Some((payer.user_id, key)), keys_valid_since).await?;
    }
    if let Some(key) = key
        && let Some(job) = job_for_idempotency_key(db, payer.user_id, key).await?
    {
        return Ok(KeyedAnalysis::Existing(job));
    }
    let id = Uuid::new_v4();
    let analysis = NewAnalysis {
        requester_user_id: Some(payer.user_id),
        ..analysis.clone()
    };
    let txn = begin_write(db).await?;
    let attempt: StoreResult<Result<(), Credits>> = async {
        match spend_in(&txn, payer, cost, Some(&id.to_string())).await? {
            Spend::Insufficient { balance } => Ok(Err(balance)),
            Spend::Spent(charge) => {
                enqueue_in(&txn, &analysis, id, Some(&charge)).await?;
                if key.is_some() || options.callback_url.is_some() {
                    analysis_jobs::Entity::update_many()
                        .col_expr(C::IdempotencyKey, Expr::value(key))
                        .col_expr(C::CallbackUrl, Expr::value(options.callback_url))
                        .filter(C::Id.eq(id))
                        .exec(&txn)
                        .await?;
                }
                Ok(Ok(()))
            }
        }
    }
    .await;
    match attempt {
        Ok(Ok(())) => {
            txn.commit().await?;
            Ok(KeyedAnalysis::Queued(get_job(db, id).await?))
        }
        Ok(Err(balance)) => {
            txn.rollback().await?;
            let earlier = match key {
                Some(key) => job_for_idempotency_key(db, payer.user_id, key).await?,
                None => None,
            };
            Ok(match earlier {
                Some(job) => KeyedAnalysis::Existing(job),
                None => KeyedAnalysis::Insufficient { balance },
            })
        }
        Err(StoreError::Conflict(detail)) if key.is_some() => {
            txn.rollback().await?;
            let key = key.unwrap_or_default();
            job_for_idempotency_key(db, payer.user_id, key)
                .await?
                .map(KeyedAnalysis::Existing)
                .ok_or(StoreError::Conflict(detail))
        }
        Err(e) => Err(e),
    }
}

/// Forgets the `Idempotency-Key` of every job queued before `before` (the periodic sweep, with
/// `before` a day ago): a later submission with one of those keys is a new analysis. Clearing
/// the column keeps the unique index on `(requester_user_id, idempotency_key)` to live keys, so
/// a key expires without its job changing in any other way. Returns how many keys were
/// forgotten.
pub async fn expire_idempotency_keys(
    db: &DatabaseConnection,
    before: DateTime<Utc>,
) -> StoreResult<u64> {
    forget_idempotency_keys(db, None, before).await
}

/// Clears the key of jobs queued before `before`: every such job's, or only `(requester, key)`'s.
async fn forget_idempotency_keys(
    db: &DatabaseConnection,
    only: Option<(i64, &str)>,
    before: DateTime<Utc>,
) -> StoreResult<u64> {
    let mut update = analysis_jobs::Entity::update_many()
        .col_expr(C::IdempotencyKey, Expr::value(Option::<String>::None))
        .filter(C::IdempotencyKey.is_not_null())
        .filter(C::CreatedAt.lt(before));
    if let Some((requester, key)) = only {
        update = update
            .filter(C::RequesterUserId.eq(requester))
            .filter(C::IdempotencyKey.eq(key));
    }
    Ok(update.exec(db).await?.rows_affected)
}

/// The job `requester` queued under `idempotency_key`, if any.
pub async fn job_for_idempotency_key(
    db: &DatabaseConnection,
    requester: i64,
    idempotency_key: &str,
) -> StoreResult<Option<Job>> {
    analysis_jobs::Entity::find()
        .filter(C::RequesterUserId.eq(requester))
        .filter(C::IdempotencyKey.eq(idempotency_key))
        .one(db)
        .await?
        .map(Job::try_from)
        .transpose()
}

pub(crate) async fn enqueue_in<T: ConnectionTrait>(
    txn: &T,
    analysis: &NewAnalysis,
    id: Uuid,
    charge: Option<&Charge>,
) -> StoreResult<Job> {
    let at = now();
    let website = websites::upsert(txn, &analysis.canonical_url, at).await?;
    let row = analysis_jobs::ActiveModel {
        id: Set(id),
        website_id: Set(website.id),
        url: Set(analysis.url.clone()),
        canonical_url: Set(analysis.canonical_url.clone()),
        status: Set(JobStatus::Queued.as_str().to_owned()),
        tier: Set(analysis.report_type.as_str().to_owned()),
        requested_pages: Set(i32::try_from(analysis.requested_pages).unwrap_or(i32::MAX)),
        progress: Set(0),
        step: Set(None),
        message: Set(None),
        error: Set(None),
        attempts: Set(0),
        claimed_by: Set(None),
        heartbeat_at: Set(None),
        created_at: Set(at),
        updated_at: Set(at),
        started_at: Set(None),
        finished_at: Set(None),
        requester_user_id: Set(analysis.requester_user_id),
        requester_ip: Set(analysis.requester_ip.clone()),
        result_id: Set(None),
        trial_charge: Set(charge.map_or(0, |c| crate::credits::halves(c.trial))),
        paid_charge: Set(charge.map_or(0, |c| crate::credits::halves(c.paid))),
        plan_charge: Set(charge.map_or(0, |c| crate::credits::halves(c.plan))),
        charged_user_id: Set(charge.map(|c| c.paid_by)),
        credits_refunded_at: Set(None),
        idempotency_key: Set(None),
        callback_url: Set(None),
    };
    analysis_jobs::Entity::insert(row)
        .exec_with_returning(txn)
        .await?
        .try_into()
}

/// The job with this id.
pub async fn get_job(db: &DatabaseConnection, id: Uuid) -> StoreResult<Job> {
    analysis_jobs::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or(StoreError::NotFound)?
        .try_into()
}

/// An update of the job `job_id` that only applies while `worker_id` runs it.
fn owned_by(job_id: Uuid, worker_id: &str) -> sea_orm::UpdateMany<analysis_jobs::Entity> {
    analysis_jobs::Entity::update_many()
        .filter(C::Id.eq(job_id))
        .filter(C::ClaimedBy.eq(worker_id))
        .filter(C::Status.eq(JobStatus::Running.as_str()))
}

/// Claims the oldest queued job for `worker_id`, or returns `None` when the queue is empty.
///
/// PostgreSQL picks the row with `FOR UPDATE SKIP LOCKED`, so concurrent workers take
/// different jobs without waiting on each other. SQLite runs one writer at a time (and has no
/// row locks: the query builder leaves the clause out); the `status = 'queued'` guard on the
/// update makes a second claimant of the same row update nothing. Either way no job is ever
/// claimed twice.
pub async fn claim_next_job(db: &DatabaseConnection, worker_id: &str) -> StoreResult<Option<Job>> {
    let at = now();
    let queued = JobStatus::Queued.as_str();
    let oldest = Query::select()
        .column(C::Id)
        .from(analysis_jobs::Entity)
        .and_where(Expr::col(C::Status).eq(queued))
        .order_by(C::CreatedAt, Order::Asc)
        .order_by(C::Id, Order::Asc)
        .limit(1)
        .lock_with_behavior(LockType::Update, LockBehavior::SkipLocked)
        .to_owned();
    let claimed = analysis_jobs::Entity::update_many()
        .col_expr(C::Status, Expr::value(JobStatus::Running.as_str()))
        .col_expr(C::ClaimedBy, Expr::value(worker_id))
        .col_expr(C::HeartbeatAt, Expr::value(at))
        .col_expr(C::UpdatedAt, Expr::value(at))
        .col_expr(
            C::StartedAt,
            Func::coalesce([Expr::col(C::StartedAt), Expr::value(at)]).into(),
        )
        .col_expr(C::Attempts, Expr::col(C::Attempts).add(1))
        .filter(C::Status.eq(queued))
        // `id = (subquery)`, not `IN`: PostgreSQL evaluates a scalar subquery once, while an
        // `IN` subquery may be run again for each row and so claim several jobs.
        .filter(Expr::col((analysis_jobs::Entity, C::Id)).eq(oldest))
        .exec_with_returning(db)
        .await?;
    claimed.into_iter().next().map(Job::try_from).transpose()
}

/// Records that `worker_id` is still working on the job.
///
/// Fails with [`StoreError::Conflict`] when the job is no longer this worker's (it was
/// recovered after a missed heartbeat, or finished): the worker should stop.
pub async fn heartbeat(db: &DatabaseConnection, job_id: Uuid, worker_id: &str) -> StoreResult<()> {
    let updated = owned_by(job_id, worker_id)
        .col_expr(C::HeartbeatAt, Expr::value(now()))
        .exec(db)
        .await?;
    owned(updated.rows_affected)
}

/// Stores the job's progress (percent 0-100, the current step and a message); it also counts
/// as a heartbeat. Same ownership rule as [`heartbeat`].
pub async fn update_progress(
    db: &DatabaseConnection,
    job_id: Uuid,
    worker_id: &str,
    progress: u8,
    step: &str,
    message: &str,
) -> StoreResult<()> {
    let at = now();
    let updated = owned_by(job_id, worker_id)
        .col_expr(C::Progress, Expr::value(i32::from(Ord::min(progress, 100))))
        .col_expr(C::Step, Expr::value(step))
        .col_expr(C::Message, Expr::value(message))
        .col_expr(C::HeartbeatAt, Expr::value(at))
        .col_expr(C::UpdatedAt, Expr::value(at))
        .exec(db)
        .await?;
    owned(updated.rows_affected)
}

/// Stores the job's report and marks the job complete, in one transaction; returns the
/// report's id. Same ownership rule as [`heartbeat`]: a worker that lost the job writes
/// nothing.
pub async fn complete_job(
    db: &DatabaseConnection,
    job_id: Uuid,
    worker_id: &str,
    result: &NewResult,
) -> StoreResult<Uuid> {
    let at = now();
    let txn = begin_write(db).await?;
    // Take the job first: on SQLite this is the transaction's first write, and on PostgreSQL
    // it locks the row so a concurrent recovery waits for this commit.
    let taken = owned_by(job_id, worker_id)
        .col_expr(C::Status, Expr::value(JobStatus::Complete.as_str()))
        .col_expr(C::Progress, Expr::value(100))
        .col_expr(C::Step, Expr::value("complete"))
        .col_expr(C::Message, Expr::value("Analysis complete"))
        .col_expr(C::HeartbeatAt, Expr::value(at))
        .col_expr(C::UpdatedAt, Expr::value(at))
        .col_expr(C::FinishedAt, Expr::value(at))
        .exec_with_returning(&txn)
        .await?;
    let Some(row) = taken.into_iter().next() else {
        txn.rollback().await?;
        return Err(lost());
    };
    callbacks::enqueue_in(&txn, &row, CallbackEventType::AnalysisCompleted, at).await?;
    let job = Job::try_from(row)?;
    // A report is paid when its analysis was (docs/PRODUCT.md §6.3): that decides what its
    // readers see, whatever the report itself says.
    let paid = job.charge.is_some();
    let brand_owner = branded_by(&txn, &job, paid).await?;
    let result = NewResult {
        paid,
        is_white_labeled: brand_owner.is_some(),
        whitelabel_user_id: brand_owner,
        ..result.clone()
    };
    let result_id = insert_result(&txn, job.website_id, &job.url, job.report_type, &result).await?;
    analysis_jobs::Entity::update_many()
        .col_expr(C::ResultId, Expr::value(result_id))
        .filter(C::Id.eq(job_id))
        .exec(&txn)
        .await?;
    increment(&txn, ANALYSES_COMPLETED).await?;
    txn.commit().await?;
    Ok(result_id)
}

/// The agency whose brand a finished job's report wears (docs/PRODUCT.md §9.2,
/// [`domain::whitelabel::report_branded`]): whoever paid for it (the team owner, for a member),
/// else whoever asked for it, when that account is white-label or the report is a paid Premium
/// one. Which brand is shown is read with the report, so an agency's later changes reach it.
async fn branded_by<C: ConnectionTrait>(
    txn: &C,
    job: &Job,
    paid: bool,
) -> StoreResult<Option<i64>> {
    let Some(owner) = job
        .charge
        .as_ref()
        .map(|c| c.paid_by)
        .filter(|id| *id != 0)
        .or(job.requester_user_id)
    else {
        return Ok(None);
    };
    let Some(user) = crate::entity::users::Entity::find_by_id(owner)
        .one(txn)
        .await?
    else {
        return Ok(None);
    };
    let white_label =
        domain::whitelabel::account_white_label(&user.subscription_plan, user.has_white_label);
    Ok(domain::whitelabel::report_branded(paid, job.report_type, white_label).then_some(owner))
}

/// Marks the job failed with an error message for the visitor and, for a paid analysis, gives
/// its credits back, in one transaction. Same ownership rule as [`heartbeat`]. Returns the
/// charge that was given back, if any: it is given back once, whichever path fails the job
/// (`credits_refunded_at` is set by a guarded update).
pub async fn fail_job(
    db: &DatabaseConnection,
    job_id: Uuid,
    worker_id: &str,
    error: &str,
) -> StoreResult<Option<Charge>> {
    let at = now();
    let txn = begin_write(db).await?;
    let failed = owned_by(job_id, worker_id)
        .col_expr(C::Status, Expr::value(JobStatus::Failed.as_str()))
        .col_expr(C::Error, Expr::value(error))
        .col_expr(C::HeartbeatAt, Expr::value(at))
        .col_expr(C::UpdatedAt, Expr::value(at))
        .col_expr(C::FinishedAt, Expr::value(at))
        .exec_with_returning(&txn)
        .await?;
    let Some(row) = failed.into_iter().next() else {
        txn.rollback().await?;
        return Err(lost());
    };
    let refunded = refund_once_in(&txn, &row).await?;
    callbacks::enqueue_in(&txn, &row, CallbackEventType::AnalysisFailed, at).await?;
    txn.commit().await?;
    Ok(refunded)
}

/// Gives a failed paid job's credits back, unless they were given back before: the job's
/// `credits_refunded_at` is set only where it is still empty, and only the caller that set it
/// refunds.
async fn refund_once_in<T: ConnectionTrait>(
    txn: &T,
    row: &analysis_jobs::Model,
) -> StoreResult<Option<Charge>> {
    let Some(charge) = charge_of(row) else {
        return Ok(None);
    };
    let marked = analysis_jobs::Entity::update_many()
        .col_expr(C::CreditsRefundedAt, Expr::value(now()))
        .filter(C::Id.eq(row.id))
        .filter(C::CreditsRefundedAt.is_null())
        .exec(txn)
        .await?;
    if marked.rows_affected != 1 {
        return Ok(None);
    }
    let trial_user = row.requester_user_id.unwrap_or(charge.paid_by);
    refund_in(txn, trial_user, &charge, Some(&row.id.to_string())).await?;
    Ok(Some(charge))
}

/// What a job's stream says after [`release_job`] put it back in the queue.
pub const RELEASED: &str = "The analyser was restarted: your analysis is queued again";

/// Puts a running job back in the queue at once, for a worker that is shutting down: another
/// worker takes it without waiting for the heartbeat timeout. The interrupted run does not
/// count as an attempt (a deployment must not use up a job's retry). Same ownership rule as
/// [`heartbeat`]: a job this worker no longer owns is left alone.
pub async fn release_job(
    db: &DatabaseConnection,
    job_id: Uuid,
    worker_id: &str,
) -> StoreResult<Job> {
    let released = owned_by(job_id, worker_id)
        .col_expr(C::Status, Expr::value(JobStatus::Queued.as_str()))
        .col_expr(C::ClaimedBy, Expr::value(Option::<String>::None))
        .col_expr(C::HeartbeatAt, Expr::value(Option::<DateTime<Utc>>::None))
        .col_expr(C::Attempts, Expr::col(C::Attempts).sub(1))
        .col_expr(C::Progress, Expr::value(0))
        .col_expr(C::Step, Expr::value(Option::<String>::None))
        .col_expr(C::Message, Expr::value(RELEASED))
        .col_expr(C::UpdatedAt, Expr::value(now()))
        .exec_with_returning(db)
        .await?;
    released
        .into_iter()
        .next()
        .ok_or_else(lost)
        .and_then(Job::try_from)
}

/// Recovers running jobs whose last heartbeat is older than `heartbeat_before`: a job claimed
/// fewer than [`MAX_JOB_ATTEMPTS`] times goes back to the queue; the others fail with
/// [`INTERRUPTED_TWICE`]. Nothing stays "running" forever.
///
/// Run it periodically with `now - heartbeat timeout`; a single-process deployment can run it
/// at start-up with the start time, since no job of the previous process can still be alive.
pub async fn recover_stale_jobs(
    db: &DatabaseConnection,
    heartbeat_before: DateTime<Utc>,
) -> StoreResult<Recovery> {
    let at = now();
    let stale = || {
        analysis_jobs::Entity::update_many()
            .filter(C::Status.eq(JobStatus::Running.as_str()))
            .filter(C::HeartbeatAt.lt(heartbeat_before))
    };
    // Failing a job and giving its credits back are one transaction.
    let txn = begin_write(db).await?;
    let failed = stale()
        .filter(C::Attempts.gte(MAX_JOB_ATTEMPTS))
        .col_expr(C::Status, Expr::value(JobStatus::Failed.as_str()))
        .col_expr(C::Error, Expr::value(INTERRUPTED_TWICE))
        .col_expr(C::Message, Expr::value(INTERRUPTED_TWICE))
        .col_expr(C::ClaimedBy, Expr::value(Option::<String>::None))
        .col_expr(C::UpdatedAt, Expr::value(at))
        .col_expr(C::FinishedAt, Expr::value(at))
        .exec_with_returning(&txn)
        .await?;
    for row in &failed {
        refund_once_in(&txn, row).await?;
        callbacks::enqueue_in(&txn, row, CallbackEventType::AnalysisFailed, at).await?;
    }
    txn.commit().await?;
    let requeued = stale()
        .filter(C::Attempts.lt(MAX_JOB_ATTEMPTS))
        .col_expr(C::Status, Expr::value(JobStatus::Queued.as_str()))
        .col_expr(C::ClaimedBy, Expr::value(Option::<String>::None))
        .col_expr(C::HeartbeatAt, Expr::value(Option::<DateTime<Utc>>::None))
        .col_expr(C::Progress, Expr::value(0))
        .col_expr(C::Step, Expr::value(Option::<String>::None))
        .col_expr(
            C::Message,
            Expr::value("The analysis was interrupted and will be retried"),
        )
        .col_expr(C::UpdatedAt, Expr::value(at))
        .exec_with_returning(db)
        .await?;
    let ids = |rows: Vec<analysis_jobs::Model>| rows.into_iter().map(|r| r.id).collect();
    Ok(Recovery {
        requeued: ids(requeued),
        failed: ids(failed),
    })
}

fn owned(rows_affected: u64) -> StoreResult<()> {
    if rows_affected == 1 {
        Ok(())
    } else {
        Err(lost())
    }
}

fn lost() -> StoreError {
    StoreError::Conflict("the job is not running for this worker".into())
}

/// The newest `limit` jobs a signed-in user requested, newest first (their dashboard).
pub async fn jobs_for_user(
    db: &DatabaseConnection,
    user_id: i64,
    limit: u64,
) -> StoreResult<Vec<Job>> {
    analysis_jobs::Entity::find()
        .filter(analysis_jobs::Column::RequesterUserId.eq(user_id))
        .order_by_desc(analysis_jobs::Column::CreatedAt)
        .limit(limit)
        .all(db)
        .await?
        .into_iter()
        .map(Job::try_from)
        .collect()
}

/// One page of the jobs a user requested, newest first, and how many they requested in all
/// (`GET /api/v1/analyses`).
pub async fn jobs_page_for_user(
    db: &DatabaseConnection,
    user_id: i64,
    offset: u64,
    limit: u64,
) -> StoreResult<(Vec<Job>, u64)> {
    use sea_orm::PaginatorTrait;
    let mine = analysis_jobs::Entity::find().filter(C::RequesterUserId.eq(user_id));
    let total = mine.clone().count(db).await?;
    let jobs = mine
        .order_by_desc(C::CreatedAt)
        .order_by_desc(C::Id)
        .offset(offset)
        .limit(limit)
        .all(db)
        .await?
        .into_iter()
        .map(Job::try_from)
        .collect::<StoreResult<Vec<Job>>>()?;
    Ok((jobs, total))
}

/// The newest `limit` jobs, optionally only those in one status, newest first (admin view).
pub async fn recent_jobs(
    db: &DatabaseConnection,
    status: Option<JobStatus>,
    limit: u64,
) -> StoreResult<Vec<Job>> {
    let mut query = analysis_jobs::Entity::find();
    if let Some(status) = status {
        query = query.filter(analysis_jobs::Column::Status.eq(status.as_str()));
    }
    query
        .order_by_desc(analysis_jobs::Column::CreatedAt)
        .limit(limit)
        .all(db)
        .await?
        .into_iter()
        .map(Job::try_from)
        .collect()
}

/// The queue at a glance (`/api-status`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueueSummary {
    /// Jobs waiting for a worker.
    pub waiting: u64,
    /// Jobs being run.
    pub running: u64,
    /// When the oldest waiting job was queued.
    pub oldest_queued_at: Option<DateTime<Utc>>,
}

/// How many jobs wait and run, and since when the oldest one waits.
pub async fn queue_summary(db: &DatabaseConnection) -> StoreResult<QueueSummary> {
    use sea_orm::PaginatorTrait;
    let in_status = |s: JobStatus| analysis_jobs::Entity::find().filter(C::Status.eq(s.as_str()));
    let waiting = in_status(JobStatus::Queued).count(db).await?;
    let running = in_status(JobStatus::Running).count(db).await?;
    let oldest_queued_at = in_status(JobStatus::Queued)
        .order_by_asc(C::CreatedAt)
        .one(db)
        .await?
        .map(|row| row.created_at);
    Ok(QueueSummary {
        waiting,
        running,
        oldest_queued_at,
    })
}
