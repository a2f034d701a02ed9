//! A callback event to deliver to an API client, with where its delivery is.

use sea_orm::entity::prelude::*;

/// A row of `callback_deliveries`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "callback_deliveries")]
pub struct Model {
    /// The `id` column.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The `event_id` column: what a receiver deduplicates by.
    #[sea_orm(unique)]
    pub event_id: Uuid,
    /// The `job_id` column: the analysis the event is about.
    pub job_id: Uuid,
    /// The `event_type` column: `analysis.completed` or `analysis.failed`.
    pub event_type: String,
    /// The `account_id` column: the account whose secret signs it.
    pub account_id: i64,
    /// The `url` column: where it is posted.
    pub url: String,
    /// The `state` column: `pending`, `delivered` or `failed`.
    pub state: String,
    /// The `attempts` column: attempts claimed so far.
    pub attempts: i32,
    /// The `next_attempt_at` column: when a pending delivery is due (or its claim expires).
    pub next_attempt_at: Option<DateTimeUtc>,
    /// The `created_at` column.
    pub created_at: DateTimeUtc,
    /// The `finished_at` column: when it was delivered or given up.
    pub finished_at: Option<DateTimeUtc>,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
