//! The affiliate programme end to end in the store: clicks counted once a day per address,
//! sign-ups attributed within the cookie window, conversions once per payment within a year of
//! sign-up, refunds reversing, the refund window passing on the caller's clock, payouts
//! proposed above the minimum and confirmed, and every total on the affiliate row equal to the
//! rows it summarises.

use chrono::{DateTime, Duration, Utc};
use domain::affiliates::{AffiliateStatus, CommissionStatus, PAYOUT_MINIMUM_CENTS, PayoutMethod};
use sea_orm::{ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter, QueryOrder};
use store::StoreError;
use store::affiliates::{
    ClickOutcome, NewAffiliate, NewClick, PaidPayout, Payment, approve_due, attribute_signup,
    commission_sums, confirm_payout, create_affiliate, get_affiliate, propose_payouts,
    record_click, record_payment, reverse_payment, review_affiliate,
};
use store::audit::NewAuditEntry;
use store::entity::{affiliate_clicks, affiliate_conversions, affiliate_payouts, affiliates};

use crate::support::{both, new_user};

fn audit(action: &str) -> NewAuditEntry {
    NewAuditEntry::operator(action, "affiliate", None, serde_json::json!({}))
}

async fn approved_affiliate(
    db: &DatabaseConnection,
    email: &str,
    code: &str,
) -> (affiliates::Model, i64) {
    let owner = new_user(db, email).await;
    let affiliate = create_affiliate(
        db,
        &NewAffiliate {
            user_id: Some(owner.id),
            affiliate_code: code.into(),
            name: "Ann".into(),
            email: email.into(),
            experience: "SEO".into(),
            traffic_source: "Website or blog".into(),
            monthly_traffic: "Under 1,000".into(),
            motivation: "Readers".into(),
            commission_rate: 30,
            ..Default::default()
        },
    )
    .await
    .expect("affiliate");
    let approved = review_affiliate(
        db,
        affiliate.id,
        AffiliateStatus::Approved,
        None,
        store::now(),
        &audit("affiliate.approve"),
    )
    .await
    .expect("approve");
    (approved, owner.id)
}

fn click(ip: &str) -> NewClick {
    NewClick {
        ip_address: ip.into(),
        user_agent: Some("test".into()),
        referrer: Some("https://blog.example/post".into()),
        landing_page: Some("/?ref=ANN".into()),
    }
}

async fn pay(db: &DatabaseConnection, user: i64, id: &str, cents: i64, at: DateTime<Utc>) -> bool {
    record_payment(
        db,
        &Payment {
            user_id: user,
            payment_id: id.into(),
            amount_cents: cents,
            transaction_type: "credits:pack".into(),
            paid_at: at,
        },
    )
    .await
    .expect("payment")
    .is_some()
}

/// The totals on the row against the rows: clicks, conversions, earnings, unpaid, paid.
async fn reconcile(db: &DatabaseConnection, affiliate_id: i64) -> (i64, i64, i64, i64) {
    let row = get_affiliate(db, affiliate_id).await.expect("row");
    let clicks = affiliate_clicks::Entity::find()
        .filter(affiliate_clicks::Column::AffiliateId.eq(affiliate_id))
        .all(db)
        .await
        .expect("clicks")
        .len() as i64;
    let sums = commission_sums(db, affiliate_id).await.expect("sums");
    let paid_payouts: i64 = affiliate_payouts::Entity::find()
        .filter(affiliate_payouts::Column::AffiliateId.eq(affiliate_id))
        .filter(affiliate_payouts::Column::Status.eq("paid"))
        .all(db)
        .await
        .expect("payouts")
        .iter()
        .map(|p| p.amount_cents)
        .sum();
    let pending_payouts: Vec<affiliate_payouts::Model> = affiliate_payouts::Entity::find()
        .filter(affiliate_payouts::Column::AffiliateId.eq(affiliate_id))
        .filter(affiliate_payouts::Column::Status.eq("pending"))
        .all(db)
        .await
        .expect("payouts");
    for p in &pending_payouts {
        let in_it: i64 = affiliate_conversions::Entity::find()
            .filter(affiliate_conversions::Column::PayoutId.eq(p.id))
            .all(db)
            .await
            .expect("conversions")
            .iter()
            .map(|c| c.commission_amount_cents)
            .sum();
        assert_eq!(
            in_it, p.amount_cents,
            "a proposed payout is its commissions"
        );
    }
    assert_eq!(i64::from(row.total_clicks), clicks, "clicks");
    assert_eq!(
        i64::from(row.total_conversions),
        sums.conversions,
        "conversions"
    );
    assert_eq!(
        row.total_earnings_cents,
        sums.pending + sums.approved + sums.paid,
        "earnings"
    );
    assert_eq!(
        row.pending_payouts_cents,
        sums.pending + sums.approved,
        "unpaid"
    );
    assert_eq!(
        row.total_earnings_cents - row.pending_payouts_cents,
        paid_payouts,
        "paid out"
    );
    assert_eq!(
        sums.paid, paid_payouts,
        "paid commissions are the paid payouts"
    );
    (
        clicks,
        sums.conversions,
        row.total_earnings_cents,
        paid_payouts,
    )
}

