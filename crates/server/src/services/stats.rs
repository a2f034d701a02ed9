//! The home page's counter of analysed websites, read from the store at most once per
//! [`STATS_TTL`] however many visitors ask.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use store::{DatabaseConnection, StoreResult};

/// How long the counter is reused.
pub const STATS_TTL: Duration = Duration::from_secs(1);

/// The last counter read and when.
#[derive(Default)]
pub struct StatsCache {
    last: Mutex<Option<(Instant, i64)>>,
}

impl StatsCache {
    /// Distinct websites analysed, at most [`STATS_TTL`] old.
    pub async fn websites_analyzed(&self, db: &DatabaseConnection) -> StoreResult<i64> {
        let cached = self
            .last
            .lock()
            .ok()
            .and_then(|g| *g)
            .filter(|(at, _)| at.elapsed() < STATS_TTL)
            .map(|(_, n)| n);
        if let Some(n) = cached {
            return Ok(n);
        }
        let n = store::stats::stats(db).await?.websites_analyzed;
        if let Ok(mut g) = self.last.lock() {
            *g = Some((Instant::now(), n));
        }
        Ok(n)
    }
}
