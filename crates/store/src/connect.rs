//! Opening a database: SQLite (a file or in memory) or PostgreSQL, chosen by the URL.

use std::time::Duration;

use migration::{Migrator, MigratorTrait};
use sea_orm::sqlx::sqlite::{SqliteJournalMode, SqliteSynchronous};
use sea_orm::{ConnectOptions, ConnectionTrait, Database, DatabaseConnection, DbBackend, DbErr};

use crate::error::{StoreError, StoreResult};

/// How long a SQLite connection waits for another connection's write lock before giving up.
pub const SQLITE_BUSY_TIMEOUT: Duration = Duration::from_secs(30);

/// Pool size for a SQLite file: WAL lets readers run beside the one writer.
const SQLITE_FILE_CONNECTIONS: u32 = 8;

/// Default pool size for PostgreSQL.
const POSTGRES_CONNECTIONS: u32 = 16;

/// Connects to `url` and brings the schema up to date.
///
/// Accepted URLs: `sqlite://path/to/file.db` (the file and its folder are created when
/// missing, unless the URL sets `mode=`), `sqlite::memory:`, and
/// `postgres://user@host:port/database`.
pub async fn connect(url: &str) -> StoreResult<DatabaseConnection> {
    let db = open(url, None).await?;
    migrate(url, &db).await?;
    Ok(db)
}

/// Like [`connect`], with an explicit pool size (ignored for in-memory SQLite, which must
/// keep exactly one connection).
pub async fn connect_with_pool_size(
    url: &str,
    max_connections: u32,
) -> StoreResult<DatabaseConnection> {
    let db = open(url, Some(max_connections)).await?;
    migrate(url, &db).await?;
    Ok(db)
}

/// Key of the PostgreSQL advisory lock held while migrating ("sitelens" in ASCII).
const MIGRATION_LOCK: i64 = 0x7369_7465_6c65_6e73;

/// Brings the schema up to date. On PostgreSQL, several processes starting at once (web and
/// worker nodes) take turns through an advisory lock held on a connection of its own, so no
/// two of them apply the same migration. An SQLite file is migrated over one connection of its
/// own: schema changes spread over a pool's connections can meet a connection still reading an
/// older schema ("index … already exists" after a table it belonged to was dropped).
async fn migrate(url: &str, db: &DatabaseConnection) -> StoreResult<()> {
    if db.get_database_backend() != DbBackend::Postgres {
        if url.contains(":memory:") || url.contains("mode=memory") {
            Migrator::up(db, None).await?;
        } else {
            let single = open(url, Some(1)).await?;
            let outcome = Migrator::up(&single, None).await;
            single.close().await?;
            outcome?;
        }
        return Ok(());
    }
    let lock = open(url, Some(1)).await?;
    lock.execute_unprepared(&format!("SELECT pg_advisory_lock({MIGRATION_LOCK})"))
        .await?;
    let outcome = Migrator::up(db, None).await;
    let released = lock
        .execute_unprepared(&format!("SELECT pg_advisory_unlock({MIGRATION_LOCK})"))
        .await;
    lock.close().await?;
    outcome?;
    released?;
    Ok(())
}

/// Opens a pool without running migrations (for tools and migration tests).
///
/// SQLite: WAL journal, foreign keys enforced, a busy timeout so concurrent writers wait
/// instead of failing, `synchronous = NORMAL` (safe with WAL). An in-memory database gets a
/// pool of one connection that is never closed, because every SQLite connection to
/// `:memory:` sees its own empty database.
pub async fn open(url: &str, max_connections: Option<u32>) -> StoreResult<DatabaseConnection> {
    let mut options = ConnectOptions::new(url.to_owned());
    options.sqlx_logging(false);
    if url.starts_with("sqlite:") {
        let in_memory = url.contains(":memory:") || url.contains("mode=memory");
        let explicit_mode = url.contains("mode=");
        if in_memory {
            options
                .max_connections(1)
                .min_connections(1)
                .idle_timeout(None)
                .max_lifetime(None);
        } else {
            options.max_connections(max_connections.unwrap_or(SQLITE_FILE_CONNECTIONS));
            create_parent_dir(url)?;
        }
        options.map_sqlx_sqlite_opts(move |opts| {
            let opts = opts
                .foreign_keys(true)
                .busy_timeout(SQLITE_BUSY_TIMEOUT)
                .journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Normal);
            // `sqlite://file.db` without `?mode=` would fail on a fresh install; create it.
            if explicit_mode {
                opts
            } else {
                opts.create_if_missing(true)
            }
        });
    } else {
        options
            .max_connections(max_connections.unwrap_or(POSTGRES_CONNECTIONS))
            .acquire_timeout(Duration::from_secs(30));
    }
    Ok(Database::connect(options).await?)
}

/// Creates the folder of a SQLite file (`sqlite://data/sitelens.db` on a fresh checkout).
fn create_parent_dir(url: &str) -> StoreResult<()> {
    let path = url
        .trim_start_matches("sqlite://")
        .trim_start_matches("sqlite:")
        .split('?')
        .next()
        .unwrap_or_default();
    if let Some(parent) = std::path::Path::new(path).parent()
        && !parent.as_os_str().is_empty()
        && !parent.exists()
    {
        std::fs::create_dir_all(parent).map_err(|e| {
            StoreError::Database(DbErr::Custom(format!(
                "cannot create the folder of the SQLite database {}: {e}",
                parent.display()
            )))
        })?;
    }
    Ok(())
}

/// Whether the database answers.
pub async fn ping(db: &DatabaseConnection) -> StoreResult<()> {
    Ok(db.ping().await?)
}

/// How many migrations this version knows that the database has not applied.
pub async fn pending_migrations(db: &DatabaseConnection) -> StoreResult<usize> {
    Ok(Migrator::get_pending_migrations(db).await?.len())
}

/// Drops every table and re-creates the schema (`Migrator::fresh`): for development and
/// tests only, it deletes all data.
///
/// It uses a pool of one connection: on SQLite, fresh turns `foreign_keys` off and on again
/// with a pragma, which only affects the connection it runs on.
pub async fn reset(url: &str) -> StoreResult<()> {
    let db = open(url, Some(1)).await?;
    Migrator::fresh(&db).await?;
    db.close().await?;
    Ok(())
}
