//! The periodic sweep: what the database keeps only for a while is removed or forgotten once it
//! is past its time. Every process runs it (web nodes and workers alike); each step is one
//! idempotent statement, so several processes sweeping the same database at once do no harm.
//!
//! - `Idempotency-Key`s older than a day are forgotten (`domain::api::IDEMPOTENCY_KEY_TTL_SECONDS`):
//!   the job keeps everything else, and the unique index holds only live keys. A submission
//!   already treats an older key as new ([`crate::services::analyses::idempotency_keys_valid_since`]),
//!   so when the sweep comes by does not change what a client sees.
//! - `api_usage` rows older than the retention period are removed
//!   (`domain::api::API_USAGE_RETENTION_DAYS`); `users.api_calls` keeps counting them.
//! - Rate windows before the previous minute are removed (the limiter clears a key's own only
//!   when the key is used again).
//! - Expired sessions are removed.
//! - Yearly plans get the monthly credits of each month of their paid year as it begins
//!   ([`crate::services::billing::grant_due_plan_months`]; each month's grant is made once).

use std::time::Duration;

use chrono::{DateTime, Utc};
use domain::api::{API_USAGE_RETENTION_DAYS, RATE_WINDOW_SECONDS, rate_window};
use store::DatabaseConnection;
use tokio::sync::watch;

use crate::chain::Chain;
use crate::services::analyses::idempotency_keys_valid_since;

/// How often every process sweeps.
pub const SWEEP_EVERY: Duration = Duration::from_secs(60 * 60);

/// What one sweep removed or forgot.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Swept {
    /// Idempotency keys forgotten.
    pub idempotency_keys: u64,
    /// `api_usage` rows removed.
    pub api_calls: u64,
    /// Rate windows removed.
    pub rate_windows: u64,
    /// Expired sessions removed.
    pub sessions: u64,
    /// Months of yearly plans' credits granted.
    pub plan_months: u64,
}

/// Why a sweep stopped.
#[derive(Debug, thiserror::Error)]
pub enum SweepError {
    /// The database failed.
    #[error(transparent)]
    Store(#[from] store::StoreError),
    /// Granting a plan's month failed.
    #[error(transparent)]
    Billing(#[from] crate::services::billing::BillingError),
}

/// The oldest API call kept at `now`.
pub fn api_calls_kept_since(now: DateTime<Utc>) -> DateTime<Utc> {
    now - chrono::Duration::days(API_USAGE_RETENTION_DAYS)
}

/// One sweep as of `now` (the caller's clock, so tests can sweep as if days had passed).
pub async fn sweep(db: &DatabaseConnection, now: DateTime<Utc>) -> Result<Swept, SweepError> {
    let window = rate_window(now.timestamp_millis());
    Ok(Swept {
        idempotency_keys: store::jobs::expire_idempotency_keys(
            db,
            idempotency_keys_valid_since(now),
        )
        .await?,
        api_calls: store::api_keys::delete_api_calls_before(db, api_calls_kept_since(now)).await?,
        rate_windows: store::api_keys::delete_rate_windows_before(
            db,
            window.start - RATE_WINDOW_SECONDS,
        )
        .await?,
        sessions: store::sessions::delete_expired_sessions(db, now).await?,
        plan_months: crate::services::billing::grant_due_plan_months(db, now).await?,
    })
}

/// Sweeps at once and then every `every` until `shutdown` turns true; a failed sweep is
/// logged and tried again next time.
pub async fn run(db: DatabaseConnection, every: Duration, mut shutdown: watch::Receiver<bool>) {
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = tick.tick() => {
                match sweep(&db, store::now()).await {
                    Ok(swept) if swept != Swept::default() => {
                        tracing::info!(?swept, "maintenance sweep");
                    }
                    Ok(_) => {}
                    Err(e) => tracing::error!(error = %Chain(&e), "maintenance sweep failed"),
                }
                crate::services::affiliates::scheduled(&db, store::now()).await;
            }
            () = stopped(&mut shutdown) => break,
        }
    }
}

/// Resolves once `shutdown` is true (the guard `wait_for` returns is not `Send`, so it is
/// dropped here).
async fn stopped(shutdown: &mut watch::Receiver<bool>) {
    let _ = shutdown.wait_for(|stop| *stop).await;
}
