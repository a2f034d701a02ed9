//! The service's live status (`/api-status`, `GET /api/v1/status`) and its health samples.
//!
//! [`current`] measures the parts now: the database (a timed ping), the queue (waiting and
//! running jobs, the oldest wait), the workers and their browsers (the rows every worker
//! process writes, `store::health::beat`, within the heartbeat timeout), and adds the last
//! day's samples. [`sample_loop`], run by every web node, offers one sample at the start of
//! every minute; the database keeps the first of each minute, so there is one a minute however
//! many nodes run, and a day of them (`store::health`). The states come from
//! `domain::status`.

use std::time::{Duration, Instant};

use chrono::{DateTime, TimeZone, Utc};
use domain::status::{
    ApiPart, ApiStatus, BrowserMode, BrowserPart, DatabasePart, HISTORY_BARS, HISTORY_HOURS,
    HealthHistory, HealthSample, HistoryBar, QueuePart, SAMPLE_EVERY_SECONDS, SamplePoint,
    ServiceState, WorkersPart,
};
use store::health::{Sample, WorkerBeat};
use store::{DatabaseConnection, StoreResult};
use tokio::sync::watch;

use crate::chain::Chain;

/// What the status is measured with: the database and this node's settings.
#[derive(Clone, Debug)]
pub struct StatusSources {
    /// The database every process shares.
    pub db: DatabaseConnection,
    /// A worker silent this long is not alive.
    pub heartbeat_timeout: Duration,
    /// This node's browser setting, said when no worker is alive to report its own.
    pub browser: BrowserMode,
}

/// The parts measured at one moment.
struct Parts {
    database: DatabasePart,
    queue: QueuePart,
    workers: WorkersPart,
    browser: BrowserPart,
}

impl Parts {
    fn state(&self) -> ServiceState {
        ApiStatus::overall(&self.database, &self.queue, &self.workers, &self.browser)
    }
}

fn count(n: u64) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

