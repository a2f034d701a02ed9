//! One movement of credits, for auditability.

use sea_orm::entity::prelude::*;

/// A row of `credit_ledger`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "credit_ledger")]
pub struct Model {
    /// The `id` column.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The `user_id` column.
    pub user_id: i64,
    /// The `delta` column: half credits, positive for grants and refunds, negative for spends.
    pub delta: i32,
    /// The `pool` column.
    pub pool: String,
    /// The `reason` column.
    pub reason: String,
    /// The `reference` column.
    pub reference: Option<String>,
    /// The `created_at` column.
    pub created_at: DateTimeUtc,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
