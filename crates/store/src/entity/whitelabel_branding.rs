//! An agency's report branding (docs/PRODUCT.md §3.3, whitelabel_branding).

use sea_orm::entity::prelude::*;

/// A row of `whitelabel_branding`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "whitelabel_branding")]
pub struct Model {
    /// The `id` column.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The `user_id` column.
    #[sea_orm(unique)]
    pub user_id: i64,
    /// The `company_name` column.
    pub company_name: String,
    /// The `logo_url` column.
    pub logo_url: Option<String>,
    /// The `primary_color` column.
    pub primary_color: String,
    /// The `secondary_color` column.
    pub secondary_color: String,
    /// The `font_family` column.
    pub font_family: String,
    /// The `contact_email` column.
    pub contact_email: Option<String>,
    /// The `contact_phone` column.
    pub contact_phone: Option<String>,
    /// The `website_url` column.
    pub website_url: Option<String>,
    /// The `embed_code` column.
    #[sea_orm(column_type = "Text")]
    pub embed_code: Option<String>,
    /// The `custom_domain` column.
    #[sea_orm(unique)]
    pub custom_domain: Option<String>,
    /// The `created_at` column.
    pub created_at: DateTimeUtc,
    /// The `updated_at` column.
    pub updated_at: DateTimeUtc,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
