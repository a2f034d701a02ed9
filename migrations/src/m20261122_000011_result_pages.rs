//! How many pages a stored report rests on (the report contract's `pagesAnalyzed`), so it no
//! longer travels inside the performance JSON.

use sea_orm_migration::prelude::*;

use crate::util::c;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(c("analysis_results"))
                    .add_column(
                        ColumnDef::new(c("pages_analyzed"))
                            .integer()
                            .not_null()
                            .default(1),
                    )
                    .take(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(c("analysis_results"))
                    .drop_column(c("pages_analyzed"))
                    .take(),
            )
            .await
    }
}
