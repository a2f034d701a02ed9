//! The service's status (`/api-status`, `GET /api/v1/status`): `health_samples`, one row per
//! minute (its start, in seconds since the Unix epoch, is the primary key, so however many
//! server processes share the database, the first to insert a minute's sample wins and the
//! others' inserts do nothing; rows older than a day are removed), and `worker_heartbeats`,
//! one row per worker process, written every few seconds with what it is doing and its
//! browser's state, so every web node can tell which workers are alive.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::util::{c, create_all, drop_all, index};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let samples = Table::create()
            .table(c("health_samples"))
            // The minute the sample stands for: seconds since the Unix epoch, a whole minute.
            .col(big_integer(c("minute")).primary_key())
            .col(timestamp_with_time_zone(c("taken_at")))
            .col(string(c("state")))
            // The database's ping in ms; NULL when it did not answer.
            .col(double_null(c("database_ms")))
            .col(integer(c("queue_depth")))
            .col(big_integer_null(c("oldest_wait_seconds")))
            .col(integer(c("workers_alive")))
            .col(integer(c("workers_busy")))
            .take();
        let workers = Table::create()
            .table(c("worker_heartbeats"))
            .col(string(c("worker_id")).primary_key())
            .col(timestamp_with_time_zone(c("started_at")))
            .col(timestamp_with_time_zone(c("beat_at")))
            .col(integer(c("concurrency")))
            // Analyses it is running.
            .col(integer(c("busy")))
            // Its browser: off, missing, idle, starting or running.
            .col(string(c("browser")))
            .col(integer(c("tabs_in_use")))
            .col(integer(c("tabs_max")))
            .col(integer(c("spare_tabs")))
            .take();
        create_all(
            manager,
            vec![samples, workers],
            vec![index(c("worker_heartbeats"), "beat", &["beat_at"], false)],
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_all(manager, &["worker_heartbeats", "health_samples"]).await
    }
}
