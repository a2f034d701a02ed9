//! What an analysis cost that its payer's unlimited plan covered (`analysis_jobs.plan_charge`,
//! half credits): counted and written to the ledger like any spend, taken from no balance, and
//! it makes the report a paid one.

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
                    .table(c("analysis_jobs"))
                    .add_column(integer(c("plan_charge")).default(0))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(c("analysis_jobs"))
                    .drop_column(c("plan_charge"))
                    .to_owned(),
            )
            .await
    }
}
