//! A message sent through the contact form.

use sea_orm::entity::prelude::*;

/// A row of `contact_messages`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "contact_messages")]
pub struct Model {
    /// The `id` column.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The `name` column.
    pub name: String,
    /// The `email` column.
    pub email: String,
    /// The `subject` column.
    pub subject: String,
    /// The `message` column.
    #[sea_orm(column_type = "Text")]
    pub message: String,
    /// The `created_at` column.
    pub created_at: DateTimeUtc,
    /// The `kind` column: general, enterprise, agency or partner.
    pub kind: String,
    /// The `details` column: the form's other fields, a JSON array of `{label, value}`.
    #[sea_orm(column_type = "Text")]
    pub details: String,
    /// The `status` column: new or answered.
    pub status: String,
    /// The `answered_at` column.
    pub answered_at: Option<DateTimeUtc>,
    /// The `answered_by` column: the admin's e-mail.
    pub answered_by: Option<String>,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
