//! What `/api-status` reads and keeps: the workers' heartbeats and the per-minute health
//! samples (migration `m20261128_000021_health_samples`).
//!
//! - Every worker process writes its row of `worker_heartbeats` every few seconds
//!   ([`beat`]); a web node counts the rows written within the heartbeat timeout as live
//!   workers ([`workers_since`]). A worker that stops cleanly removes its row ([`forget_worker`]);
//!   a dead one's row ages out and is removed a day later ([`prune_workers`]).
//! - `health_samples` holds one row per minute, keyed by the minute: every web node offers a
//!   sample each minute ([`record_sample`]), the first insert of a minute wins and the others do
//!   nothing, so however many processes share the database there is one sample a minute. The
//!   insert that created a minute's row also removes the rows older than the kept window.

use chrono::{DateTime, Utc};
use domain::status::{BrowserMode, ServiceState};
use sea_orm::sea_query::OnConflict;
use sea_orm::{
    ActiveValue::Set, ColumnTrait, DatabaseConnection, DbBackend, EntityTrait, QueryFilter,
    QueryOrder,
};

use crate::entity::{health_samples, worker_heartbeats};
use crate::{StoreError, StoreResult};

/// The database engine's name: `sqlite` or `postgres`.
pub fn engine(db: &DatabaseConnection) -> &'static str {
    match db.get_database_backend() {
        DbBackend::Postgres => "postgres",
        DbBackend::Sqlite => "sqlite",
        _ => "other",
    }
}

/// A worker process's report of itself.
#[derive(Clone, Debug, PartialEq)]
pub struct WorkerBeat {
    /// Its name (as in `analysis_jobs.claimed_by`).
    pub worker_id: String,
    /// When it started.
    pub started_at: DateTime<Utc>,
    /// When it wrote this report.
    pub beat_at: DateTime<Utc>,
    /// Analyses it runs at once.
    pub concurrency: u32,
    /// Analyses it is running.
    pub busy: u32,
    /// Its browser.
    pub browser: BrowserMode,
    /// Tabs measuring pages.
    pub tabs_in_use: u32,
    /// Tabs it may open at once.
    pub tabs_max: u32,
    /// Prepared blank tabs.
    pub spare_tabs: u32,
}

fn int(n: u32) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

fn uint(n: i32) -> u32 {
    u32::try_from(n).unwrap_or(0)
}

impl TryFrom<worker_heartbeats::Model> for WorkerBeat {
    type Error = StoreError;

    fn try_from(row: worker_heartbeats::Model) -> StoreResult<WorkerBeat> {
        let browser = BrowserMode::parse(&row.browser).ok_or_else(|| {
            StoreError::data(format!("stored browser state {:?} is unknown", row.browser))
        })?;
        Ok(WorkerBeat {
            worker_id: row.worker_id,
            started_at: row.started_at,
            beat_at: row.beat_at,
            concurrency: uint(row.concurrency),
            busy: uint(row.busy),
            browser,
            tabs_in_use: uint(row.tabs_in_use),
            tabs_max: uint(row.tabs_max),
            spare_tabs: uint(row.spare_tabs),
        })
    }
}

/// Writes a worker's report, replacing its previous one.
pub async fn beat(db: &DatabaseConnection, report: &WorkerBeat) -> StoreResult<()> {
    use worker_heartbeats::Column as W;
    worker_heartbeats::Entity::insert(worker_heartbeats::ActiveModel {
        worker_id: Set(report.worker_id.clone()),
        started_at: Set(report.started_at),
        beat_at: Set(report.beat_at),
        concurrency: Set(int(report.concurrency)),
        busy: Set(int(report.busy)),
        browser: Set(report.browser.as_str().to_owned()),
        tabs_in_use: Set(int(report.tabs_in_use)),
        tabs_max: Set(int(report.tabs_max)),
        spare_tabs: Set(int(report.spare_tabs)),
    })
    .on_conflict(
        OnConflict::column(W::WorkerId)
            .update_columns([
                W::BeatAt,
                W::Concurrency,
                W::Busy,
                W::Browser,
                W::TabsInUse,
                W::TabsMax,
                W::SpareTabs,
            ])
            .to_owned(),
    )
    .exec_without_returning(db)
    .await?;
    Ok(())
}

/// Removes a worker's report: it stopped.
pub async fn forget_worker(db: &DatabaseConnection, worker_id: &str) -> StoreResult<()> {
    worker_heartbeats::Entity::delete_by_id(worker_id.to_owned())
        .exec(db)
        .await?;
    Ok(())
}

