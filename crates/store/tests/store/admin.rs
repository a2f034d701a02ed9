//! `store::admin` on both engines: each administrator change with its audit row in the same
//! transaction (and nothing written when refused), a balance never below zero under
//! concurrent adjustments, the last owner kept, a failed paid analysis retried and charged
//! once, disabled accounts refused by sessions and API keys, search and the overview's rows.

use chrono::Duration;
use domain::admin::AdminLevel;
use domain::admin_area::AdjustDirection;
use domain::commerce::report_cost;
use domain::credits::Credits;
use domain::report::ReportType;
use serde_json::json;
use store::admin::{Retry, adjust_paid_credits, change_admin_level, retry_failed_job};
use store::audit::NewAuditEntry;
use store::credits::{Payer, credit_balance, credit_history, grant_credits};
use store::jobs::{JobStatus, NewAnalysis, PaidAnalysis};

use crate::support::{both, new_user};

fn entry(action: &str, target: i64) -> NewAuditEntry {
    NewAuditEntry {
        actor_user_id: None,
        actor_email: "boss@example.com".into(),
        action: action.into(),
        target_type: "user".into(),
        target_id: Some(target.to_string()),
        reason: Some("a test".into()),
        detail: json!({}),
    }
}

async fn audit_actions(db: &sea_orm::DatabaseConnection) -> Vec<String> {
    store::audit::list(db, None, 100)
        .await
        .expect("audit")
        .into_iter()
        .map(|e| e.action)
        .collect()
}

both!(
    credit_adjustments_write_ledger_and_audit_and_never_go_negative,
    |db, engine| {
        let user = new_user(&db, "ann@example.com").await;
        let added = adjust_paid_credits(
            &db,
            user.id,
            AdjustDirection::Add,
            Credits::from_halves(5),
            "goodwill after an outage",
            "admin:1",
            entry("credits.adjust", user.id),
        )
        .await
        .expect("store")
        .expect("allowed");
        assert_eq!(added.before, Credits::ZERO);
        assert_eq!(added.after, Credits::from_halves(5));
        let ledger = credit_history(&db, user.id, 10).await.expect("ledger");
        assert_eq!(ledger.len(), 1);
        assert_eq!(ledger[0].delta, 5);
        assert_eq!(ledger[0].reason, "goodwill after an outage");
        assert_eq!(ledger[0].pool, "paid");
        let audit = store::audit::list(&db, None, 10).await.expect("audit");
        assert_eq!(audit.len(), 1, "{engine:?}");
        let detail: serde_json::Value = serde_json::from_str(&audit[0].detail).expect("json");
        assert_eq!(detail["before"], json!(0));
        assert_eq!(detail["after"], json!(2.5));

        // Removing more than the balance is refused, and nothing is written.
        let refused = adjust_paid_credits(
            &db,
            user.id,
            AdjustDirection::Remove,
            Credits::whole(3),
            "too much",
            "admin:1",
            entry("credits.adjust", user.id),
        )
        .await
        .expect("store");
        assert!(refused.is_err());
        assert_eq!(
            credit_history(&db, user.id, 10)
                .await
                .expect("ledger")
                .len(),
            1
        );
        assert_eq!(audit_actions(&db).await.len(), 1);

        // Ten concurrent removals of one credit from 2.5: exactly two succeed.
        let mut tasks = Vec::new();
        for _ in 0..10 {
            let db = db.clone();
            let id = user.id;
            tasks.push(tokio::spawn(async move {
                adjust_paid_credits(
                    &db,
                    id,
                    AdjustDirection::Remove,
                    Credits::whole(1),
                    "race",
                    "admin:1",
                    entry("credits.adjust", id),
                )
                .await
            }));
        }
        let mut ok = 0;
        for t in tasks {
            if let Ok(Ok(_)) = t.await.expect("task") {
                ok += 1;
            }
        }
        assert_eq!(ok, 2, "{engine:?}");
        let balance = credit_balance(&db, user.id, store::now())
            .await
            .expect("balance");
        assert_eq!(balance.paid, Credits::HALF);
        assert_eq!(audit_actions(&db).await.len(), 3);
    }
);

