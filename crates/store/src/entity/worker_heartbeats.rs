//! A worker process's last report of itself (`/api-status`).

use sea_orm::entity::prelude::*;

/// A row of `worker_heartbeats`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "worker_heartbeats")]
pub struct Model {
    /// The `worker_id` column: the worker's name, as in `analysis_jobs.claimed_by`.
    #[sea_orm(primary_key, auto_increment = false)]
    pub worker_id: String,
    /// The `started_at` column.
    pub started_at: DateTimeUtc,
    /// The `beat_at` column: its last report.
    pub beat_at: DateTimeUtc,
    /// The `concurrency` column: analyses it runs at once.
    pub concurrency: i32,
    /// The `busy` column: analyses it is running.
    pub busy: i32,
    /// The `browser` column: `domain::status::BrowserMode` by name.
    pub browser: String,
    /// The `tabs_in_use` column.
    pub tabs_in_use: i32,
    /// The `tabs_max` column.
    pub tabs_max: i32,
    /// The `spare_tabs` column.
    pub spare_tabs: i32,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
