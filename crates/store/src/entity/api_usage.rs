//! One API call made with a user's key (docs/PRODUCT.md §3.6, api_usage).

use sea_orm::entity::prelude::*;

/// A row of `api_usage`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "api_usage")]
pub struct Model {
    /// The `id` column.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The `user_id` column.
    pub user_id: i64,
    /// The `endpoint` column.
    pub endpoint: String,
    /// The `method` column.
    pub method: String,
    /// The `response_time_ms` column.
    pub response_time_ms: i32,
    /// The `status_code` column.
    pub status_code: i32,
    /// The `timestamp` column.
    pub timestamp: DateTimeUtc,
    /// The `api_key_id` column: the key that made the call.
    pub api_key_id: Option<i64>,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
