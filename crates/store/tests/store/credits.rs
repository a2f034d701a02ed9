//! Credits: concurrent spends, idempotent payments, the trial.

use std::collections::HashSet;

use chrono::Duration;
use sea_orm::{DatabaseConnection, EntityTrait, PaginatorTrait};
use store::StoreError;
use store::credits::{
    CreditPool, Grant, Purchase, Spend, credit_balance, credit_history, grant_credits,
    grant_purchase, spend_credits, start_trial,
};
use store::entity::credit_purchases;
use store::users::{NewUser, create_user};

use crate::support::both;

async fn user(db: &DatabaseConnection, email: &str) -> i64 {
    create_user(
        db,
        &NewUser {
            email: email.into(),
            ..Default::default()
        },
    )
    .await
    .expect("user")
    .id
}

both!(concurrent_spends_never_go_below_zero, |db, engine| {
    let id = user(&db, "spender@example.com").await;
    grant_credits(&db, id, 50, "admin", None)
        .await
        .expect("grant");

    let mut handles = Vec::new();
    for i in 0..100 {
        let db = db.clone();
        handles.push(tokio::spawn(async move {
            spend_credits(&db, id, 1, Some(&format!("job-{i}")))
                .await
                .expect("spend")
        }));
    }
    let mut spent = 0;
    let mut refused = 0;
    for handle in handles {
        match handle.await.expect("join") {
            Spend::Spent(CreditPool::Paid) => spent += 1,
            Spend::Spent(CreditPool::Trial) => panic!("no trial was started"),
            Spend::Insufficient => refused += 1,
        }
    }
    assert_eq!((spent, refused), (50, 50));
    let balance = credit_balance(&db, id, store::now())
        .await
        .expect("balance");
    assert_eq!(balance.paid, 0);
    let history = credit_history(&db, id, 1000).await.expect("history");
    assert_eq!(
        history
            .iter()
            .filter(|e| e.reason == "spend" && e.delta == -1)
            .count(),
        50
    );
    assert_eq!(history.iter().map(|e| e.delta).sum::<i32>(), 0);
});

both!(
    a_spend_larger_than_the_balance_changes_nothing,
    |db, engine| {
        let id = user(&db, "small@example.com").await;
        grant_credits(&db, id, 2, "admin", None)
            .await
            .expect("grant");
        assert_eq!(
            spend_credits(&db, id, 3, None).await.expect("spend"),
            Spend::Insufficient
        );
        assert_eq!(
            spend_credits(&db, id, 2, None).await.expect("spend"),
            Spend::Spent(CreditPool::Paid)
        );
        assert_eq!(
            credit_balance(&db, id, store::now())
                .await
                .expect("balance")
                .paid,
            0
        );
        assert!(matches!(
            spend_credits(&db, 424_242, 1, None).await,
            Err(StoreError::NotFound)
        ));
    }
);

both!(
    a_payment_delivered_ten_times_at_once_is_granted_once,
    |db, engine| {
        let id = user(&db, "payer@example.com").await;
        let purchase = Purchase {
            user_id: id,
            payment_id: "pi_123".into(),
            credits: 5,
            amount_paid_cents: 2000,
            package_type: "credit-5".into(),
        };
        let mut handles = Vec::new();
        for _ in 0..10 {
            let db = db.clone();
            let purchase = purchase.clone();
            handles.push(tokio::spawn(async move {
                grant_purchase(&db, &purchase).await.expect("grant")
            }));
        }
        let mut granted = 0;
        for handle in handles {
            if handle.await.expect("join") == Grant::Granted {
                granted += 1;
            }
        }
        assert_eq!(granted, 1);
        assert_eq!(
            credit_balance(&db, id, store::now())
                .await
                .expect("balance")
                .paid,
            5
        );
        assert_eq!(
            credit_purchases::Entity::find()
                .count(&db)
                .await
                .expect("count"),
            1
        );
        let stored = store::credits::find_purchase(&db, "pi_123")
            .await
            .expect("find")
            .expect("row");
        assert_eq!(
            (
                stored.user_id,
                stored.credits_added,
                stored.amount_paid_cents
            ),
            (Some(id), 5, 2000)
        );

        // Another payment adds up.
        let second = Purchase {
            payment_id: "pi_456".into(),
            ..purchase.clone()
        };
        assert_eq!(
            grant_purchase(&db, &second).await.expect("second"),
            Grant::Granted
        );
        assert_eq!(
            credit_balance(&db, id, store::now())
                .await
                .expect("balance")
                .paid,
            10
        );
    }
);

