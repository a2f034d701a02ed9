//! Branding, teams, API usage, monthly allowances, e-mailed reports and a user's jobs.

use chrono::Duration;
use sea_orm::DatabaseConnection;
use store::StoreError;
use store::accounts::{
    Branding, accept_team_invitation, add_team_member, branding_for_user, reset_monthly_allowance,
    save_branding, team_of, use_monthly_report,
};
use store::api_keys::{ApiCall, api_calls_since, record_api_call};
use store::reports::{
    NewEmailReport, create_email_report, find_by_upgrade_token, mark_email_report_sent,
};
use store::users::get_user;

use crate::support::both;

async fn user(db: &DatabaseConnection, email: &str) -> i64 {
    crate::support::new_user(db, email).await.id
}

both!(branding_has_defaults_and_is_one_per_user, |db, engine| {
    let agency = user(&db, "agency@example.com").await;
    let saved = save_branding(
        &db,
        agency,
        &Branding {
            company_name: "Acme SEO".into(),
            ..Default::default()
        },
    )
    .await
    .expect("save");
    assert_eq!(
        (
            saved.primary_color.as_str(),
            saved.secondary_color.as_str(),
            saved.font_family.as_str()
        ),
        ("#4F46E5", "#10B981", "Inter, sans-serif")
    );
    let replaced = save_branding(
        &db,
        agency,
        &Branding {
            company_name: "Acme Audits".into(),
            primary_color: "#000000".into(),
            ..Default::default()
        },
    )
    .await
    .expect("replace");
    assert_eq!(replaced.id, saved.id);
    assert_eq!(
        (
            replaced.company_name.as_str(),
            replaced.primary_color.as_str()
        ),
        ("Acme Audits", "#000000")
    );
    assert!(
        branding_for_user(&db, 999_999)
            .await
            .expect("none")
            .is_none()
    );
});

both!(team_members_are_unique_per_team, |db, engine| {
    let owner = user(&db, "owner@example.com").await;
    let member = user(&db, "member@example.com").await;
    let invited = add_team_member(&db, owner, member, "member", &["reports.read".into()])
        .await
        .expect("add");
    assert_eq!(invited.status, "pending");
    assert_eq!(invited.permissions, serde_json::json!(["reports.read"]));
    let again = add_team_member(&db, owner, member, "admin", &[]).await;
    assert!(matches!(again, Err(StoreError::Conflict(_))), "{again:?}");
    accept_team_invitation(&db, owner, member)
        .await
        .expect("accept");
    let team = team_of(&db, owner).await.expect("team");
    assert_eq!(team.len(), 1);
    assert_eq!(team[0].status, "active");
    assert!(team[0].joined_at.is_some());
});

both!(api_calls_are_logged_and_counted, |db, engine| {
    let id = user(&db, "api@example.com").await;
    let before = store::now() - Duration::seconds(1);
    let call = ApiCall {
        endpoint: "/api/analyze".into(),
        method: "POST".into(),
        response_time_ms: 120,
        status_code: 200,
        api_key_id: None,
    };
    for _ in 0..3 {
        record_api_call(&db, id, &call).await.expect("record");
    }
    assert_eq!(api_calls_since(&db, id, before).await.expect("count"), 3);
    assert_eq!(
        api_calls_since(&db, id, store::now() + Duration::seconds(1))
            .await
            .expect("count"),
        0
    );
    assert_eq!(get_user(&db, id).await.expect("user").api_calls, 3);
    assert!(matches!(
        record_api_call(&db, 999_999, &call).await,
        Err(StoreError::NotFound)
    ));
});

