//! A free analysis counted against a visitor address (docs/PRODUCT.md §3.9).

use sea_orm::entity::prelude::*;

/// A row of `ip_analysis_tracking`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "ip_analysis_tracking")]
pub struct Model {
    /// The `id` column.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The `ip_address` column.
    pub ip_address: String,
    /// The `analysis_date` column.
    pub analysis_date: Date,
    /// The `website_url` column.
    pub website_url: String,
    /// The `created_at` column.
    pub created_at: DateTimeUtc,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
