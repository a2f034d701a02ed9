//! An agency's custom domain and its DNS verification (issue 15 item 3; migration 000029).

use sea_orm::entity::prelude::*;

/// A row of `custom_domains`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "custom_domains")]
pub struct Model {
    /// The `id` column.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The `user_id` column: the agency's account; one domain each.
    #[sea_orm(unique)]
    pub user_id: i64,
    /// The `domain` column: normalised by `domain::custom_domain::normalize_domain`; unique.
    #[sea_orm(unique)]
    pub domain: String,
    /// The `token` column: what the TXT record must hold after `sitelens-verify=`.
    pub token: String,
    /// The `verified_at` column: set when the TXT record was found; only a verified domain
    /// serves reports.
    pub verified_at: Option<DateTimeUtc>,
    /// The `checked_at` column: the last check.
    pub checked_at: Option<DateTimeUtc>,
    /// The `last_error` column: why the last check did not verify the domain.
    #[sea_orm(column_type = "Text")]
    pub last_error: Option<String>,
    /// The `created_at` column.
    pub created_at: DateTimeUtc,
    /// The `updated_at` column.
    pub updated_at: DateTimeUtc,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
