//! What our own accounts service needs beyond the users table (docs/PRODUCT.md §10.1): when an
//! e-mail address was verified, the failed sign-ins that throttling counts, and team
//! invitations sent to an address that may not have an account yet.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::util::{c, create_all, drop_all, fk, index, now_column};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(c("users"))
                    .add_column(timestamp_with_time_zone_null(c("email_verified_at")))
                    .to_owned(),
            )
            .await?;

        // One row per failed sign-in, counted per visitor address and per account over a
        // window; in the database, so every web node counts alike.
        let failures = Table::create()
            .table(c("sign_in_failures"))
            .col(big_pk_auto(c("id")))
            // The visitor's address (an IPv6 visitor by its /64).
            .col(string(c("address")))
            // The e-mail address tried, normalised; it need not belong to an account.
            .col(string(c("email")))
            .col(now_column("at"))
            .take();

        let invitations = Table::create()
            .table(c("team_invitations"))
            .col(big_pk_auto(c("id")))
            // SHA-256 of the token in the invitation link.
            .col(string(c("token_hash")).unique_key())
            .col(big_integer(c("team_owner_id")))
            .col(string(c("email")))
            .col(string(c("role")).default("member"))
            .col(now_column("invited_at"))
            .col(timestamp_with_time_zone(c("expires_at")))
            .col(timestamp_with_time_zone_null(c("accepted_at")))
            .foreign_key(&mut fk(
                c("team_invitations"),
                c("team_owner_id"),
                c("users"),
                ForeignKeyAction::Cascade,
            ))
            .take();

        create_all(
            manager,
            vec![failures, invitations],
            vec![
                index(
                    c("sign_in_failures"),
                    "address_at",
                    &["address", "at"],
                    false,
                ),
                index(c("sign_in_failures"), "email_at", &["email", "at"], false),
                index(c("team_invitations"), "owner", &["team_owner_id"], false),
            ],
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_all(manager, &["team_invitations", "sign_in_failures"]).await?;
        manager
            .alter_table(
                Table::alter()
                    .table(c("users"))
                    .drop_column(c("email_verified_at"))
                    .to_owned(),
            )
            .await
    }
}
