//! `/api/admin/affiliates...` on both engines: every route refused to the anonymous visitor
//! (401), a user (403) and, for changes, a support admin (403); read by every admin level;
//! approve and reject (a reason required) written to the audit log; the payout run; a payout
//! transferred through Stripe Connect (a local stand-in for Stripe's transfers endpoint).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use axum::http::{HeaderMap, StatusCode};
use chrono::Duration;
use serde_json::json;
use server::config::{Secret, Stripe};

use super::admin::{admin_cast, assert_refused_below};
use super::affiliates::application;
use crate::support::{TestDb, WEB_ONLY, config, each_engine, spawn_app};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn admin_affiliate_routes_answer_by_level() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let store_db = app.running.db.clone();
        let mut cast = admin_cast(&app.web, &store_db).await;
        let applied = cast
            .user
            .post("/api/affiliates/apply", application("user@example.com"))
            .await;
        assert_eq!(applied.status, 201, "{}", applied.json);
        let id = store::affiliates::find_affiliate_by_user(&store_db, cast.user_id)
            .await
            .expect("find")
            .expect("row")
            .id;

        for path in [
            "/api/admin/affiliates",
            "/api/admin/affiliates?status=pending",
            "/api/admin/affiliates/conversions",
            "/api/admin/affiliates/payouts",
        ] {
            assert_refused_below(&mut cast, "GET", path, None, "support").await;
            for b in [&mut cast.support, &mut cast.admin, &mut cast.owner] {
                let answer = b.get(path).await;
                assert_eq!(answer.status, 200, "{engine:?} {path}: {}", answer.json);
            }
        }
        let listed = cast
            .support
            .get("/api/admin/affiliates?status=pending")
            .await;
        assert_eq!(listed.json[0]["id"], id, "{}", listed.json);
        assert_eq!(
            listed.json[0]["motivation"],
            "My readers ask which audit tool to use"
        );
        let bad = cast.support.get("/api/admin/affiliates?status=maybe").await;
        assert_eq!(bad.status, 400);

        let reject = format!("/api/admin/affiliates/{id}/reject");
        let approve = format!("/api/admin/affiliates/{id}/approve");
        for (path, body) in [
            (reject.as_str(), json!({"reason": "No audience yet"})),
            (approve.as_str(), json!({})),
            ("/api/admin/affiliates/payouts/run", json!({})),
            (
                "/api/admin/affiliates/payouts/1/confirm",
                json!({"method": "manual", "note": "paid"}),
            ),
        ] {
            assert_refused_below(&mut cast, "POST", path, Some(body), "admin").await;
        }
        // Nothing changed for the refused.
        let row = store::affiliates::get_affiliate(&store_db, id)
            .await
            .expect("row");
        assert_eq!(row.status, "pending");

        // A rejection needs a reason; it is kept and shown to the applicant.
        let no_reason = cast.admin.post(&reject, json!({"reason": " "})).await;
        assert_eq!(no_reason.status, 422, "{engine:?}: {}", no_reason.json);
        let rejected = cast
            .admin
            .post(&reject, json!({"reason": "No audience yet"}))
            .await;
        assert_eq!(rejected.status, 200, "{engine:?}: {}", rejected.json);
        assert_eq!(rejected.json["status"], "rejected");
        let again = cast.owner.post(&approve, json!({})).await;
        assert_eq!(again.status, 409, "{engine:?}: {}", again.json);
        let mine = cast.user.get("/api/affiliates/me").await;
        assert_eq!(
            (
                mine.json["status"].as_str(),
                mine.json["rejectionReason"].as_str()
            ),
            (Some("rejected"), Some("No audience yet"))
        );
        let missing = cast
            .admin
            .post("/api/admin/affiliates/999999/approve", json!({}))
            .await;
        assert_eq!(missing.status, 404, "{engine:?}: {}", missing.json);
        let missing = cast
            .admin
            .post(
                "/api/admin/affiliates/payouts/999999/confirm",
                json!({"method": "manual", "note": "paid"}),
            )
            .await;
        assert_eq!(missing.status, 404, "{engine:?}: {}", missing.json);
        let run = cast
            .owner
            .post("/api/admin/affiliates/payouts/run", json!({}))
            .await;
        assert_eq!(run.status, 200, "{engine:?}: {}", run.json);
        assert_eq!(run.json, json!([]));

        let audit = cast.owner.get("/api/admin/audit").await;
        let newest = &audit.json["entries"][0];
        assert_eq!(newest["action"], "affiliate.reject");
        assert_eq!(newest["reason"], "No audience yet");
        assert_eq!(newest["actorEmail"], "admin@example.com");
        assert_eq!(newest["targetId"], id.to_string());
    })
    .await;
}

