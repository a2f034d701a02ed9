//! A named counter, such as the number of completed analyses.

use sea_orm::entity::prelude::*;

/// A row of `counters`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "counters")]
pub struct Model {
    /// The `name` column.
    #[sea_orm(primary_key, auto_increment = false)]
    pub name: String,
    /// The `value` column.
    pub value: i64,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
