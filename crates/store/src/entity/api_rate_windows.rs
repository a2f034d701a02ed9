//! Requests an API key made in one fixed one-minute window, shared by every server process.

use sea_orm::entity::prelude::*;

/// A row of `api_rate_windows`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "api_rate_windows")]
pub struct Model {
    /// The `api_key_id` column.
    #[sea_orm(primary_key, auto_increment = false)]
    pub api_key_id: i64,
    /// The `window_start` column: seconds since the Unix epoch, a whole minute.
    #[sea_orm(primary_key, auto_increment = false)]
    pub window_start: i64,
    /// The `requests` column: requests counted in the window.
    pub requests: i32,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
