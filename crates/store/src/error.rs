//! The one error type of the store.
//!
//! Built from sea-orm's portable classification ([`DbErr::sql_err`]), so a duplicate e-mail is
//! a [`StoreError::Conflict`] on SQLite and on PostgreSQL alike, and a database that cannot be
//! reached is [`StoreError::Unavailable`] on both. The server maps the variants to HTTP
//! statuses; the detail (kept as each error's source) is for logs, never for clients.

use sea_orm::sqlx;
use sea_orm::{DbErr, RuntimeErr, SqlErr};

/// What went wrong in a store operation.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The row asked for does not exist.
    #[error("not found")]
    NotFound,
    /// The change would break a rule of the data: a unique value already taken, a reference
    /// to a missing row, a trial already used, a job no longer owned by the caller.
    #[error("conflict: {0}")]
    Conflict(String),
    /// The database cannot be reached or cannot serve now (connection refused or lost, pool
    /// closed or exhausted, database shut down or dropped, SQLite busy): retrying later may
    /// succeed.
    #[error("the database is unavailable")]
    Unavailable(#[source] DbErr),
    /// Anything else the database reported (bad SQL, a type mismatch).
    #[error("database error")]
    Database(#[source] DbErr),
    /// A stored value could not be read back as its contract type (a row this version does
    /// not understand), or a value could not be turned into a row.
    #[error("{what}")]
    Data {
        /// Which value, in words.
        what: String,
        /// The JSON error behind it, when there is one.
        #[source]
        source: Option<serde_json::Error>,
    },
}

/// Whether a database error means "cannot reach or use the database now" rather than "this
/// statement is wrong".
fn is_unavailable(err: &DbErr) -> bool {
    let sqlx_error = match err {
        DbErr::ConnectionAcquire(_) | DbErr::Conn(_) => return true,
        DbErr::Exec(RuntimeErr::SqlxError(e)) | DbErr::Query(RuntimeErr::SqlxError(e)) => e,
        _ => return false,
    };
    match sqlx_error.as_ref() {
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::Protocol(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed => true,
        sqlx::Error::Database(db) => db.code().is_some_and(|code| {
            // PostgreSQL (appendix A of its manual): 08 connection exception, 53 insufficient
            // resources, 57P01-57P03 shut down or cannot connect now, 3D000 no such database.
            // SQLite: 5 SQLITE_BUSY and 6 SQLITE_LOCKED, after the busy timeout.
            code.starts_with("08")
                || code.starts_with("53")
                || matches!(&*code, "57P01" | "57P02" | "57P03" | "3D000" | "5" | "6")
        }),
        _ => false,
    }
}

impl From<DbErr> for StoreError {
    fn from(err: DbErr) -> Self {
        match err.sql_err() {
            Some(SqlErr::UniqueConstraintViolation(detail)) => StoreError::Conflict(detail),
            Some(SqlErr::ForeignKeyConstraintViolation(detail)) => StoreError::Conflict(detail),
            _ => match err {
                DbErr::RecordNotFound(_) => StoreError::NotFound,
                other if is_unavailable(&other) => StoreError::Unavailable(other),
                other => StoreError::Database(other),
            },
        }
    }
}

impl StoreError {
    /// A [`StoreError::Data`] without an underlying JSON error.
    pub(crate) fn data(what: impl Into<String>) -> Self {
        StoreError::Data {
            what: what.into(),
            source: None,
        }
    }

    /// True when this is a unique-constraint violation or another [`StoreError::Conflict`].
    pub fn is_conflict(&self) -> bool {
        matches!(self, StoreError::Conflict(_))
    }
}

/// The result of a store operation.
pub type StoreResult<T> = Result<T, StoreError>;
