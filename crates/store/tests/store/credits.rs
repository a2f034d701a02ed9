//! Credits: concurrent spends, idempotent payments, the trial.

use std::collections::HashSet;

use chrono::Duration;
use domain::credits::Credits;
use sea_orm::{DatabaseConnection, EntityTrait, PaginatorTrait};
use store::StoreError;
use store::credits::{
    Charge, CreditPool, Grant, Payer, Purchase, Spend, credit_balance, credit_history,
    grant_credits, grant_purchase, ledger_delta, spend_credits, start_trial,
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

fn whole(n: u32) -> Credits {
    Credits::whole(n)
}

/// A spend paid wholly from `user`'s own paid credits.
fn paid(user: i64, credits: Credits) -> Spend {
    Spend::Spent(Charge {
        trial: Credits::ZERO,
        paid: credits,
        plan: Credits::ZERO,
        paid_by: user,
    })
}

both!(concurrent_spends_never_go_below_zero, |db, engine| {
    let id = user(&db, "spender@example.com").await;
    grant_credits(&db, id, whole(25), "admin", None)
        .await
        .expect("grant");

    // A hundred basic reports at half a credit each against 25 credits.
    let mut handles = Vec::new();
    for i in 0..100 {
        let db = db.clone();
        handles.push(tokio::spawn(async move {
            spend_credits(
                &db,
                Payer::own(id),
                Credits::HALF,
                Some(&format!("job-{i}")),
            )
            .await
            .expect("spend")
        }));
    }
    let mut spent = 0;
    let mut refused = 0;
    for handle in handles {
        match handle.await.expect("join") {
            s if s == paid(id, Credits::HALF) => spent += 1,
            Spend::Insufficient { balance } => {
                assert_eq!(balance, Credits::ZERO, "refused only once nothing is left");
                refused += 1
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    eprintln!(
        "{engine:?}: 100 concurrent half-credit spends on 25 credits: {spent} spent, {refused} refused"
    );
    assert_eq!((spent, refused), (50, 50));
    let balance = credit_balance(&db, id, store::now())
        .await
        .expect("balance");
    assert_eq!(balance.paid, Credits::ZERO);
    let history = credit_history(&db, id, 1000).await.expect("history");
    assert_eq!(
        history
            .iter()
            .filter(|e| e.reason == "spend" && ledger_delta(e) == (false, Credits::HALF))
            .count(),
        50
    );
    assert_eq!(history.iter().map(|e| e.delta).sum::<i32>(), 0);
});

both!(
    a_spend_larger_than_the_balance_changes_nothing,
    |db, engine| {
        let id = user(&db, "small@example.com").await;
        grant_credits(&db, id, Credits::from_halves(5), "admin", None)
            .await
            .expect("grant");
        assert_eq!(
            spend_credits(&db, Payer::own(id), whole(3), None)
                .await
                .expect("spend"),
            Spend::Insufficient {
                balance: Credits::from_halves(5)
            }
        );
        assert_eq!(
            spend_credits(&db, Payer::own(id), whole(2), None)
                .await
                .expect("spend"),
            paid(id, whole(2))
        );
        assert_eq!(
            credit_balance(&db, id, store::now())
                .await
                .expect("balance")
                .paid,
            Credits::HALF
        );
        assert!(matches!(
            spend_credits(&db, Payer::own(424_242), whole(1), None).await,
            Err(StoreError::NotFound)
        ));
    }
);

both!(
    team_members_spend_the_owners_credits_alongside_the_owner,
    |db, engine| {
        let owner = user(&db, "owner@example.com").await;
        let member = user(&db, "member@example.com").await;
        grant_credits(&db, owner, whole(10), "admin", None)
            .await
            .expect("grant");
        grant_credits(&db, member, whole(3), "admin", None)
            .await
            .expect("grant");
        // Owner and member spend at once: the rows are locked in one order, so nobody waits
        // on a deadlock, and the owner's ten credits pay exactly ten reports.
        let mut handles = Vec::new();
        for i in 0..30 {
            let db = db.clone();
            let payer = if i % 2 == 0 {
                Payer::own(owner)
            } else {
                Payer {
                    user_id: member,
                    paid_by: owner,
                }
            };
            handles.push(tokio::spawn(async move {
                spend_credits(&db, payer, whole(1), None)
                    .await
                    .expect("spend")
            }));
        }
        let mut spent = 0;
        for handle in handles {
            if let Spend::Spent(charge) = handle.await.expect("join") {
                assert_eq!(charge.paid_by, owner);
                spent += 1;
            }
        }
        assert_eq!(spent, 10);
        let at = store::now();
        assert_eq!(
            credit_balance(&db, owner, at).await.expect("owner").paid,
            Credits::ZERO
        );
        assert_eq!(
            credit_balance(&db, member, at).await.expect("member").paid,
            whole(3),
            "the member's own credits are not the team's"
        );
    }
);

both!(
    a_payment_delivered_ten_times_at_once_is_granted_once,
    |db, engine| {
        let id = user(&db, "payer@example.com").await;
        let purchase = Purchase {
            user_id: id,
            payment_id: "pi_123".into(),
            credits: whole(5),
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
            whole(5)
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
            whole(10)
        );

        // A purchase is of whole credits.
        let half = Purchase {
            payment_id: "pi_half".into(),
            credits: Credits::HALF,
            ..purchase.clone()
        };
        assert!(matches!(
            grant_purchase(&db, &half).await,
            Err(StoreError::Conflict(_))
        ));
    }
);

both!(
    a_payment_for_a_missing_user_leaves_no_trace,
    |db, engine| {
        let purchase = Purchase {
            user_id: 777_777,
            payment_id: "pi_orphan".into(),
            credits: whole(1),
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
        grant_credits(&db, id, whole(1), "admin", None)
            .await
            .expect("grant");

        let mut handles = Vec::new();
        for _ in 0..10 {
            let db = db.clone();
            handles.push(tokio::spawn(async move {
                start_trial(&db, id, whole(1), Duration::days(7)).await
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
        assert_eq!(
            (balance.trial, balance.paid, balance.total()),
            (whole(1), whole(1), whole(2))
        );

        let me = Payer::own(id);
        // A basic report takes half the trial credit...
        assert_eq!(
            spend_credits(&db, me, Credits::HALF, None)
                .await
                .expect("spend"),
            Spend::Spent(Charge {
                trial: Credits::HALF,
                paid: Credits::ZERO,
                plan: Credits::ZERO,
                paid_by: id
            })
        );
        // ...a standard one the other half and half a paid credit...
        assert_eq!(
            spend_credits(&db, me, whole(1), None).await.expect("spend"),
            Spend::Spent(Charge {
                trial: Credits::HALF,
                paid: Credits::HALF,
                plan: Credits::ZERO,
                paid_by: id
            })
        );
        // ...and half a credit is left.
        assert_eq!(
            spend_credits(&db, me, whole(1), None).await.expect("spend"),
            Spend::Insufficient {
                balance: Credits::HALF
            }
        );
        assert_eq!(
            spend_credits(&db, me, Credits::HALF, None)
                .await
                .expect("spend"),
            paid(id, Credits::HALF)
        );
        let user = store::users::get_user(&db, id).await.expect("user");
        assert!(user.has_used_trial);
        let pools: Vec<(String, i32)> = credit_history(&db, id, 10)
            .await
            .expect("history")
            .into_iter()
            .filter(|e| e.reason == "spend")
            .map(|e| (e.pool, e.delta))
            .collect();
        assert_eq!(
            pools,
            [("paid", -1), ("paid", -1), ("trial", -1), ("trial", -1)]
                .map(|(p, d)| (p.to_owned(), d))
                .to_vec(),
            "newest first, one row per pool, in half credits"
        );
    }
);

both!(an_expired_trial_credit_cannot_be_spent, |db, engine| {
    let id = user(&db, "late@example.com").await;
    // A trial that expired a second ago stands in for one started eight days ago.
    start_trial(&db, id, whole(1), Duration::seconds(-1))
        .await
        .expect("trial");
    let balance = credit_balance(&db, id, store::now())
        .await
        .expect("balance");
    assert_eq!(balance.trial, Credits::ZERO);
    assert!(balance.trial_expires_at.is_some());
    assert_eq!(
        spend_credits(&db, Payer::own(id), Credits::HALF, None)
            .await
            .expect("spend"),
        Spend::Insufficient {
            balance: Credits::ZERO
        }
    );
    assert!(matches!(
        start_trial(&db, 999_999, whole(1), Duration::days(7)).await,
        Err(StoreError::NotFound)
    ));
});

both!(refunds_return_credits_to_their_pool, |db, engine| {
    let id = user(&db, "refund@example.com").await;
    grant_credits(&db, id, whole(1), "admin", None)
        .await
        .expect("grant");
    assert_eq!(
        spend_credits(&db, Payer::own(id), whole(1), Some("job"))
            .await
            .expect("spend"),
        paid(id, whole(1))
    );
    store::credits::refund_credits(&db, id, whole(1), CreditPool::Paid, Some("job"))
        .await
        .expect("refund");
    assert_eq!(
        credit_balance(&db, id, store::now())
            .await
            .expect("balance")
            .paid,
        whole(1)
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