both!(the_last_owner_cannot_be_demoted, |db, engine| {
    let a = new_user(&db, "a@example.com").await;
    let b = new_user(&db, "b@example.com").await;
    change_admin_level(
        &db,
        a.id,
        Some(AdminLevel::Owner),
        &entry("admin.grant", a.id),
    )
    .await
    .expect("store")
    .expect("granted");
    let refused = change_admin_level(&db, a.id, None, &entry("admin.revoke", a.id))
        .await
        .expect("store");
    assert!(refused.is_err(), "{engine:?}");
    let refused = change_admin_level(&db, a.id, Some(AdminLevel::Admin), &entry("x", a.id))
        .await
        .expect("store");
    assert!(refused.is_err());
    assert_eq!(audit_actions(&db).await, vec!["admin.grant"]);
    change_admin_level(
        &db,
        b.id,
        Some(AdminLevel::Owner),
        &entry("admin.grant", b.id),
    )
    .await
    .expect("store")
    .expect("granted");
    change_admin_level(&db, a.id, None, &entry("admin.revoke", a.id))
        .await
        .expect("store")
        .expect("another owner remains");
    let a = store::users::get_user(&db, a.id).await.expect("a");
    assert!(!a.is_admin);
    assert_eq!(a.admin_level, "user");
    assert!(
        change_admin_level(&db, 9_999_999, None, &entry("x", 0))
            .await
            .is_err()
    );
});

both!(
    a_failed_paid_analysis_is_retried_and_charged_once,
    |db, engine| {
        let user = new_user(&db, "payer@example.com").await;
        grant_credits(&db, user.id, Credits::whole(5), "admin", None)
            .await
            .expect("grant");
        let cost = report_cost(ReportType::Standard);
        let analysis = NewAnalysis {
            url: "https://retry.example/".into(),
            canonical_url: "https://retry.example/".into(),
            report_type: ReportType::Standard,
            requested_pages: ReportType::Standard.pages(),
            requester_user_id: Some(user.id),
            requester_ip: None,
        };
        let PaidAnalysis::Queued(job) =
            store::jobs::enqueue_paid_analysis(&db, Payer::own(user.id), cost, &analysis)
                .await
                .expect("enqueue")
        else {
            panic!("funded");
        };
        let after_charge = credit_balance(&db, user.id, store::now())
            .await
            .expect("b")
            .paid;

        // Not failed yet: no retry.
        let early = retry_failed_job(&db, job.id, &entry("job.retry", 0))
            .await
            .expect("store");
        assert_eq!(early, Retry::NotFailed);

        store::jobs::claim_next_job(&db, "w")
            .await
            .expect("claim")
            .expect("job");
        store::jobs::fail_job(&db, job.id, "w", "the site did not answer")
            .await
            .expect("fail");
        let refunded = credit_balance(&db, user.id, store::now())
            .await
            .expect("b")
            .paid;
        assert_eq!(
            refunded,
            Credits::whole(5),
            "{engine:?}: the failure gave the credits back"
        );

        let Retry::Queued(again) = retry_failed_job(&db, job.id, &entry("job.retry", 0))
            .await
            .expect("store")
        else {
            panic!("a failed job is retried");
        };
        assert_eq!(again.status, JobStatus::Queued);
        assert_eq!(again.error, None);
        assert_eq!(again.attempts, 0);
        assert_eq!(again.credits_refunded_at, None);
        assert_eq!(again.charge.map(|c| c.total()), Some(cost));
        let paid = credit_balance(&db, user.id, store::now())
            .await
            .expect("b")
            .paid;
        assert_eq!(paid, after_charge, "charged again exactly once");
        // A second retry of the queued job changes nothing and charges nothing.
        let twice = retry_failed_job(&db, job.id, &entry("job.retry", 0))
            .await
            .expect("store");
        assert_eq!(twice, Retry::NotFailed);
        assert_eq!(
            credit_balance(&db, user.id, store::now())
                .await
                .expect("b")
                .paid,
            after_charge
        );
        assert_eq!(audit_actions(&db).await, vec!["job.retry"]);
        // A worker takes it again.
        let claimed = store::jobs::claim_next_job(&db, "w2")
            .await
            .expect("claim")
            .expect("job");
        assert_eq!(claimed.id, job.id);

        // A payer who spent the credits meanwhile cannot have it retried; nothing changes.
        store::jobs::fail_job(&db, job.id, "w2", "again")
            .await
            .expect("fail");
        let all = credit_balance(&db, user.id, store::now())
            .await
            .expect("b")
            .paid;
        adjust_paid_credits(
            &db,
            user.id,
            AdjustDirection::Remove,
            all,
            "spent elsewhere",
            "t",
            entry("credits.adjust", user.id),
        )
        .await
        .expect("store")
        .expect("removed");
        let short = retry_failed_job(&db, job.id, &entry("job.retry", 0))
            .await
            .expect("store");
        assert!(matches!(short, Retry::Insufficient { .. }), "{short:?}");
        assert_eq!(
            store::jobs::get_job(&db, job.id).await.expect("job").status,
            JobStatus::Failed
        );
        assert!(matches!(
            retry_failed_job(&db, uuid::Uuid::new_v4(), &entry("x", 0)).await,
            Err(store::StoreError::NotFound)
        ));
    }
);