both!(
    affiliate_amounts_reconcile_from_click_to_payout,
    |db, engine| {
        let (affiliate, owner) = approved_affiliate(&db, "ann@example.com", "ANN30").await;
        // Clicks count once per address and UTC day, and the first two below are five minutes
        // apart: a run in the day's last minutes starts them early enough to stay in one day.
        let now = store::now();
        let t0 = now.min(
            now.date_naive()
                .and_hms_opt(23, 54, 0)
                .expect("a time of day")
                .and_utc(),
        );

        // Clicks: one per hashed address and day.
        let first = record_click(&db, affiliate.id, &click("h1"), t0)
            .await
            .expect("click");
        assert!(matches!(first, ClickOutcome::Counted(_)));
        let again = record_click(&db, affiliate.id, &click("h1"), t0 + Duration::minutes(5))
            .await
            .expect("click");
        assert_eq!(again, ClickOutcome::Repeated(first.click_id()));
        record_click(&db, affiliate.id, &click("h2"), t0)
            .await
            .expect("click");
        record_click(&db, affiliate.id, &click("h1"), t0 + Duration::days(1))
            .await
            .expect("next day");
        assert!(matches!(
            record_click(&db, 999_999, &click("h1"), t0).await,
            Err(StoreError::NotFound)
        ));

        // Sign-ups: after the click and within the window, once, never the affiliate itself.
        let before = new_user(&db, "early@example.com").await;
        let late_click = record_click(
            &db,
            affiliate.id,
            &click("h3"),
            // Within the same second as the sign-up, but after it.
            before.created_at + Duration::microseconds(1),
        )
        .await
        .expect("click");
        assert!(
            !attribute_signup(
                &db,
                before.id,
                late_click.click_id(),
                before.created_at + Duration::seconds(2)
            )
            .await
            .expect("attr")
        );
        let buyer = new_user(&db, "buyer@example.com").await;
        assert!(
            attribute_signup(&db, buyer.id, first.click_id(), buyer.created_at)
                .await
                .expect("attr")
        );
        assert!(
            !attribute_signup(&db, buyer.id, first.click_id(), buyer.created_at)
                .await
                .expect("twice")
        );
        assert!(
            !attribute_signup(&db, owner, first.click_id(), t0)
                .await
                .expect("self")
        );
        let stale = new_user(&db, "stale@example.com").await;
        assert!(
            !attribute_signup(&db, stale.id, first.click_id(), t0 + Duration::days(31))
                .await
                .expect("out of window")
        );

        // Conversions: 30 % rounded down, once per payment, none after a year, none unreferred.
        let paid_at = buyer.created_at + Duration::minutes(1);
        assert!(pay(&db, buyer.id, "pi_1", 9_999, paid_at).await);
        assert!(
            !pay(&db, buyer.id, "pi_1", 9_999, paid_at).await,
            "once per payment"
        );
        assert!(pay(&db, buyer.id, "pi_2", 20_000, paid_at).await);
        assert!(pay(&db, buyer.id, "pi_3", 4_900, paid_at).await);
        assert!(
            !pay(
                &db,
                buyer.id,
                "pi_late",
                4_900,
                buyer.created_at + Duration::days(366)
            )
            .await
        );
        assert!(!pay(&db, stale.id, "pi_stale", 4_900, paid_at).await);
        assert_eq!(
            reconcile(&db, affiliate.id).await,
            (4, 3, 2_999 + 6_000 + 1_470, 0)
        );

        // A refund reverses a pending commission, once.
        assert!(reverse_payment(&db, "pi_3", paid_at).await.expect("refund"));
        assert!(!reverse_payment(&db, "pi_3", paid_at).await.expect("again"));
        assert!(
            !reverse_payment(&db, "pi_unknown", paid_at)
                .await
                .expect("unknown")
        );
        assert_eq!(reconcile(&db, affiliate.id).await, (4, 2, 8_999, 0));

        // Nothing is approved inside the refund window, so nothing is paid out.
        assert_eq!(
            approve_due(&db, paid_at + Duration::days(29))
                .await
                .expect("approve"),
            0
        );
        assert!(
            propose_payouts(&db, paid_at + Duration::days(29), None)
                .await
                .expect("run")
                .is_empty()
        );

        // The window passes: both commissions are approved and proposed as one payout.
        let run_at = paid_at + Duration::days(31);
        let proposed = propose_payouts(&db, run_at, None).await.expect("run");
        assert_eq!(proposed.len(), 1);
        assert_eq!(proposed[0].amount_cents, 8_999);
        assert!(
            propose_payouts(&db, run_at, None)
                .await
                .expect("rerun")
                .is_empty(),
            "each once"
        );
        reconcile(&db, affiliate.id).await;

        // A refund of an approved commission in a proposed payout takes it out of the payout.
        assert!(reverse_payment(&db, "pi_1", run_at).await.expect("refund"));
        let payout = store::affiliates::get_payout(&db, proposed[0].id)
            .await
            .expect("payout");
        assert_eq!(payout.amount_cents, 6_000);
        reconcile(&db, affiliate.id).await;

        let paid = confirm_payout(
            &db,
            payout.id,
            &PaidPayout {
                method: PayoutMethod::Manual,
                transfer_id: None,
                note: Some("bank transfer".into()),
            },
            run_at,
            &audit("affiliate.payout_confirm"),
        )
        .await
        .expect("confirm");
        assert_eq!((paid.status.as_str(), paid.amount_cents), ("paid", 6_000));
        assert!(matches!(
            confirm_payout(
                &db,
                payout.id,
                &PaidPayout {
                    method: PayoutMethod::Manual,
                    transfer_id: None,
                    note: Some("again".into()),
                },
                run_at,
                &audit("affiliate.payout_confirm"),
            )
            .await,
            Err(StoreError::Conflict(_))
        ));
        // A paid commission is not reversed by a later refund.
        assert!(
            !reverse_payment(&db, "pi_2", run_at)
                .await
                .expect("late refund")
        );
        assert_eq!(reconcile(&db, affiliate.id).await, (4, 1, 6_000, 6_000));
        let row = get_affiliate(&db, affiliate.id).await.expect("row");
        assert_eq!(row.last_payout_date, Some(run_at));
        assert!(row.next_payout_date.expect("next") > run_at);
        let statuses: Vec<String> = affiliate_conversions::Entity::find()
            .order_by_asc(affiliate_conversions::Column::Id)
            .all(&db)
            .await
            .expect("all")
            .into_iter()
            .map(|c| c.commission_status)
            .collect();
        assert_eq!(
            statuses,
            [
                CommissionStatus::Reversed.as_str(),
                CommissionStatus::Paid.as_str(),
                CommissionStatus::Reversed.as_str()
            ]
        );
    }
);

