//! What a client following an analysis sees (docs/PRODUCT.md §7.3, §4.5):
//! `connected`, the job's stored state, then each change until the job completes or fails.
//!
//! Events arrive through the [`Hub`]; the job row stays the source of truth, so the stream
//! re-reads it whenever the hub is quiet for [`POLL`] or this subscriber fell behind.

use std::time::Duration;

use domain::report::{ProgressEvent, ProgressEventType};
use futures::Stream;
use store::{DatabaseConnection, StoreError};
use tokio::sync::broadcast::{Receiver, error::RecvError};
use uuid::Uuid;

use crate::chain::Chain;
use crate::services::hub::Hub;

/// How often a stream re-reads the job row, in case a notification was missed.
pub const POLL: Duration = Duration::from_secs(2);

fn is_final(event: &ProgressEvent) -> bool {
    matches!(
        event.kind,
        ProgressEventType::Complete | ProgressEventType::Error
    )
}

/// A stream's position: what it sent last, and what it still has to send.
struct Follower {
    db: DatabaseConnection,
    id: Uuid,
    rx: Receiver<ProgressEvent>,
    /// Events to send, last first.
    pending: Vec<ProgressEvent>,
    /// Progress of the last event sent.
    last: (u32, ProgressEventType),
    done: bool,
}

impl Follower {
    /// Whether `event` tells the client something new. An event published before the job row
    /// was read can arrive after the row's newer state was sent: it must not move the bar back.
    fn is_news(&self, event: &ProgressEvent) -> bool {
        is_final(event) || event.progress >= self.last.0
    }

    /// The next event for this stream, from the hub or, when the hub is quiet, from the row.
    async fn next_event(&mut self) -> Option<ProgressEvent> {
        let heard = tokio::time::timeout(POLL, self.rx.recv()).await;
        match heard {
            Ok(Ok(event)) => {
                (event.analysis_id == self.id.to_string() && self.is_news(&event)).then_some(event)
            }
            Ok(Err(RecvError::Closed)) => {
                // The hub is gone (the process is stopping): fall back to reading the row.
                tokio::time::sleep(POLL).await;
                self.read_row().await
            }
            // Fell behind, or quiet: the job row has the truth.
            Ok(Err(RecvError::Lagged(_))) | Err(_) => self.read_row().await,
        }
    }

    async fn read_row(&self) -> Option<ProgressEvent> {
        match store::jobs::get_job(&self.db, self.id).await {
            Ok(job) => {
                let event = job.progress_event();
                (self.last != (event.progress, event.kind)).then_some(event)
            }
            Err(e) => {
                tracing::warn!(error = %Chain(&e), job = %self.id, "progress poll failed");
                None
            }
        }
    }
}

/// The events of analysis `id`, ending with its `complete` or `error` event.
/// [`StoreError::NotFound`] when there is no such analysis.
pub async fn follow(
    db: DatabaseConnection,
    hub: &Hub,
    id: Uuid,
) -> Result<impl Stream<Item = ProgressEvent> + use<>, StoreError> {
    // Subscribe before reading the row, so nothing published in between is missed.
    let rx = hub.subscribe();
    let job = store::jobs::get_job(&db, id).await?;
    let connected = ProgressEvent {
        kind: ProgressEventType::Connected,
        analysis_id: id.to_string(),
        step: None,
        progress: 0,
        message: "Connected to progress updates".to_owned(),
        timestamp: chrono::Utc::now().timestamp_millis() as f64,
        result_id: None,
    };
    let current = job.progress_event();
    let follower = Follower {
        db,
        id,
        rx,
        last: (current.progress, current.kind),
        pending: vec![current, connected],
        done: false,
    };
    Ok(futures::stream::unfold(follower, |mut f| async move {
        loop {
            if f.done {
                return None;
            }
            if let Some(event) = f.pending.pop() {
                f.done = is_final(&event);
                if event.kind != ProgressEventType::Connected {
                    f.last = (event.progress, event.kind);
                }
                return Some((event, f));
            }
            if let Some(event) = f.next_event().await {
                f.pending.push(event);
            }
        }
    }))
}
