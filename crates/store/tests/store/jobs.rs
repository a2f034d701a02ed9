//! The job queue: claims, progress, completion and recovery.

use std::collections::HashSet;

use chrono::Duration;
use domain::report::ReportType;
use sea_orm::{DatabaseConnection, EntityTrait, PaginatorTrait};
use store::StoreError;
use store::entity::{analysis_jobs, analysis_results};
use store::jobs::{
    INTERRUPTED_TWICE, Job, JobStatus, NewAnalysis, RELEASED, claim_next_job, complete_job,
    enqueue_analysis, fail_job, get_job, heartbeat, recover_stale_jobs, release_job,
    update_progress,
};
use store::results::{NewResult, get_result};

use crate::support::both;

fn analysis(n: usize) -> NewAnalysis {
    NewAnalysis {
        url: format!("site{n}.example"),
        canonical_url: format!("https://site{n}.example/"),
        report_type: ReportType::Basic,
        requested_pages: 1,
        requester_user_id: None,
        requester_ip: Some("203.0.113.9".into()),
    }
}

async fn enqueue(db: &DatabaseConnection, n: usize) -> Job {
    enqueue_analysis(db, &analysis(n)).await.expect("enqueue")
}

both!(enqueued_jobs_are_queued_with_a_website, |db, engine| {
    let job = enqueue(&db, 1).await;
    assert_eq!(job.status, JobStatus::Queued);
    assert_eq!(job.id.get_version_num(), 4);
    assert_eq!(
        (job.progress, job.attempts, job.claimed_by.clone()),
        (0, 0, None)
    );
    assert_eq!(job.report_type, ReportType::Basic);
    let again = enqueue(&db, 1).await;
    assert_eq!(again.website_id, job.website_id);
    let site = store::websites::get_website(&db, job.website_id)
        .await
        .expect("site");
    assert_eq!(site.analysis_count, 2);
    assert!(claim_next_job(&db, "w").await.expect("claim").is_some());
});

both!(concurrent_workers_never_claim_the_same_job, |db, engine| {
    let mut ids = HashSet::new();
    for n in 0..30 {
        ids.insert(enqueue(&db, n).await.id);
    }
    let mut workers = Vec::new();
    for w in 0..6 {
        let db = db.clone();
        workers.push(tokio::spawn(async move {
            let mut claimed = Vec::new();
            while let Some(job) = claim_next_job(&db, &format!("worker-{w}"))
                .await
                .expect("claim")
            {
                assert_eq!(
                    job.claimed_by.as_deref(),
                    Some(format!("worker-{w}").as_str())
                );
                assert_eq!(job.status, JobStatus::Running);
                assert_eq!(job.attempts, 1);
                claimed.push(job.id);
            }
            claimed
        }));
    }
    let mut all = Vec::new();
    for worker in workers {
        all.extend(worker.await.expect("join"));
    }
    assert_eq!(all.len(), 30, "every job claimed once");
    assert_eq!(all.iter().copied().collect::<HashSet<_>>(), ids);
    assert!(claim_next_job(&db, "late").await.expect("claim").is_none());
});

both!(jobs_are_claimed_oldest_first, |db, engine| {
    let first = enqueue(&db, 1).await;
    let second = enqueue(&db, 2).await;
    assert_eq!(
        claim_next_job(&db, "w")
            .await
            .expect("claim")
            .expect("job")
            .id,
        first.id
    );
    assert_eq!(
        claim_next_job(&db, "w")
            .await
            .expect("claim")
            .expect("job")
            .id,
        second.id
    );
    assert!(claim_next_job(&db, "w").await.expect("claim").is_none());
});

both!(
    progress_is_stored_on_the_job_and_guarded_by_the_owner,
    |db, engine| {
        let job = enqueue(&db, 1).await;
        let claimed = claim_next_job(&db, "owner")
            .await
            .expect("claim")
            .expect("job");
        assert_eq!(claimed.id, job.id);
        update_progress(
            &db,
            job.id,
            "owner",
            35,
            "Screenshot Capture",
            "Capturing screenshots",
        )
        .await
        .expect("progress");
        let stored = get_job(&db, job.id).await.expect("get");
        assert_eq!(stored.progress, 35);
        assert_eq!(stored.step.as_deref(), Some("Screenshot Capture"));
        assert_eq!(stored.message.as_deref(), Some("Capturing screenshots"));
        assert!(stored.heartbeat_at >= claimed.heartbeat_at);

        let intruder = update_progress(&db, job.id, "intruder", 55, "x", "y").await;
        assert!(matches!(intruder, Err(StoreError::Conflict(_))));
        assert!(matches!(
            heartbeat(&db, job.id, "intruder").await,
            Err(StoreError::Conflict(_))
        ));
        heartbeat(&db, job.id, "owner").await.expect("heartbeat");
        assert_eq!(get_job(&db, job.id).await.expect("get").progress, 35);
    }
);

