//! The e-mail outbox (mail is queued here and sent by a worker, or read by the admin when no
//! SMTP server is configured: never dropped silently) and messages from the contact form.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::util::{c, create_all, drop_all, index, now_column};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let outbox = Table::create()
            .table(c("email_outbox"))
            .col(big_pk_auto(c("id")))
            .col(string(c("to_address")))
            .col(string(c("subject")))
            .col(text(c("body")))
            .col(now_column("created_at"))
            .col(timestamp_with_time_zone_null(c("sent_at")))
            .col(integer(c("attempts")).default(0))
            .col(text_null(c("last_error")))
            .take();

        let contact = Table::create()
            .table(c("contact_messages"))
            .col(big_pk_auto(c("id")))
            .col(string(c("name")))
            .col(string(c("email")))
            .col(string(c("subject")))
            .col(text(c("message")))
            .col(now_column("created_at"))
            .take();

        create_all(
            manager,
            vec![outbox, contact],
            vec![
                index(
                    c("email_outbox"),
                    "pending",
                    &["sent_at", "created_at"],
                    false,
                ),
                index(c("contact_messages"), "created", &["created_at"], false),
            ],
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_all(manager, &["contact_messages", "email_outbox"]).await
    }
}
