//! The link graph of every page Sitelens has crawled, from which the default authority
//! provider computes referring domains and a PageRank-style score (docs/ARCHITECTURE.md §5).

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::util::{c, create_all, drop_all, fk, index, now_column};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let pages = Table::create()
            .table(c("crawled_pages"))
            .col(big_pk_auto(c("id")))
            .col(string(c("url")).unique_key())
            .col(string(c("host")))
            .col(now_column("last_crawled_at"))
            .take();

        let links = Table::create()
            .table(c("page_links"))
            .col(big_pk_auto(c("id")))
            .col(big_integer(c("from_page_id")))
            .col(string(c("to_url")))
            .col(string(c("to_host")))
            .col(boolean(c("nofollow")).default(false))
            .foreign_key(&mut fk(
                c("page_links"),
                c("from_page_id"),
                c("crawled_pages"),
                ForeignKeyAction::Cascade,
            ))
            .take();

        create_all(
            manager,
            vec![pages, links],
            vec![
                index(c("crawled_pages"), "host", &["host"], false),
                index(
                    c("page_links"),
                    "from_to",
                    &["from_page_id", "to_url"],
                    true,
                ),
                index(c("page_links"), "to_host", &["to_host"], false),
            ],
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_all(manager, &["page_links", "crawled_pages"]).await
    }
}
