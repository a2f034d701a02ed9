//! Another id a payment is known by (a Stripe payment intent that paid an invoice), so a refund
//! naming only that id finds the payment its credits were granted under.

use sea_orm::entity::prelude::*;

/// A row of `payment_aliases`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "payment_aliases")]
pub struct Model {
    /// The `alias` column: the other id.
    #[sea_orm(primary_key, auto_increment = false)]
    pub alias: String,
    /// The `payment_id` column: the id the credits were granted under.
    pub payment_id: String,
    /// The `created_at` column.
    pub created_at: DateTimeUtc,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
