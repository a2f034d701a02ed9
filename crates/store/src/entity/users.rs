//! A registered user (docs/PRODUCT.md §3.4, users).

use sea_orm::entity::prelude::*;

/// A row of `users`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "users")]
pub struct Model {
    /// The `id` column.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The `clerk_id` column.
    #[sea_orm(unique)]
    pub clerk_id: Option<String>,
    /// The `first_name` column.
    pub first_name: Option<String>,
    /// The `last_name` column.
    pub last_name: Option<String>,
    /// The `email` column.
    #[sea_orm(unique)]
    pub email: String,
    /// The `image_url` column.
    pub image_url: Option<String>,
    /// The `username` column.
    pub username: Option<String>,
    /// The `password_hash` column.
    pub password_hash: Option<String>,
    /// The `report_credits` column: paid credits, in half credits
    /// (`domain::credits::Credits::halves`).
    pub report_credits: i32,
    /// The `trial_credits` column: trial credits, in half credits.
    pub trial_credits: i32,
    /// The `trial_expires_at` column.
    pub trial_expires_at: Option<DateTimeUtc>,
    /// The `free_report_used` column.
    pub free_report_used: bool,
    /// The `has_used_trial` column.
    pub has_used_trial: bool,
    /// The `subscription_plan` column.
    pub subscription_plan: String,
    /// The `subscription_status` column.
    pub subscription_status: String,
    /// The `monthly_report_allowance` column.
    pub monthly_report_allowance: i32,
    /// The `monthly_reports_used` column.
    pub monthly_reports_used: i32,
    /// The `subscription_renews_at` column.
    pub subscription_renews_at: Option<DateTimeUtc>,
    /// The `subscription_paused_at` column.
    pub subscription_paused_at: Option<DateTimeUtc>,
    /// The `is_admin` column.
    pub is_admin: bool,
    /// The `admin_level` column.
    pub admin_level: String,
    /// The `api_key_hash` column.
    #[sea_orm(unique)]
    pub api_key_hash: Option<String>,
    /// The `api_calls` column.
    pub api_calls: i64,
    /// The `api_rate_limit` column.
    pub api_rate_limit: i32,
    /// The `team_name` column.
    pub team_name: Option<String>,
    /// The `max_team_members` column.
    pub max_team_members: i32,
    /// The `stripe_customer_id` column.
    pub stripe_customer_id: Option<String>,
    /// The `stripe_subscription_id` column.
    pub stripe_subscription_id: Option<String>,
    /// The `has_white_label` column.
    pub has_white_label: bool,
    /// The `whitelabel_plan` column.
    pub whitelabel_plan: Option<String>,
    /// The `whitelabel_usage` column.
    pub whitelabel_usage: i32,
    /// The `whitelabel_limit` column.
    pub whitelabel_limit: Option<i32>,
    /// The `email_verified_at` column: when the address was confirmed, if it was.
    pub email_verified_at: Option<DateTimeUtc>,
    /// The `disabled_at` column: when an administrator disabled the account, if one did.
    pub disabled_at: Option<DateTimeUtc>,
    /// The `created_at` column.
    pub created_at: DateTimeUtc,
    /// The `updated_at` column.
    pub updated_at: DateTimeUtc,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
