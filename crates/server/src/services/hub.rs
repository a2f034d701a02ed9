//! Progress fan-out: workers publish [`ProgressEvent`]s, progress streams subscribe.
//!
//! On SQLite everything runs in one process and an in-process broadcast channel is enough. On
//! PostgreSQL, web and worker processes may differ, so events travel through
//! `pg_notify('sitelens_progress', …)` and every process's listener re-broadcasts them locally;
//! a process then never sees an event twice. The job row stays the source of truth: streams
//! also poll it, so a missed notification only delays an update, it never loses one.

use std::sync::Arc;
use std::time::Duration;

use domain::report::ProgressEvent;
use store::DatabaseConnection;
use store::notify::{Listener, notify, supports_notifications};
use tokio::sync::{Notify, broadcast};

use crate::chain::Chain;

/// The PostgreSQL notification channel for progress events.
pub const CHANNEL: &str = "sitelens_progress";
/// The PostgreSQL notification channel that wakes idle workers when a job is queued.
pub const JOBS_CHANNEL: &str = "sitelens_jobs";

/// The fan-out point; cheap to clone.
#[derive(Clone)]
pub struct Hub {
    tx: broadcast::Sender<ProgressEvent>,
    db: DatabaseConnection,
    jobs: Arc<Notify>,
}

impl Hub {
    /// A hub over `db`. On PostgreSQL call [`Hub::listen`] once per process.
    pub fn new(db: DatabaseConnection) -> Self {
        let (tx, _) = broadcast::channel(1024);
        Self {
            tx,
            db,
            jobs: Arc::new(Notify::new()),
        }
    }

    fn is_postgres(&self) -> bool {
        supports_notifications(&self.db)
    }

    /// Subscribes to every event of this process; filter by analysis id.
    pub fn subscribe(&self) -> broadcast::Receiver<ProgressEvent> {
        self.tx.subscribe()
    }

    /// Publishes an event to every subscriber of every process.
    pub async fn publish(&self, event: ProgressEvent) {
        if self.is_postgres() {
            let payload = match serde_json::to_string(&event) {
                Ok(p) => p,
                Err(e) => {
                    tracing::error!(error = %e, "progress event not serialisable");
                    return;
                }
            };
            if let Err(e) = notify(&self.db, CHANNEL, &payload).await {
                // The job row still carries the state; streams poll it.
                tracing::warn!(error = %Chain(&e), "pg_notify failed; streams will read the job row");
            }
        } else {
            // No receivers is fine: nobody is watching this analysis.
            let _ = self.tx.send(event);
        }
    }

    /// Wakes idle workers because a job was queued.
    pub async fn job_queued(&self) {
        if self.is_postgres()
            && let Err(e) = notify(&self.db, JOBS_CHANNEL, "").await
        {
            tracing::warn!(error = %Chain(&e), "pg_notify for a queued job failed; workers poll");
        }
        self.jobs.notify_one();
    }

    /// Waits until a job is queued in this process (or, on PostgreSQL, anywhere), or `timeout`.
    /// A notification that arrived while nobody waited is kept, so none is lost.
    pub async fn wait_for_job(&self, timeout: Duration) {
        let _ = tokio::time::timeout(timeout, self.jobs.notified()).await;
    }

    /// On PostgreSQL, relays notifications into this process until the process ends, and
    /// reconnects when the connection drops. Does nothing on SQLite.
    pub fn listen(&self) {
        if !self.is_postgres() {
            return;
        }
        let hub = self.clone();
        tokio::spawn(async move {
            loop {
                if let Err(e) = hub.relay().await {
                    tracing::warn!(error = %Chain(&e), "progress listener lost its connection; reconnecting");
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        });
    }

    async fn relay(&self) -> store::StoreResult<()> {
        let mut listener = Listener::connect(&self.db, &[CHANNEL, JOBS_CHANNEL]).await?;
        loop {
            let note = listener.recv().await?;
            if note.channel == JOBS_CHANNEL {
                self.jobs.notify_one();
                continue;
            }
            match serde_json::from_str::<ProgressEvent>(&note.payload) {
                Ok(event) => {
                    let _ = self.tx.send(event);
                }
                Err(e) => tracing::warn!(error = %e, "unreadable progress notification"),
            }
        }
    }
}
