//! API keys (docs/PRODUCT.md §3.4, users.apiKey), the per-key request counter that rate limiting
//! reads, and the record of every API call (§3.6, api_usage).
//!
//! A key is stored as its SHA-256 only; hashing and drawing keys are the server's job. The
//! request counter is one row per key and minute, created if missing and then raised by one
//! guarded increment (`... WHERE requests < limit`), so every server process sharing the
//! database counts the same requests and concurrent requests can never pass the limit
//! together, on SQLite and PostgreSQL alike.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, ExprTrait, OnConflict};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, DatabaseConnection, EntityTrait, PaginatorTrait, QueryFilter,
    QueryOrder, QuerySelect,
};

use crate::clock::now;
use crate::entity::api_keys::Column as K;
use crate::entity::api_rate_windows::Column as W;
use crate::entity::users::Column as U;
use crate::entity::{api_keys, api_rate_windows, api_usage, users};
use crate::{StoreError, StoreResult, begin_write};

/// A key to store: its owner's name for it, the part shown and the hash of the whole key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewApiKey {
    /// The owner.
    pub user_id: i64,
    /// The owner's name for it.
    pub name: String,
    /// The key's first characters.
    pub prefix: String,
    /// SHA-256 hex of the whole key.
    pub key_hash: String,
}

/// The outcome of [`create_api_key`].
#[derive(Clone, Debug, PartialEq)]
pub enum CreatedKey {
    /// Stored.
    Created(api_keys::Model),
    /// The owner already holds `max_active` keys; nothing was stored.
    TooMany,
}

/// Stores a key unless its owner already holds `max_active` unrevoked keys. The owner's row is
/// locked while counting (PostgreSQL; SQLite's write transaction excludes other writers), so
/// two concurrent creations cannot both pass the count.
pub async fn create_api_key(
    db: &DatabaseConnection,
    key: &NewApiKey,
    max_active: usize,
) -> StoreResult<CreatedKey> {
    let txn = begin_write(db).await?;
    users::Entity::find()
        .filter(U::Id.eq(key.user_id))
        .lock_exclusive()
        .one(&txn)
        .await?
        .ok_or(StoreError::NotFound)?;
    let active = api_keys::Entity::find()
        .filter(K::UserId.eq(key.user_id))
        .filter(K::RevokedAt.is_null())
        .count(&txn)
        .await?;
    if usize::try_from(active).unwrap_or(usize::MAX) >= max_active {
        txn.rollback().await?;
        return Ok(CreatedKey::TooMany);
    }
    let row = api_keys::Entity::insert(api_keys::ActiveModel {
        user_id: Set(key.user_id),
        name: Set(key.name.clone()),
        prefix: Set(key.prefix.clone()),
        key_hash: Set(key.key_hash.clone()),
        created_at: Set(now()),
        last_used_at: Set(None),
        revoked_at: Set(None),
        ..Default::default()
    })
    .exec_with_returning(&txn)
    .await?;
    txn.commit().await?;
    Ok(CreatedKey::Created(row))
}

/// A user's unrevoked keys, newest first.
pub async fn active_api_keys(
    db: &DatabaseConnection,
    user_id: i64,
) -> StoreResult<Vec<api_keys::Model>> {
    Ok(api_keys::Entity::find()
        .filter(K::UserId.eq(user_id))
        .filter(K::RevokedAt.is_null())
        .order_by_desc(K::CreatedAt)
        .order_by_desc(K::Id)
        .all(db)
        .await?)
}

/// Revokes the key `key_id` of `user_id`: from this statement on it authenticates nothing.
/// [`StoreError::NotFound`] when the user has no such unrevoked key (another user's key
/// included).
pub async fn revoke_api_key(db: &DatabaseConnection, user_id: i64, key_id: i64) -> StoreResult<()> {
    let revoked = api_keys::Entity::update_many()
        .col_expr(K::RevokedAt, Expr::value(now()))
        .filter(K::Id.eq(key_id))
        .filter(K::UserId.eq(user_id))
        .filter(K::RevokedAt.is_null())
        .exec(db)
        .await?;
    if revoked.rows_affected == 1 {
        Ok(())
    } else {
        Err(StoreError::NotFound)
    }
}

/// The unrevoked key with this hash, and its owner, unless the owner is disabled.
pub async fn find_active_key(
    db: &DatabaseConnection,
    key_hash: &str,
) -> StoreResult<Option<(api_keys::Model, users::Model)>> {
    let Some(key) = api_keys::Entity::find()
        .filter(K::KeyHash.eq(key_hash))
        .filter(K::RevokedAt.is_null())
        .one(db)
        .await?
    else {
        return Ok(None);
    };
    let owner = users::Entity::find_by_id(key.user_id)
        .filter(users::Column::DisabledAt.is_null())
        .one(db)
        .await?;
    Ok(owner.map(|owner| (key, owner)))
}

/// The outcome of [`count_request`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RequestCount {
    /// Whether the request is within the limit (and was counted).
    pub allowed: bool,
    /// Requests counted in the window so far, this one included when allowed.
    pub used: u32,
}