fn rfc3339(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

fn at_second(seconds: i64) -> String {
    Utc.timestamp_opt(seconds, 0)
        .single()
        .map(rfc3339)
        .unwrap_or_default()
}

/// The start of `at`'s minute, in seconds since the epoch.
pub fn minute_of(at: DateTime<Utc>) -> i64 {
    let s = at.timestamp();
    s - s.rem_euclid(60)
}

/// The first minute the history keeps at `now`: a day of minutes ending with this one.
fn history_from(now: DateTime<Utc>) -> i64 {
    minute_of(now) - i64::from(HISTORY_HOURS) * 3600 + 60
}

impl StatusSources {
    /// The sources of a node with `config` on `db`.
    pub fn new(db: DatabaseConnection, config: &crate::Config) -> Self {
        StatusSources {
            db,
            heartbeat_timeout: config.heartbeat_timeout,
            browser: browser_setting(config),
        }
    }

    async fn parts(&self, now: DateTime<Utc>) -> Parts {
        let db = &self.db;
        let started = Instant::now();
        let ping = store::ping(db).await;
        let latency_ms = ping
            .as_ref()
            .ok()
            .map(|()| (started.elapsed().as_secs_f64() * 1000.0 * 100.0).round() / 100.0);
        if let Err(e) = &ping {
            tracing::warn!(error = %Chain(e), "status: the database does not answer");
        }
        let database = DatabasePart {
            state: domain::status::database_state(latency_ms),
            reachable: latency_ms.is_some(),
            engine: store::health::engine(db).to_owned(),
            latency_ms,
        };
        let (queue, workers) = if latency_ms.is_some() {
            let queue = store::jobs::queue_summary(db).await;
            let since = now
                - chrono::Duration::from_std(self.heartbeat_timeout)
                    .unwrap_or(chrono::Duration::seconds(60));
            let workers = store::health::workers_since(db, since).await;
            for e in [queue.as_ref().err(), workers.as_ref().err()]
                .into_iter()
                .flatten()
            {
                tracing::warn!(error = %Chain(e), "status: a part could not be read");
            }
            (queue.ok(), workers.ok())
        } else {
            (None, None)
        };
        let queue = match queue {
            Some(q) => {
                let oldest_wait_seconds = q
                    .oldest_queued_at
                    .map(|at| u64::try_from((now - at).num_seconds()).unwrap_or(0));
                QueuePart {
                    state: domain::status::queue_state(oldest_wait_seconds),
                    depth: count(q.waiting),
                    running: count(q.running),
                    oldest_wait_seconds,
                }
            }
            // Unknown: the database did not say.
            None => QueuePart {
                state: ServiceState::Down,
                depth: 0,
                running: 0,
                oldest_wait_seconds: None,
            },
        };
        let live = workers.unwrap_or_default();
        Parts {
            database,
            queue,
            workers: workers_part(&live),
            browser: self.browser_part(&live),
        }
    }

    fn browser_part(&self, live: &[WorkerBeat]) -> BrowserPart {
        let modes: Vec<BrowserMode> = live.iter().map(|w| w.browser).collect();
        let judged = if modes.is_empty() {
            match self.browser {
                BrowserMode::Off | BrowserMode::Missing => vec![self.browser],
                _ => Vec::new(),
            }
        } else {
            modes.clone()
        };
        let sum = |f: fn(&WorkerBeat) -> u32| live.iter().map(f).sum();
        BrowserPart {
            state: domain::status::browser_state(&judged),
            available: !judged
                .iter()
                .any(|m| matches!(m, BrowserMode::Off | BrowserMode::Missing)),
            launched: count(modes.iter().filter(|m| **m == BrowserMode::Running).count() as u64),
            tabs_in_use: sum(|w| w.tabs_in_use),
            tabs_max: sum(|w| w.tabs_max),
            spare_tabs: sum(|w| w.spare_tabs),
            workers: modes,
        }
    }

    /// The service now, with the last day's samples.
    pub async fn current(&self, now: DateTime<Utc>) -> ApiStatus {
        let parts = self.parts(now).await;
        let samples = if parts.database.reachable {
            store::health::samples_since(&self.db, history_from(now))
                .await
                .inspect_err(|e| tracing::warn!(error = %Chain(e), "status: samples unreadable"))
                .unwrap_or_default()
        } else {
            Vec::new()
        };
        ApiStatus {
            state: parts.state(),
            checked_at: rfc3339(now),
            api: ApiPart {
                state: ServiceState::Operational,
                version: "v1".to_owned(),
            },
            history: history(now, &samples),
            database: parts.database,
            queue: parts.queue,
            workers: parts.workers,
            browser: parts.browser,
        }
    }

    /// Offers the sample of `now`'s minute; `Ok(false)` when another process (or an earlier
    /// call) took that minute's sample first. Samples older than a day are removed then, and so
    /// are the rows of workers silent for a day.
    pub async fn take_sample(&self, now: DateTime<Utc>) -> StoreResult<bool> {
        let parts = self.parts(now).await;
        let sample = Sample {
            minute: minute_of(now),
            taken_at: store::now(),
            state: parts.state(),
            database_ms: parts.database.latency_ms,
            queue_depth: parts.queue.depth,
            oldest_wait_seconds: parts.queue.oldest_wait_seconds,
            workers_alive: parts.workers.alive,
            workers_busy: parts.workers.busy,
        };
        let stored = store::health::record_sample(&self.db, &sample, history_from(now)).await?;
        if stored {
            store::health::prune_workers(
                &self.db,
                now - chrono::Duration::hours(i64::from(HISTORY_HOURS)),
            )
            .await?;
        }
        Ok(stored)
    }
}

/// What `config` says of the browser before any pool exists: off, missing, or idle (installed).
pub fn browser_setting(config: &crate::Config) -> BrowserMode {
    match config.browser_status() {
        "off" => BrowserMode::Off,
        "missing" => BrowserMode::Missing,
        _ => BrowserMode::Idle,
    }
}

fn workers_part(live: &[WorkerBeat]) -> WorkersPart {
    let alive = count(live.len() as u64);
    WorkersPart {
        state: domain::status::workers_state(alive),
        alive,
        busy: count(live.iter().filter(|w| w.busy > 0).count() as u64),
        capacity: live.iter().map(|w| w.concurrency).sum(),
        in_progress: live.iter().map(|w| w.busy).sum(),
    }
}

fn history(now: DateTime<Utc>, samples: &[Sample]) -> HealthHistory {
    let points: Vec<SamplePoint> = samples
        .iter()
        .map(|s| SamplePoint {
            minute: s.minute,
            state: s.state,
            database_ms: s.database_ms,
        })
        .collect();
    let bars = domain::status::bars(now.timestamp(), HISTORY_BARS, &points)
        .into_iter()
        .map(|(start, in_bar)| {
            let (state, mean, max) = domain::status::summarise(&in_bar);
            HistoryBar {
                start: at_second(start),
                samples: count(in_bar.len() as u64),
                state,
                mean_database_ms: mean,
                max_database_ms: max,
            }
        })
        .collect();
    HealthHistory {
        hours: HISTORY_HOURS,
        sample_every_seconds: SAMPLE_EVERY_SECONDS,
        uptime_percent: domain::status::uptime_percent(&points),
        samples: samples
            .iter()
            .map(|s| HealthSample {
                at: at_second(s.minute),
                state: s.state,
                database_ms: s.database_ms,
                queue_depth: s.queue_depth,
                workers_alive: s.workers_alive,
            })
            .collect(),
        bars,
    }
}

/// Offers a sample at the start of every minute until `stop` turns true (the web role runs
/// this; every node may, the database keeps one sample a minute).
pub async fn sample_loop(sources: StatusSources, mut stop: watch::Receiver<bool>) {
    loop {
        let now = Utc::now();
        match sources.take_sample(now).await {
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %Chain(&e), "health sample not stored"),
        }
        // Wake a second into the next minute, so a slow clock still lands inside it.
        let into = Utc::now().timestamp().rem_euclid(60);
        let wait = Duration::from_secs(u64::try_from(61 - into).unwrap_or(60));
        tokio::select! {
            _ = tokio::time::sleep(wait) => {}
            _ = async { let _ = stop.wait_for(|s| *s).await; } => break,
        }
    }
}
