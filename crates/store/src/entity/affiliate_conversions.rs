//! A purchase credited to an affiliate (docs/PRODUCT.md §3.12, affiliate_conversions).

use sea_orm::entity::prelude::*;

/// A row of `affiliate_conversions`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "affiliate_conversions")]
pub struct Model {
    /// The `id` column.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The `affiliate_id` column.
    pub affiliate_id: i64,
    /// The `click_id` column.
    pub click_id: Option<i64>,
    /// The `user_id` column.
    pub user_id: Option<i64>,
    /// The `transaction_type` column.
    pub transaction_type: String,
    /// The `transaction_amount_cents` column.
    pub transaction_amount_cents: i64,
    /// The `commission_amount_cents` column.
    pub commission_amount_cents: i64,
    /// The `commission_status` column.
    pub commission_status: String,
    /// The `customer_email` column.
    pub customer_email: Option<String>,
    /// The `stripe_payment_intent_id` column.
    #[sea_orm(unique)]
    pub stripe_payment_intent_id: Option<String>,
    /// The `timestamp` column.
    pub timestamp: DateTimeUtc,
    /// The `payout_id` column: the payout this commission is paid in.
    pub payout_id: Option<i64>,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
