//! Retention of the public API's records (docs/ARCHITECTURE.md §4): the periodic sweep removes
//! `api_usage` rows older than the retention period and forgets `Idempotency-Key`s older than a
//! day. Both look rows up by time alone, across every account, so each gets an index on its
//! time: without one, every sweep would read the whole table.

use sea_orm_migration::prelude::*;

use crate::util::{c, index};

#[derive(DeriveMigrationName)]
pub struct Migration;

/// The indexes this migration adds: (table, name, columns).
const INDEXES: [(&str, &str, &[&str]); 2] = [
    ("api_usage", "timestamp", &["timestamp"]),
    ("analysis_jobs", "created", &["created_at"]),
];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for (table, name, columns) in INDEXES {
            manager
                .create_index(index(c(table), name, columns, false))
                .await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for (table, name, _) in INDEXES {
            manager
                .drop_index(
                    Index::drop()
                        .name(format!("idx_{table}_{name}"))
                        .table(c(table))
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }
}
