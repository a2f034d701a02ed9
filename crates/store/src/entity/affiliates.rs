//! An affiliate (docs/PRODUCT.md §3.10, affiliates); amounts in cents.

use sea_orm::entity::prelude::*;

/// A row of `affiliates`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "affiliates")]
pub struct Model {
    /// The `id` column.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The `user_id` column.
    pub user_id: Option<i64>,
    /// The `affiliate_code` column.
    #[sea_orm(unique)]
    pub affiliate_code: String,
    /// The `name` column.
    pub name: String,
    /// The `email` column.
    #[sea_orm(unique)]
    pub email: String,
    /// The `website` column.
    pub website: Option<String>,
    /// The `company` column.
    pub company: Option<String>,
    /// The `experience` column.
    #[sea_orm(column_type = "Text")]
    pub experience: String,
    /// The `traffic_source` column.
    pub traffic_source: String,
    /// The `monthly_traffic` column.
    pub monthly_traffic: String,
    /// The `motivation` column.
    #[sea_orm(column_type = "Text")]
    pub motivation: String,
    /// The `status` column.
    pub status: String,
    /// The `commission_rate` column.
    pub commission_rate: i32,
    /// The `total_earnings_cents` column.
    pub total_earnings_cents: i64,
    /// The `pending_payouts_cents` column.
    pub pending_payouts_cents: i64,
    /// The `total_clicks` column.
    pub total_clicks: i32,
    /// The `total_conversions` column.
    pub total_conversions: i32,
    /// The `last_payout_date` column.
    pub last_payout_date: Option<DateTimeUtc>,
    /// The `next_payout_date` column.
    pub next_payout_date: Option<DateTimeUtc>,
    /// The `rejection_reason` column: why an application was turned down.
    pub rejection_reason: Option<String>,
    /// The `stripe_account_id` column: the Stripe Connect account payouts go to.
    pub stripe_account_id: Option<String>,
    /// The `created_at` column.
    pub created_at: DateTimeUtc,
    /// The `updated_at` column.
    pub updated_at: DateTimeUtc,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
