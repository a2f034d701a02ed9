//! A queued, running or finished analysis (docs/ARCHITECTURE.md §4).

use sea_orm::entity::prelude::*;

/// A row of `analysis_jobs`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "analysis_jobs")]
pub struct Model {
    /// The `id` column.
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    /// The `website_id` column.
    pub website_id: i64,
    /// The `url` column.
    pub url: String,
    /// The `canonical_url` column.
    pub canonical_url: String,
    /// The `status` column.
    pub status: String,
    /// The `tier` column.
    pub tier: String,
    /// The `requested_pages` column.
    pub requested_pages: i32,
    /// The `progress` column.
    pub progress: i32,
    /// The `step` column.
    pub step: Option<String>,
    /// The `message` column.
    pub message: Option<String>,
    /// The `error` column.
    #[sea_orm(column_type = "Text")]
    pub error: Option<String>,
    /// The `attempts` column.
    pub attempts: i32,
    /// The `claimed_by` column.
    pub claimed_by: Option<String>,
    /// The `heartbeat_at` column.
    pub heartbeat_at: Option<DateTimeUtc>,
    /// The `created_at` column.
    pub created_at: DateTimeUtc,
    /// The `updated_at` column.
    pub updated_at: DateTimeUtc,
    /// The `started_at` column.
    pub started_at: Option<DateTimeUtc>,
    /// The `finished_at` column.
    pub finished_at: Option<DateTimeUtc>,
    /// The `requester_user_id` column.
    pub requester_user_id: Option<i64>,
    /// The `requester_ip` column.
    pub requester_ip: Option<String>,
    /// The `result_id` column.
    pub result_id: Option<Uuid>,
    /// The `trial_charge` column: half credits taken from the requester's trial credit.
    pub trial_charge: i32,
    /// The `paid_charge` column: half credits taken from `charged_user_id`'s paid credits.
    pub paid_charge: i32,
    /// The `charged_user_id` column: whose paid credits paid (the team owner, for a member).
    pub charged_user_id: Option<i64>,
    /// The `credits_refunded_at` column: when a failed paid analysis gave its credits back.
    pub credits_refunded_at: Option<DateTimeUtc>,
    /// The `plan_charge` column: half credits `charged_user_id`'s unlimited plan covered.
    pub plan_charge: i32,
    /// The `idempotency_key` column: the API client's `Idempotency-Key`, unique per requester.
    pub idempotency_key: Option<String>,
    /// The `callback_url` column: where the API client asked to be told when the analysis
    /// completes or fails.
    pub callback_url: Option<String>,
    /// The `whitelabel_user_id` column: the agency whose brand the report wears (an analysis
    /// started by its audit widget); copied to the result when the job completes.
    pub whitelabel_user_id: Option<i64>,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
