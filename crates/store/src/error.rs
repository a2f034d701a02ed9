//! The one error type of the store.
//!
//! Built from sea-orm's portable classification ([`DbErr::sql_err`]), so a duplicate e-mail is
//! a [`StoreError::Conflict`] on SQLite and on PostgreSQL alike. The server maps the variants to
//! HTTP statuses; the detail strings are for logs, never for clients.

use sea_orm::{DbErr, SqlErr};

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
    /// Anything else the database reported (connection lost, bad SQL, timeout).
    #[error("database error: {0}")]
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

impl From<DbErr> for StoreError {
    fn from(err: DbErr) -> Self {
        match err.sql_err() {
            Some(SqlErr::UniqueConstraintViolation(detail)) => StoreError::Conflict(detail),
            Some(SqlErr::ForeignKeyConstraintViolation(detail)) => StoreError::Conflict(detail),
            _ => match err {
                DbErr::RecordNotFound(_) => StoreError::NotFound,
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
