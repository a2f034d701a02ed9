//! The service's live status, `/api-status` and its JSON twin `GET /api/v1/status` (issue 17):
//! what each part of the service is doing now, and the last [`HISTORY_HOURS`] hours of health
//! samples, one a minute.
//!
//! The rules that turn measurements into a state are here, once: [`database_state`],
//! [`queue_state`], [`workers_state`], [`browser_state`], the overall [`worst`], and how a day of
//! samples becomes the page's strip of bars ([`bars`]) and its uptime ([`uptime_percent`]).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Hours of samples kept and shown.
pub const HISTORY_HOURS: u32 = 24;

/// Seconds between two samples (one a minute, whatever the number of processes).
pub const SAMPLE_EVERY_SECONDS: u32 = 60;

/// A database answering a ping more slowly than this is degraded, ms.
pub const DATABASE_SLOW_MS: f64 = 500.0;

/// A queue whose oldest analysis has waited longer than this is degraded, seconds: analyses
/// usually start within seconds.
pub const QUEUE_SLOW_SECONDS: u64 = 300;

/// Bars in the history strip: half an hour each over [`HISTORY_HOURS`].
pub const HISTORY_BARS: usize = 48;

/// How a part of the service (or the whole) is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum ServiceState {
    /// Working as it should.
    Operational,
    /// Working, but slower or with less than it should (analyses still complete).
    Degraded,
    /// Not working: analyses cannot be run or read.
    Down,
}

impl ServiceState {
    /// The stored and serialised name.
    pub fn as_str(self) -> &'static str {
        match self {
            ServiceState::Operational => "operational",
            ServiceState::Degraded => "degraded",
            ServiceState::Down => "down",
        }
    }

    /// Reads a stored name.
    pub fn parse(value: &str) -> Option<ServiceState> {
        match value {
            "operational" => Some(ServiceState::Operational),
            "degraded" => Some(ServiceState::Degraded),
            "down" => Some(ServiceState::Down),
            _ => None,
        }
    }
}

/// The worst of `states` (operational when there are none): the whole is as bad as its worst
/// part.
pub fn worst(states: impl IntoIterator<Item = ServiceState>) -> ServiceState {
    states
        .into_iter()
        .max()
        .unwrap_or(ServiceState::Operational)
}

/// The database: down when it does not answer, degraded when it answers slowly.
pub fn database_state(latency_ms: Option<f64>) -> ServiceState {
    match latency_ms {
        None => ServiceState::Down,
        Some(ms) if ms > DATABASE_SLOW_MS => ServiceState::Degraded,
        Some(_) => ServiceState::Operational,
    }
}

/// The queue: degraded when its oldest analysis has waited longer than [`QUEUE_SLOW_SECONDS`].
pub fn queue_state(oldest_wait_seconds: Option<u64>) -> ServiceState {
    match oldest_wait_seconds {
        Some(s) if s > QUEUE_SLOW_SECONDS => ServiceState::Degraded,
        _ => ServiceState::Operational,
    }
}

/// The workers: down when none is alive (analyses are queued but never run).
pub fn workers_state(alive: u32) -> ServiceState {
    if alive == 0 {
        ServiceState::Down
    } else {
        ServiceState::Operational
    }
}

/// What a worker's browser is doing, as it reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum BrowserMode {
    /// Turned off by configuration (`SITELENS_CHROMIUM=off`).
    Off,
    /// Configured, but the program is not where the configuration says.
    Missing,
    /// Installed, not started (it starts with the first analysis).
    Idle,
    /// Starting now.
    Starting,
    /// Running.
    Running,
}

impl BrowserMode {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            BrowserMode::Off => "off",
            BrowserMode::Missing => "missing",
            BrowserMode::Idle => "idle",
            BrowserMode::Starting => "starting",
            BrowserMode::Running => "running",
        }
    }

    /// Reads a stored name.
    pub fn parse(value: &str) -> Option<BrowserMode> {
        [
            BrowserMode::Off,
            BrowserMode::Missing,
            BrowserMode::Idle,
            BrowserMode::Starting,
            BrowserMode::Running,
        ]
        .into_iter()
        .find(|m| m.as_str() == value)
    }
}

/// The browser across the live workers: degraded when a worker has none (its analyses run
/// over HTTP only and their lab figures are estimated, docs/PRODUCT.md §9.9); with no worker
/// alive, what this server's own setting says.
pub fn browser_state(modes: &[BrowserMode]) -> ServiceState {
    if modes
        .iter()
        .any(|m| matches!(m, BrowserMode::Off | BrowserMode::Missing))
    {
        ServiceState::Degraded
    } else {
        ServiceState::Operational
    }
}

/// The API itself: it answered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ApiPart {
    /// Always `operational`: this answer is the proof.
    pub state: ServiceState,
    /// The API's version (the path's `v1`).
    pub version: String,
}

/// The database.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DatabasePart {
    /// Down when it does not answer, degraded when its ping takes over 500 ms.
    pub state: ServiceState,
    /// Whether it answered.
    pub reachable: bool,
    /// `sqlite` or `postgres`.
    pub engine: String,
    /// How long a ping took, ms (`null` when it did not answer).
    pub latency_ms: Option<f64>,
}

