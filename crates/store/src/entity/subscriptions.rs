//! A subscription to a plan (docs/PRODUCT.md §9.3); one per account.

use sea_orm::entity::prelude::*;

/// A row of `subscriptions`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "subscriptions")]
pub struct Model {
    /// The `id` column.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The `user_id` column: the subscriber.
    #[sea_orm(unique)]
    pub user_id: i64,
    /// The `plan_id` column: `business-plan`, `agency-plan` or `enterprise-plan`.
    pub plan_id: String,
    /// The `billing_interval` column: monthly or yearly.
    pub billing_interval: String,
    /// The `status` column (`domain::checkout::SubscriptionStatus`).
    pub status: String,
    /// The `extra_seats` column.
    pub extra_seats: i32,
    /// The `amount_cents` column: the price of each period.
    pub amount_cents: i64,
    /// The `current_period_start` column.
    pub current_period_start: DateTimeUtc,
    /// The `current_period_end` column.
    pub current_period_end: DateTimeUtc,
    /// The `stripe_subscription_id` column.
    #[sea_orm(unique)]
    pub stripe_subscription_id: Option<String>,
    /// The `period_payment_id` column: the payment (first checkout or invoice) that paid the
    /// current period; grants made later in the period are made under it.
    pub period_payment_id: Option<String>,
    /// The `last_event_at` column: creation time of the newest processor event applied.
    pub last_event_at: Option<DateTimeUtc>,
    /// The `created_at` column.
    pub created_at: DateTimeUtc,
    /// The `updated_at` column.
    pub updated_at: DateTimeUtc,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
