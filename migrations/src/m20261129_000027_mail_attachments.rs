//! E-mailed reports (issue 15 item 4): an outbox e-mail may carry one attachment, kept in blob
//! storage (`attachment_key`, with the file name and content type it is sent under; the row
//! never holds the bytes), and a sender's display name (`from_name`: an agency's name on the
//! configured sender address). A report request by e-mail (`email_reports`) names its mail
//! (`outbox_id`, so the request is marked sent when its mail is) and, when an account sent it
//! to a client from the dashboard, that account (`sent_by_user_id`, which also counts the
//! account's sends against its hourly limit).

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::util::{add_column, c, drop_columns, index};

#[derive(DeriveMigrationName)]
pub struct Migration;

/// The columns this migration adds: (table, column).
const COLUMNS: [(&str, &str); 6] = [
    ("email_outbox", "attachment_key"),
    ("email_outbox", "attachment_name"),
    ("email_outbox", "attachment_type"),
    ("email_outbox", "from_name"),
    ("email_reports", "outbox_id"),
    ("email_reports", "sent_by_user_id"),
];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let outbox = "email_outbox";
        add_column(manager, outbox, string_null(c("attachment_key")).take()).await?;
        add_column(manager, outbox, string_null(c("attachment_name")).take()).await?;
        add_column(manager, outbox, string_null(c("attachment_type")).take()).await?;
        add_column(manager, outbox, string_null(c("from_name")).take()).await?;
        let reports = "email_reports";
        add_column(manager, reports, big_integer_null(c("outbox_id")).take()).await?;
        add_column(
            manager,
            reports,
            big_integer_null(c("sent_by_user_id")).take(),
        )
        .await?;
        manager
            .create_index(index(c(reports), "outbox", &["outbox_id"], false))
            .await?;
        manager
            .create_index(index(
                c(reports),
                "sender_time",
                &["sent_by_user_id", "created_at"],
                false,
            ))
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for name in ["idx_email_reports_sender_time", "idx_email_reports_outbox"] {
            manager
                .drop_index(
                    Index::drop()
                        .name(name)
                        .table(c("email_reports"))
                        .to_owned(),
                )
                .await?;
        }
        let mut columns = COLUMNS;
        columns.reverse();
        drop_columns(manager, &columns).await
    }
}
