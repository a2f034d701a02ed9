//! The worker: an analysis interrupted by a process that died is recovered.

use std::time::Duration;

use serde_json::json;

use crate::support::{BOTH, TestDb, WEB_ONLY, config, each_engine, fixture_site, spawn_app};

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

    // The restarted process treats any heartbeat older than 1 ms as dead.
    cfg.heartbeat_timeout = Duration::from_millis(1);
    tokio::time::sleep(Duration::from_millis(5)).await;
    let second = spawn_app(cfg, BOTH).await;
    let events = second.follow(&id).await;
    assert_eq!(
        events.last().and_then(|e| e["type"].as_str()),
        Some("complete"),
        "{engine:?}: {events:?}"
    );
    let job = store::jobs::get_job(&second.running.db, id.parse().expect("uuid"))
        .await
        .expect("job");
    assert_eq!(job.attempts, 2);
    assert_ne!(job.claimed_by.as_deref(), Some("dead-worker"));
    second.running.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn interrupted_jobs_are_recovered_on_restart() {
    each_engine(restart).await;
}
