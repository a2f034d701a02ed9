//! API keys, the per-key request counter and idempotent paid analyses, under concurrency.

use domain::credits::Credits;
use domain::report::ReportType;
use store::StoreError;
use store::api_keys::{
    CreatedKey, NewApiKey, active_api_keys, count_request, create_api_key, find_active_key,
    revoke_api_key,
};
use store::credits::{Payer, credit_history, grant_credits};
use store::jobs::{
    KeyedAnalysis, NewAnalysis, enqueue_paid_analysis_once, expire_idempotency_keys,
};

use crate::support::{both, new_user};

/// When keys queued now are still valid: a day ago, as the API keeps them.
fn day_ago() -> chrono::DateTime<chrono::Utc> {
    store::now() - chrono::Duration::hours(24)
}

/// A user holding 5 credits, a paid analysis of `host` for them to submit, and their payer.
async fn funded(
    db: &sea_orm::DatabaseConnection,
    host: &str,
    report_type: ReportType,
) -> (store::entity::users::Model, NewAnalysis, Payer) {
    let user = new_user(db, &format!("user@{host}")).await;
    grant_credits(db, user.id, Credits::whole(5), "admin", None)
        .await
        .expect("grant");
    let analysis = NewAnalysis {
        url: format!("https://{host}/"),
        canonical_url: format!("https://{host}/"),
        report_type,
        requested_pages: report_type.pages(),
        requester_user_id: Some(user.id),
        requester_ip: None,
    };
    let payer = Payer {
        user_id: user.id,
        paid_by: user.id,
    };
    (user, analysis, payer)
}

fn key(user_id: i64, n: u32) -> NewApiKey {
    NewApiKey {
        user_id,
        name: format!("key {n}"),
        prefix: format!("slk_{n:08}"),
        key_hash: format!("{user_id}-{n:060}"),
    }
}

both!(
    keys_are_created_within_the_limit_found_and_revoked,
    |db, engine| {
        let user = new_user(&db, "keys@example.com").await;
        let other = new_user(&db, "other@example.com").await;
        for n in 0..3 {
            assert!(matches!(
                create_api_key(&db, &key(user.id, n), 3)
                    .await
                    .expect("create"),
                CreatedKey::Created(_)
            ));
        }
        assert_eq!(
            create_api_key(&db, &key(user.id, 3), 3)
                .await
                .expect("fourth"),
            CreatedKey::TooMany,
            "{engine:?}"
        );
        let keys = active_api_keys(&db, user.id).await.expect("list");
        assert_eq!(keys.len(), 3);
        let (found, owner) = find_active_key(&db, &keys[0].key_hash)
            .await
            .expect("find")
            .expect("known");
        assert_eq!((found.id, owner.id), (keys[0].id, user.id));

        // Another user cannot revoke it; its owner can, once; then it authenticates nothing.
        assert!(matches!(
            revoke_api_key(&db, other.id, keys[0].id).await,
            Err(StoreError::NotFound)
        ));
        revoke_api_key(&db, user.id, keys[0].id)
            .await
            .expect("revoke");
        assert!(matches!(
            revoke_api_key(&db, user.id, keys[0].id).await,
            Err(StoreError::NotFound)
        ));
        assert!(
            find_active_key(&db, &keys[0].key_hash)
                .await
                .expect("find")
                .is_none()
        );
        assert_eq!(active_api_keys(&db, user.id).await.expect("list").len(), 2);
        // A revoked key frees its place.
        assert!(matches!(
            create_api_key(&db, &key(user.id, 4), 3)
                .await
                .expect("create"),
            CreatedKey::Created(_)
        ));
    }
);

both!(concurrent_requests_never_pass_a_keys_limit, |db, engine| {
    let user = new_user(&db, "rate@example.com").await;
    let CreatedKey::Created(k) = create_api_key(&db, &key(user.id, 1), 5).await.expect("key")
    else {
        panic!("created");
    };
    let mut handles = Vec::new();
    for _ in 0..20 {
        let db = db.clone();
        handles.push(tokio::spawn(async move {
            count_request(&db, k.id, 6_000, 60, 5).await.expect("count")
        }));
    }
    let mut allowed = 0;
    for h in handles {
        if h.await.expect("task").allowed {
            allowed += 1;
        }
    }
    assert_eq!(
        allowed, 5,
        "{engine:?}: 20 concurrent requests against a limit of 5"
    );
    let next = count_request(&db, k.id, 6_000, 60, 5).await.expect("count");
    assert_eq!((next.allowed, next.used), (false, 5));
    // The next minute starts from zero; windows before the previous one are removed.
    let fresh = count_request(&db, k.id, 6_060, 60, 5).await.expect("count");
    assert_eq!((fresh.allowed, fresh.used), (true, 1));
    count_request(&db, k.id, 6_180, 60, 5).await.expect("count");
    let old = count_request(&db, k.id, 6_000, 60, 5).await.expect("count");
    assert_eq!(
        old.used, 1,
        "the window of 6000 was removed and starts again"
    );
});

