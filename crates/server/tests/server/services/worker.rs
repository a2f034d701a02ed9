//! The worker: an analysis interrupted by a process that died is recovered; one interrupted
//! by a shutdown is re-queued at once.

use std::time::Duration;

use serde_json::json;

use crate::support::{
    BOTH, TestDb, WEB_ONLY, config, each_engine, fixture_site, spawn_app, stalling_site,
    wait_for_job,
};

/// A job left running by a process that died is re-queued on start and completes.
async fn restart(db: TestDb) {
    let engine = db.engine;
    let site = fixture_site().await;
    let mut cfg = config(&db);
    let first = spawn_app(cfg.clone(), WEB_ONLY).await;
    let res = first
        .post_json("/api/analyze", &json!({"url": format!("http://{site}/")}))
        .await;
    let id = res.json["analysisId"].as_str().expect("id").to_owned();
    // A worker that claims the job and then vanishes without a heartbeat.
    let claimed = store::jobs::claim_next_job(&first.running.db, "dead-worker")
        .await
        .expect("claim");
    assert_eq!(claimed.map(|j| j.id.to_string()), Some(id.clone()));
    first.running.shutdown().await;

    // The restarted process treats a heartbeat older than 3 s as dead, and the dead worker's
    // is older by then. Its own job beats every 750 ms, so however slow a loaded machine makes
    // the analysis, that job never looks dead (a timeout of 1 ms made the new process recover
    // its own running job on its next sweep, and fail it, whenever the analysis took longer
    // than the 500 ms between sweeps).
    cfg.heartbeat_timeout = Duration::from_secs(3);
    tokio::time::sleep(Duration::from_millis(3_100)).await;
    let job = completed_by_a_new_process(cfg, &id).await;
    assert_eq!(job.attempts, 2, "{engine:?}");
    assert_ne!(job.claimed_by.as_deref(), Some("dead-worker"));
}

/// Starts a fresh process (web and worker) on `cfg`, follows the job `id` to its end, which
/// must be `complete`, and returns the job.
async fn completed_by_a_new_process(cfg: server::Config, id: &str) -> store::jobs::Job {
    let app = spawn_app(cfg, BOTH).await;
    let events = app.follow(id).await;
    assert_eq!(
        events.last().and_then(|e| e["type"].as_str()),
        Some("complete"),
        "{events:?}"
    );
    let job = store::jobs::get_job(&app.running.db, id.parse().expect("uuid"))
        .await
        .expect("job");
    app.running.shutdown().await;
    job
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn interrupted_jobs_are_recovered_on_restart() {
    each_engine(restart).await;
}

/// Shutting a worker down mid-analysis puts the job back in the queue at once (not after the
/// heartbeat timeout) without using up its retry; the next worker completes it.
async fn shutdown_requeues(db: TestDb) {
    let engine = db.engine;
    let (site, hits) = stalling_site().await;
    let cfg = config(&db);
    let first = spawn_app(cfg.clone(), BOTH).await;
    let res = first
        .post_json("/api/analyze", &json!({"url": format!("http://{site}/")}))
        .await;
    let id = res.json["analysisId"].as_str().expect("id").to_owned();
    let db_conn = first.running.db.clone();
    // The analysis is running and waiting for the site's first answer.
    wait_for_job(&db_conn, &id, Duration::from_secs(30), |j| {
        j.status == store::jobs::JobStatus::Running
            && hits.load(std::sync::atomic::Ordering::SeqCst) > 0
    })
    .await;
    first.running.shutdown().await;
    // Shutdown has returned: the job is already back in the queue (the heartbeat timeout is
    // 60 s, so recovery played no part).
    let job = store::jobs::get_job(&db_conn, id.parse().expect("uuid"))
        .await
        .expect("job");
    assert_eq!(
        job.status,
        store::jobs::JobStatus::Queued,
        "{engine:?}: {job:?}"
    );
    assert_eq!((job.attempts, job.claimed_by.as_deref()), (0, None));
    assert_eq!(job.message.as_deref(), Some(store::jobs::RELEASED));

    let job = completed_by_a_new_process(cfg, &id).await;
    assert_eq!(job.attempts, 1, "{engine:?}: the stopped run did not count");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn shutdown_requeues_a_running_job_at_once() {
    each_engine(shutdown_requeues).await;
}