both!(
    payouts_wait_for_the_minimum_and_approved_affiliates,
    |db, engine| {
        let (affiliate, _) = approved_affiliate(&db, "min@example.com", "MIN30").await;
        let c = record_click(&db, affiliate.id, &click("m1"), store::now())
            .await
            .expect("click");
        let buyer = new_user(&db, "b@example.com").await;
        assert!(
            attribute_signup(&db, buyer.id, c.click_id(), buyer.created_at)
                .await
                .expect("attr")
        );
        // 30 % of $166.63 is $49.98, under the $50 minimum; a cent more reaches it.
        assert!(pay(&db, buyer.id, "pi_a", 16_663, buyer.created_at).await);
        let later = buyer.created_at + Duration::days(40);
        assert!(
            propose_payouts(&db, later, None)
                .await
                .expect("run")
                .is_empty()
        );
        assert!(pay(&db, buyer.id, "pi_b", 10, buyer.created_at).await);
        let proposed = propose_payouts(&db, later, None).await.expect("run");
        assert_eq!(proposed[0].amount_cents, PAYOUT_MINIMUM_CENTS - 2 + 3);
        reconcile(&db, affiliate.id).await;

        // A rejected application: decided once, with its reason; a referral through it links nobody.
        let owner = new_user(&db, "rej@example.com").await;
        let pending = create_affiliate(
            &db,
            &NewAffiliate {
                user_id: Some(owner.id),
                affiliate_code: "REJ30".into(),
                email: "rej@example.com".into(),
                commission_rate: 30,
                ..Default::default()
            },
        )
        .await
        .expect("affiliate");
        let rejected = review_affiliate(
            &db,
            pending.id,
            AffiliateStatus::Rejected,
            Some("No audience yet"),
            store::now(),
            &audit("affiliate.reject"),
        )
        .await
        .expect("reject");
        assert_eq!(
            (
                rejected.status.as_str(),
                rejected.rejection_reason.as_deref()
            ),
            ("rejected", Some("No audience yet"))
        );
        assert!(matches!(
            review_affiliate(
                &db,
                pending.id,
                AffiliateStatus::Approved,
                None,
                store::now(),
                &audit("affiliate.approve"),
            )
            .await,
            Err(StoreError::Conflict(_))
        ));
        let rc = record_click(&db, pending.id, &click("r1"), store::now())
            .await
            .expect("click");
        let other = new_user(&db, "o@example.com").await;
        assert!(
            !attribute_signup(&db, other.id, rc.click_id(), other.created_at)
                .await
                .expect("attr")
        );
        let entries = store::audit::list(&db, None, 10).await.expect("audit");
        let actions: Vec<&str> = entries.iter().map(|e| e.action.as_str()).collect();
        // The refused second decision left no row.
        assert_eq!(actions, ["affiliate.reject", "affiliate.approve"]);
    }
);
