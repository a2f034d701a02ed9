//! Files served as they are, cached for a year: the web app's hashed `/assets`, and stored
//! blobs (screenshots) under [`store::results::BLOB_PREFIX`], whose keys never change. Blobs are
//! streamed from the blob store, a local folder or a bucket shared by every node
//! ([`crate::services::blobs`]), so any web node serves any worker's screenshots.

use axum::Router;
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;

use crate::config::Config;
use crate::error::AppResult;
use crate::services::blobs::{BlobError, Blobs, IMMUTABLE, is_public};
use crate::state::AppState;

/// The file routes: `/assets` from the web app's folder, `/files/{key}` from the blob store.
pub fn router(config: &Config) -> Router<AppState> {
    let assets = ServeDir::new(config.web_dir.join("assets"));
    Router::new()
        .nest_service(
            "/assets",
            tower::ServiceBuilder::new()
                .layer(SetResponseHeaderLayer::overriding(
                    header::CACHE_CONTROL,
                    HeaderValue::from_static(IMMUTABLE),
                ))
                .service(assets),
        )
        .route(
            &format!("{}{{*key}}", store::results::BLOB_PREFIX),
            get(get_blob),
        )
}

/// Streams one blob with its content type, length, entity tag and a year of caching; answers
/// 304 to a client whose copy is current, and 404 (logged) when there is no such blob or it is
/// a private one (a mail's attachment).
async fn get_blob(
    State(blobs): State<Blobs>,
    Path(key): Path<String>,
    headers: HeaderMap,
) -> AppResult<Response> {
    if !is_public(&key) {
        return Err(BlobError::NotFound(key).into());
    }
    let if_none_match = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok());
    let blob = match blobs.open(&key, if_none_match).await {
        Ok(blob) => blob,
        Err(BlobError::NotModified(_)) => {
            let mut res = StatusCode::NOT_MODIFIED.into_response();
            let h = res.headers_mut();
            h.insert(header::CACHE_CONTROL, HeaderValue::from_static(IMMUTABLE));
            if let Some(tag) = if_none_match.and_then(|v| HeaderValue::from_str(v).ok()) {
                h.insert(header::ETAG, tag);
            }
            return Ok(res);
        }
        Err(e) => return Err(e.into()),
    };
    let mut res = Response::new(Body::from_stream(blob.body));
    let h = res.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(IMMUTABLE));
    h.insert(header::CONTENT_LENGTH, HeaderValue::from(blob.size));
    if let Ok(v) = HeaderValue::from_str(&blob.content_type) {
        h.insert(header::CONTENT_TYPE, v);
    }
    if let Some(v) = blob.etag.and_then(|t| HeaderValue::from_str(&t).ok()) {
        h.insert(header::ETAG, v);
    }
    let modified = blob
        .last_modified
        .format("%a, %d %b %Y %H:%M:%S GMT")
        .to_string();
    if let Ok(v) = HeaderValue::from_str(&modified) {
        h.insert(header::LAST_MODIFIED, v);
    }
    Ok(res)
}
