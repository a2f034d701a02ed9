//! Sales contact flows (issue 16 item 5): a contact message records which form it came through
//! (`kind`: general, enterprise, agency, partner), the form's other fields (`details`, a JSON
//! array of `{label, value}`), and whether the team answered it (`status` new/answered, when and
//! by whom); an outbox e-mail may carry a `reply_to` address (mail to sales answers the sender).
//! Existing messages read as general and new.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::util::{c, index};

#[derive(DeriveMigrationName)]
pub struct Migration;

async fn add_column(
    manager: &SchemaManager<'_>,
    table: &'static str,
    column: ColumnDef,
) -> Result<(), DbErr> {
    // One change per statement: SQLite's ALTER TABLE takes a single one.
    manager
        .alter_table(Table::alter().table(c(table)).add_column(column).to_owned())
        .await
}

/// The columns this migration adds: (table, column).
const COLUMNS: [(&str, &str); 6] = [
    ("contact_messages", "kind"),
    ("contact_messages", "details"),
    ("contact_messages", "status"),
    ("contact_messages", "answered_at"),
    ("contact_messages", "answered_by"),
    ("email_outbox", "reply_to"),
];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let table = "contact_messages";
        add_column(manager, table, string(c("kind")).default("general").take()).await?;
        add_column(manager, table, text(c("details")).default("[]").take()).await?;
        add_column(manager, table, string(c("status")).default("new").take()).await?;
        add_column(
            manager,
            table,
            timestamp_with_time_zone_null(c("answered_at")).take(),
        )
        .await?;
        add_column(manager, table, string_null(c("answered_by")).take()).await?;
        add_column(manager, "email_outbox", string_null(c("reply_to")).take()).await?;
        manager
            .create_index(index(c(table), "kind", &["kind", "id"], false))
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_index(
                Index::drop()
                    .name("idx_contact_messages_kind")
                    .table(c("contact_messages"))
                    .to_owned(),
            )
            .await?;
        for &(table, column) in COLUMNS.iter().rev() {
            manager
                .alter_table(
                    Table::alter()
                        .table(c(table))
                        .drop_column(c(column))
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }
}
