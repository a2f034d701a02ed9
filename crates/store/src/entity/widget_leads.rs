//! A lead an audit widget brought in (docs/PRODUCT.md §3.16 the lead form).

use sea_orm::entity::prelude::*;

/// A row of `widget_leads`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "widget_leads")]
pub struct Model {
    /// The `id` column.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The `widget_key_id` column: the key the lead came through.
    pub widget_key_id: i64,
    /// The `user_id` column: the agency.
    pub user_id: i64,
    /// The `first_name` column.
    pub first_name: String,
    /// The `email` column.
    pub email: String,
    /// The `website_url` column: the visitor's site, normalised.
    #[sea_orm(column_type = "Text")]
    pub website_url: String,
    /// The `analysis_id` column: the analysis started for the visitor.
    pub analysis_id: Uuid,
    /// The `visitor_hash` column: salted SHA-256 of the visitor's address.
    pub visitor_hash: String,
    /// The `created_at` column.
    pub created_at: DateTimeUtc,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
