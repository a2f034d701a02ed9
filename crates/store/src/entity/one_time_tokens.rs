//! A one-time token sent by e-mail; only its hash is stored.

use sea_orm::entity::prelude::*;

/// A row of `one_time_tokens`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "one_time_tokens")]
pub struct Model {
    /// The `token_hash` column.
    #[sea_orm(primary_key, auto_increment = false)]
    pub token_hash: String,
    /// The `purpose` column.
    pub purpose: String,
    /// The `user_id` column.
    pub user_id: i64,
    /// The `created_at` column.
    pub created_at: DateTimeUtc,
    /// The `expires_at` column.
    pub expires_at: DateTimeUtc,
    /// The `used_at` column.
    pub used_at: Option<DateTimeUtc>,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