both!(
    the_monthly_allowance_is_never_exceeded_concurrently,
    |db, engine| {
        let id = user(&db, "business@example.com").await;
        assert!(!use_monthly_report(&db, id).await.expect("none yet"));
        reset_monthly_allowance(&db, id, 20, None)
            .await
            .expect("reset");
        let mut handles = Vec::new();
        for _ in 0..30 {
            let db = db.clone();
            handles.push(tokio::spawn(async move {
                use_monthly_report(&db, id).await.expect("use")
            }));
        }
        let mut used = 0;
        for handle in handles {
            if handle.await.expect("join") {
                used += 1;
            }
        }
        assert_eq!(used, 20);
        assert_eq!(
            get_user(&db, id).await.expect("user").monthly_reports_used,
            20
        );
    }
);

both!(emailed_reports_are_found_by_upgrade_token, |db, engine| {
    let request = NewEmailReport {
        email: "Reader@Example.com".into(),
        first_name: "Rea".into(),
        last_name: Some("Der".into()),
        website_url: "https://example.com/".into(),
        report_type: domain::report::ReportType::Basic,
        analysis_result_id: None,
        upgrade_token: Some("tok-1".into()),
        agree_to_emails: true,
    };
    let stored = create_email_report(&db, &request).await.expect("create");
    assert_eq!(stored.email, "reader@example.com");
    assert!(matches!(
        create_email_report(&db, &request).await,
        Err(StoreError::Conflict(_))
    ));
    mark_email_report_sent(&db, stored.id, store::now())
        .await
        .expect("sent");
    let found = find_by_upgrade_token(&db, "tok-1")
        .await
        .expect("find")
        .expect("row");
    assert!(found.sent_at.is_some());
    assert!(
        find_by_upgrade_token(&db, "nope")
            .await
            .expect("find")
            .is_none()
    );
});

both!(a_user_sees_their_own_jobs, |db, engine| {
    use domain::report::ReportType;
    use store::jobs::{NewAnalysis, enqueue_analysis, jobs_for_user};
    let id = user(&db, "dash@example.com").await;
    for (n, requester) in [(1, Some(id)), (2, None), (3, Some(id))] {
        enqueue_analysis(
            &db,
            &NewAnalysis {
                url: format!("s{n}.example"),
                canonical_url: format!("https://s{n}.example/"),
                report_type: ReportType::Standard,
                requested_pages: 10,
                requester_user_id: requester,
                requester_ip: None,
            },
        )
        .await
        .expect("enqueue");
    }
    let jobs = jobs_for_user(&db, id, 10).await.expect("jobs");
    assert_eq!(
        jobs.iter().map(|j| j.url.as_str()).collect::<Vec<_>>(),
        vec!["s3.example", "s1.example"]
    );
    assert!(
        jobs.iter()
            .all(|j| j.report_type == ReportType::Standard && j.requested_pages == 10)
    );
});

fn site(n: usize, requester: Option<i64>) -> store::jobs::NewAnalysis {
    store::jobs::NewAnalysis {
        url: format!("p{n}.example"),
        canonical_url: format!("https://p{n}.example/"),
        report_type: domain::report::ReportType::Standard,
        requested_pages: 10,
        requester_user_id: requester,
        requester_ip: Some("192.0.2.1".into()),
    }
}

both!(
    free_analyses_are_counted_and_queued_together,
    |db, engine| {
        use sea_orm::{EntityTrait, PaginatorTrait};
        use store::entity::analysis_jobs;
        let at = store::now();
        let mut handles = Vec::new();
        for n in 0..12 {
            let db = db.clone();
            handles.push(tokio::spawn(async move {
                store::jobs::enqueue_free_analysis(&db, "192.0.2.1", at, 3, &site(n, None))
                    .await
                    .expect("enqueue")
            }));
        }
        let mut queued = 0;
        for handle in handles {
            if handle.await.expect("join").is_some() {
                queued += 1;
            }
        }
        assert_eq!(queued, 3);
        assert_eq!(
            analysis_jobs::Entity::find()
                .count(&db)
                .await
                .expect("count"),
            3
        );
        assert_eq!(
            store::allowance::free_analyses_used(&db, "192.0.2.1", at)
                .await
                .expect("used"),
            3
        );
        // Refused attempts left no website behind either.
        assert_eq!(
            store::stats::stats(&db)
                .await
                .expect("stats")
                .websites_analyzed,
            3
        );
    }
);

