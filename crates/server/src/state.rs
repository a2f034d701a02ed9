//! The state every handler can reach; cheap to clone. Extractors take only the part they need
//! through `FromRef` (derived here for every field).

use std::sync::Arc;

use axum::extract::FromRef;
use store::DatabaseConnection;

use crate::config::Config;
use crate::extract::TrustedProxies;
use crate::services::blobs::Blobs;
use crate::services::hub::Hub;
use crate::services::pages::WebApp;
use crate::services::reports::ResultCache;
use crate::services::stats::StatsCache;

/// Everything a handler needs.
#[derive(Clone, FromRef)]
pub struct AppState {
    /// The database.
    pub db: DatabaseConnection,
    /// Configuration.
    pub config: Arc<Config>,
    /// Progress fan-out.
    pub hub: Hub,
    /// Screenshots and other blobs.
    pub blobs: Blobs,
    /// The built web app.
    pub web: Arc<WebApp>,
    /// Serialised results by id.
    pub results: Arc<ResultCache>,
    /// The home page's counter.
    pub stats: Arc<StatsCache>,
    /// Proxies whose `X-Forwarded-For` is believed.
    pub trusted_proxies: TrustedProxies,
}

impl AppState {
    /// The state for `config` on `db`, with the web app loaded from `config.web_dir`.
    pub async fn new(db: DatabaseConnection, config: Config, hub: Hub, blobs: Blobs) -> Self {
        AppState {
            web: Arc::new(WebApp::load(&config.web_dir).await),
            trusted_proxies: TrustedProxies(config.trusted_proxies.clone().into()),
            db,
            config: Arc::new(config),
            hub,
            blobs,
            results: Arc::new(ResultCache::default()),
            stats: Arc::new(StatsCache::default()),
        }
    }
}
