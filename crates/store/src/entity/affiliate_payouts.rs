//! A payout to an affiliate (docs/PRODUCT.md §3.13, affiliate_payouts).

use sea_orm::entity::prelude::*;

/// A row of `affiliate_payouts`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "affiliate_payouts")]
pub struct Model {
    /// The `id` column.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The `affiliate_id` column.
    pub affiliate_id: i64,
    /// The `amount_cents` column.
    pub amount_cents: i64,
    /// The `method` column.
    pub method: String,
    /// The `status` column.
    pub status: String,
    /// The `payout_date` column.
    pub payout_date: Option<DateTimeUtc>,
    /// The `stripe_transfer_id` column.
    pub stripe_transfer_id: Option<String>,
    /// The `notes` column.
    #[sea_orm(column_type = "Text")]
    pub notes: Option<String>,
    /// The `created_at` column.
    pub created_at: DateTimeUtc,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