both!(disabled_accounts_lose_their_sessions, |db, engine| {
    let user = new_user(&db, "gone@example.com").await;
    let at = store::now();
    for n in 0..2 {
        store::sessions::create_session(
            &db,
            &store::sessions::NewSession {
                id_hash: format!("hash{n}"),
                user_id: user.id,
                csrf_token: "csrf".into(),
                expires_at: at + Duration::days(1),
            },
        )
        .await
        .expect("session");
    }
    assert_eq!(
        store::admin::access_counts(&db, user.id, at)
            .await
            .expect("n")
            .0,
        2
    );
    let ended = store::admin::set_disabled(&db, user.id, true, &entry("user.disable", user.id))
        .await
        .expect("store");
    assert_eq!(ended, Some(2), "{engine:?}");
    assert_eq!(
        store::admin::set_disabled(&db, user.id, true, &entry("user.disable", user.id))
            .await
            .expect("store"),
        None
    );
    // A session made afterwards (by any path) still does not authenticate.
    store::sessions::create_session(
        &db,
        &store::sessions::NewSession {
            id_hash: "late".into(),
            user_id: user.id,
            csrf_token: "csrf".into(),
            expires_at: at + Duration::days(1),
        },
    )
    .await
    .expect("session");
    assert!(
        store::sessions::find_session(&db, "late", at)
            .await
            .expect("find")
            .is_none()
    );
    store::admin::set_disabled(&db, user.id, false, &entry("user.enable", user.id))
        .await
        .expect("store")
        .expect("enabled");
    assert!(
        store::sessions::find_session(&db, "late", at)
            .await
            .expect("find")
            .is_some()
    );
    assert_eq!(
        store::admin::end_sessions(&db, user.id, &entry("user.sign_out_everywhere", user.id))
            .await
            .expect("end"),
        1
    );
    assert_eq!(
        audit_actions(&db).await,
        vec!["user.sign_out_everywhere", "user.enable", "user.disable"]
    );
    assert!(matches!(
        store::admin::set_disabled(&db, 9_999_999, true, &entry("x", 0)).await,
        Err(store::StoreError::NotFound)
    ));
});

both!(
    search_matches_address_and_names_and_escapes_wildcards,
    |db, engine| {
        let ann = new_user(&db, "ann.smith@example.com").await;
        new_user(&db, "bob_jones@example.com").await;
        new_user(&db, "bobxjones@example.com").await;
        let mut named: store::entity::users::ActiveModel = ann.into();
        named.first_name = sea_orm::ActiveValue::Set(Some("Annabel".into()));
        store::users::update_user(&db, named).await.expect("update");
        let found = |rows: Vec<store::entity::users::Model>| {
            rows.into_iter().map(|u| u.email).collect::<Vec<_>>()
        };
        assert_eq!(
            found(
                store::admin::search_users(&db, "annab", 10)
                    .await
                    .expect("search")
            ),
            vec!["ann.smith@example.com"],
            "{engine:?}"
        );
        assert_eq!(
            found(
                store::admin::search_users(&db, "bob_", 10)
                    .await
                    .expect("search")
            ),
            vec!["bob_jones@example.com"]
        );
        assert_eq!(
            store::admin::search_users(&db, "", 10)
                .await
                .expect("all")
                .len(),
            3
        );
        assert!(
            store::admin::search_users(&db, "nobody", 10)
                .await
                .expect("none")
                .is_empty()
        );
    }
);

