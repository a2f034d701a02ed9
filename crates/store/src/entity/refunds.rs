//! A refund already applied: the unspent credits it took back.

use sea_orm::entity::prelude::*;

/// A row of `refunds`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "refunds")]
pub struct Model {
    /// The `id` column: the processor's refund or charge id.
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    /// The `user_id` column.
    pub user_id: Option<i64>,
    /// The `payment_id` column: the refunded payment.
    pub payment_id: String,
    /// The `amount_cents` column.
    pub amount_cents: i64,
    /// The `credits_removed` column.
    pub credits_removed: i32,
    /// The `created_at` column.
    pub created_at: DateTimeUtc,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
