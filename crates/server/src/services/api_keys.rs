//! API keys (docs/PRODUCT.md §3.4, users.apiKey): a signed-in user creates named keys, lists
//! and revokes them; a request to `/api/v1` is authenticated by one.
//!
//! A key is 32 random bytes in the form of `domain::api::format_key`. It is shown once, in
//! the answer that creates it; the database keeps its SHA-256 (as session tokens are kept), so
//! a leaked table holds no usable key, and a lookup is one indexed equality on the hash. Keys
//! are personal: a team member's key acts as that member, who spends the team owner's credits
//! as on the web (`services::analyses`).

use chrono::{DateTime, Utc};
use domain::api::{
    ApiKeyView, CreatedApiKey, KEY_BYTES, MAX_KEYS_PER_ACCOUNT, check_key_count, format_key,
    is_well_formed_key, key_prefix, validate_key_name,
};
use domain::forms::FieldError;
use store::DatabaseConnection;
use store::api_keys::CreatedKey;
use store::entity::{api_keys, users};

use crate::services::accounts::{AccountError, hash_token};

/// The caller of an `/api/v1` request: the key it sent and the key's owner.
#[derive(Debug, Clone)]
pub struct ApiCaller {
    /// The key (unrevoked when the request was authenticated).
    pub key: api_keys::Model,
    /// Its owner, as the request found them.
    pub user: users::Model,
}

fn rfc3339(at: DateTime<Utc>) -> String {
    at.to_rfc3339()
}

fn view(key: &api_keys::Model) -> ApiKeyView {
    ApiKeyView {
        id: key.id,
        name: key.name.clone(),
        prefix: key.prefix.clone(),
        created_at: rfc3339(key.created_at),
        last_used_at: key.last_used_at.map(rfc3339),
    }
}

/// Creates a key named `name` for `user`; the answer holds the key itself, which is never
/// shown again.
pub async fn create_key(
    db: &DatabaseConnection,
    user: &users::Model,
    name: &str,
) -> Result<CreatedApiKey, AccountError> {
    let name = validate_key_name(name).map_err(|message| {
        AccountError::Invalid(vec![FieldError {
            field: "name".into(),
            message,
        }])
    })?;
    let mut bytes = [0u8; KEY_BYTES];
    getrandom::fill(&mut bytes).map_err(|e| AccountError::Hashing(e.to_string()))?;
    let secret = format_key(&bytes);
    let created = store::api_keys::create_api_key(
        db,
        &store::api_keys::NewApiKey {
            user_id: user.id,
            name,
            prefix: key_prefix(&secret),
            key_hash: hash_token(&secret),
        },
        MAX_KEYS_PER_ACCOUNT,
    )
    .await?;
    match created {
        CreatedKey::Created(key) => Ok(CreatedApiKey {
            secret,
            key: view(&key),
        }),
        CreatedKey::TooMany => Err(AccountError::Conflict(
            check_key_count(MAX_KEYS_PER_ACCOUNT)
                .err()
                .unwrap_or_default(),
        )),
    }
}

/// The user's unrevoked keys, newest first.
pub async fn list_keys(
    db: &DatabaseConnection,
    user: &users::Model,
) -> Result<Vec<ApiKeyView>, AccountError> {
    Ok(store::api_keys::active_api_keys(db, user.id)
        .await?
        .iter()
        .map(view)
        .collect())
}

/// Revokes one of the user's keys; another user's key is "not found", as an unknown one is.
pub async fn revoke_key(
    db: &DatabaseConnection,
    user: &users::Model,
    key_id: i64,
) -> Result<(), AccountError> {
    match store::api_keys::revoke_api_key(db, user.id, key_id).await {
        Err(store::StoreError::NotFound) => Err(AccountError::NotFound(
            "You have no such API key".to_owned(),
        )),
        other => Ok(other?),
    }
}

/// The caller a key names, if it has the form of a key and is known and unrevoked.
pub async fn authenticate(
    db: &DatabaseConnection,
    key: &str,
) -> Result<Option<ApiCaller>, store::StoreError> {
    if !is_well_formed_key(key) {
        return Ok(None);
    }
    Ok(store::api_keys::find_active_key(db, &hash_token(key))
        .await?
        .map(|(key, user)| ApiCaller { key, user }))
}
