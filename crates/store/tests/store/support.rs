//! Runs each test body on SQLite and on PostgreSQL, each time on a fresh database that is
//! removed afterwards, even when the body panics.

use std::future::Future;
use std::io::Write;
use std::panic::AssertUnwindSafe;
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use futures::FutureExt;
use sea_orm::{ConnectOptions, ConnectionTrait, Database, DatabaseConnection};
use uuid::Uuid;

/// Which engine a test body is running on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    Sqlite,
    Postgres,
}

fn pg_base_url() -> String {
    std::env::var("SITELENS_TEST_POSTGRES")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432".to_owned())
}

fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

static WARN_ONCE: Once = Once::new();
static ANNOUNCE_ONCE: Once = Once::new();

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
             The PostgreSQL half of every store test is SKIPPED; only SQLite was tested.\n\
             Set CI=true to make this an error.\n{line}\n",
            pg_base_url()
        );
    });
}

async fn pg_admin() -> Option<DatabaseConnection> {
    if PG_DOWN.load(Ordering::Relaxed) {
        return None;
    }
    let mut options = ConnectOptions::new(format!("{}/postgres", pg_base_url()));
    options
        .max_connections(1)
        .connect_timeout(Duration::from_secs(3))
        .acquire_timeout(Duration::from_secs(3))
        .sqlx_logging(false);
    match Database::connect(options).await {
        Ok(db) => {
            ANNOUNCE_ONCE.call_once(|| {
                let _ = writeln!(
                    std::io::stderr(),
                    "store tests: every test runs on SQLite and on PostgreSQL at {}",
                    pg_base_url()
                );
            });
            Some(db)
        }
        Err(err) => {
            assert!(!under_ci(), "PostgreSQL is required under CI=true: {err}");
            PG_DOWN.store(true, Ordering::Relaxed);
            loud_warning(&err.to_string());
            None
        }
    }
}

/// A fresh SQLite file URL and the files to remove afterwards.
fn sqlite_url() -> (String, Vec<std::path::PathBuf>) {
    let path =
        std::env::temp_dir().join(format!("sitelens-test-{}.sqlite", Uuid::new_v4().simple()));
    let files = ["", "-wal", "-shm"]
        .iter()
        .map(|suffix| std::path::PathBuf::from(format!("{}{suffix}", path.display())))
        .collect();
    (format!("sqlite://{}?mode=rwc", path.display()), files)
}

async fn run_guarded<Fut>(outcome: Fut) -> std::thread::Result<()>
where
    Fut: Future<Output = ()>,
{
    AssertUnwindSafe(outcome).catch_unwind().await
}

/// Runs `test` on a fresh, migrated SQLite file and a fresh, migrated PostgreSQL database.
pub async fn each_engine<F, Fut>(test: F)
where
    F: Fn(DatabaseConnection, Engine) -> Fut,
    Fut: Future<Output = ()>,
{
    each_engine_url(|url, engine| {
        let test = &test;
        async move {
            let db = store::connect(&url).await.expect("connect and migrate");
            test(db.clone(), engine).await;
            db.close().await.expect("close pool");
        }
    })
    .await;
}

/// Runs `test` with the URL of a fresh, empty SQLite file and of a fresh, empty PostgreSQL
/// database; the test opens its own connections and must close them.
pub async fn each_engine_url<F, Fut>(test: F)
where
    F: Fn(String, Engine) -> Fut,
    Fut: Future<Output = ()>,
{
    let (url, files) = sqlite_url();
    let outcome = run_guarded(test(url, Engine::Sqlite)).await;
    for file in files {
        let _ = std::fs::remove_file(file);
    }
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic);
    }

    let Some(admin) = pg_admin().await else {
        return;
    };
    let name = format!("sitelens_test_{}", Uuid::new_v4().simple());
    admin
        .execute_unprepared(&format!("CREATE DATABASE \"{name}\""))
        .await
        .expect("create test database");
    let url = format!("{}/{name}", pg_base_url());
    let outcome = run_guarded(test(url, Engine::Postgres)).await;
    // FORCE ends connections a panicking test left open.
    admin
        .execute_unprepared(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"))
        .await
        .expect("drop test database");
    admin.close().await.expect("close admin pool");
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic);
    }
}

/// Defines a test that runs its body on both engines: `both!(name, |db, engine| { ... });`
macro_rules! both {
    ($name:ident, |$db:ident, $engine:ident| $body:block) => {
        #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
        async fn $name() {
            $crate::support::each_engine(
                |$db: sea_orm::DatabaseConnection, $engine: $crate::support::Engine| async move {
                    let _ = &$engine;
                    $body
                },
            )
            .await;
        }
    };
}
pub(crate) use both;