both!(
    paid_analyses_spend_exactly_the_credits_they_queue,
    |db, engine| {
        use domain::credits::Credits;
        use sea_orm::{EntityTrait, PaginatorTrait};
        use store::credits::{Payer, credit_balance, credit_history, grant_credits};
        use store::entity::analysis_jobs;
        use store::jobs::{PaidAnalysis, enqueue_paid_analysis};
        let id = user(&db, "paid@example.com").await;
        grant_credits(&db, id, Credits::whole(5), "admin", None)
            .await
            .expect("grant");
        let mut handles = Vec::new();
        for n in 0..8 {
            let db = db.clone();
            handles.push(tokio::spawn(async move {
                enqueue_paid_analysis(&db, Payer::own(id), Credits::whole(2), &site(n, None))
                    .await
                    .expect("enqueue")
            }));
        }
        let mut jobs = Vec::new();
        for handle in handles {
            match handle.await.expect("join") {
                PaidAnalysis::Queued(job) => {
                    let charge = job.charge.expect("a paid job records its charge");
                    assert_eq!(
                        (charge.trial, charge.paid, charge.paid_by),
                        (Credits::ZERO, Credits::whole(2), id)
                    );
                    assert_eq!(job.requester_user_id, Some(id), "the payer owns the report");
                    jobs.push(job);
                }
                PaidAnalysis::Insufficient { balance } => assert!(balance < Credits::whole(2)),
            }
        }
        assert_eq!(jobs.len(), 2, "5 credits pay for two 2-credit analyses");
        assert_eq!(
            credit_balance(&db, id, store::now())
                .await
                .expect("balance")
                .paid,
            Credits::whole(1)
        );
        assert_eq!(
            analysis_jobs::Entity::find()
                .count(&db)
                .await
                .expect("count"),
            2,
            "a refused paid analysis writes no job"
        );
        let references: Vec<String> = credit_history(&db, id, 10)
            .await
            .expect("history")
            .into_iter()
            .filter(|e| e.reason == "spend")
            .filter_map(|e| e.reference)
            .collect();
        for job in &jobs {
            assert!(
                references.contains(&job.id.to_string()),
                "the ledger names job {}",
                job.id
            );
        }
        let missing =
            enqueue_paid_analysis(&db, Payer::own(987_654), Credits::HALF, &site(98, None)).await;
        assert!(matches!(missing, Err(StoreError::NotFound)), "{missing:?}");
    }
);

