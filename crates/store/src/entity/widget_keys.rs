//! An agency's public audit-widget key (issue 15 item 5): the origins whose pages may use it.

use sea_orm::entity::prelude::*;

/// A row of `widget_keys`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "widget_keys")]
pub struct Model {
    /// The `id` column.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The `user_id` column: the agency that owns the key.
    pub user_id: i64,
    /// The `public_key` column: `slw_…`, unique; public, so stored as it is.
    #[sea_orm(unique)]
    pub public_key: String,
    /// The `allowed_origins` column: a JSON list of `scheme://host[:port]`.
    #[sea_orm(column_type = "Text")]
    pub allowed_origins: String,
    /// The `created_at` column.
    pub created_at: DateTimeUtc,
    /// The `revoked_at` column: set once, when the agency revoked the key.
    pub revoked_at: Option<DateTimeUtc>,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
