//! An account's callback signing secret (issue 17): kept readable, since the server signs
//! every callback of the account's analyses with it.

use sea_orm::entity::prelude::*;

/// A row of `callback_secrets`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "callback_secrets")]
pub struct Model {
    /// The `user_id` column: the account.
    #[sea_orm(primary_key, auto_increment = false)]
    pub user_id: i64,
    /// The `secret` column.
    pub secret: String,
    /// The `created_at` column: when this secret was made (rotation makes a new one).
    pub created_at: DateTimeUtc,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