both!(
    a_failed_paid_analysis_gives_its_credits_back_once,
    |db, engine| {
        use domain::credits::Credits;
        use store::credits::{Payer, credit_balance, credit_history, grant_credits, start_trial};
        use store::jobs::{
            PaidAnalysis, claim_next_job, enqueue_paid_analysis, fail_job, get_job,
            recover_stale_jobs,
        };
        let owner = user(&db, "owner-refund@example.com").await;
        let member = user(&db, "member-refund@example.com").await;
        grant_credits(&db, owner, Credits::whole(3), "admin", None)
            .await
            .expect("grant");
        start_trial(&db, member, Credits::HALF, chrono::Duration::days(7))
            .await
            .expect("trial");
        let payer = Payer {
            user_id: member,
            paid_by: owner,
        };
        // Half from the member's trial, one and a half from the owner's credits.
        let PaidAnalysis::Queued(job) =
            enqueue_paid_analysis(&db, payer, Credits::whole(2), &site(1, None))
                .await
                .expect("enqueue")
        else {
            panic!("refused")
        };
        let claimed = claim_next_job(&db, "w").await.expect("claim").expect("job");
        assert_eq!(claimed.id, job.id);
        let refunded = fail_job(&db, job.id, "w", "the site could not be reached")
            .await
            .expect("fail")
            .expect("a paid job is refunded");
        assert_eq!(refunded.total(), Credits::whole(2));
        // A second failure of the same job (a stale worker, a retry) changes nothing.
        assert!(fail_job(&db, job.id, "w", "again").await.is_err());
        assert!(
            recover_stale_jobs(&db, store::now() + chrono::Duration::days(1))
                .await
                .expect("recover")
                .failed
                .is_empty()
        );
        let at = store::now();
        let owner_balance = credit_balance(&db, owner, at).await.expect("owner");
        let member_balance = credit_balance(&db, member, at).await.expect("member");
        assert_eq!(owner_balance.paid, Credits::whole(3));
        assert_eq!(member_balance.trial, Credits::HALF);
        assert!(
            get_job(&db, job.id)
                .await
                .expect("job")
                .credits_refunded_at
                .is_some()
        );
        let refunds = |rows: Vec<store::entity::credit_ledger::Model>| {
            rows.into_iter()
                .filter(|e| e.reason == "refund" && e.reference == Some(job.id.to_string()))
                .count()
        };
        assert_eq!(refunds(credit_history(&db, owner, 20).await.expect("h")), 1);
        assert_eq!(
            refunds(credit_history(&db, member, 20).await.expect("h")),
            1
        );

        // A paid job interrupted twice is failed by recovery, and refunded by it, once.
        let PaidAnalysis::Queued(job) =
            enqueue_paid_analysis(&db, Payer::own(owner), Credits::whole(1), &site(2, None))
                .await
                .expect("enqueue")
        else {
            panic!("refused")
        };
        for _ in 0..store::jobs::MAX_JOB_ATTEMPTS {
            claim_next_job(&db, "dead")
                .await
                .expect("claim")
                .expect("job");
            recover_stale_jobs(&db, store::now() + chrono::Duration::days(1))
                .await
                .expect("recover");
        }
        assert_eq!(
            get_job(&db, job.id).await.expect("job").status,
            store::jobs::JobStatus::Failed
        );
        assert!(
            recover_stale_jobs(&db, store::now() + chrono::Duration::days(1))
                .await
                .expect("recover again")
                .failed
                .is_empty()
        );
        assert_eq!(
            credit_balance(&db, owner, store::now())
                .await
                .expect("owner")
                .paid,
            Credits::whole(3)
        );
        assert_eq!(
            refunds(credit_history(&db, owner, 20).await.expect("h")),
            1,
            "the first job was refunded once"
        );
        let second: usize = credit_history(&db, owner, 20)
            .await
            .expect("h")
            .into_iter()
            .filter(|e| e.reason == "refund" && e.reference == Some(job.id.to_string()))
            .count();
        assert_eq!(second, 1);
    }
);

both!(one_time_tokens_work_once_and_expire, |db, engine| {
    use store::tokens::{consume_token, create_token};
    let id = user(&db, "reset@example.com").await;
    let now = store::now();
    create_token(
        &db,
        "hash-1",
        "password_reset",
        id,
        now + chrono::Duration::hours(1),
    )
    .await
    .expect("create");
    create_token(
        &db,
        "hash-2",
        "password_reset",
        id,
        now - chrono::Duration::seconds(1),
    )
    .await
    .expect("create expired");
    assert_eq!(
        consume_token(&db, "hash-1", "verify_email", now)
            .await
            .expect("wrong purpose"),
        None
    );
    assert_eq!(
        consume_token(&db, "hash-2", "password_reset", now)
            .await
            .expect("expired"),
        None
    );

    let mut handles = Vec::new();
    for _ in 0..8 {
        let db = db.clone();
        handles.push(tokio::spawn(async move {
            consume_token(&db, "hash-1", "password_reset", now)
                .await
                .expect("consume")
        }));
    }
    let mut users = Vec::new();
    for handle in handles {
        users.extend(handle.await.expect("join"));
    }
    assert_eq!(
        users,
        vec![id],
        "a token clicked eight times at once works once"
    );
});

