//! The analysis job queue (docs/ARCHITECTURE.md §4): one row per requested analysis, claimed
//! by a worker, with its progress stored on the row so any web node can stream it.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::util::{c, create_all, drop_all, fk, index, now_column};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let jobs = Table::create()
            .table(c("analysis_jobs"))
            .col(pk_uuid(c("id")))
            .col(big_integer(c("website_id")))
            // As the visitor typed it, and as normalised.
            .col(string(c("url")))
            .col(string(c("canonical_url")))
            // queued, running, complete or failed.
            .col(string(c("status")).default("queued"))
            // basic, standard or premium.
            .col(string(c("tier")).default("basic"))
            .col(integer(c("requested_pages")).default(1))
            .col(integer(c("progress")).default(0))
            .col(string_null(c("step")))
            .col(string_null(c("message")))
            .col(text_null(c("error")))
            .col(integer(c("attempts")).default(0))
            .col(string_null(c("claimed_by")))
            .col(timestamp_with_time_zone_null(c("heartbeat_at")))
            .col(now_column("created_at"))
            .col(now_column("updated_at"))
            .col(timestamp_with_time_zone_null(c("started_at")))
            .col(timestamp_with_time_zone_null(c("finished_at")))
            .col(big_integer_null(c("requester_user_id")))
            .col(string_null(c("requester_ip")))
            .col(uuid_null(c("result_id")))
            .foreign_key(&mut fk(
                c("analysis_jobs"),
                c("website_id"),
                c("websites"),
                ForeignKeyAction::Cascade,
            ))
            .foreign_key(&mut fk(
                c("analysis_jobs"),
                c("requester_user_id"),
                c("users"),
                ForeignKeyAction::SetNull,
            ))
            .foreign_key(&mut fk(
                c("analysis_jobs"),
                c("result_id"),
                c("analysis_results"),
                ForeignKeyAction::SetNull,
            ))
            .take();

        create_all(
            manager,
            vec![jobs],
            vec![
                // The claim query: the oldest queued job.
                index(
                    c("analysis_jobs"),
                    "status_created",
                    &["status", "created_at"],
                    false,
                ),
                // The recovery query: running jobs whose heartbeat is old.
                index(
                    c("analysis_jobs"),
                    "status_heartbeat",
                    &["status", "heartbeat_at"],
                    false,
                ),
                index(
                    c("analysis_jobs"),
                    "requester",
                    &["requester_user_id"],
                    false,
                ),
                index(c("analysis_jobs"), "result", &["result_id"], false),
            ],
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_all(manager, &["analysis_jobs"]).await
    }
}
