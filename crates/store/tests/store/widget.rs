//! The audit widget's keys, its hourly request counts (a sliding hour, the clock an argument)
//! and its leads, written with their spend, job and mail or not at all.

use chrono::Duration;
use domain::credits::Credits;
use domain::report::ReportType;
use store::StoreError;
use store::credits::{Payer, credit_balance, grant_credits};
use store::jobs::NewAnalysis;
use store::outbox::NewEmail;
use store::widget::{
    CreatedKey, Limits, NewLead, RecordedLead, RequestCount, active_keys, count_request,
    create_key, find_active_key, leads_page, record_lead, revoke_key, update_origins,
};

use crate::support::{both, new_user};

/// A key `slw_1` of `user_id`, allowing no origin (the store does not read them).
async fn new_key(
    db: &sea_orm::DatabaseConnection,
    user_id: i64,
) -> store::entity::widget_keys::Model {
    match create_key(db, user_id, "slw_1", "[]", 5)
        .await
        .expect("create")
    {
        CreatedKey::Created(key) => key,
        CreatedKey::TooMany => panic!("refused"),
    }
}

const LIMITS: Limits = Limits {
    per_key: 3,
    per_visitor: 2,
    window_seconds: 3600,
};

both!(keys_are_bounded_rescoped_and_revoked, |db, engine| {
    let agency = new_user(&db, "agency@example.com").await;
    let other = new_user(&db, "other@example.com").await;
    let CreatedKey::Created(key) = create_key(&db, agency.id, "slw_1", "[]", 2)
        .await
        .expect("create")
    else {
        panic!("{engine:?}: refused");
    };
    assert!(matches!(
        create_key(&db, agency.id, "slw_2", "[]", 2).await,
        Ok(CreatedKey::Created(_))
    ));
    assert_eq!(
        create_key(&db, agency.id, "slw_3", "[]", 2)
            .await
            .expect("count"),
        CreatedKey::TooMany
    );
    assert!(matches!(
        update_origins(&db, other.id, key.id, "[\"https://x.example\"]").await,
        Err(StoreError::NotFound)
    ));
    let changed = update_origins(&db, agency.id, key.id, "[\"https://a.example\"]")
        .await
        .expect("update");
    assert_eq!(changed.allowed_origins, "[\"https://a.example\"]");
    assert!(matches!(
        revoke_key(&db, other.id, key.id).await,
        Err(StoreError::NotFound)
    ));
    revoke_key(&db, agency.id, key.id).await.expect("revoke");
    assert!(find_active_key(&db, "slw_1").await.expect("find").is_none());
    assert!(find_active_key(&db, "slw_2").await.expect("find").is_some());
    assert_eq!(active_keys(&db, agency.id).await.expect("keys").len(), 1);
});

both!(requests_are_counted_over_a_sliding_hour, |db, engine| {
    let agency = new_user(&db, "agency@example.com").await;
    let key = new_key(&db, agency.id).await;
    let t0 = store::now();
    let at = |minutes: i64| t0 + Duration::minutes(minutes);
    let count = |visitor: &'static str, minutes: i64| {
        let db = db.clone();
        async move {
            count_request(&db, key.id, visitor, at(minutes), LIMITS)
                .await
                .expect("count")
        }
    };
    assert_eq!(count("a", 0).await, RequestCount::Allowed);
    assert_eq!(count("a", 10).await, RequestCount::Allowed);
    // The visitor's third within the hour waits until the first leaves it: 50 minutes.
    assert_eq!(count("a", 10).await, RequestCount::VisitorLimited(50 * 60));
    assert_eq!(count("b", 20).await, RequestCount::Allowed);
    // The key's fourth waits until its first leaves the hour.
    assert_eq!(
        count("c", 30).await,
        RequestCount::KeyLimited(30 * 60),
        "{engine:?}"
    );
    // An hour after the first, one more fits for the key and for "a"; then the key is full
    // again until the request of minute 10 leaves the hour.
    assert_eq!(count("a", 60).await, RequestCount::Allowed);
    assert_eq!(count("d", 61).await, RequestCount::KeyLimited(9 * 60));
    assert_eq!(count("a", 71).await, RequestCount::Allowed);
});

both!(
    a_lead_is_recorded_with_its_spend_job_and_mail_or_not_at_all,
    |db, engine| {
        let agency = new_user(&db, "agency@example.com").await;
        let key = new_key(&db, agency.id).await;
        grant_credits(&db, agency.id, Credits::from_halves(1), "admin", None)
            .await
            .expect("grant");
        let analysis = NewAnalysis {
            url: "https://visitor.example/".into(),
            canonical_url: "https://visitor.example/".into(),
            report_type: ReportType::Basic,
            requested_pages: 1,
            requester_user_id: Some(agency.id),
            requester_ip: Some("203.0.113.9".into()),
        };
        let lead = NewLead {
            widget_key_id: key.id,
            agency_id: agency.id,
            first_name: "Ada".into(),
            email: "ada@visitor.example".into(),
            website_url: "https://visitor.example/".into(),
            visitor_hash: "h".into(),
        };
        let mail = NewEmail {
            to: "agency@example.com".into(),
            reply_to: Some("ada@visitor.example".into()),
            subject: "New lead".into(),
            body: "Ada".into(),
            ..NewEmail::default()
        };
        let payer = Payer::own(agency.id);
        let cost = Credits::from_halves(1);
        let RecordedLead::Recorded {
            job,
            lead: row,
            email_id,
        } = record_lead(&db, payer, cost, &analysis, &lead, Some(&mail))
            .await
            .expect("record")
        else {
            panic!("{engine:?}: refused");
        };
        assert_eq!(row.analysis_id, job.id);
        assert!(email_id.is_some());
        assert!(job.charge.is_some());
        let balance = credit_balance(&db, agency.id, store::now())
            .await
            .expect("balance");
        assert!(balance.total().is_zero());
        let outbox = store::outbox::recent_emails(&db, 10)
            .await
            .expect("outbox")
            .len();
        assert_eq!(
            record_lead(&db, payer, cost, &analysis, &lead, Some(&mail))
                .await
                .expect("record"),
            RecordedLead::Insufficient {
                balance: Credits::ZERO
            }
        );
        let (leads, total) = leads_page(&db, agency.id, 0, 10).await.expect("page");
        assert_eq!((leads.len(), total), (1, 1), "{engine:?}");
        assert_eq!(leads[0].1, "slw_1");
        assert_eq!(
            store::outbox::recent_emails(&db, 10)
                .await
                .expect("outbox")
                .len(),
            outbox,
            "no mail for a refused lead"
        );
        assert_eq!(
            store::jobs::jobs_for_user(&db, agency.id, 10)
                .await
                .expect("jobs")
                .len(),
            1
        );
    }
);
