//! Signed callbacks of the public API (issue 17): `analysis_jobs.callback_url`, where an API
//! client asked to be told when its analysis completes or fails; `callback_secrets`, one
//! signing secret per account, kept readable because the server signs with it (a hash would
//! not do); `callback_deliveries`, the durable queue of events to deliver, claimed by a guarded
//! update so several processes never send one attempt twice; and `callback_attempts`, every
//! attempt with its time, HTTP status or error and duration, shown to the analysis's owner.

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
                    .table(c("analysis_jobs"))
                    .add_column(string_null(c("callback_url")))
                    .to_owned(),
            )
            .await?;
        let secrets = Table::create()
            .table(c("callback_secrets"))
            // One secret per account: the user id is the key.
            .col(big_integer(c("user_id")).primary_key())
            .col(string(c("secret")))
            .col(now_column("created_at"))
            .foreign_key(&mut fk(
                c("callback_secrets"),
                c("user_id"),
                c("users"),
                ForeignKeyAction::Cascade,
            ))
            .take();
        let deliveries = Table::create()
            .table(c("callback_deliveries"))
            .col(big_pk_auto(c("id")))
            // The event id a receiver deduplicates by.
            .col(uuid(c("event_id")).unique_key())
            .col(uuid(c("job_id")))
            .col(string(c("event_type")))
            // The account whose secret signs it (the payer of the analysis).
            .col(big_integer(c("account_id")))
            .col(string(c("url")))
            // `pending` (to send at `next_attempt_at`), `delivered` or `failed` (given up).
            .col(string(c("state")))
            .col(integer(c("attempts")).default(0))
            .col(timestamp_with_time_zone_null(c("next_attempt_at")))
            .col(now_column("created_at"))
            .col(timestamp_with_time_zone_null(c("finished_at")))
            .foreign_key(&mut fk(
                c("callback_deliveries"),
                c("job_id"),
                c("analysis_jobs"),
                ForeignKeyAction::Cascade,
            ))
            .take();
        let attempts = Table::create()
            .table(c("callback_attempts"))
            .col(big_pk_auto(c("id")))
            .col(big_integer(c("delivery_id")))
            .col(timestamp_with_time_zone(c("attempted_at")))
            .col(integer_null(c("status_code")))
            .col(string_null(c("error")))
            .col(integer(c("duration_ms")))
            // The first characters of the receiver's answer, never more.
            .col(string_null(c("response_excerpt")))
            .foreign_key(&mut fk(
                c("callback_attempts"),
                c("delivery_id"),
                c("callback_deliveries"),
                ForeignKeyAction::Cascade,
            ))
            .take();
        create_all(
            manager,
            vec![secrets, deliveries, attempts],
            vec![
                index(c("callback_deliveries"), "job", &["job_id"], false),
                index(
                    c("callback_deliveries"),
                    "due",
                    &["state", "next_attempt_at"],
                    false,
                ),
                index(c("callback_attempts"), "delivery", &["delivery_id"], false),
            ],
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_all(
            manager,
            &[
                "callback_attempts",
                "callback_deliveries",
                "callback_secrets",
            ],
        )
        .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(c("analysis_jobs"))
                    .drop_column(c("callback_url"))
                    .to_owned(),
            )
            .await
    }
}
