//! One change an administrator made (docs/PRODUCT.md §6.6), written with the change.

use sea_orm::entity::prelude::*;

/// A row of `admin_audit_log`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "admin_audit_log")]
pub struct Model {
    /// The `id` column.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The `actor_user_id` column: the administrator; NULL once their account is gone.
    pub actor_user_id: Option<i64>,
    /// The `actor_email` column: the administrator's address when they acted.
    pub actor_email: String,
    /// The `action` column, e.g. `credits.adjust`.
    pub action: String,
    /// The `target_type` column, e.g. `user`.
    pub target_type: String,
    /// The `target_id` column.
    pub target_id: Option<String>,
    /// The `reason` column: why, in the administrator's words.
    pub reason: Option<String>,
    /// The `detail` column: a JSON document.
    pub detail: String,
    /// The `created_at` column.
    pub created_at: DateTimeUtc,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
