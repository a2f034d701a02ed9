//! Refunds are read by the payment they refund: a charge refunded in parts adds a row each
//! time, and each new refund counts only what it adds to the rows before it.

use sea_orm_migration::prelude::*;

use crate::util::{c, index};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_index(index(c("refunds"), "payment", &["payment_id"], false))
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_index(
                Index::drop()
                    .name("idx_refunds_payment")
                    .table(c("refunds"))
                    .to_owned(),
            )
            .await
    }
}
