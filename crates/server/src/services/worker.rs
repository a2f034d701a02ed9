//! The analysis worker: claims jobs from the database queue, runs the analyzer with bounded
//! concurrency, heartbeats, persists and publishes progress, and writes the result in the same
//! transaction that completes the job (ARCHITECTURE.md §3).

use std::sync::Arc;
use std::time::Duration;

use analyzer::browser::merge::analyze_with_browser;
use analyzer::browser::{BrowserPool, LocalBlobStore};
use analyzer::{AnalyzeOptions, Analyzer, ProgressUpdate};
use domain::report::{ProgressEvent, ProgressEventType};
use store::jobs::Job;
use store::results::NewResult;
use tokio::sync::{Semaphore, mpsc, watch};
use tokio::task::JoinSet;
use uuid::Uuid;

use crate::services::hub::Hub;

/// How often a running job proves it is alive.
pub const HEARTBEAT: Duration = Duration::from_secs(5);
/// How often stale jobs are looked for.
const RECOVERY_EVERY: Duration = Duration::from_secs(15);
/// How long an idle worker waits for a wake-up before polling the queue again.
const IDLE_POLL: Duration = Duration::from_secs(2);
/// How long shutdown waits for running analyses before abandoning them to recovery.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(60);

/// A worker process's settings.
#[derive(Clone)]
pub struct Worker {
    /// The database.
    pub db: store::DatabaseConnection,
    /// The analyzer.
    pub analyzer: Analyzer,
    /// Progress fan-out.
    pub hub: Hub,
    /// The Chromium pool, when a browser is available.
    pub browser: Option<Arc<BrowserPool>>,
    /// Where screenshots are stored.
    pub blobs: Arc<LocalBlobStore>,
    /// This worker's name in `claimed_by`.
    pub id: String,
    /// Concurrent analyses.
    pub concurrency: usize,
    /// A job silent this long is recovered.
    pub heartbeat_timeout: Duration,
}

fn event(
    job: Uuid,
    kind: ProgressEventType,
    step: Option<String>,
    progress: u32,
    message: String,
) -> ProgressEvent {
    ProgressEvent {
        kind,
        analysis_id: job.to_string(),
        step,
        progress,
        message,
        timestamp: chrono::Utc::now().timestamp_millis() as f64,
        result_id: None,
    }
}

impl Worker {
    /// A unique worker name: the machine's name, process id and a random suffix.
    pub fn new_id(host: &str) -> String {
        format!(
            "{host}-{}-{}",
            std::process::id(),
            &Uuid::new_v4().simple().to_string()[..8]
        )
    }

    /// Runs until `shutdown` turns true; then stops claiming, lets running analyses finish
    /// within [`SHUTDOWN_GRACE`], and leaves any still running to stale-job recovery.
    pub async fn run(self, mut shutdown: watch::Receiver<bool>) {
        let permits = Arc::new(Semaphore::new(self.concurrency.max(1)));
        let mut running = JoinSet::new();
        let mut last_recovery = tokio::time::Instant::now() - RECOVERY_EVERY;
        tracing::info!(worker = %self.id, concurrency = self.concurrency, "worker started");
        loop {
            if *shutdown.borrow() {
                break;
            }
            if last_recovery.elapsed() >= RECOVERY_EVERY {
                last_recovery = tokio::time::Instant::now();
                self.recover().await;
            }
            while running.try_join_next().is_some() {}
            let permit = tokio::select! {
                p = permits.clone().acquire_owned() => p,
                _ = shutdown.changed() => continue,
            };
            let Ok(permit) = permit else { break };
            match store::jobs::claim_next_job(&self.db, &self.id).await {
                Ok(Some(job)) => {
                    let me = self.clone();
                    running.spawn(async move {
                        me.process(job).await;
                        drop(permit);
                    });
                }
                Ok(None) => {
                    drop(permit);
                    tokio::select! {
                        _ = self.hub.wait_for_job(IDLE_POLL) => {}
                        _ = shutdown.changed() => {}
                    }
                }
                Err(e) => {
                    drop(permit);
                    tracing::error!(error = %e, "claiming a job failed");
                    tokio::time::sleep(IDLE_POLL).await;
                }
            }
        }
        tracing::info!(
            running = running.len(),
            "worker stopping: finishing running analyses"
        );
        let drained = tokio::time::timeout(SHUTDOWN_GRACE, async {
            while running.join_next().await.is_some() {}
        })
        .await;
        if drained.is_err() {
            tracing::warn!("analyses still running at shutdown will be re-queued by recovery");
            running.abort_all();
        }
    }

    async fn recover(&self) {
        let before = chrono::Utc::now()
            - chrono::Duration::from_std(self.heartbeat_timeout)
                .unwrap_or(chrono::Duration::seconds(60));
        match store::jobs::recover_stale_jobs(&self.db, before).await {
            Ok(r) => {
                for id in &r.requeued {
                    tracing::warn!(job = %id, "interrupted analysis re-queued");
                }
                for id in &r.failed {
                    tracing::warn!(job = %id, "analysis interrupted twice: failed");
                    if let Ok(job) = store::jobs::get_job(&self.db, *id).await {
                        refund_free(&self.db, &job).await;
                    }
                    self.hub
                        .publish(event(
                            *id,
                            ProgressEventType::Error,
                            None,
                            0,
                            store::jobs::INTERRUPTED_TWICE.to_owned(),
                        ))
                        .await;
                }
                if !r.requeued.is_empty() {
                    self.hub.job_queued().await;
                }
            }
            Err(e) => tracing::error!(error = %e, "stale job recovery failed"),
        }
    }

