//! Disabled accounts (issue 16, the admin area): `users.disabled_at`, set by an administrator.
//! A disabled account cannot sign in, its sessions are ended and its API keys are refused;
//! clearing the column enables it again.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::util::c;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(c("users"))
                    .add_column(timestamp_with_time_zone_null(c("disabled_at")))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(c("users"))
                    .drop_column(c("disabled_at"))
                    .to_owned(),
            )
            .await
    }
}