/// A stand-in for Stripe's `POST /v1/transfers` on 127.0.0.1 (localstripe has no Connect
/// transfers): it records each request's idempotency key, destination and amount, and answers
/// with a transfer id, or 402 while `refuse` holds.
async fn fake_stripe(seen: Arc<Mutex<Vec<(String, String)>>>, refuse: Arc<AtomicBool>) -> String {
    let app = axum::Router::new().route(
        "/v1/transfers",
        axum::routing::post(move |headers: HeaderMap, body: String| {
            let (seen, refuse) = (seen.clone(), refuse.clone());
            async move {
                let key = headers
                    .get("idempotency-key")
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or_default()
                    .to_owned();
                seen.lock().expect("lock").push((key, body));
                if refuse.load(Ordering::SeqCst) {
                    (
                        StatusCode::PAYMENT_REQUIRED,
                        axum::Json(json!({"error": {"message": "insufficient funds"}})),
                    )
                } else {
                    (
                        StatusCode::OK,
                        axum::Json(json!({"id": "tr_test_1", "object": "transfer"})),
                    )
                }
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move { axum::serve(listener, app).await.expect("serve") });
    format!("http://{addr}")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_payout_is_transferred_to_the_connected_account_through_stripe() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let seen = Arc::new(Mutex::new(Vec::new()));
        let refuse = Arc::new(AtomicBool::new(true));
        let api_base = fake_stripe(seen.clone(), refuse.clone()).await;
        let mut settings = config(&db);
        settings.stripe = Some(Stripe {
            secret_key: Secret("sk_test_sitelens".to_owned()),
            webhook_secret: Secret("whsec_sitelens_test".to_owned()),
            api_base,
        });
        let app = spawn_app(settings, WEB_ONLY).await;
        let store_db = app.running.db.clone();
        let mut cast = admin_cast(&app.web, &store_db).await;
        cast.user
            .post("/api/affiliates/apply", application("user@example.com"))
            .await;
        let id = store::affiliates::find_affiliate_by_user(&store_db, cast.user_id)
            .await
            .expect("find")
            .expect("row")
            .id;
        cast.admin
            .post(&format!("/api/admin/affiliates/{id}/approve"), json!({}))
            .await;

        // Approved commissions of $90 from a referred customer, the window passed.
        let click = store::affiliates::record_click(
            &store_db,
            id,
            &store::affiliates::NewClick {
                ip_address: "hash".into(),
                ..Default::default()
            },
            store::now(),
        )
        .await
        .expect("click");
        let buyer = store::users::create_user(
            &store_db,
            &store::users::NewUser {
                email: "buyer@example.com".into(),
                ..Default::default()
            },
        )
        .await
        .expect("buyer");
        assert!(
            store::affiliates::attribute_signup(
                &store_db,
                buyer.id,
                click.click_id(),
                buyer.created_at
            )
            .await
            .expect("attribute")
        );
        store::affiliates::record_payment(
            &store_db,
            &store::affiliates::Payment {
                user_id: buyer.id,
                payment_id: "pi_live_1".into(),
                amount_cents: 30_000,
                transaction_type: "credits:credit-100".into(),
                paid_at: buyer.created_at,
            },
        )
        .await
        .expect("conversion");
        let proposed =
            store::affiliates::propose_payouts(&store_db, store::now() + Duration::days(31), None)
                .await
                .expect("run");
        let payout = proposed[0].id;
        let confirm = format!("/api/admin/affiliates/payouts/{payout}/confirm");

        // Without a connected account a Stripe payout is refused; the account's form is checked.
        let refused = cast.admin.post(&confirm, json!({"method": "stripe"})).await;
        assert_eq!(refused.status, 422, "{engine:?}: {}", refused.json);
        let account = format!("/api/admin/affiliates/{id}/stripe-account");
        assert_refused_below(
            &mut cast,
            "POST",
            &account,
            Some(json!({"accountId": "acct_1Test", "reason": "Onboarded"})),
            "admin",
        )
        .await;
        let bad = cast
            .admin
            .post(
                &account,
                json!({"accountId": "cus_1", "reason": "Onboarded"}),
            )
            .await;
        assert_eq!(bad.status, 422, "{engine:?}: {}", bad.json);
        let no_reason = cast
            .admin
            .post(&account, json!({"accountId": "acct_1Test"}))
            .await;
        assert_eq!(no_reason.status, 422, "{engine:?}: {}", no_reason.json);
        let set = cast
            .admin
            .post(
                &account,
                json!({"accountId": "acct_1Test", "reason": "Onboarded on Stripe"}),
            )
            .await;
        assert_eq!(set.status, 200, "{engine:?}: {}", set.json);
        assert_eq!(set.json["hasConnectedAccount"], true);

        // Stripe refuses: nothing is recorded, the payout stays proposed.
        let failed = cast.admin.post(&confirm, json!({"method": "stripe"})).await;
        assert_eq!(failed.status, 502, "{engine:?}: {}", failed.json);
        let row = store::affiliates::get_payout(&store_db, payout)
            .await
            .expect("payout");
        assert_eq!(row.status, "pending");

        // Stripe transfers: the same idempotency key, the payout and its commissions paid.
        refuse.store(false, Ordering::SeqCst);
        let paid = cast.admin.post(&confirm, json!({"method": "stripe"})).await;
        assert_eq!(paid.status, 200, "{engine:?}: {}", paid.json);
        assert_eq!(
            (
                paid.json["status"].as_str(),
                paid.json["transferId"].as_str()
            ),
            (Some("paid"), Some("tr_test_1"))
        );
        let requests = seen.lock().expect("lock").clone();
        assert_eq!(requests.len(), 2);
        assert_eq!(
            requests[0].0, requests[1].0,
            "one idempotency key per payout"
        );
        assert_eq!(requests[1].0, format!("sitelens-payout-{payout}"));
        assert!(requests[1].1.contains("amount=9000"), "{}", requests[1].1);
        assert!(
            requests[1].1.contains("destination=acct_1Test"),
            "{}",
            requests[1].1
        );
        let affiliate = store::affiliates::get_affiliate(&store_db, id)
            .await
            .expect("row");
        assert_eq!(
            (
                affiliate.total_earnings_cents,
                affiliate.pending_payouts_cents
            ),
            (9_000, 0)
        );
        let audit = cast.owner.get("/api/admin/audit").await;
        let actions: Vec<&str> = audit.json["entries"]
            .as_array()
            .expect("entries")
            .iter()
            .filter_map(|e| e["action"].as_str())
            .collect();
        assert_eq!(
            actions[..2],
            ["affiliate.payout_confirm", "affiliate.stripe_account"]
        );
    })
    .await;
}