both!(
    completing_a_job_stores_its_result_in_the_same_transaction,
    |db, engine| {
        let job = enqueue(&db, 1).await;
        claim_next_job(&db, "w").await.expect("claim").expect("job");
        let result = NewResult {
            overall_score: 88,
            ..NewResult::default()
        };

        let lost = complete_job(&db, job.id, "someone-else", &result).await;
        assert!(matches!(lost, Err(StoreError::Conflict(_))));
        assert_eq!(
            analysis_results::Entity::find()
                .count(&db)
                .await
                .expect("count"),
            0
        );

        let result_id = complete_job(&db, job.id, "w", &result)
            .await
            .expect("complete");
        let done = get_job(&db, job.id).await.expect("get");
        assert_eq!(done.status, JobStatus::Complete);
        assert_eq!((done.progress, done.result_id), (100, Some(result_id)));
        assert!(done.finished_at.is_some());
        let stored = get_result(&db, result_id).await.expect("result");
        assert_eq!(
            (stored.overall_score, stored.website_id),
            (88, job.website_id)
        );
        assert_eq!(stored.url, job.url);

        let twice = complete_job(&db, job.id, "w", &result).await;
        assert!(matches!(twice, Err(StoreError::Conflict(_))));
        assert_eq!(
            analysis_results::Entity::find()
                .count(&db)
                .await
                .expect("count"),
            1
        );
        assert_eq!(
            store::stats::stats(&db)
                .await
                .expect("stats")
                .analyses_completed,
            1
        );
    }
);

both!(a_failed_job_keeps_its_error, |db, engine| {
    let job = enqueue(&db, 1).await;
    claim_next_job(&db, "w").await.expect("claim").expect("job");
    fail_job(&db, job.id, "w", "could not resolve site1.example")
        .await
        .expect("fail");
    let failed = get_job(&db, job.id).await.expect("get");
    assert_eq!(failed.status, JobStatus::Failed);
    assert_eq!(
        failed.error.as_deref(),
        Some("could not resolve site1.example")
    );
    assert!(matches!(
        fail_job(&db, job.id, "w", "again").await,
        Err(StoreError::Conflict(_))
    ));
});

both!(
    a_released_job_is_queued_again_without_using_its_retry,
    |db, engine| {
        let job = enqueue(&db, 1).await;
        let claimed = claim_next_job(&db, "stopping").await.expect("claim");
        assert_eq!(claimed.map(|j| j.attempts), Some(1));
        update_progress(&db, job.id, "stopping", 40, "fetching", "Fetching the page")
            .await
            .expect("progress");
        // Only the owner can release it.
        assert!(matches!(
            release_job(&db, job.id, "someone-else").await,
            Err(StoreError::Conflict(_))
        ));
        let released = release_job(&db, job.id, "stopping").await.expect("release");
        assert_eq!(released.status, JobStatus::Queued, "{engine:?}");
        assert_eq!(
            (
                released.attempts,
                released.progress,
                released.claimed_by.clone()
            ),
            (0, 0, None)
        );
        assert_eq!(
            (released.step.as_deref(), released.message.as_deref()),
            (None, Some(RELEASED))
        );
        assert_eq!(released.heartbeat_at, None);
        // The old owner's late writes change nothing; a second release is refused.
        assert!(
            update_progress(&db, job.id, "stopping", 60, "x", "x")
                .await
                .is_err()
        );
        assert!(release_job(&db, job.id, "stopping").await.is_err());
        // Another worker takes it as a first attempt, so it still has its one retry.
        let again = claim_next_job(&db, "other")
            .await
            .expect("claim")
            .expect("job");
        assert_eq!((again.id, again.attempts), (job.id, 1));
        assert_eq!(again.started_at, released.started_at, "first start is kept");
    }
);

