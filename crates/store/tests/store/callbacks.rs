//! Callback deliveries: queued with the analysis's end, claimed once under concurrency, retried
//! on the schedule, given up, every attempt recorded; and the per-account secret.

use chrono::Duration;
use domain::callbacks::{CallbackState, RETRY_DELAYS_SECS, retry_delay};
use domain::credits::Credits;
use domain::report::ReportType;
use store::callbacks::{
    AfterAttempt, AttemptRecord, api_views, claim_delivery, due_deliveries, ensure_secret,
    record_attempt, rotate_secret, secret_of,
};
use store::credits::{Payer, grant_credits};
use store::jobs::{
    ApiOptions, KeyedAnalysis, NewAnalysis, claim_next_job, enqueue_api_analysis, fail_job, get_job,
};

use crate::support::{both, new_user};

both!(
    a_failed_analysis_queues_one_callback_retried_on_the_schedule,
    |db, engine| {
        let user = new_user(&db, "cb@example.com").await;
        grant_credits(&db, user.id, Credits::whole(5), "admin", None)
            .await
            .expect("grant");
        let analysis = NewAnalysis {
            url: "https://cb.example/".into(),
            canonical_url: "https://cb.example/".into(),
            report_type: ReportType::Standard,
            requested_pages: 10,
            requester_user_id: Some(user.id),
            requester_ip: None,
        };
        let queued = enqueue_api_analysis(
            &db,
            Payer::own(user.id),
            Credits::whole(1),
            &analysis,
            &ApiOptions {
                idempotency_key: None,
                callback_url: Some("https://hooks.example/sitelens"),
            },
            store::now() - Duration::days(1),
        )
        .await
        .expect("enqueue");
        let KeyedAnalysis::Queued(job) = queued else {
            panic!("{engine:?}: queued")
        };
        assert_eq!(
            job.callback_url.as_deref(),
            Some("https://hooks.example/sitelens")
        );
        let waiting = api_views(&db, std::slice::from_ref(&job))
            .await
            .expect("views");
        let callback = waiting[0].callback.as_ref().expect("callback");
        assert_eq!(callback.state, CallbackState::Waiting);

        // An analysis without a callback address queues no delivery when it ends.
        let plain = enqueue_api_analysis(
            &db,
            Payer::own(user.id),
            Credits::whole(1),
            &NewAnalysis {
                url: "https://plain.example/".into(),
                canonical_url: "https://plain.example/".into(),
                ..analysis.clone()
            },
            &ApiOptions::default(),
            store::now() - Duration::days(1),
        )
        .await
        .expect("enqueue");
        assert!(matches!(plain, KeyedAnalysis::Queued(_)));

        for _ in 0..2 {
            let claimed = claim_next_job(&db, "w").await.expect("claim").expect("job");
            fail_job(&db, claimed.id, "w", "the site could not be reached")
                .await
                .expect("fail");
        }
        let t0 = store::now();
        let due = due_deliveries(&db, t0, 10).await.expect("due");
        assert_eq!(
            due.len(),
            1,
            "{engine:?}: one delivery, for the one with a callback"
        );
        let delivery = due[0].clone();
        assert_eq!(delivery.job_id, job.id);
        assert_eq!(delivery.event_type, "analysis.failed");
        assert_eq!(delivery.account_id, user.id);

        // Two processes see it due at once: one claims it.
        let lease = t0 + Duration::seconds(60);
        let (a, b) = tokio::join!(
            claim_delivery(&db, &delivery, t0, lease),
            claim_delivery(&db, &delivery, t0, lease)
        );
        assert_eq!(
            [a.expect("claim"), b.expect("claim")]
                .iter()
                .filter(|c| **c)
                .count(),
            1,
            "{engine:?}: claimed once"
        );
        assert!(
            due_deliveries(&db, t0 + Duration::seconds(59), 10)
                .await
                .expect("due")
                .is_empty(),
            "a claimed delivery is held for its lease"
        );

        // Every attempt fails: it is retried after each wait of the schedule, then given up.
        let mut now = t0;
        let mut delivery = delivery;
        for number in 1..=6_u32 {
            if number > 1 {
                let wait = Duration::seconds(
                    i64::try_from(RETRY_DELAYS_SECS[number as usize - 2]).expect("secs"),
                );
                assert!(
                    due_deliveries(&db, now + wait - Duration::seconds(1), 10)
                        .await
                        .expect("due")
                        .is_empty(),
                    "{engine:?}: attempt {number} waits {wait}"
                );
                now += wait;
                delivery = due_deliveries(&db, now, 10).await.expect("due").remove(0);
                assert!(
                    claim_delivery(&db, &delivery, now, now + Duration::seconds(60))
                        .await
                        .expect("claim")
                );
            }
            let after = match retry_delay(number, &RETRY_DELAYS_SECS) {
                Some(wait) => AfterAttempt::RetryAt(
                    now + Duration::seconds(i64::try_from(wait).expect("secs")),
                ),
                None => AfterAttempt::GiveUp(now),
            };
            record_attempt(
                &db,
                delivery.id,
                i32::try_from(number).expect("n"),
                &AttemptRecord {
                    at: now,
                    status_code: Some(500),
                    error: None,
                    duration_ms: 12,
                    response_excerpt: Some("boom".into()),
                },
                after,
            )
            .await
            .expect("record");
        }
        assert!(
            due_deliveries(&db, now + Duration::days(30), 10)
                .await
                .expect("due")
                .is_empty(),
            "{engine:?}: given up"
        );
        let views = api_views(&db, &[get_job(&db, job.id).await.expect("job")])
            .await
            .expect("views");
        let callback = views[0].callback.as_ref().expect("callback");
        assert_eq!(callback.state, CallbackState::Failed, "{engine:?}");
        assert_eq!(callback.attempts.len(), 6);
        assert!(callback.next_attempt_at.is_none());
        assert!(callback.attempts.iter().all(|a| a.status_code == Some(500)
            && a.duration_ms == 12
            && a.response_excerpt.as_deref() == Some("boom")));
    }
);

both!(a_secret_is_made_once_and_rotated, |db, engine| {
    let user = new_user(&db, "secret@example.com").await;
    assert!(secret_of(&db, user.id).await.expect("read").is_none());
    let at = store::now();
    let (a, b) = tokio::join!(
        ensure_secret(&db, user.id, "slwh_first", at),
        ensure_secret(&db, user.id, "slwh_second", at)
    );
    let (a, b) = (a.expect("a"), b.expect("b"));
    assert_eq!(
        a.secret, b.secret,
        "{engine:?}: concurrent first uses store one"
    );
    let rotated = rotate_secret(&db, user.id, "slwh_third", at)
        .await
        .expect("rotate");
    assert_eq!(rotated.secret, "slwh_third");
    assert_eq!(
        ensure_secret(&db, user.id, "slwh_fourth", at)
            .await
            .expect("read")
            .secret,
        "slwh_third"
    );
});
