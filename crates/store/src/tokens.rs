//! One-time tokens sent by e-mail (password reset, address verification) and the record of
//! payment webhook events already handled.

use chrono::{DateTime, Utc};
use sea_orm::{ActiveValue::Set, DatabaseConnection, EntityTrait};

use crate::entity::{one_time_tokens, webhook_events};
use crate::sql::{exec, now, query_one};
use crate::{StoreError, StoreResult};

/// Stores a token's hash for a user and purpose, valid until `expires_at`.
pub async fn create_token(
    db: &DatabaseConnection,
    token_hash: &str,
    purpose: &str,
    user_id: i64,
    expires_at: DateTime<Utc>,
) -> StoreResult<()> {
    let row = one_time_tokens::ActiveModel {
        token_hash: Set(token_hash.to_owned()),
        purpose: Set(purpose.to_owned()),
        user_id: Set(user_id),
        created_at: Set(now()),
        expires_at: Set(expires_at),
        used_at: Set(None),
    };
    one_time_tokens::Entity::insert(row)
        .exec_without_returning(db)
        .await?;
    Ok(())
}

/// Uses a token: returns its user when the token exists for `purpose`, has not expired at
/// `at` and was not used before; marks it used. One guarded update, so a token clicked twice
/// at once works once.
pub async fn consume_token(
    db: &DatabaseConnection,
    token_hash: &str,
    purpose: &str,
    at: DateTime<Utc>,
) -> StoreResult<Option<i64>> {
    let row = query_one(
        db,
        "UPDATE one_time_tokens SET used_at = ? \
         WHERE token_hash = ? AND purpose = ? AND used_at IS NULL AND expires_at > ? \
         RETURNING user_id",
        vec![at.into(), token_hash.into(), purpose.into(), at.into()],
    )
    .await?;
    row.map(|row| Ok(row.try_get::<i64>("", "user_id")?))
        .transpose()
}

/// Records a webhook event id; `true` the first time, `false` for a redelivery (handle the
/// event only when `true`). Call it in the same unit of work that applies the event, or after
/// the event was applied idempotently.
pub async fn record_webhook_event(
    db: &DatabaseConnection,
    event_id: &str,
    kind: &str,
) -> StoreResult<bool> {
    let inserted = exec(
        db,
        "INSERT INTO webhook_events (id, kind, received_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING",
        vec![event_id.into(), kind.into(), now().into()],
    )
    .await?;
    Ok(inserted.rows_affected() == 1)
}

/// Forgets a webhook event (so a failed handling can be retried on redelivery).
pub async fn forget_webhook_event(db: &DatabaseConnection, event_id: &str) -> StoreResult<()> {
    let deleted = webhook_events::Entity::delete_by_id(event_id.to_owned())
        .exec(db)
        .await?;
    if deleted.rows_affected == 1 {
        Ok(())
    } else {
        Err(StoreError::NotFound)
    }
}