both!(
    an_idempotency_key_queues_and_charges_once_under_concurrency,
    |db, engine| {
        let (user, analysis, payer) = funded(&db, "idem.example", ReportType::Standard).await;
        let mut handles = Vec::new();
        for _ in 0..10 {
            let db = db.clone();
            let analysis = analysis.clone();
            handles.push(tokio::spawn(async move {
                enqueue_paid_analysis_once(
                    &db,
                    payer,
                    Credits::whole(1),
                    &analysis,
                    "retry-1",
                    day_ago(),
                )
                .await
                .expect("enqueue")
            }));
        }
        let (mut queued, mut existing, mut ids) = (0, 0, Vec::new());
        for h in handles {
            match h.await.expect("task") {
                KeyedAnalysis::Queued(job) => {
                    queued += 1;
                    ids.push(job.id);
                }
                KeyedAnalysis::Existing(job) => {
                    existing += 1;
                    ids.push(job.id);
                }
                KeyedAnalysis::Insufficient { .. } => panic!("{engine:?}: credits were enough"),
            }
        }
        assert_eq!((queued, existing), (1, 9), "{engine:?}");
        ids.dedup();
        assert_eq!(
            ids.len(),
            1,
            "{engine:?}: every answer names the same analysis"
        );
        let spends = credit_history(&db, user.id, 50)
            .await
            .expect("ledger")
            .into_iter()
            .filter(|e| e.reason == "spend")
            .count();
        assert_eq!(spends, 1, "{engine:?}: charged once");
        assert_eq!(
            store::jobs::recent_jobs(&db, None, 50)
                .await
                .expect("jobs")
                .len(),
            1
        );
        // Another key is another analysis; the same key of another user is theirs alone.
        assert!(matches!(
            enqueue_paid_analysis_once(
                &db,
                payer,
                Credits::whole(1),
                &analysis,
                "retry-2",
                day_ago()
            )
            .await
            .expect("enqueue"),
            KeyedAnalysis::Queued(_)
        ));
        let poor = new_user(&db, "poor@example.com").await;
        let poor_payer = Payer {
            user_id: poor.id,
            paid_by: poor.id,
        };
        assert!(matches!(
            enqueue_paid_analysis_once(
                &db,
                poor_payer,
                Credits::whole(1),
                &analysis,
                "retry-1",
                day_ago()
            )
            .await
            .expect("enqueue"),
            KeyedAnalysis::Insufficient { .. }
        ));
    }
);

both!(
    an_expired_idempotency_key_queues_a_new_analysis,
    |db, engine| {
        let (user, analysis, payer) = funded(&db, "expiry.example", ReportType::Basic).await;
        let submit = |valid_since| {
            let db = db.clone();
            let analysis = analysis.clone();
            async move {
                enqueue_paid_analysis_once(
                    &db,
                    payer,
                    Credits::whole(1),
                    &analysis,
                    "k",
                    valid_since,
                )
                .await
                .expect("enqueue")
            }
        };
        let KeyedAnalysis::Queued(first) = submit(day_ago()).await else {
            panic!("{engine:?}: queued");
        };
        // Within the day the key names the first analysis.
        assert!(matches!(submit(day_ago()).await, KeyedAnalysis::Existing(j) if j.id == first.id));
        // A day after it was queued (the clock moved past it), the key is new again: a new
        // analysis, charged again; the old one keeps everything but the key.
        let later = first.created_at + chrono::Duration::seconds(1);
        let KeyedAnalysis::Queued(second) = submit(later).await else {
            panic!("{engine:?}: a new analysis after expiry");
        };
        assert_ne!(second.id, first.id);
        assert_eq!(
            store::jobs::get_job(&db, first.id)
                .await
                .expect("old job")
                .status,
            first.status
        );
        let spends = credit_history(&db, user.id, 50)
            .await
            .expect("ledger")
            .into_iter()
            .filter(|e| e.reason == "spend")
            .count();
        assert_eq!(spends, 2, "{engine:?}");
        // The sweep forgets keys older than its cut-off and no others, once.
        assert_eq!(
            expire_idempotency_keys(&db, second.created_at)
                .await
                .expect("sweep"),
            0,
            "{engine:?}: the old key was already forgotten by the submission"
        );
        let after = second.created_at + chrono::Duration::seconds(1);
        assert_eq!(expire_idempotency_keys(&db, after).await.expect("sweep"), 1);
        assert_eq!(expire_idempotency_keys(&db, after).await.expect("sweep"), 0);
        assert!(
            store::jobs::job_for_idempotency_key(&db, user.id, "k")
                .await
                .expect("find")
                .is_none()
        );
    }
);

both!(
    old_api_records_are_removed_and_the_total_kept,
    |db, engine| {
        use store::api_keys::{ApiCall, delete_api_calls_before, delete_rate_windows_before};
        let user = new_user(&db, "usage@example.com").await;
        let CreatedKey::Created(k) = create_api_key(&db, &key(user.id, 1), 5).await.expect("key")
        else {
            panic!("created");
        };
        let call = ApiCall {
            endpoint: "/api/v1/usage".into(),
            method: "GET".into(),
            response_time_ms: 3,
            status_code: 200,
            api_key_id: Some(k.id),
        };
        for _ in 0..3 {
            store::api_keys::record_api_call(&db, user.id, &call)
                .await
                .expect("record");
        }
        let now = store::now();
        assert_eq!(
            delete_api_calls_before(&db, now - chrono::Duration::days(90))
                .await
                .expect("prune"),
            0
        );
        assert_eq!(
            delete_api_calls_before(&db, now + chrono::Duration::seconds(1))
                .await
                .expect("prune"),
            3,
            "{engine:?}"
        );
        assert!(
            store::api_keys::recent_api_calls(&db, user.id, 10)
                .await
                .expect("calls")
                .is_empty()
        );
        assert_eq!(
            store::users::get_user(&db, user.id)
                .await
                .expect("user")
                .api_calls,
            3,
            "the account's total keeps counting removed records"
        );
        for start in [6_000, 6_060] {
            count_request(&db, k.id, start, 60, 5).await.expect("count");
        }
        assert_eq!(
            delete_rate_windows_before(&db, 6_060).await.expect("prune"),
            1
        );
        assert_eq!(
            delete_rate_windows_before(&db, 6_060).await.expect("prune"),
            0
        );
    }
);
