//! A paid credit purchase, unique by payment id (docs/PRODUCT.md §3.7, credit_purchases).

use sea_orm::entity::prelude::*;

/// A row of `credit_purchases`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "credit_purchases")]
pub struct Model {
    /// The `id` column.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The `user_id` column.
    pub user_id: Option<i64>,
    /// The `stripe_payment_intent_id` column.
    #[sea_orm(unique)]
    pub stripe_payment_intent_id: String,
    /// The `credits_added` column.
    pub credits_added: i32,
    /// The `amount_paid_cents` column.
    pub amount_paid_cents: i64,
    /// The `package_type` column.
    pub package_type: String,
    /// The `parent_payment_id` column: for a grant made under another payment (a yearly plan's
    /// later months, a plan upgrade's difference), that payment, whose refund reaches it too.
    pub parent_payment_id: Option<String>,
    /// The `created_at` column.
    pub created_at: DateTimeUtc,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
