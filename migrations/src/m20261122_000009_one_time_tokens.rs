//! One-time tokens sent by e-mail (password reset, address verification): only a hash is
//! stored, each token is used at most once and expires.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::util::{c, create_all, drop_all, fk, index, now_column};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let tokens = Table::create()
            .table(c("one_time_tokens"))
            // SHA-256 of the token.
            .col(string(c("token_hash")).primary_key())
            // password_reset, verify_email, ...
            .col(string(c("purpose")))
            .col(big_integer(c("user_id")))
            .col(now_column("created_at"))
            .col(timestamp_with_time_zone(c("expires_at")))
            .col(timestamp_with_time_zone_null(c("used_at")))
            .foreign_key(&mut fk(
                c("one_time_tokens"),
                c("user_id"),
                c("users"),
                ForeignKeyAction::Cascade,
            ))
            .take();
        create_all(
            manager,
            vec![tokens],
            vec![index(c("one_time_tokens"), "user", &["user_id"], false)],
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_all(manager, &["one_time_tokens"]).await
    }
}