both!(webhook_events_are_handled_once, |db, engine| {
    use store::tokens::{forget_webhook_event, record_webhook_event};
    assert!(
        record_webhook_event(&db, "evt_1", "invoice.paid")
            .await
            .expect("first")
    );
    assert!(
        !record_webhook_event(&db, "evt_1", "invoice.paid")
            .await
            .expect("again")
    );
    forget_webhook_event(&db, "evt_1").await.expect("forget");
    assert!(
        record_webhook_event(&db, "evt_1", "invoice.paid")
            .await
            .expect("retry")
    );
    assert!(matches!(
        forget_webhook_event(&db, "evt_2").await,
        Err(StoreError::NotFound)
    ));
});

both!(admin_lists_users_and_jobs, |db, engine| {
    use store::jobs::{JobStatus, claim_next_job, enqueue_analysis, recent_jobs};
    for n in 0..3 {
        user(&db, &format!("list{n}@example.com")).await;
    }
    let page = store::users::list_users(&db, 1, 10).await.expect("list");
    assert_eq!(
        page.iter().map(|u| u.email.as_str()).collect::<Vec<_>>(),
        vec!["list1@example.com", "list0@example.com"]
    );
    for n in 0..3 {
        enqueue_analysis(&db, &site(50 + n, None))
            .await
            .expect("enqueue");
    }
    claim_next_job(&db, "w").await.expect("claim").expect("job");
    assert_eq!(recent_jobs(&db, None, 10).await.expect("all").len(), 3);
    assert_eq!(
        recent_jobs(&db, Some(JobStatus::Queued), 10)
            .await
            .expect("queued")
            .len(),
        2
    );
    let running = recent_jobs(&db, Some(JobStatus::Running), 10)
        .await
        .expect("running");
    assert_eq!(running.len(), 1);
    assert_eq!(running[0].url, "p50.example");
});

both!(
    concurrent_sends_to_clients_never_pass_the_allowance,
    |db, engine| {
        let agency = user(&db, "agency@example.com").await;
        let sender = store::reports::Sender {
            user_id: agency,
            since: store::now() - Duration::hours(1),
            max: 3,
        };
        let request = NewEmailReport {
            email: "client@example.com".into(),
            first_name: "Ada".into(),
            last_name: None,
            website_url: "https://example.com/".into(),
            report_type: domain::report::ReportType::Basic,
            analysis_result_id: None,
            upgrade_token: None,
            agree_to_emails: false,
        };
        let mail = store::outbox::NewEmail {
            to: "client@example.com".into(),
            subject: "A report".into(),
            body: "Read it.".into(),
            ..Default::default()
        };
        let sends = (0..8)
            .map(|_| store::reports::record_email_report(&db, &request, Some(&mail), Some(sender)));
        let outcomes = futures::future::join_all(sends).await;
        let stored = outcomes
            .iter()
            .filter(|o| matches!(o, Ok(store::reports::Recorded::Stored { .. })))
            .count();
        let limited = outcomes
            .iter()
            .filter(|o| matches!(o, Ok(store::reports::Recorded::Limited { .. })))
            .count();
        assert_eq!((stored, limited), (3, 5), "{engine:?}: {outcomes:?}");
        // Each stored request has its mail; a refused one wrote neither.
        let mails = store::outbox::recent_emails(&db, 100)
            .await
            .expect("outbox");
        assert_eq!(mails.len(), 3, "{engine:?}");
        // Another account's allowance is its own.
        let other = user(&db, "other@example.com").await;
        let theirs = store::reports::Sender {
            user_id: other,
            ..sender
        };
        assert!(matches!(
            store::reports::record_email_report(&db, &request, None, Some(theirs)).await,
            Ok(store::reports::Recorded::Stored {
                outbox_id: None,
                ..
            })
        ));
    }
);
