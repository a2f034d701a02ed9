//! Test databases for the tests and benchmarks of `store` and `server`: every test gets a
//! fresh SQLite file and a fresh PostgreSQL database, removed afterwards, even when the test
//! panics.
//!
//! PostgreSQL is `SITELENS_TEST_POSTGRES` (default `postgres://postgres@127.0.0.1:5432`, trust
//! auth). When it cannot be reached, the PostgreSQL half of each test is skipped with one loud
//! warning, unless `CI=true`, where that is a failure: CI must test both engines.
//!
//! This crate knows nothing of Sitelens's schema: it hands out empty databases; the tests
//! connect (and migrate) through `store`.

use std::future::Future;
use std::io::Write;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use futures::FutureExt;
use sea_orm::{ConnectOptions, ConnectionTrait, Database, DatabaseConnection};
use uuid::Uuid;

/// Which database engine a test runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// A fresh SQLite file.
    Sqlite,
    /// A fresh PostgreSQL database.
    Postgres,
}

/// The PostgreSQL server the tests create their databases on, without a database name.
pub fn postgres_base_url() -> String {
    std::env::var("SITELENS_TEST_POSTGRES")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432".to_owned())
}

/// Whether this run is CI's, where skipping PostgreSQL is an error.
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

static WARN_ONCE: Once = Once::new();
/// Set once PostgreSQL was found unreachable, so later tests skip without waiting again.
static PG_DOWN: AtomicBool = AtomicBool::new(false);

/// Writes straight to the process's stderr, past the test harness's output capture, so the
/// warning shows in a normal `cargo test` run.
fn loud_warning(reason: &str) {
    WARN_ONCE.call_once(|| {
        let line = "=".repeat(78);
        let _ = writeln!(
            std::io::stderr(),
            "\n{line}\nWARNING: PostgreSQL is unreachable at {} ({reason}).\n\
             The PostgreSQL half of the database tests is SKIPPED; only SQLite was tested.\n\
             Set CI=true to make this an error.\n{line}\n",
            postgres_base_url()
        );
    });
}

/// A connection to the `postgres` maintenance database, or `None` (after the warning) when
/// PostgreSQL is unreachable outside CI.
async fn pg_admin() -> Option<DatabaseConnection> {
    if PG_DOWN.load(Ordering::Relaxed) {
        return None;
    }
    let mut options = ConnectOptions::new(format!("{}/postgres", postgres_base_url()));
    options
        .max_connections(1)
        .connect_timeout(Duration::from_secs(3))
        .acquire_timeout(Duration::from_secs(3))
        .sqlx_logging(false);
    match Database::connect(options).await {
        Ok(db) => Some(db),
        Err(err) => {
            assert!(!under_ci(), "PostgreSQL is required under CI=true: {err}");
            PG_DOWN.store(true, Ordering::Relaxed);
            loud_warning(&err.to_string());
            None
        }
    }
}

/// A fresh, empty database and a folder of its own for the test's files.
#[derive(Clone, Debug)]
pub struct TestDb {
    /// The database URL (`sqlite://…?mode=rwc` or `postgres://…/sitelens_test_…`).
    pub url: String,
    /// The engine.
    pub engine: Engine,
    /// The PostgreSQL database name.
    name: String,
    /// Holds the SQLite file and anything else the test writes.
    dir: PathBuf,
}

impl TestDb {
    /// Creates an empty database; `None` when PostgreSQL is unreachable outside CI.
    pub async fn create(engine: Engine) -> Option<Self> {
        let name = format!("sitelens_test_{}", Uuid::new_v4().simple());
        let dir = std::env::temp_dir().join(&name);
        std::fs::create_dir_all(&dir).expect("create the test's temporary folder");
        let url = match engine {
            Engine::Sqlite => format!("sqlite://{}?mode=rwc", dir.join("db.sqlite").display()),
            Engine::Postgres => {
                let Some(admin) = pg_admin().await else {
                    let _ = std::fs::remove_dir_all(&dir);
                    return None;
                };
                admin
                    .execute_unprepared(&format!("CREATE DATABASE \"{name}\""))
                    .await
                    .expect("create the test database");
                admin.close().await.expect("close the admin pool");
                format!("{}/{name}", postgres_base_url())
            }
        };
        Some(Self {
            url,
            engine,
            name,
            dir,
        })
    }

    /// A folder that exists for this test only (removed with the database).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Drops the database (ending connections a failed test left open) and removes the folder.
    pub async fn drop_db(self) {
        if self.engine == Engine::Postgres
            && let Some(admin) = pg_admin().await
        {
            admin
                .execute_unprepared(&format!(
                    "DROP DATABASE IF EXISTS \"{}\" WITH (FORCE)",
                    self.name
                ))
                .await
                .expect("drop the test database");
            let _ = admin.close().await;
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Runs `test` on a fresh database of `engine`, then removes it, even when `test` panics (the
/// panic is passed on). Does nothing when PostgreSQL is unreachable outside CI.
pub async fn run_on<F, Fut>(engine: Engine, test: F)
where
    F: FnOnce(TestDb) -> Fut,
    Fut: Future<Output = ()>,
{
    let Some(db) = TestDb::create(engine).await else {
        return;
    };
    let outcome = AssertUnwindSafe(test(db.clone())).catch_unwind().await;
    db.drop_db().await;
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic);
    }
}

/// Runs `test` once on SQLite and once on PostgreSQL, each time on a fresh database.
pub async fn each_engine<F, Fut>(test: F)
where
    F: Fn(TestDb) -> Fut,
    Fut: Future<Output = ()>,
{
    run_on(Engine::Sqlite, &test).await;
    run_on(Engine::Postgres, &test).await;
}
