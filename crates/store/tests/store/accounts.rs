//! Sessions, the outbox, contact messages and affiliates.

use chrono::Duration;
use store::StoreError;
use store::affiliates::{
    NewAffiliate, NewClick, NewConversion, create_affiliate, find_affiliate_by_code, record_click,
    record_conversion,
};
use store::contact::{NewContactMessage, recent_contact_messages, save_contact_message};
use store::outbox::{
    enqueue_email, mark_email_failed, mark_email_sent, pending_emails, recent_emails,
};
use store::sessions::{
    NewSession, create_session, delete_expired_sessions, delete_session, find_session,
    touch_session,
};
use store::users::{NewUser, create_user};

use crate::support::both;

both!(sessions_are_found_until_they_expire, |db, engine| {
    let user = create_user(
        &db,
        &NewUser {
            email: "s@example.com".into(),
            ..Default::default()
        },
    )
    .await
    .expect("user");
    let now = store::now();
    for (hash, expires) in [
        ("live", now + Duration::days(30)),
        ("old", now - Duration::seconds(1)),
    ] {
        create_session(
            &db,
            &NewSession {
                id_hash: hash.into(),
                user_id: user.id,
                csrf_token: format!("csrf-{hash}"),
                expires_at: expires,
            },
        )
        .await
        .expect("session");
    }
    let (session, owner) = find_session(&db, "live", now)
        .await
        .expect("find")
        .expect("live");
    assert_eq!(
        (session.csrf_token.as_str(), owner.id),
        ("csrf-live", user.id)
    );
    assert!(find_session(&db, "old", now).await.expect("find").is_none());
    assert!(
        find_session(&db, "unknown", now)
            .await
            .expect("find")
            .is_none()
    );

    touch_session(&db, "live", now + Duration::days(60))
        .await
        .expect("touch");
    assert!(
        find_session(&db, "live", now + Duration::days(45))
            .await
            .expect("find")
            .is_some()
    );

    assert_eq!(delete_expired_sessions(&db, now).await.expect("sweep"), 1);
    delete_session(&db, "live").await.expect("delete");
    assert!(
        find_session(&db, "live", now)
            .await
            .expect("find")
            .is_none()
    );
});

both!(the_outbox_keeps_mail_until_it_is_sent, |db, engine| {
    let first = enqueue_email(&db, "a@example.com", "Your report", "Body A")
        .await
        .expect("enqueue");
    let second = enqueue_email(&db, "b@example.com", "Your report", "Body B")
        .await
        .expect("enqueue");
    let pending = pending_emails(&db, 3, 10).await.expect("pending");
    assert_eq!(
        pending.iter().map(|m| m.id).collect::<Vec<_>>(),
        vec![first, second]
    );

    mark_email_sent(&db, first, store::now())
        .await
        .expect("sent");
    for _ in 0..3 {
        mark_email_failed(&db, second, "connection refused")
            .await
            .expect("failed");
    }
    assert!(
        pending_emails(&db, 3, 10)
            .await
            .expect("pending")
            .is_empty()
    );
    let all = recent_emails(&db, 10).await.expect("all");
    assert_eq!(all.len(), 2, "nothing is dropped");
    let failed = all.iter().find(|m| m.id == second).expect("second");
    assert_eq!(
        (failed.attempts, failed.last_error.as_deref()),
        (3, Some("connection refused"))
    );
    assert!(matches!(
        mark_email_sent(&db, 999_999, store::now()).await,
        Err(StoreError::NotFound)
    ));
});

both!(contact_messages_are_stored, |db, engine| {
    let message = NewContactMessage {
        name: "Ann".into(),
        email: "ann@example.com".into(),
        subject: "Hello".into(),
        message: "A question about pricing.".into(),
        kind: "general".into(),
        details: "[]".into(),
    };
    let (id, mail) = save_contact_message(&db, &message, None)
        .await
        .expect("save");
    assert_eq!(mail, None);
    let stored = recent_contact_messages(&db, 5).await.expect("list");
    assert_eq!(stored.len(), 1);
    assert_eq!(
        (stored[0].id, stored[0].message.as_str()),
        (id, "A question about pricing.")
    );
});

both!(
    affiliates_count_clicks_and_conversions_once_per_payment,
    |db, engine| {
        let new = NewAffiliate {
            affiliate_code: "ANN30".into(),
            name: "Ann".into(),
            email: "ann@example.com".into(),
            experience: "5 years".into(),
            traffic_source: "blog".into(),
            monthly_traffic: "10k".into(),
            motivation: "Readers ask for audits".into(),
            commission_rate: 30,
            ..Default::default()
        };
        let affiliate = create_affiliate(&db, &new).await.expect("create");
        assert_eq!(
            (affiliate.status.as_str(), affiliate.commission_rate),
            ("pending", 30)
        );
        let dup_code = create_affiliate(
            &db,
            &NewAffiliate {
                email: "other@example.com".into(),
                ..new.clone()
            },
        )
        .await;
        assert!(matches!(dup_code, Err(StoreError::Conflict(_))));
        let dup_email = create_affiliate(
            &db,
            &NewAffiliate {
                affiliate_code: "OTHER".into(),
                ..new.clone()
            },
        )
        .await;
        assert!(matches!(dup_email, Err(StoreError::Conflict(_))));

        let click = record_click(
            &db,
            affiliate.id,
            &NewClick {
                ip_address: "hash-of-203.0.113.1".into(),
                ..Default::default()
            },
            store::now(),
        )
        .await
        .expect("click")
        .click_id();
        let conversion = NewConversion {
            click_id: Some(click),
            transaction_type: "credits".into(),
            transaction_amount_cents: 2000,
            commission_amount_cents: 600,
            stripe_payment_intent_id: Some("pi_aff".into()),
            ..Default::default()
        };
        assert!(
            record_conversion(&db, affiliate.id, &conversion, store::now())
                .await
                .expect("first")
                .is_some()
        );
        assert!(
            record_conversion(&db, affiliate.id, &conversion, store::now())
                .await
                .expect("second")
                .is_none()
        );
        let stored = find_affiliate_by_code(&db, "ANN30")
            .await
            .expect("find")
            .expect("affiliate");
        assert_eq!(
            (
                stored.total_clicks,
                stored.total_conversions,
                stored.total_earnings_cents,
                stored.pending_payouts_cents
            ),
            (1, 1, 600, 600)
        );
        assert!(matches!(
            record_click(&db, 999_999, &NewClick::default(), store::now()).await,
            Err(StoreError::NotFound)
        ));
    }
);
