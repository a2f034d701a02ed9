//! Server-side sign-in sessions. The cookie carries a random token; only its hash is stored,
//! as `sessions.id`, so a leaked database cannot be replayed as cookies.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{ActiveValue::Set, ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter};

use crate::StoreResult;
use crate::clock::now;
use crate::entity::{sessions, users};

/// A session to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewSession {
    /// Hash of the session token.
    pub id_hash: String,
    /// Whose session.
    pub user_id: i64,
    /// The CSRF token bound to the session.
    pub csrf_token: String,
    /// When it stops being valid.
    pub expires_at: DateTime<Utc>,
}

/// Stores a new session.
pub async fn create_session(
    db: &DatabaseConnection,
    session: &NewSession,
) -> StoreResult<sessions::Model> {
    let at = now();
    let row = sessions::ActiveModel {
        id: Set(session.id_hash.clone()),
        user_id: Set(session.user_id),
        csrf_token: Set(session.csrf_token.clone()),
        created_at: Set(at),
        expires_at: Set(session.expires_at),
        last_seen_at: Set(at),
    };
    sessions::Entity::insert(row)
        .exec_without_returning(db)
        .await?;
    Ok(sessions::Model {
        id: session.id_hash.clone(),
        user_id: session.user_id,
        csrf_token: session.csrf_token.clone(),
        created_at: at,
        expires_at: session.expires_at,
        last_seen_at: at,
    })
}

/// The session with this token hash and its user, if it exists, has not expired at `at` and its
/// user is not disabled.
pub async fn find_session(
    db: &DatabaseConnection,
    id_hash: &str,
    at: DateTime<Utc>,
) -> StoreResult<Option<(sessions::Model, users::Model)>> {
    let Some(session) = sessions::Entity::find_by_id(id_hash.to_owned())
        .filter(sessions::Column::ExpiresAt.gt(at))
        .one(db)
        .await?
    else {
        return Ok(None);
    };
    let user = users::Entity::find_by_id(session.user_id)
        .filter(users::Column::DisabledAt.is_null())
        .one(db)
        .await?;
    Ok(user.map(|user| (session, user)))
}

/// Records activity on a session and moves its expiry (sliding sessions).
pub async fn touch_session(
    db: &DatabaseConnection,
    id_hash: &str,
    expires_at: DateTime<Utc>,
) -> StoreResult<()> {
    sessions::Entity::update_many()
        .col_expr(sessions::Column::LastSeenAt, Expr::value(now()))
        .col_expr(sessions::Column::ExpiresAt, Expr::value(expires_at))
        .filter(sessions::Column::Id.eq(id_hash))
        .exec(db)
        .await?;
    Ok(())
}

/// Ends one session (sign-out).
pub async fn delete_session(db: &DatabaseConnection, id_hash: &str) -> StoreResult<()> {
    sessions::Entity::delete_by_id(id_hash.to_owned())
        .exec(db)
        .await?;
    Ok(())
}

/// Ends every session of a user (password change, account deletion).
pub async fn delete_user_sessions(db: &DatabaseConnection, user_id: i64) -> StoreResult<u64> {
    let deleted = sessions::Entity::delete_many()
        .filter(sessions::Column::UserId.eq(user_id))
        .exec(db)
        .await?;
    Ok(deleted.rows_affected)
}

/// Removes sessions that expired before `at`; returns how many.
pub async fn delete_expired_sessions(
    db: &DatabaseConnection,
    at: DateTime<Utc>,
) -> StoreResult<u64> {
    let deleted = sessions::Entity::delete_many()
        .filter(sessions::Column::ExpiresAt.lte(at))
        .exec(db)
        .await?;
    Ok(deleted.rows_affected)
}
