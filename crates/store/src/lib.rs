//! Sitelens persistence: sea-orm entities and repository functions that run unchanged on
//! SQLite (the single-binary default) and PostgreSQL (many web and worker processes sharing
//! one database); see docs/ARCHITECTURE.md §4 and §6.
//!
//! Open a database with [`connect`]; it runs the migrations. Every repository function takes
//! the [`DatabaseConnection`] (cheap to clone) and returns [`StoreResult`]. The operations that
//! guard money, allowances and the job queue are single guarded statements or short
//! transactions, correct under concurrency on both engines:
//!
//! - [`credits::spend_credits`] never takes a balance below zero;
//! - [`credits::grant_purchase`] grants a payment once, however often it is delivered;
//! - [`allowance::record_free_analysis`] lets at most `limit` free analyses through per
//!   address and UTC day;
//! - [`jobs::claim_next_job`] hands each queued job to exactly one worker, and
//!   [`jobs::recover_stale_jobs`] re-queues (once) or fails jobs whose worker went silent;
//! - [`websites::record_website_analysis`] counts analyses per canonical URL.
//!
//! Every statement is built with sea-orm or its query builder (sea-query), which writes each
//! engine's placeholders and leaves out what an engine lacks (SQLite has no `FOR UPDATE SKIP
//! LOCKED`); stored enum values come from their Rust enums, never from SQL text.
//!
//! Tests: `cargo test -p store` runs every integration test on a fresh SQLite file and on a
//! fresh PostgreSQL database (`SITELENS_TEST_POSTGRES`, default
//! `postgres://postgres@127.0.0.1:5432`, dropped afterwards). Without PostgreSQL the second
//! half is skipped with a loud warning, unless `CI=true`, where it fails. Benchmarks:
//! `cargo bench -p store` (same databases; prints operations per second).

pub mod accounts;
pub mod admin;
pub mod affiliates;
pub mod allowance;
pub mod api_keys;
pub mod audit;
pub mod billing;
pub mod branding;
pub mod callbacks;
mod clock;
mod connect;
pub mod contact;
pub mod credits;
pub mod custom_domains;
pub mod entity;
mod error;
pub mod health;
pub mod history;
pub mod jobs;
pub mod links;
pub mod notify;
pub mod outbox;
pub mod reports;
pub mod results;
pub mod sessions;
pub mod stats;
pub mod throttle;
pub mod tokens;
pub mod users;
pub mod websites;
pub mod widget;

pub use clock::now;
pub use connect::{
    SQLITE_BUSY_TIMEOUT, connect, connect_with_pool_size, open, pending_migrations, ping, reset,
};
pub use error::{StoreError, StoreResult};
pub use migration::{Migrator, MigratorTrait};
pub use sea_orm::DatabaseConnection;

use sea_orm::{DatabaseTransaction, SqliteTransactionMode, TransactionOptions, TransactionTrait};

/// Starts a transaction that will write.
///
/// On SQLite it is `BEGIN IMMEDIATE`: the write lock is taken at once (waiting up to the busy
/// timeout), so a transaction never fails half-way when it upgrades from reading to writing.
/// On PostgreSQL it is an ordinary read-committed transaction; the guarded statements inside
/// re-check their conditions on the locked row.
pub(crate) async fn begin_write(db: &DatabaseConnection) -> StoreResult<DatabaseTransaction> {
    let options = TransactionOptions {
        sqlite_transaction_mode: Some(SqliteTransactionMode::Immediate),
        ..Default::default()
    };
    Ok(db.begin_with_options(options).await?)
}