both!(
    a_payment_for_a_missing_user_leaves_no_trace,
    |db, engine| {
        let purchase = Purchase {
            user_id: 777_777,
            payment_id: "pi_orphan".into(),
            credits: 1,
            amount_paid_cents: 500,
            package_type: "credit-1".into(),
        };
        let outcome = grant_purchase(&db, &purchase).await;
        assert!(
            matches!(
                outcome,
                Err(StoreError::Conflict(_)) | Err(StoreError::NotFound)
            ),
            "{outcome:?}"
        );
        assert_eq!(
            credit_purchases::Entity::find()
                .count(&db)
                .await
                .expect("count"),
            0
        );
    }
);

both!(
    the_trial_is_granted_once_and_spent_before_paid_credits,
    |db, engine| {
        let id = user(&db, "trial@example.com").await;
        grant_credits(&db, id, 1, "admin", None)
            .await
            .expect("grant");

        let mut handles = Vec::new();
        for _ in 0..10 {
            let db = db.clone();
            handles.push(tokio::spawn(async move {
                start_trial(&db, id, 1, Duration::days(7)).await
            }));
        }
        let mut started = 0;
        for handle in handles {
            match handle.await.expect("join") {
                Ok(expires) => {
                    started += 1;
                    let days = (expires - store::now()).num_hours();
                    assert!((167..=168).contains(&days), "expires in {days} hours");
                }
                Err(StoreError::Conflict(_)) => {}
                Err(other) => panic!("unexpected {other:?}"),
            }
        }
        assert_eq!(started, 1);
        let balance = credit_balance(&db, id, store::now())
            .await
            .expect("balance");
        assert_eq!((balance.trial, balance.paid, balance.total()), (1, 1, 2));

        assert_eq!(
            spend_credits(&db, id, 1, None).await.expect("spend"),
            Spend::Spent(CreditPool::Trial)
        );
        assert_eq!(
            spend_credits(&db, id, 1, None).await.expect("spend"),
            Spend::Spent(CreditPool::Paid)
        );
        assert_eq!(
            spend_credits(&db, id, 1, None).await.expect("spend"),
            Spend::Insufficient
        );
        let user = store::users::get_user(&db, id).await.expect("user");
        assert!(user.has_used_trial);
    }
);

both!(an_expired_trial_credit_cannot_be_spent, |db, engine| {
    let id = user(&db, "late@example.com").await;
    // A trial that expired a second ago stands in for one started eight days ago.
    start_trial(&db, id, 1, Duration::seconds(-1))
        .await
        .expect("trial");
    let balance = credit_balance(&db, id, store::now())
        .await
        .expect("balance");
    assert_eq!(balance.trial, 0);
    assert!(balance.trial_expires_at.is_some());
    assert_eq!(
        spend_credits(&db, id, 1, None).await.expect("spend"),
        Spend::Insufficient
    );
    assert!(matches!(
        start_trial(&db, 999_999, 1, Duration::days(7)).await,
        Err(StoreError::NotFound)
    ));
});

both!(refunds_return_credits_to_their_pool, |db, engine| {
    let id = user(&db, "refund@example.com").await;
    grant_credits(&db, id, 1, "admin", None)
        .await
        .expect("grant");
    let Spend::Spent(pool) = spend_credits(&db, id, 1, Some("job")).await.expect("spend") else {
        panic!("spend refused")
    };
    store::credits::refund_credits(&db, id, 1, pool, Some("job"))
        .await
        .expect("refund");
    assert_eq!(
        credit_balance(&db, id, store::now())
            .await
            .expect("balance")
            .paid,
        1
    );
    let reasons: HashSet<String> = credit_history(&db, id, 10)
        .await
        .expect("history")
        .into_iter()
        .map(|e| e.reason)
        .collect();
    assert_eq!(
        reasons,
        ["admin", "spend", "refund"]
            .into_iter()
            .map(String::from)
            .collect()
    );
});