both!(silent_jobs_are_requeued_once_then_failed, |db, engine| {
    let job = enqueue(&db, 1).await;
    let healthy = enqueue(&db, 2).await;
    claim_next_job(&db, "dies")
        .await
        .expect("claim")
        .expect("job");
    claim_next_job(&db, "lives")
        .await
        .expect("claim")
        .expect("job");

    // Nothing is older than a cutoff in the past.
    let none = recover_stale_jobs(&db, store::now() - Duration::hours(1))
        .await
        .expect("recover");
    assert_eq!(none, store::jobs::Recovery::default());

    // "lives" heartbeats after the cutoff is taken; "dies" does not.
    let cutoff = store::now() + Duration::milliseconds(1);
    let later = store::now() + Duration::hours(1);
    let bump = |id| {
        let db = db.clone();
        async move {
            sea_orm::ConnectionTrait::execute_raw(
                &db,
                sea_orm::Statement::from_sql_and_values(
                    db.get_database_backend(),
                    match db.get_database_backend() {
                        sea_orm::DbBackend::Postgres => {
                            "UPDATE analysis_jobs SET heartbeat_at = $1 WHERE id = $2"
                        }
                        _ => "UPDATE analysis_jobs SET heartbeat_at = ? WHERE id = ?",
                    },
                    [later.into(), sea_orm::Value::from(id)],
                ),
            )
            .await
            .expect("bump")
        }
    };
    bump(healthy.id).await;

    let first = recover_stale_jobs(&db, cutoff).await.expect("recover");
    assert_eq!(first.requeued, vec![job.id]);
    assert!(first.failed.is_empty());
    let requeued = get_job(&db, job.id).await.expect("get");
    assert_eq!(requeued.status, JobStatus::Queued);
    assert_eq!((requeued.claimed_by.clone(), requeued.progress), (None, 0));
    // The old worker finds out it lost the job.
    assert!(matches!(
        heartbeat(&db, job.id, "dies").await,
        Err(StoreError::Conflict(_))
    ));

    let again = claim_next_job(&db, "second")
        .await
        .expect("claim")
        .expect("job");
    assert_eq!((again.id, again.attempts), (job.id, 2));
    let cutoff = store::now() + Duration::milliseconds(1);
    let second = recover_stale_jobs(&db, cutoff).await.expect("recover");
    assert_eq!(second.failed, vec![job.id]);
    assert!(second.requeued.is_empty());
    let failed = get_job(&db, job.id).await.expect("get");
    assert_eq!(failed.status, JobStatus::Failed);
    assert_eq!(failed.error.as_deref(), Some(INTERRUPTED_TWICE));
    assert!(claim_next_job(&db, "third").await.expect("claim").is_none());

    let untouched = get_job(&db, healthy.id).await.expect("get");
    assert_eq!(untouched.status, JobStatus::Running);
    assert_eq!(
        analysis_jobs::Entity::find()
            .count(&db)
            .await
            .expect("count"),
        2
    );
});

both!(
    completion_and_recovery_racing_leave_one_consistent_outcome,
    |db, engine| {
        for round in 0..10 {
            let job = enqueue(&db, round).await;
            claim_next_job(&db, "racer")
                .await
                .expect("claim")
                .expect("job");
            let cutoff = store::now() + Duration::hours(1);
            let completing = {
                let db = db.clone();
                tokio::spawn(async move {
                    complete_job(&db, job.id, "racer", &NewResult::default()).await
                })
            };
            let recovering = {
                let db = db.clone();
                tokio::spawn(async move { recover_stale_jobs(&db, cutoff).await.expect("recover") })
            };
            let completed = completing.await.expect("join");
            let recovery = recovering.await.expect("join");
            let stored = get_job(&db, job.id).await.expect("get");
            match completed {
                Ok(result_id) => {
                    assert!(
                        recovery.requeued.is_empty(),
                        "round {round}: recovered a completed job"
                    );
                    assert_eq!(stored.status, JobStatus::Complete);
                    assert_eq!(stored.result_id, Some(result_id));
                }
                Err(StoreError::Conflict(_)) => {
                    assert_eq!(recovery.requeued, vec![job.id], "round {round}");
                    assert_eq!(stored.status, JobStatus::Queued);
                    assert_eq!(stored.result_id, None);
                    // Leave the queue empty for the next round.
                    let again = claim_next_job(&db, "cleanup")
                        .await
                        .expect("claim")
                        .expect("job");
                    fail_job(&db, again.id, "cleanup", "test cleanup")
                        .await
                        .expect("fail");
                }
                Err(other) => panic!("round {round}: {other:?}"),
            }
        }
        let results = analysis_results::Entity::find()
            .count(&db)
            .await
            .expect("count");
        let complete = analysis_jobs::Entity::find()
            .all(&db)
            .await
            .expect("jobs")
            .iter()
            .filter(|j| j.status == JobStatus::Complete.as_str())
            .count();
        assert_eq!(
            results, complete as u64,
            "a result exists exactly for each completed job"
        );
    }
);
