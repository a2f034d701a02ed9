//! The admin area's audit log (docs/PRODUCT.md §6.6): one row for every change an administrator
//! makes, written in the same transaction as the change, with who made it, what it touched, why
//! and the details. Rows are never updated; an actor's row outlives their account (the e-mail
//! is kept on the row, the link is set to NULL).

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::util::{c, create_all, drop_all, fk, index, now_column};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let log = Table::create()
            .table(c("admin_audit_log"))
            .col(big_pk_auto(c("id")))
            .col(big_integer_null(c("actor_user_id")))
            .col(string(c("actor_email")))
            .col(string(c("action")))
            .col(string(c("target_type")))
            .col(string_null(c("target_id")))
            .col(text_null(c("reason")))
            // The change's details as a JSON document (what it was, what it became).
            .col(text(c("detail")))
            .col(now_column("created_at"))
            .foreign_key(&mut fk(
                c("admin_audit_log"),
                c("actor_user_id"),
                c("users"),
                ForeignKeyAction::SetNull,
            ))
            .take();
        create_all(
            manager,
            vec![log],
            vec![
                index(c("admin_audit_log"), "created", &["created_at"], false),
                index(
                    c("admin_audit_log"),
                    "target",
                    &["target_type", "target_id"],
                    false,
                ),
            ],
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_all(manager, &["admin_audit_log"]).await
    }
}