/// The analysis queue.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct QueuePart {
    /// Degraded when the oldest waiting analysis has waited over 5 minutes.
    pub state: ServiceState,
    /// Analyses waiting for a worker.
    pub depth: u32,
    /// Analyses being run now.
    pub running: u32,
    /// How long the oldest waiting analysis has waited, seconds (`null` when none waits).
    #[ts(type = "number | null")]
    pub oldest_wait_seconds: Option<u64>,
}

/// The analysis workers, every process's, as they report themselves in the database.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct WorkersPart {
    /// Down when no worker is alive: analyses would be queued but never run.
    pub state: ServiceState,
    /// Worker processes that reported within the heartbeat timeout.
    pub alive: u32,
    /// Of those, the ones running at least one analysis.
    pub busy: u32,
    /// Analyses those workers run at once, in all.
    pub capacity: u32,
    /// Analyses they are running now.
    pub in_progress: u32,
}

/// The browser (Chromium) the workers measure pages with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct BrowserPart {
    /// Degraded when a worker has no browser (its lab figures are estimated).
    pub state: ServiceState,
    /// Whether the live workers have Chromium (all of them; with no worker alive, this
    /// server's setting).
    pub available: bool,
    /// Live workers whose Chromium is running now.
    pub launched: u32,
    /// Tabs measuring pages now, across the workers.
    pub tabs_in_use: u32,
    /// Tabs the workers may open at once, in all.
    pub tabs_max: u32,
    /// Blank tabs prepared for the next analyses.
    pub spare_tabs: u32,
    /// Each live worker's browser, in no particular order.
    pub workers: Vec<BrowserMode>,
}

/// One health sample, taken once a minute.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct HealthSample {
    /// The minute it stands for (RFC 3339, UTC).
    pub at: String,
    /// The overall state then.
    pub state: ServiceState,
    /// The database's ping then, ms (`null`: it did not answer).
    pub database_ms: Option<f64>,
    /// Analyses waiting then.
    pub queue_depth: u32,
    /// Workers alive then.
    pub workers_alive: u32,
}

/// One bar of the history strip: a stretch of time and the samples in it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct HistoryBar {
    /// Start of the stretch (RFC 3339, UTC).
    pub start: String,
    /// Samples taken in it.
    pub samples: u32,
    /// The worst state sampled in it (`null` when no sample was taken: the service was not
    /// running, or not yet installed).
    pub state: Option<ServiceState>,
    /// The mean database ping of its samples, ms.
    pub mean_database_ms: Option<f64>,
    /// The slowest database ping of its samples, ms.
    pub max_database_ms: Option<f64>,
}

/// The last 24 hours.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct HealthHistory {
    /// Hours covered.
    pub hours: u32,
    /// Seconds between samples.
    pub sample_every_seconds: u32,
    /// Share of samples in which the service was not down, percent (`null` without samples).
    pub uptime_percent: Option<f64>,
    /// The samples, oldest first.
    pub samples: Vec<HealthSample>,
    /// The same samples in 48 stretches of half an hour, oldest first.
    pub bars: Vec<HistoryBar>,
}

/// `GET /api/v1/status`: the service now, and its last day.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ApiStatus {
    /// The worst state of the parts.
    pub state: ServiceState,
    /// When this was measured (RFC 3339, UTC).
    pub checked_at: String,
    /// The API.
    pub api: ApiPart,
    /// The database.
    pub database: DatabasePart,
    /// The analysis queue.
    pub queue: QueuePart,
    /// The workers.
    pub workers: WorkersPart,
    /// The browser.
    pub browser: BrowserPart,
    /// The last day's samples.
    pub history: HealthHistory,
}

impl ApiStatus {
    /// The overall state of these parts.
    pub fn overall(
        database: &DatabasePart,
        queue: &QueuePart,
        workers: &WorkersPart,
        browser: &BrowserPart,
    ) -> ServiceState {
        worst([database.state, queue.state, workers.state, browser.state])
    }
}

/// A sample as the history rules need it: its minute (seconds since the epoch), its state and
/// its database ping.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SamplePoint {
    /// Start of its minute, seconds since the Unix epoch.
    pub minute: i64,
    /// The overall state.
    pub state: ServiceState,
    /// The database ping, ms.
    pub database_ms: Option<f64>,
}

/// The share of `samples` in which the service was not down, percent (`None` without samples).
pub fn uptime_percent(samples: &[SamplePoint]) -> Option<f64> {
    if samples.is_empty() {
        return None;
    }
    let up = samples
        .iter()
        .filter(|s| s.state != ServiceState::Down)
        .count();
    Some(up as f64 * 100.0 / samples.len() as f64)
}

