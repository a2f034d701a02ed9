//! The public API (docs/PRODUCT.md §3.4 `users.apiKey`, §3.6 `api_usage`): several named keys
//! per account in `api_keys` (only each key's SHA-256 is stored; `users.api_key_hash`, which
//! held one key per account, is superseded and left empty), a fixed-window request counter per
//! key and minute in `api_rate_windows` that every server process shares, the key behind each
//! `api_usage` row, and `analysis_jobs.idempotency_key`: unique per requester, so a retried
//! submission finds its analysis and is never charged twice, however many arrive at once.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::util::{c, create_all, drop_all, fk, index, now_column};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let keys = Table::create()
            .table(c("api_keys"))
            .col(big_pk_auto(c("id")))
            .col(big_integer(c("user_id")))
            .col(string(c("name")))
            // The key's first characters, shown so a person can tell keys apart.
            .col(string(c("prefix")))
            // The SHA-256 (hex) of the whole key: a leaked table holds no usable key.
            .col(string(c("key_hash")).unique_key())
            .col(now_column("created_at"))
            .col(timestamp_with_time_zone_null(c("last_used_at")))
            .col(timestamp_with_time_zone_null(c("revoked_at")))
            .foreign_key(&mut fk(
                c("api_keys"),
                c("user_id"),
                c("users"),
                ForeignKeyAction::Cascade,
            ))
            .take();
        let windows = Table::create()
            .table(c("api_rate_windows"))
            .col(big_integer(c("api_key_id")))
            // The window's start in seconds since the Unix epoch (a whole minute).
            .col(big_integer(c("window_start")))
            .col(integer(c("requests")).default(0))
            .primary_key(Index::create().col(c("api_key_id")).col(c("window_start")))
            .foreign_key(&mut fk(
                c("api_rate_windows"),
                c("api_key_id"),
                c("api_keys"),
                ForeignKeyAction::Cascade,
            ))
            .take();
        create_all(
            manager,
            vec![keys, windows],
            vec![index(c("api_keys"), "user", &["user_id"], false)],
        )
        .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(c("api_usage"))
                    .add_column(big_integer_null(c("api_key_id")))
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(c("analysis_jobs"))
                    .add_column(string_null(c("idempotency_key")))
                    .to_owned(),
            )
            .await?;
        // Both engines treat NULLs as distinct in a unique index, so jobs without a key (every
        // job not submitted through the API) never clash.
        manager
            .create_index(index(
                c("analysis_jobs"),
                "requester_idempotency",
                &["requester_user_id", "idempotency_key"],
                true,
            ))
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_index(
                Index::drop()
                    .name("idx_analysis_jobs_requester_idempotency")
                    .table(c("analysis_jobs"))
                    .to_owned(),
            )
            .await?;
        for (table, column) in [
            ("analysis_jobs", "idempotency_key"),
            ("api_usage", "api_key_id"),
        ] {
            manager
                .alter_table(
                    Table::alter()
                        .table(c(table))
                        .drop_column(c(column))
                        .to_owned(),
                )
                .await?;
        }
        drop_all(manager, &["api_rate_windows", "api_keys"]).await
    }
}
