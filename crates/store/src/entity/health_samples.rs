//! One health sample of the service, per minute, shared by every process (`/api-status`).

use sea_orm::entity::prelude::*;

/// A row of `health_samples`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "health_samples")]
pub struct Model {
    /// The `minute` column: the minute's start, seconds since the Unix epoch.
    #[sea_orm(primary_key, auto_increment = false)]
    pub minute: i64,
    /// The `taken_at` column.
    pub taken_at: DateTimeUtc,
    /// The `state` column: `domain::status::ServiceState` by name.
    pub state: String,
    /// The `database_ms` column: the database's ping, ms.
    pub database_ms: Option<f64>,
    /// The `queue_depth` column.
    pub queue_depth: i32,
    /// The `oldest_wait_seconds` column.
    pub oldest_wait_seconds: Option<i64>,
    /// The `workers_alive` column.
    pub workers_alive: i32,
    /// The `workers_busy` column.
    pub workers_busy: i32,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
