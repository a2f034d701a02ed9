//! `/api/white-label`: the signed-in user's white-label branding (issue 15 item 2; the rules and
//! the logo's processing are `services::whitelabel`'s): read and save the settings, upload and
//! remove the logo, and `GET /api/white-label/logos/{name}`, the re-encoded logos, public
//! because branded reports show them to whoever holds their link.

use axum::body::{Body, Bytes};
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::Response;
use axum::routing::{get, put};
use axum::{Json, Router};
use domain::whitelabel::{BrandingInput, LOGO_MAX_BYTES, WhiteLabelSettings};

use crate::error::{AppError, AppResult};
use crate::extract::{ApiJson, CurrentUser};
use crate::services::blobs::IMMUTABLE;
use crate::services::whitelabel;
use crate::state::AppState;

/// A logo's answer may run no script and load nothing, whatever a browser makes of it.
const LOGO_CSP: &str = "default-src 'none'";

/// The white-label resource.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/white-label", get(get_settings).put(save_settings))
        .route(
            "/white-label/logo",
            // A logo is sent as it is, up to its own limit rather than the API's.
            put(upload_logo)
                .delete(remove_logo)
                .layer(DefaultBodyLimit::max(LOGO_MAX_BYTES)),
        )
        .route("/white-label/logos/{name}", get(get_logo))
}

async fn get_settings(
    State(state): State<AppState>,
    current: CurrentUser,
) -> AppResult<Json<WhiteLabelSettings>> {
    Ok(Json(whitelabel::settings(&state.db, &current.user).await?))
}

async fn save_settings(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiJson(input): ApiJson<BrandingInput>,
) -> AppResult<Json<WhiteLabelSettings>> {
    Ok(Json(
        whitelabel::save_settings(&state.db, &current.user, &input).await?,
    ))
}

/// The logo file as the body, its type in `Content-Type`.
async fn upload_logo(
    State(state): State<AppState>,
    current: CurrentUser,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> AppResult<Json<WhiteLabelSettings>> {
    let body = match body {
        Ok(bytes) => Some(bytes),
        Err(r) if r.status() == StatusCode::PAYLOAD_TOO_LARGE => None,
        Err(_) => {
            return Err(AppError::BadRequest(
                "the logo could not be read: send it again".to_owned(),
            ));
        }
    };
    let media_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    Ok(Json(
        whitelabel::upload_logo(&state.db, &state.blobs, &current.user, media_type, body).await?,
    ))
}

async fn remove_logo(
    State(state): State<AppState>,
    current: CurrentUser,
) -> AppResult<Json<WhiteLabelSettings>> {
    Ok(Json(
        whitelabel::remove_logo(&state.db, &state.blobs, &current.user).await?,
    ))
}

/// The PNG, typed, never sniffed, unable to run anything, cached for good (its name changes
/// with its content).
async fn get_logo(State(state): State<AppState>, Path(name): Path<String>) -> AppResult<Response> {
    let png = whitelabel::read_logo(&state.blobs, &name).await?;
    let mut res = Response::new(Body::from(png));
    let h = res.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("image/png"));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(LOGO_CSP),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(IMMUTABLE));
    Ok(res)
}
