//! One lead submission to an audit widget, for its hourly limits.

use sea_orm::entity::prelude::*;

/// A row of `widget_requests`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "widget_requests")]
pub struct Model {
    /// The `id` column.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The `widget_key_id` column.
    pub widget_key_id: i64,
    /// The `visitor_hash` column: salted SHA-256 of the visitor's address.
    pub visitor_hash: String,
    /// The `created_at` column.
    pub created_at: DateTimeUtc,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