/// The stretches of the strip ending at `now` (seconds since the epoch): `count` equal
/// stretches over [`HISTORY_HOURS`], each as `(start, samples in it)`, oldest first. A sample
/// outside the window is left out.
pub fn bars(now: i64, count: usize, samples: &[SamplePoint]) -> Vec<(i64, Vec<SamplePoint>)> {
    let count = count.max(1);
    let window = i64::from(HISTORY_HOURS) * 3600;
    let width = window / count as i64;
    // The strip ends at the end of the current minute, so this minute's sample is in it.
    let end = now - now.rem_euclid(60) + 60;
    let start = end - width * count as i64;
    let mut out: Vec<(i64, Vec<SamplePoint>)> = (0..count)
        .map(|i| (start + width * i as i64, Vec::new()))
        .collect();
    for s in samples {
        if s.minute < start || s.minute >= end {
            continue;
        }
        let i = ((s.minute - start) / width) as usize;
        if let Some((_, bucket)) = out.get_mut(i) {
            bucket.push(*s);
        }
    }
    out
}

/// The worst state, mean and slowest ping of a stretch's samples.
pub fn summarise(samples: &[SamplePoint]) -> (Option<ServiceState>, Option<f64>, Option<f64>) {
    let state = samples.iter().map(|s| s.state).max();
    let pings: Vec<f64> = samples.iter().filter_map(|s| s.database_ms).collect();
    let mean = (!pings.is_empty()).then(|| pings.iter().sum::<f64>() / pings.len() as f64);
    let max = pings.iter().copied().reduce(f64::max);
    (state, mean, max)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(minute: i64, state: ServiceState, ms: Option<f64>) -> SamplePoint {
        SamplePoint {
            minute,
            state,
            database_ms: ms,
        }
    }

    #[test]
    fn the_whole_is_its_worst_part() {
        use ServiceState::*;
        assert_eq!(worst([]), Operational);
        assert_eq!(worst([Operational, Degraded]), Degraded);
        assert_eq!(worst([Degraded, Down, Operational]), Down);
        assert_eq!(ServiceState::parse("down"), Some(Down));
        assert_eq!(ServiceState::parse(Degraded.as_str()), Some(Degraded));
        assert_eq!(ServiceState::parse("fine"), None);
    }

    #[test]
    fn parts_have_their_thresholds() {
        use ServiceState::*;
        assert_eq!(database_state(None), Down);
        assert_eq!(database_state(Some(3.0)), Operational);
        assert_eq!(database_state(Some(DATABASE_SLOW_MS + 1.0)), Degraded);
        assert_eq!(queue_state(None), Operational);
        assert_eq!(queue_state(Some(QUEUE_SLOW_SECONDS)), Operational);
        assert_eq!(queue_state(Some(QUEUE_SLOW_SECONDS + 1)), Degraded);
        assert_eq!(workers_state(0), Down);
        assert_eq!(workers_state(2), Operational);
        assert_eq!(browser_state(&[]), Operational);
        assert_eq!(
            browser_state(&[BrowserMode::Running, BrowserMode::Idle]),
            Operational
        );
        assert_eq!(
            browser_state(&[BrowserMode::Running, BrowserMode::Missing]),
            Degraded
        );
        assert_eq!(browser_state(&[BrowserMode::Off]), Degraded);
        for m in [
            BrowserMode::Off,
            BrowserMode::Missing,
            BrowserMode::Idle,
            BrowserMode::Starting,
            BrowserMode::Running,
        ] {
            assert_eq!(BrowserMode::parse(m.as_str()), Some(m));
        }
    }

    #[test]
    fn uptime_counts_samples_not_down() {
        use ServiceState::*;
        assert_eq!(uptime_percent(&[]), None);
        let s = [
            point(0, Operational, Some(1.0)),
            point(60, Degraded, Some(2.0)),
            point(120, Down, None),
            point(180, Operational, Some(1.0)),
        ];
        assert_eq!(uptime_percent(&s), Some(75.0));
    }

    #[test]
    fn bars_cover_the_day_up_to_this_minute() {
        use ServiceState::*;
        let now = 1_800_000_030; // 30 s into a minute
        let minute = now - 30;
        let samples = [
            point(minute, Down, None),
            point(minute - 60, Operational, Some(2.0)),
            point(minute - 120, Degraded, Some(600.0)),
            // Older than a day: outside the strip.
            point(minute - 24 * 3600, Operational, Some(1.0)),
        ];
        let strip = bars(now, HISTORY_BARS, &samples);
        assert_eq!(strip.len(), HISTORY_BARS);
        let width = 24 * 3600 / HISTORY_BARS as i64;
        assert!(strip.windows(2).all(|w| w[1].0 - w[0].0 == width));
        assert_eq!(strip[HISTORY_BARS - 1].0 + width, minute + 60);
        let last = &strip[HISTORY_BARS - 1].1;
        assert_eq!(last.len(), 3);
        assert_eq!(
            summarise(last),
            (Some(Down), Some(301.0), Some(600.0)),
            "worst state, mean and slowest ping"
        );
        assert!(strip[..HISTORY_BARS - 1].iter().all(|(_, b)| b.is_empty()));
        assert_eq!(summarise(&[]), (None, None, None));
    }
}
