//! An API key of a user (docs/PRODUCT.md §3.4, users.apiKey): several per account, named,
//! stored as a hash.

use sea_orm::entity::prelude::*;

/// A row of `api_keys`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "api_keys")]
pub struct Model {
    /// The `id` column.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The `user_id` column: the key's owner.
    pub user_id: i64,
    /// The `name` column: the owner's name for the key.
    pub name: String,
    /// The `prefix` column: the key's first characters, shown in lists.
    pub prefix: String,
    /// The `key_hash` column: SHA-256 hex of the whole key, unique.
    pub key_hash: String,
    /// The `created_at` column.
    pub created_at: DateTimeUtc,
    /// The `last_used_at` column: when the key last authenticated a request.
    pub last_used_at: Option<DateTimeUtc>,
    /// The `revoked_at` column: set once, when the owner revoked the key.
    pub revoked_at: Option<DateTimeUtc>,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
