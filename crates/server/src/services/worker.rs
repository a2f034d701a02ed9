//! The analysis worker: claims jobs from the database queue, runs the analyzer with bounded
//! concurrency, heartbeats, persists and publishes progress, and writes the result in the same
//! transaction that completes the job (docs/ARCHITECTURE.md §4).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use analyzer::browser::BrowserPool;
use analyzer::browser::merge::analyze_with_browser;
use analyzer::fetch::FetchError;
use analyzer::{AnalyzeError, AnalyzeOptions, Analyzer, ProgressUpdate};
use domain::report::{ProgressEvent, ProgressEventType};
use store::jobs::Job;
use store::results::NewResult;
use tokio::sync::{Semaphore, mpsc, watch};
use tokio::task::JoinSet;
use uuid::Uuid;

use crate::chain::Chain;
use crate::services::blobs::Blobs;
use crate::services::hub::Hub;

/// How often a running job proves it is alive, at most: more often when the heartbeat
/// timeout is short (see [`heartbeat_every`]).
pub const HEARTBEAT: Duration = Duration::from_secs(5);
/// How often stale jobs are looked for, at most (see [`recovery_every`]).
const RECOVERY_EVERY: Duration = Duration::from_secs(15);
/// How long an idle worker waits for a wake-up before polling the queue again.
const IDLE_POLL: Duration = Duration::from_secs(2);
/// How long shutdown waits for its analyses to stop and their jobs to be re-queued.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// How often a running job heartbeats for a heartbeat `timeout`: four beats fit in it, so a
/// slow database write or two never makes a live job look dead; never less often than
/// [`HEARTBEAT`].
pub fn heartbeat_every(timeout: Duration) -> Duration {
    (timeout / 4).clamp(Duration::from_millis(250), HEARTBEAT)
}

/// How often stale jobs are looked for: twice per heartbeat `timeout`, so a dead worker's job
/// is taken over at most one and a half timeouts after its last sign of life; never less often
/// than [`RECOVERY_EVERY`].
pub fn recovery_every(timeout: Duration) -> Duration {
    (timeout / 2).clamp(Duration::from_millis(500), RECOVERY_EVERY)
}

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
    pub blobs: Blobs,
    /// This worker's name in `claimed_by`.
    pub id: String,
    /// Concurrent analyses.
    pub concurrency: usize,
    /// A job silent this long is recovered.
    pub heartbeat_timeout: Duration,
    /// What to report of the browser when there is no pool: off or missing.
    pub browser_setting: domain::status::BrowserMode,
    /// When this worker started.
    pub started_at: chrono::DateTime<chrono::Utc>,
}

/// Resolves once `shutdown` is true (at once when it already is).
async fn stopped(shutdown: &mut watch::Receiver<bool>) {
    // The guard `wait_for` returns is not `Send`: drop it here, before any other await.
    let _ = shutdown.wait_for(|stop| *stop).await;
}

