//! An upgrade checkout names the paid analysis its payment started (`analysis_id`), so the
//! grant, the spend and the job are written once per checkout, in the payment's transaction,
//! and the buyer's pages follow that analysis instead of starting one.

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
                    .table(c("checkout_sessions"))
                    .add_column(uuid_null(c("analysis_id")))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(c("checkout_sessions"))
                    .drop_column(c("analysis_id"))
                    .to_owned(),
            )
            .await
    }
}
