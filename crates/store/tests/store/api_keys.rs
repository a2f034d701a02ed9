//! API keys, the per-key request counter and idempotent paid analyses, under concurrency.

use domain::credits::Credits;
use domain::report::ReportType;
use store::StoreError;
use store::api_keys::{
    CreatedKey, NewApiKey, active_api_keys, count_request, create_api_key, find_active_key,
    revoke_api_key,
};
use store::credits::{Payer, credit_history, grant_credits};
use store::jobs::{KeyedAnalysis, NewAnalysis, enqueue_paid_analysis_once};

use crate::support::{both, new_user};

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
        let user = new_user(&db, "idem@example.com").await;
        grant_credits(&db, user.id, Credits::whole(5), "admin", None)
            .await
            .expect("grant");
        let analysis = NewAnalysis {
            url: "https://idem.example/".into(),
            canonical_url: "https://idem.example/".into(),
            report_type: ReportType::Standard,
            requested_pages: 10,
            requester_user_id: Some(user.id),
            requester_ip: None,
        };
        let payer = Payer {
            user_id: user.id,
            paid_by: user.id,
        };
        let mut handles = Vec::new();
        for _ in 0..10 {
            let db = db.clone();
            let analysis = analysis.clone();
            handles.push(tokio::spawn(async move {
                enqueue_paid_analysis_once(&db, payer, Credits::whole(1), &analysis, "retry-1")
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
            enqueue_paid_analysis_once(&db, payer, Credits::whole(1), &analysis, "retry-2")
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
            enqueue_paid_analysis_once(&db, poor_payer, Credits::whole(1), &analysis, "retry-1")
                .await
                .expect("enqueue"),
            KeyedAnalysis::Insufficient { .. }
        ));
    }
);
