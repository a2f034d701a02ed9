//! How many free analyses an address has used on a UTC day.

use sea_orm::entity::prelude::*;

/// A row of `ip_daily_usage`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "ip_daily_usage")]
pub struct Model {
    /// The `ip_address` column.
    #[sea_orm(primary_key, auto_increment = false)]
    pub ip_address: String,
    /// The `day` column.
    #[sea_orm(primary_key, auto_increment = false)]
    pub day: Date,
    /// The `used` column.
    pub used: i32,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
