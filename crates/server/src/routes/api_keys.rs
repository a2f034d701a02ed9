//! `/api/account/api-keys`: the signed-in user's API keys (docs/PRODUCT.md §3.4, users.apiKey):
//! list them, create one (its key shown in this answer only) and revoke one. Session and CSRF
//! as every account route; each user manages only their own keys.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{delete, get};
use axum::{Json, Router};
use domain::api::{ApiKeyView, CreatedApiKey, NewApiKey};
use serde_json::json;

use crate::error::AppResult;
use crate::extract::{ApiJson, CurrentUser};
use crate::routes::parse_row_id;
use crate::services::api_keys;
use crate::state::AppState;

/// The API keys resource.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/account/api-keys", get(list_api_keys).post(create_api_key))
        .route("/account/api-keys/{id}", delete(revoke_api_key))
}

async fn list_api_keys(
    State(state): State<AppState>,
    current: CurrentUser,
) -> AppResult<Json<Vec<ApiKeyView>>> {
    Ok(Json(api_keys::list_keys(&state.db, &current.user).await?))
}

async fn create_api_key(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiJson(body): ApiJson<NewApiKey>,
) -> AppResult<(StatusCode, Json<CreatedApiKey>)> {
    let created = api_keys::create_key(&state.db, &current.user, &body.name).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

async fn revoke_api_key(
    State(state): State<AppState>,
    current: CurrentUser,
    Path(id): Path<String>,
) -> AppResult<Json<serde_json::Value>> {
    let id = parse_row_id(&id, "You have no such API key")?;
    api_keys::revoke_key(&state.db, &current.user, id).await?;
    Ok(Json(
        json!({"success": true, "message": "The API key is revoked"}),
    ))
}
