//! A click on an affiliate link (docs/PRODUCT.md §3.11, affiliate_clicks).

use sea_orm::entity::prelude::*;

/// A row of `affiliate_clicks`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "affiliate_clicks")]
pub struct Model {
    /// The `id` column.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The `affiliate_id` column.
    pub affiliate_id: i64,
    /// The `ip_address` column.
    pub ip_address: String,
    /// The `user_agent` column.
    pub user_agent: Option<String>,
    /// The `referrer` column.
    pub referrer: Option<String>,
    /// The `landing_page` column.
    pub landing_page: Option<String>,
    /// The `timestamp` column.
    pub timestamp: DateTimeUtc,
    /// The `click_day` column: the click's UTC day (`YYYY-MM-DD`); one counted click per
    /// affiliate, hashed address and day.
    pub click_day: Option<String>,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