    /// Runs one claimed job to completion or failure.
    pub async fn process(&self, job: Job) {
        let id = job.id;
        let options = AnalyzeOptions {
            report_type: job.report_type,
            max_pages: usize::try_from(job.requested_pages).ok().filter(|n| *n > 0),
            use_browser: self.browser.is_some(),
        };

        // Progress arrives synchronously from the analyzer; a task writes it to the job row
        // (which also counts as a heartbeat) and publishes it, in order.
        let (tx, mut rx) = mpsc::unbounded_channel::<ProgressUpdate>();
        let writer = {
            let me = self.clone();
            tokio::spawn(async move {
                while let Some(p) = rx.recv().await {
                    let pct = u8::try_from(p.progress.min(100)).unwrap_or(100);
                    if let Err(e) =
                        store::jobs::update_progress(&me.db, id, &me.id, pct, &p.step, &p.message)
                            .await
                    {
                        tracing::warn!(job = %id, error = %e, "progress not stored");
                    }
                    me.hub
                        .publish(event(
                            id,
                            ProgressEventType::Progress,
                            Some(p.step),
                            p.progress,
                            p.message,
                        ))
                        .await;
                }
            })
        };
        let heartbeat = {
            let me = self.clone();
            tokio::spawn(async move {
                let mut tick = tokio::time::interval(HEARTBEAT);
                loop {
                    tick.tick().await;
                    if store::jobs::heartbeat(&me.db, id, &me.id).await.is_err() {
                        break;
                    }
                }
            })
        };

        let progress = move |p: ProgressUpdate| {
            let _ = tx.send(p);
        };
        // Run the analysis as its own task with owned inputs: it keeps borrowed data inside
        // the analyzer's future concrete, and a panic in the engine fails this job only.
        let analyzer = self.analyzer.clone();
        let browser = self.browser.clone();
        let blobs = self.blobs.clone();
        let url = job.url.clone();
        let outcome = tokio::spawn(async move {
            match browser {
                Some(pool) => {
                    let (report, browser_error) = analyze_with_browser(
                        &analyzer,
                        &pool,
                        blobs.as_ref(),
                        &url,
                        &options,
                        &progress,
                    )
                    .await?;
                    if let Some(e) = browser_error {
                        // The report still stands on what HTTP measured; its estimated figures
                        // are named in the report.
                        tracing::warn!(error = %e, "browser measurement failed; HTTP-only report");
                    }
                    Ok(report)
                }
                None => analyzer.analyze(&url, &options, &progress).await,
            }
        })
        .await
        .map_err(|e| format!("the analysis stopped unexpectedly ({e})"))
        .and_then(|r| r.map_err(|e| e.to_string()));
        let _ = writer.await;
        heartbeat.abort();

        match outcome {
            Ok(report) => {
                let stored = match NewResult::from_report(&report) {
                    Ok(row) => store::jobs::complete_job(&self.db, id, &self.id, &row)
                        .await
                        .map_err(|e| e.to_string()),
                    Err(e) => Err(e.to_string()),
                };
                match stored {
                    Ok(result_id) => {
                        let mut done = event(
                            id,
                            ProgressEventType::Complete,
                            None,
                            100,
                            "Analysis complete!".to_owned(),
                        );
                        done.result_id = Some(result_id.to_string());
                        self.hub.publish(done).await;
                        tracing::info!(job = %id, result = %result_id, "analysis complete");
                    }
                    Err(e) => {
                        tracing::error!(job = %id, error = %e, "storing the report failed");
                        self.fail(&job, "The report could not be saved. Please try again.")
                            .await;
                    }
                }
            }
            Err(e) => {
                tracing::info!(job = %id, error = %e, "analysis failed");
                self.fail(&job, &format!("We could not analyse this website: {e}"))
                    .await;
            }
        }
    }

    /// Marks the job failed, gives a free analysis back to its visitor (a failure costs
    /// nothing), and tells the stream.
    async fn fail(&self, job: &Job, message: &str) {
        let id = job.id;
        if let Err(e) = store::jobs::fail_job(&self.db, id, &self.id, message).await {
            tracing::warn!(job = %id, error = %e, "could not mark the job failed");
            return;
        }
        refund_free(&self.db, job).await;
        self.hub
            .publish(event(
                id,
                ProgressEventType::Error,
                None,
                0,
                message.to_owned(),
            ))
            .await;
    }
}

/// Returns the free analysis a failed anonymous basic job used.
async fn refund_free(db: &store::DatabaseConnection, job: &Job) {
    if !job.used_free_allowance() {
        return;
    }
    if let Some(ip) = &job.requester_ip
        && let Err(e) = store::allowance::refund_free_analysis(db, ip, job.created_at).await
    {
        tracing::warn!(job = %job.id, error = %e, "free analysis not given back");
    }
}
