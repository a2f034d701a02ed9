//! Named counters, so the home page's "analyses completed" figure is one primary-key read
//! instead of a count over a growing table.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::util::{c, drop_all};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(c("counters"))
                    .col(string(c("name")).primary_key())
                    .col(big_integer(c("value")).default(0))
                    .take(),
            )
            .await?;
        // Start from what is already stored, so adding the counters to a live database is
        // correct too.
        let db = manager.get_connection();
        let seed = Query::insert()
            .into_table(c("counters"))
            .columns([c("name"), c("value")])
            .select_from(
                Query::select()
                    .expr(Expr::val("websites_analyzed"))
                    .expr(Expr::col(c("id")).count())
                    .from(c("websites"))
                    .take(),
            )
            .map_err(|e| DbErr::Migration(e.to_string()))?
            .take();
        db.execute(&seed).await?;
        let seed = Query::insert()
            .into_table(c("counters"))
            .columns([c("name"), c("value")])
            .select_from(
                Query::select()
                    .expr(Expr::val("analyses_completed"))
                    .expr(Expr::col(c("id")).count())
                    .from(c("analysis_results"))
                    .take(),
            )
            .map_err(|e| DbErr::Migration(e.to_string()))?
            .take();
        db.execute(&seed).await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_all(manager, &["counters"]).await
    }
}