/// Runs `action` at once, then every `period` (never two at a time), until `shutdown` turns
/// true.
fn every<F, Fut>(
    period: Duration,
    mut shutdown: watch::Receiver<bool>,
    action: F,
) -> tokio::task::JoinHandle<()>
where
    F: Fn() -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()> + Send,
{
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(period);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = tick.tick() => action().await,
                _ = stopped(&mut shutdown) => break,
            }
        }
    })
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

    /// Writes this worker's report of itself (`store::health::beat`): alive, `busy` analyses
    /// running, and its browser's state, for `/api-status` on every web node.
    pub async fn beat(&self, busy: usize) {
        let pool = match &self.browser {
            Some(pool) => Some(pool.state().await),
            None => None,
        };
        let report = store::health::WorkerBeat {
            worker_id: self.id.clone(),
            started_at: self.started_at,
            beat_at: store::now(),
            concurrency: u32::try_from(self.concurrency).unwrap_or(u32::MAX),
            busy: u32::try_from(busy).unwrap_or(u32::MAX),
            browser: pool.map_or(self.browser_setting, |p| p.mode),
            tabs_in_use: pool.map_or(0, |p| p.tabs_in_use),
            tabs_max: pool.map_or(0, |p| p.tabs_max),
            spare_tabs: pool.map_or(0, |p| p.spare_tabs),
        };
        if let Err(e) = store::health::beat(&self.db, &report).await {
            tracing::warn!(error = %Chain(&e), "worker heartbeat not stored");
        }
    }

    /// Runs until `shutdown` turns true; then stops claiming, stops its running analyses and
    /// puts their jobs back in the queue at once, for another worker to take without waiting
    /// for the heartbeat timeout.
    ///
    /// Stale jobs (whose worker died without a word) are looked for by a task of their own
    /// every [`recovery_every`], so a worker busy with long analyses still recovers them.
    pub async fn run(self, mut shutdown: watch::Receiver<bool>) {
        let permits = Arc::new(Semaphore::new(self.concurrency.max(1)));
        // Analyses running now, for the heartbeat (a permit is also held while claiming).
        let busy = Arc::new(AtomicUsize::new(0));
        let mut running = JoinSet::new();
        tracing::info!(worker = %self.id, concurrency = self.concurrency, "worker started");
        let recovery = {
            let me = self.clone();
            every(
                recovery_every(me.heartbeat_timeout),
                shutdown.clone(),
                move || {
                    let me = me.clone();
                    async move { me.recover().await }
                },
            )
        };
        // The worker's own heartbeat (apart from its jobs'): web nodes count it as alive.
        let heartbeat = {
            let me = self.clone();
            let busy = busy.clone();
            every(
                heartbeat_every(me.heartbeat_timeout),
                shutdown.clone(),
                move || {
                    let (me, busy) = (me.clone(), busy.clone());
                    async move { me.beat(busy.load(Ordering::Acquire)).await }
                },
            )
        };
        loop {
            if *shutdown.borrow() {
                break;
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
                    let stop = shutdown.clone();
                    let busy = busy.clone();
                    busy.fetch_add(1, Ordering::AcqRel);
                    running.spawn(async move {
                        me.process(job, stop).await;
                        busy.fetch_sub(1, Ordering::AcqRel);
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
                    tracing::error!(error = %Chain(&e), "claiming a job failed");
                    tokio::time::sleep(IDLE_POLL).await;
                }
            }
        }
        tracing::info!(
            running = running.len(),
            "worker stopping: re-queueing running analyses"
        );
        let drained = tokio::time::timeout(SHUTDOWN_GRACE, async {
            while running.join_next().await.is_some() {}
        })
        .await;
        if drained.is_err() {
            tracing::warn!("analyses that did not stop in time will be re-queued by recovery");
            running.abort_all();
        }
        recovery.abort();
        heartbeat.abort();
        // Stopped: no longer counted as alive anywhere.
        if let Err(e) = store::health::forget_worker(&self.db, &self.id).await {
            tracing::warn!(error = %Chain(&e), "worker heartbeat not removed");
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
            Err(e) => tracing::error!(error = %Chain(&e), "stale job recovery failed"),
        }
    }

    /// Runs one claimed job to completion or failure; when `shutdown` turns true first, stops
    /// the analysis and puts the job back in the queue ([`store::jobs::release_job`]).
    pub async fn process(&self, job: Job, mut shutdown: watch::Receiver<bool>) {
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
                        tracing::warn!(job = %id, error = %Chain(&e), "progress not stored");
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
                let mut tick = tokio::time::interval(heartbeat_every(me.heartbeat_timeout));
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
        let mut analysis = tokio::spawn(async move {
            match browser {
                Some(pool) => {
                    let (report, browser_error) =
                        analyze_with_browser(&analyzer, &pool, &blobs, &url, &options, &progress)
                            .await?;
                    if let Some(e) = browser_error {
                        // The report still stands on what HTTP measured; its estimated figures
                        // are named in the report.
                        tracing::warn!(
                            error = %Chain(&e),
                            "browser measurement failed; HTTP-only report"
                        );
                    }
                    Ok(report)
                }
                None => analyzer.analyze(&url, &options, &progress).await,
            }
        });
        let outcome = tokio::select! {
            outcome = &mut analysis => Some(outcome),
            _ = stopped(&mut shutdown) => None,
        };
        let Some(outcome) = outcome else {
            // Stopped mid-analysis: once the analysis (and with it the progress sender) is
            // gone and the last progress is written, the job goes back to the queue.
            analysis.abort();
            let _ = analysis.await;
            let _ = writer.await;
            heartbeat.abort();
            self.release(&job).await;
            return;
        };
        let _ = writer.await;
        heartbeat.abort();

        let report = match outcome {
            Ok(Ok(report)) => report,
            Ok(Err(e)) => {
                tracing::info!(job = %id, error = %Chain(&e), "analysis failed");
                let message = format!("We could not analyse this website: {}", visitor_reason(&e));
                self.fail(&job, &message).await;
                return;
            }
            Err(e) => {
                tracing::error!(job = %id, error = %Chain(&e), "the analysis engine stopped");
                self.fail(&job, ENGINE_STOPPED).await;
                return;
            }
        };
        let stored = match NewResult::from_report(&report) {
            Ok(row) => store::jobs::complete_job(&self.db, id, &self.id, &row).await,
            Err(e) => Err(e),
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
                tracing::error!(job = %id, error = %Chain(&e), "storing the report failed");
                self.fail(&job, "The report could not be saved. Please try again.")
                    .await;
            }
        }
    }

    /// Puts the job back in the queue for another worker and tells its stream.
    async fn release(&self, job: &Job) {
        match store::jobs::release_job(&self.db, job.id, &self.id).await {
            Ok(released) => {
                tracing::info!(job = %job.id, "analysis stopped by shutdown: re-queued");
                self.hub.publish(released.progress_event()).await;
                self.hub.job_queued().await;
            }
            Err(e) => {
                tracing::warn!(job = %job.id, error = %Chain(&e), "could not re-queue the job; recovery will")
            }
        }
    }

    /// Marks the job failed, gives back what it cost (a paid analysis's credits, in the same
    /// transaction; an anonymous visitor's free analysis): a failure costs nothing. Then tells
    /// the stream.
    async fn fail(&self, job: &Job, message: &str) {
        let id = job.id;
        match store::jobs::fail_job(&self.db, id, &self.id, message).await {
            Ok(Some(charge)) => tracing::info!(
                job = %id,
                credits = %charge.total(),
                "failed paid analysis: credits given back"
            ),
            Ok(None) => {}
            Err(e) => {
                tracing::warn!(job = %id, error = %Chain(&e), "could not mark the job failed");
                return;
            }
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

/// What a visitor is told when the analysis engine itself failed (a bug, not the site).
const ENGINE_STOPPED: &str =
    "We could not analyse this website: the analysis stopped unexpectedly. Please try again.";

/// Why an analysis failed, in words for the visitor: what happened to the site, never the text
/// of a library error (that is logged).
pub fn visitor_reason(error: &AnalyzeError) -> String {
    match error {
        AnalyzeError::InvalidUrl(_) | AnalyzeError::Fetch(FetchError::InvalidUrl(_)) => {
            "the address is not a valid web address".to_owned()
        }
        AnalyzeError::Fetch(FetchError::UnsupportedScheme(_)) => {
            "only http and https addresses can be analysed".to_owned()
        }
        AnalyzeError::Fetch(FetchError::Refused(refused)) => format!(
            "{} is {}, which Sitelens does not analyse",
            refused.host, refused.reason
        ),
        AnalyzeError::Fetch(FetchError::Unresolvable(name)) => {
            format!("the name {} could not be found", name.host)
        }
        AnalyzeError::Fetch(FetchError::Unreachable { .. }) => {
            "the site could not be reached".to_owned()
        }
        AnalyzeError::Fetch(FetchError::Timeout { seconds, .. }) => {
            format!("the site did not answer within {seconds} s")
        }
        AnalyzeError::Fetch(FetchError::TooManyRedirects { max, .. }) => {
            format!("the site redirects more than {max} times")
        }
        AnalyzeError::Fetch(FetchError::RedirectLoop { .. }) => {
            "the site redirects in a loop".to_owned()
        }
        AnalyzeError::Fetch(FetchError::BadRedirect { status, .. }) => {
            format!("the site answered {status} without a usable redirect address")
        }
        AnalyzeError::NotHtml { content_type, .. } => {
            let shown: String = content_type.chars().take(80).collect();
            format!("the address is not a web page (it serves {shown})")
        }
        AnalyzeError::Timeout { seconds } => {
            format!("the analysis did not finish within {seconds} s")
        }
        // Kinds of failure the analyzer may add later read as a generic one until named here.
        #[allow(unreachable_patterns)]
        _ => "the site could not be fetched".to_owned(),
    }
}

/// Returns the free analysis a failed anonymous basic job used.
async fn refund_free(db: &store::DatabaseConnection, job: &Job) {
    if !job.used_free_allowance() {
        return;
    }
    // The allowance was counted against the visitor's key, not the single address.
    let Some(visitor) = job.requester_ip.as_deref().map(|ip| {
        ip.parse()
            .map_or_else(|_| ip.to_owned(), domain::commerce::free_allowance_key)
    }) else {
        return;
    };
    if let Err(e) = store::allowance::refund_free_analysis(db, &visitor, job.created_at).await {
        tracing::warn!(job = %job.id, error = %Chain(&e), "free analysis not given back");
    }
}

#[cfg(test)]
mod tests {
    use analyzer::guard::Refused;

    use super::*;

    #[test]
    fn visitors_read_what_happened_not_library_errors() {
        let unreachable = AnalyzeError::Fetch(FetchError::Unreachable {
            url: "https://shop.example/".to_owned(),
            detail: "error sending request for url: tcp connect error: Connection refused (os error 111)"
                .to_owned(),
        });
        assert_eq!(
            visitor_reason(&unreachable),
            "the site could not be reached"
        );
        let refused = AnalyzeError::Fetch(FetchError::Refused(Refused {
            host: "localhost".to_owned(),
            addr: "127.0.0.1".parse().expect("ip"),
            reason: "a loopback address",
        }));
        let reason = visitor_reason(&refused);
        assert_eq!(
            reason,
            "localhost is a loopback address, which Sitelens does not analyse"
        );
        assert!(
            !reason.contains("SITELENS_"),
            "no operator settings in visitor text"
        );
        let timeout = AnalyzeError::Timeout { seconds: 120 };
        assert_eq!(
            visitor_reason(&timeout),
            "the analysis did not finish within 120 s"
        );
    }
}
