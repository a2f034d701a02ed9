//! A checkout a buyer started: what it sells and its price, fixed by the server.

use sea_orm::entity::prelude::*;

/// A row of `checkout_sessions`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "checkout_sessions")]
pub struct Model {
    /// The `id` column: our random id.
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    /// The `user_id` column: the buyer.
    pub user_id: i64,
    /// The `kind` column: pack, credits, plan or upgrade.
    pub kind: String,
    /// The `package_id` column.
    pub package_id: String,
    /// The `credits` column: granted on payment; `None` is unlimited.
    pub credits: Option<i32>,
    /// The `amount_cents` column.
    pub amount_cents: i64,
    /// The `billing_interval` column (plans).
    pub billing_interval: Option<String>,
    /// The `extra_seats` column (plans).
    pub extra_seats: i32,
    /// The `report_type` column (the upgrade).
    pub report_type: Option<String>,
    /// The `url` column (the upgrade).
    pub url: Option<String>,
    /// The `mode` column: test or stripe.
    pub mode: String,
    /// The `provider_ref` column: Stripe's checkout session id.
    #[sea_orm(unique)]
    pub provider_ref: Option<String>,
    /// The `status` column: open, paid, declined or expired.
    pub status: String,
    /// The `payment_id` column.
    pub payment_id: Option<String>,
    /// The `created_at` column.
    pub created_at: DateTimeUtc,
    /// The `completed_at` column.
    pub completed_at: Option<DateTimeUtc>,
    /// The `analysis_id` column: the paid analysis an upgrade's payment started.
    pub analysis_id: Option<Uuid>,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
