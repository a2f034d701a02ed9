//! A member of a user's team (docs/PRODUCT.md §3.5, team_members).

use sea_orm::entity::prelude::*;

/// A row of `team_members`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "team_members")]
pub struct Model {
    /// The `id` column.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The `team_owner_id` column.
    pub team_owner_id: i64,
    /// The `member_id` column.
    pub member_id: i64,
    /// The `role` column.
    pub role: String,
    /// The `permissions` column.
    pub permissions: Json,
    /// The `invited_at` column.
    pub invited_at: DateTimeUtc,
    /// The `joined_at` column.
    pub joined_at: Option<DateTimeUtc>,
    /// The `status` column.
    pub status: String,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
