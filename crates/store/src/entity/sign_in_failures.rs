//! A failed sign-in, counted by throttling.

use sea_orm::entity::prelude::*;

/// A row of `sign_in_failures`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "sign_in_failures")]
pub struct Model {
    /// The `id` column.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The `address` column: the visitor's address key.
    pub address: String,
    /// The `email` column: the normalised address tried.
    pub email: String,
    /// The `at` column.
    pub at: DateTimeUtc,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
