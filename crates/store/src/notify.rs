//! PostgreSQL notifications (`NOTIFY` / `LISTEN`), so processes sharing one database can tell
//! each other that something changed (a job queued, a job's progress) without polling.
//!
//! Notifications are a speed-up only: what they announce is always in the tables too. SQLite
//! deployments run in one process and have none; [`supports_notifications`] says which.

use sea_orm::sea_query::{Expr, Func, Query};
use sea_orm::sqlx::postgres::PgListener;
use sea_orm::{ConnectionTrait, DatabaseConnection, DbBackend, DbErr, RuntimeErr};

use crate::StoreResult;

/// Whether `db` carries notifications between processes (PostgreSQL does, SQLite does not).
pub fn supports_notifications(db: &DatabaseConnection) -> bool {
    db.get_database_backend() == DbBackend::Postgres
}

/// Sends `payload` to every listener of `channel` (`pg_notify`); delivered when the sending
/// transaction commits, so listeners never hear of a change they cannot read yet.
///
/// Fails on a database without notifications: check [`supports_notifications`] first.
pub async fn notify(db: &DatabaseConnection, channel: &str, payload: &str) -> StoreResult<()> {
    let call = Query::select()
        .expr(Func::cust("pg_notify").args([Expr::val(channel), Expr::val(payload)]))
        .to_owned();
    db.query_one(&call).await?;
    Ok(())
}

/// One notification heard by a [`Listener`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notification {
    /// The channel it was sent on.
    pub channel: String,
    /// What was sent.
    pub payload: String,
}

/// A dedicated connection listening on some channels.
pub struct Listener {
    inner: PgListener,
}

fn listener_error(e: sea_orm::sqlx::Error) -> crate::StoreError {
    DbErr::Conn(RuntimeErr::SqlxError(e.into())).into()
}

impl Listener {
    /// Opens a connection from `db`'s pool and listens on `channels`. Fails on a database
    /// without notifications.
    pub async fn connect(db: &DatabaseConnection, channels: &[&str]) -> StoreResult<Listener> {
        if !supports_notifications(db) {
            return Err(DbErr::BackendNotSupported {
                db: "SQLite",
                ctx: "LISTEN",
            }
            .into());
        }
        let mut inner = PgListener::connect_with(db.get_postgres_connection_pool())
            .await
            .map_err(listener_error)?;
        inner
            .listen_all(channels.iter().copied())
            .await
            .map_err(listener_error)?;
        Ok(Listener { inner })
    }

    /// Waits for the next notification. An error means the connection was lost; connect again.
    pub async fn recv(&mut self) -> StoreResult<Notification> {
        let note = self.inner.recv().await.map_err(listener_error)?;
        Ok(Notification {
            channel: note.channel().to_owned(),
            payload: note.payload().to_owned(),
        })
    }
}
