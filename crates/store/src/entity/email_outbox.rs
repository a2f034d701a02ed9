//! An e-mail waiting to be sent, or sent.

use sea_orm::entity::prelude::*;

/// A row of `email_outbox`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "email_outbox")]
pub struct Model {
    /// The `id` column.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The `to_address` column.
    pub to_address: String,
    /// The `subject` column.
    pub subject: String,
    /// The `body` column.
    #[sea_orm(column_type = "Text")]
    pub body: String,
    /// The `created_at` column.
    pub created_at: DateTimeUtc,
    /// The `sent_at` column.
    pub sent_at: Option<DateTimeUtc>,
    /// The `attempts` column.
    pub attempts: i32,
    /// The `last_error` column.
    #[sea_orm(column_type = "Text")]
    pub last_error: Option<String>,
    /// The `reply_to` column.
    pub reply_to: Option<String>,
    /// The `attachment_key` column: the attachment's blob key, when there is one.
    pub attachment_key: Option<String>,
    /// The `attachment_name` column: the file name it is sent under.
    pub attachment_name: Option<String>,
    /// The `attachment_type` column: its content type.
    pub attachment_type: Option<String>,
    /// The `from_name` column: the sender's display name, when not the configured one.
    pub from_name: Option<String>,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
