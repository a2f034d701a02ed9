//! A page whose outgoing links are in the link graph.

use sea_orm::entity::prelude::*;

/// A row of `crawled_pages`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "crawled_pages")]
pub struct Model {
    /// The `id` column.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The `url` column.
    #[sea_orm(unique)]
    pub url: String,
    /// The `host` column.
    pub host: String,
    /// The `last_crawled_at` column.
    pub last_crawled_at: DateTimeUtc,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
