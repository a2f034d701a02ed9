//! An invitation to a team, sent by e-mail; only the token's hash is stored.

use sea_orm::entity::prelude::*;

/// A row of `team_invitations`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "team_invitations")]
pub struct Model {
    /// The `id` column.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The `token_hash` column (unique).
    pub token_hash: String,
    /// The `team_owner_id` column.
    pub team_owner_id: i64,
    /// The `email` column: where the invitation went.
    pub email: String,
    /// The `role` column.
    pub role: String,
    /// The `invited_at` column.
    pub invited_at: DateTimeUtc,
    /// The `expires_at` column.
    pub expires_at: DateTimeUtc,
    /// The `accepted_at` column.
    pub accepted_at: Option<DateTimeUtc>,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
