//! One-time tokens sent by e-mail (password reset, address verification) and the record of
//! payment webhook events already handled.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{ActiveValue::Set, ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter};

use crate::clock::now;
use crate::entity::{one_time_tokens, webhook_events};
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
    use one_time_tokens::Column as T;
    // One guarded update: of two requests with the same token, only one gets the user.
    let used = one_time_tokens::Entity::update_many()
        .col_expr(T::UsedAt, Expr::value(at))
        .filter(T::TokenHash.eq(token_hash))
        .filter(T::Purpose.eq(purpose))
        .filter(T::UsedAt.is_null())
        .filter(T::ExpiresAt.gt(at))
        .exec_with_returning(db)
        .await?;
    Ok(used.first().map(|t| t.user_id))
}

/// The user of a token that is still usable at `at`, without using it (to check a form before
/// the token is spent).
pub async fn peek_token(
    db: &DatabaseConnection,
    token_hash: &str,
    purpose: &str,
    at: DateTime<Utc>,
) -> StoreResult<Option<i64>> {
    use one_time_tokens::Column as T;
    Ok(one_time_tokens::Entity::find()
        .filter(T::TokenHash.eq(token_hash))
        .filter(T::Purpose.eq(purpose))
        .filter(T::UsedAt.is_null())
        .filter(T::ExpiresAt.gt(at))
        .one(db)
        .await?
        .map(|t| t.user_id))
}

/// Records a webhook event id; `true` the first time, `false` for a redelivery (handle the
/// event only when `true`). Call it in the same unit of work that applies the event, or after
/// the event was applied idempotently.
pub async fn record_webhook_event(
    db: &DatabaseConnection,
    event_id: &str,
    kind: &str,
) -> StoreResult<bool> {
    let inserted = webhook_events::Entity::insert(webhook_events::ActiveModel {
        id: Set(event_id.to_owned()),
        kind: Set(kind.to_owned()),
        received_at: Set(now()),
    })
    .on_conflict(
        OnConflict::column(webhook_events::Column::Id)
            .do_nothing()
            .to_owned(),
    )
    .exec_without_returning(db)
    .await?;
    Ok(inserted == 1)
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
