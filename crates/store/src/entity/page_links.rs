//! A link from a crawled page to any URL.

use sea_orm::entity::prelude::*;

/// A row of `page_links`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "page_links")]
pub struct Model {
    /// The `id` column.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The `from_page_id` column.
    pub from_page_id: i64,
    /// The `to_url` column.
    pub to_url: String,
    /// The `to_host` column.
    pub to_host: String,
    /// The `nofollow` column.
    pub nofollow: bool,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
