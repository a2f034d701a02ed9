//! A website by canonical URL (docs/PRODUCT.md §3.1, websites).

use sea_orm::entity::prelude::*;

/// A row of `websites`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "websites")]
pub struct Model {
    /// The `id` column.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The `url` column.
    #[sea_orm(unique)]
    pub url: String,
    /// The `last_analyzed` column.
    pub last_analyzed: DateTimeUtc,
    /// The `analysis_count` column.
    pub analysis_count: i32,
    /// The `created_at` column.
    pub created_at: DateTimeUtc,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
