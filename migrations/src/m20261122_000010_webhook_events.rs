//! Payment-provider webhook events already handled, so a redelivered event (Stripe retries
//! for days) is recognised and skipped, whatever kind of event it is.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::util::{c, drop_all, now_column};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(c("webhook_events"))
                    .col(string(c("id")).primary_key())
                    .col(string(c("kind")))
                    .col(now_column("received_at"))
                    .take(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_all(manager, &["webhook_events"]).await
    }
}
