//! Files served as they are, cached for a year: the web app's hashed `/assets`, and stored
//! blobs (screenshots) under [`store::results::BLOB_PREFIX`], whose keys never change.

use axum::Router;
use axum::http::{HeaderValue, header};
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;

use crate::config::Config;
use crate::state::AppState;

/// The file routes for the folders `config` names.
pub fn router(config: &Config) -> Router<AppState> {
    let blobs = store::results::BLOB_PREFIX.trim_end_matches('/');
    Router::new()
        .nest_service("/assets", ServeDir::new(config.web_dir.join("assets")))
        .nest_service(blobs, ServeDir::new(config.blob_dir()))
        .layer(SetResponseHeaderLayer::overriding(
            header::CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=31536000, immutable"),
        ))
}