/// Counts a request of key `api_key_id` in the window starting at `window_start` (seconds since
/// the epoch) unless `limit` requests were counted there already. Windows of the key older than
/// the previous one are removed when a new window starts, so the table holds at most two rows
/// per key.
pub async fn count_request(
    db: &DatabaseConnection,
    api_key_id: i64,
    window_start: i64,
    window_seconds: i64,
    limit: u32,
) -> StoreResult<RequestCount> {
    let limit = i32::try_from(limit).unwrap_or(i32::MAX);
    let created = api_rate_windows::Entity::insert(api_rate_windows::ActiveModel {
        api_key_id: Set(api_key_id),
        window_start: Set(window_start),
        requests: Set(0),
    })
    .on_conflict(
        OnConflict::columns([W::ApiKeyId, W::WindowStart])
            .do_nothing()
            .to_owned(),
    )
    .exec_without_returning(db)
    .await?;
    if created == 1 {
        api_rate_windows::Entity::delete_many()
            .filter(W::ApiKeyId.eq(api_key_id))
            .filter(W::WindowStart.lt(window_start - window_seconds))
            .exec(db)
            .await?;
    }
    let counted = api_rate_windows::Entity::update_many()
        .col_expr(W::Requests, Expr::col(W::Requests).add(1))
        .filter(W::ApiKeyId.eq(api_key_id))
        .filter(W::WindowStart.eq(window_start))
        .filter(W::Requests.lt(limit))
        .exec(db)
        .await?;
    let used = api_rate_windows::Entity::find_by_id((api_key_id, window_start))
        .one(db)
        .await?
        .map_or(0, |w| u32::try_from(w.requests).unwrap_or(0));
    Ok(RequestCount {
        allowed: counted.rows_affected == 1,
        used,
    })
}

/// One API call made with a key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiCall {
    /// The endpoint called (its route, e.g. `/api/v1/analyses/{id}`).
    pub endpoint: String,
    /// HTTP method.
    pub method: String,
    /// Time to answer, ms.
    pub response_time_ms: i32,
    /// HTTP status answered.
    pub status_code: i32,
    /// The key that made it, when the call came through one.
    pub api_key_id: Option<i64>,
}

/// Records an API call, counts it on the user (`users.api_calls`) and marks its key used, in
/// one transaction.
pub async fn record_api_call(
    db: &DatabaseConnection,
    user_id: i64,
    call: &ApiCall,
) -> StoreResult<()> {
    let at = now();
    let txn = begin_write(db).await?;
    let counted = users::Entity::update_many()
        .col_expr(U::ApiCalls, Expr::col(U::ApiCalls).add(1))
        .filter(U::Id.eq(user_id))
        .exec(&txn)
        .await?;
    if counted.rows_affected != 1 {
        return Err(StoreError::NotFound);
    }
    if let Some(key_id) = call.api_key_id {
        api_keys::Entity::update_many()
            .col_expr(K::LastUsedAt, Expr::value(at))
            .filter(K::Id.eq(key_id))
            .exec(&txn)
            .await?;
    }
    api_usage::Entity::insert(api_usage::ActiveModel {
        user_id: Set(user_id),
        endpoint: Set(call.endpoint.clone()),
        method: Set(call.method.clone()),
        response_time_ms: Set(call.response_time_ms),
        status_code: Set(call.status_code),
        timestamp: Set(at),
        api_key_id: Set(call.api_key_id),
        ..Default::default()
    })
    .exec_without_returning(&txn)
    .await?;
    txn.commit().await?;
    Ok(())
}

/// Removes the records of API calls made before `before` (the retention period,
/// `domain::api::API_USAGE_RETENTION_DAYS`); each account's total, `users.api_calls`, keeps
/// counting them. Returns how many were removed.
pub async fn delete_api_calls_before(
    db: &DatabaseConnection,
    before: DateTime<Utc>,
) -> StoreResult<u64> {
    Ok(api_usage::Entity::delete_many()
        .filter(api_usage::Column::Timestamp.lt(before))
        .exec(db)
        .await?
        .rows_affected)
}

/// Removes every key's rate windows that started before `window_start` (seconds since the
/// epoch): [`count_request`] clears a key's old windows only when the key is used again, so a
/// key that stops being used (or is revoked) would otherwise keep its last ones. Returns how
/// many were removed.
pub async fn delete_rate_windows_before(
    db: &DatabaseConnection,
    window_start: i64,
) -> StoreResult<u64> {
    Ok(api_rate_windows::Entity::delete_many()
        .filter(W::WindowStart.lt(window_start))
        .exec(db)
        .await?
        .rows_affected)
}

/// API calls a user made since `since`.
pub async fn api_calls_since(
    db: &DatabaseConnection,
    user_id: i64,
    since: DateTime<Utc>,
) -> StoreResult<u64> {
    Ok(api_usage::Entity::find()
        .filter(api_usage::Column::UserId.eq(user_id))
        .filter(api_usage::Column::Timestamp.gte(since))
        .count(db)
        .await?)
}

/// A user's most recent API calls, newest first.
pub async fn recent_api_calls(
    db: &DatabaseConnection,
    user_id: i64,
    limit: u64,
) -> StoreResult<Vec<api_usage::Model>> {
    Ok(api_usage::Entity::find()
        .filter(api_usage::Column::UserId.eq(user_id))
        .order_by_desc(api_usage::Column::Id)
        .limit(limit)
        .all(db)
        .await?)
}
