//! A report requested by e-mail (docs/PRODUCT.md §3.8, email_reports).

use sea_orm::entity::prelude::*;

/// A row of `email_reports`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "email_reports")]
pub struct Model {
    /// The `id` column.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The `email` column.
    pub email: String,
    /// The `first_name` column.
    pub first_name: String,
    /// The `last_name` column.
    pub last_name: Option<String>,
    /// The `website_url` column.
    pub website_url: String,
    /// The `report_type` column.
    pub report_type: String,
    /// The `analysis_result_id` column.
    pub analysis_result_id: Option<Uuid>,
    /// The `sent_at` column.
    pub sent_at: Option<DateTimeUtc>,
    /// The `upgrade_token` column.
    #[sea_orm(unique)]
    pub upgrade_token: Option<String>,
    /// The `agree_to_emails` column.
    pub agree_to_emails: bool,
    /// The `created_at` column.
    pub created_at: DateTimeUtc,
    /// The `outbox_id` column: the e-mail that carries it, when one was queued.
    pub outbox_id: Option<i64>,
    /// The `sent_by_user_id` column: the account that sent it to a client, if one did.
    pub sent_by_user_id: Option<i64>,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