/// The workers that reported at or after `since`, oldest first.
pub async fn workers_since(
    db: &DatabaseConnection,
    since: DateTime<Utc>,
) -> StoreResult<Vec<WorkerBeat>> {
    worker_heartbeats::Entity::find()
        .filter(worker_heartbeats::Column::BeatAt.gte(since))
        .order_by_asc(worker_heartbeats::Column::StartedAt)
        .all(db)
        .await?
        .into_iter()
        .map(WorkerBeat::try_from)
        .collect()
}

/// Removes the reports of workers silent since before `before` (dead processes).
pub async fn prune_workers(db: &DatabaseConnection, before: DateTime<Utc>) -> StoreResult<u64> {
    Ok(worker_heartbeats::Entity::delete_many()
        .filter(worker_heartbeats::Column::BeatAt.lt(before))
        .exec(db)
        .await?
        .rows_affected)
}

/// One minute's health sample.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The minute's start, seconds since the Unix epoch.
    pub minute: i64,
    /// When it was taken.
    pub taken_at: DateTime<Utc>,
    /// The overall state.
    pub state: ServiceState,
    /// The database's ping, ms (`None`: it did not answer).
    pub database_ms: Option<f64>,
    /// Analyses waiting.
    pub queue_depth: u32,
    /// How long the oldest waiting analysis had waited, seconds.
    pub oldest_wait_seconds: Option<u64>,
    /// Workers alive.
    pub workers_alive: u32,
    /// Workers running an analysis.
    pub workers_busy: u32,
}

impl TryFrom<health_samples::Model> for Sample {
    type Error = StoreError;

    fn try_from(row: health_samples::Model) -> StoreResult<Sample> {
        let state = ServiceState::parse(&row.state).ok_or_else(|| {
            StoreError::data(format!("stored service state {:?} is unknown", row.state))
        })?;
        Ok(Sample {
            minute: row.minute,
            taken_at: row.taken_at,
            state,
            database_ms: row.database_ms,
            queue_depth: uint(row.queue_depth),
            oldest_wait_seconds: row
                .oldest_wait_seconds
                .map(|s| u64::try_from(s).unwrap_or(0)),
            workers_alive: uint(row.workers_alive),
            workers_busy: uint(row.workers_busy),
        })
    }
}

/// Stores `sample` unless its minute has one already (another process took it first); when it
/// was stored, removes the samples of minutes before `keep_from`. Returns whether it was stored.
pub async fn record_sample(
    db: &DatabaseConnection,
    sample: &Sample,
    keep_from: i64,
) -> StoreResult<bool> {
    use health_samples::Column as H;
    let created = health_samples::Entity::insert(health_samples::ActiveModel {
        minute: Set(sample.minute),
        taken_at: Set(sample.taken_at),
        state: Set(sample.state.as_str().to_owned()),
        database_ms: Set(sample.database_ms),
        queue_depth: Set(int(sample.queue_depth)),
        oldest_wait_seconds: Set(sample
            .oldest_wait_seconds
            .map(|s| i64::try_from(s).unwrap_or(i64::MAX))),
        workers_alive: Set(int(sample.workers_alive)),
        workers_busy: Set(int(sample.workers_busy)),
    })
    .on_conflict(OnConflict::column(H::Minute).do_nothing().to_owned())
    .exec_without_returning(db)
    .await?;
    if created == 1 {
        health_samples::Entity::delete_many()
            .filter(H::Minute.lt(keep_from))
            .exec(db)
            .await?;
    }
    Ok(created == 1)
}

/// The samples of minutes at or after `from` (seconds since the epoch), oldest first.
pub async fn samples_since(db: &DatabaseConnection, from: i64) -> StoreResult<Vec<Sample>> {
    health_samples::Entity::find()
        .filter(health_samples::Column::Minute.gte(from))
        .order_by_asc(health_samples::Column::Minute)
        .all(db)
        .await?
        .into_iter()
        .map(Sample::try_from)
        .collect()
}

/// Every stored sample's minute, oldest first (tests check pruning with it).
pub async fn sample_minutes(db: &DatabaseConnection) -> StoreResult<Vec<i64>> {
    Ok(samples_since(db, i64::MIN)
        .await?
        .into_iter()
        .map(|s| s.minute)
        .collect())
}