both!(overview_rows_count_what_is_stored, |db, engine| {
    let since = store::now() - Duration::days(30);
    let empty = store::admin::overview_rows(&db, since).await.expect("rows");
    assert_eq!(empty, store::admin::OverviewRows::default(), "{engine:?}");
    let buyer = new_user(&db, "buyer@example.com").await;
    new_user(&db, "free@example.com").await;
    store::credits::grant_purchase(
        &db,
        &store::credits::Purchase {
            user_id: buyer.id,
            payment_id: "pi_1".into(),
            credits: Credits::whole(5),
            amount_paid_cents: 1900,
            package_type: "credit-5".into(),
        },
    )
    .await
    .expect("purchase");
    let rows = store::admin::overview_rows(&db, since).await.expect("rows");
    assert_eq!(rows.signups.len(), 2);
    assert_eq!(
        rows.payments.iter().map(|p| p.1).collect::<Vec<_>>(),
        vec![1900]
    );
    assert_eq!(rows.ledger, vec![("purchase".to_owned(), 10)]);
    assert_eq!(
        (rows.signups_who_paid, rows.users, rows.users_who_paid),
        (1, 2, 1)
    );
});

both!(
    the_trial_is_granted_again_once_with_its_audit_row,
    |db, engine| {
        let user = new_user(&db, "again@example.com").await;
        assert!(
            !store::admin::regrant_trial(&db, user.id, &entry("trial.regrant", user.id))
                .await
                .expect("store"),
            "{engine:?}: an unused trial is not granted again"
        );
        store::credits::start_trial(&db, user.id, Credits::whole(1), Duration::zero())
            .await
            .expect("trial");
        assert!(
            store::admin::regrant_trial(&db, user.id, &entry("trial.regrant", user.id))
                .await
                .expect("store")
        );
        let user = store::users::get_user(&db, user.id).await.expect("user");
        assert!(!user.has_used_trial);
        // It can be started once more, and only once.
        store::credits::start_trial(&db, user.id, Credits::whole(1), Duration::days(7))
            .await
            .expect("second trial");
        assert!(
            store::credits::start_trial(&db, user.id, Credits::whole(1), Duration::days(7))
                .await
                .is_err()
        );
        assert_eq!(audit_actions(&db).await, vec!["trial.regrant"]);
        assert!(matches!(
            store::admin::regrant_trial(&db, 9_999_999, &entry("x", 0)).await,
            Err(store::StoreError::NotFound)
        ));
    }
);

both!(
    the_lists_read_payments_refunds_and_brandings_newest_first,
    |db, engine| {
        let a = new_user(&db, "a@example.com").await;
        let b = new_user(&db, "b@example.com").await;
        for (n, user) in [(1, a.id), (2, b.id)] {
            store::credits::grant_purchase(
                &db,
                &store::credits::Purchase {
                    user_id: user,
                    payment_id: format!("pi_{n}"),
                    credits: Credits::whole(5),
                    amount_paid_cents: 1900,
                    package_type: "credit-5".into(),
                },
            )
            .await
            .expect("purchase");
        }
        let purchases = store::admin::recent_purchases(&db, 10).await.expect("list");
        assert_eq!(
            purchases
                .iter()
                .map(|p| p.stripe_payment_intent_id.as_str())
                .collect::<Vec<_>>(),
            vec!["pi_2", "pi_1"],
            "{engine:?}"
        );
        assert_eq!(
            store::admin::recent_purchases(&db, 1)
                .await
                .expect("one")
                .len(),
            1
        );
        assert!(
            store::admin::recent_refunds(&db, 10)
                .await
                .expect("none")
                .is_empty()
        );
        assert!(
            store::admin::recent_subscriptions(&db, 10)
                .await
                .expect("none")
                .is_empty()
        );
        store::accounts::save_branding(
            &db,
            a.id,
            &store::accounts::Branding {
                company_name: "Acme".into(),
                ..Default::default()
            },
        )
        .await
        .expect("branding");
        let brands = store::admin::whitelabel_brandings(&db, 10)
            .await
            .expect("brands");
        assert_eq!(brands.len(), 1);
        assert_eq!(brands[0].user_id, a.id);
        let emails = store::admin::emails_of(&db, &[b.id, a.id, a.id, 9_999_999])
            .await
            .expect("emails");
        assert_eq!(emails.len(), 2);
        assert_eq!(emails[&a.id], "a@example.com");
        assert!(
            store::admin::emails_of(&db, &[])
                .await
                .expect("none")
                .is_empty()
        );
    }
);
