//! A server-side sign-in session; `id` is the SHA-256 of the cookie token.

use sea_orm::entity::prelude::*;

/// A row of `sessions`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "sessions")]
pub struct Model {
    /// The `id` column.
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    /// The `user_id` column.
    pub user_id: i64,
    /// The `csrf_token` column.
    pub csrf_token: String,
    /// The `created_at` column.
    pub created_at: DateTimeUtc,
    /// The `expires_at` column.
    pub expires_at: DateTimeUtc,
    /// The `last_seen_at` column.
    pub last_seen_at: DateTimeUtc,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
