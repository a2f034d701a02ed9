//! Shared application state.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use uuid::Uuid;

use crate::config::Config;
use crate::hub::Hub;
use crate::web::WebApp;

/// Everything a handler needs; cheap to clone.
#[derive(Clone)]
pub struct AppState {
    /// The database.
    pub db: store::DatabaseConnection,
    /// Configuration.
    pub config: Arc<Config>,
    /// Progress fan-out.
    pub hub: Hub,
    /// The built web app.
    pub web: Arc<WebApp>,
    /// Serialised results by id: a result never changes once written, so it is safe to keep.
    pub results: Arc<ResultCache>,
    /// The stats counter, refreshed at most once a second.
    pub stats: Arc<Mutex<Option<(Instant, i64)>>>,
}

/// How long the stats counter is reused.
pub const STATS_TTL: Duration = Duration::from_secs(1);

/// A bounded cache of serialised result responses (oldest evicted first).
#[derive(Default)]
pub struct ResultCache {
    inner: Mutex<(HashMap<Uuid, Bytes>, VecDeque<Uuid>)>,
}

/// Results kept in memory.
const RESULT_CACHE_SIZE: usize = 512;

impl ResultCache {
    /// The cached response body for `id`.
    pub fn get(&self, id: &Uuid) -> Option<Bytes> {
        self.inner.lock().ok()?.0.get(id).cloned()
    }

    /// Keeps `body` for `id`, evicting the oldest entry when full.
    pub fn put(&self, id: Uuid, body: Bytes) {
        let Ok(mut guard) = self.inner.lock() else {
            return;
        };
        let (map, order) = &mut *guard;
        if map.insert(id, body).is_none() {
            order.push_back(id);
            if order.len() > RESULT_CACHE_SIZE
                && let Some(old) = order.pop_front()
            {
                map.remove(&old);
            }
        }
    }
}
