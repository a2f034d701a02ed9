//! One attempt to deliver a callback: when, what the receiver answered, how long it took.

use sea_orm::entity::prelude::*;

/// A row of `callback_attempts`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "callback_attempts")]
pub struct Model {
    /// The `id` column.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The `delivery_id` column.
    pub delivery_id: i64,
    /// The `attempted_at` column: when the request was sent.
    pub attempted_at: DateTimeUtc,
    /// The `status_code` column: the receiver's HTTP status, when it answered.
    pub status_code: Option<i32>,
    /// The `error` column: why no answer came (timeout, refused address, connection error).
    pub error: Option<String>,
    /// The `duration_ms` column.
    pub duration_ms: i32,
    /// The `response_excerpt` column: the answer's first characters.
    pub response_excerpt: Option<String>,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
