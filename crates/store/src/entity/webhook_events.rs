//! A payment-provider webhook event already handled.

use sea_orm::entity::prelude::*;

/// A row of `webhook_events`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "webhook_events")]
pub struct Model {
    /// The `id` column: the provider's event id.
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    /// The `kind` column: the event type.
    pub kind: String,
    /// The `received_at` column.
    pub received_at: DateTimeUtc,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
