//! The affiliate programme over HTTP on both engines: who may apply and read a dashboard
//! (anonymous, the applicant, another user, a team member, a site admin), one application per
//! account and e-mail, and the whole path from a `?ref=` click through sign-up, a test payment,
//! a refund reversing its commission, the refund window passing on an injected clock, the payout
//! run and an admin's manual payout.

use chrono::Duration;
use serde_json::{Value, json};

use super::accounts::{Browser, PASSWORD};
use super::api_keys::{Cast, cast, signed_up};
use crate::support::{TestDb, WEB_ONLY, Web, config, each_engine, make_admin, spawn_app};

pub(crate) fn application(email: &str) -> Value {
    json!({
        "name": "Ann Affiliate",
        "email": email,
        "website": "",
        "company": "",
        "experience": "Five years of SEO consulting",
        "trafficSource": "Website or blog",
        "monthlyTraffic": "1,000 to 10,000",
        "motivation": "My readers ask which audit tool to use"
    })
}

/// Visits `path` as a fresh browser would (no cookies); returns the status and the referral
/// cookie's `name=value` and whole `Set-Cookie`, when one was set.
pub(crate) async fn visit(
    web: &Web,
    path: &str,
    session: Option<&str>,
) -> (u16, Option<(String, String)>) {
    let mut req = web
        .http
        .get(format!("{}{path}", web.base))
        .header("user-agent", "Mozilla/5.0 test")
        .header("referer", "https://blog.example/post");
    if let Some(session) = session {
        req = req.header("cookie", session);
    }
    let res = req.send().await.expect("page");
    let cookie = res
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("sitelens_ref="))
        .map(|v| {
            (
                v.split(';').next().unwrap_or_default().to_owned(),
                v.to_owned(),
            )
        });
    (res.status().as_u16(), cookie)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn affiliate_routes_answer_by_who_asks() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let store_db = app.running.db.clone();
        let Cast {
            mut owner,
            mut member,
            mut site_admin,
            mut other,
            mut anonymous,
            ..
        } = cast(&app.web, &store_db).await;

        // Anonymous: must sign in to apply or read; the link is simply absent.
        let a = anonymous
            .post("/api/affiliates/apply", application("x@example.com"))
            .await;
        assert_eq!(a.status, 401, "{engine:?}: {}", a.json);
        assert_eq!(a.json["success"], false);
        assert_eq!(anonymous.get("/api/affiliates/me").await.status, 401);
        let link = anonymous.get("/api/affiliates/link").await;
        assert_eq!(
            (link.status, &link.json["referralLink"]),
            (200, &Value::Null)
        );

        // The owner applies once; bad forms are refused with the field's message.
        let bad = owner
            .post(
                "/api/affiliates/apply",
                json!({"name": "Ann", "email": "ann@example.com"}),
            )
            .await;
        assert_eq!(bad.status, 422, "{engine:?}: {}", bad.json);
        assert_eq!(
            bad.json["error"],
            "Please tell us about your marketing experience"
        );
        let applied = owner
            .post("/api/affiliates/apply", application("ann@example.com"))
            .await;
        assert_eq!(applied.status, 201, "{engine:?}: {}", applied.json);
        assert_eq!(applied.json["status"], "pending");
        let code = applied.json["code"].as_str().expect("code").to_owned();
        assert_eq!(
            applied.json["referralLink"],
            format!("https://sitelens.test/?ref={code}")
        );
        let twice = owner
            .post("/api/affiliates/apply", application("ann2@example.com"))
            .await;
        assert_eq!(twice.status, 409, "{engine:?}: {}", twice.json);
        assert_eq!(
            twice.json["error"],
            domain::affiliates::ALREADY_APPLIED_MESSAGE
        );
        let same_email = other
            .post("/api/affiliates/apply", application("ANN@example.com"))
            .await;
        assert_eq!(same_email.status, 409, "{engine:?}: {}", same_email.json);
        let me = owner.get("/api/affiliates/me").await;
        assert_eq!(
            (me.status, me.json["code"].as_str()),
            (200, Some(code.as_str()))
        );
        // A pending application has no referral link to share yet.
        let link = owner.get("/api/affiliates/link").await;
        assert_eq!(link.json["referralLink"], Value::Null);

        // Everyone else sees only their own (none): the team member, the site admin, another.
        for (who, b) in [
            ("member", &mut member),
            ("site admin", &mut site_admin),
            ("other", &mut other),
        ] {
            let me = b.get("/api/affiliates/me").await;
            assert_eq!(me.status, 404, "{engine:?} {who}: {}", me.json);
            assert_eq!(me.json["success"], false);
            assert_eq!(
                b.get("/api/affiliates/link").await.json["referralLink"],
                Value::Null
            );
        }

        // Banners are public images in the standard sizes only.
        let res = app
            .http
            .get(format!("{}/api/affiliates/banners/728x90.svg", app.base))
            .send()
            .await
            .expect("banner");
        assert_eq!(res.status(), 200);
        assert!(
            res.headers()["content-type"]
                .to_str()
                .unwrap_or("")
                .starts_with("image/svg+xml")
        );
        assert!(res.text().await.expect("svg").starts_with("<svg"));
        let odd = app.get("/api/affiliates/banners/100x100.svg").await;
        assert_eq!(odd.status, 404);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_referred_purchase_becomes_a_commission_then_a_payout() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let store_db = app.running.db.clone();
        let (mut ann, ann_id) = signed_up(&app.web, "ann@example.com", "ann").await;
        let (mut boss, boss_id) = signed_up(&app.web, "boss@example.com", "boss").await;
        make_admin(&store_db, boss_id, "admin").await;
        let applied = ann
            .post("/api/affiliates/apply", application("ann@example.com"))
            .await;
        let code = applied.json["code"].as_str().expect("code").to_owned();
        let affiliate = store::affiliates::find_affiliate_by_user(&store_db, ann_id)
            .await
            .expect("find")
            .expect("applied");

        // Before approval a referral link records nothing.
        let (status, cookie) = visit(&app.web, &format!("/?ref={code}"), None).await;
        assert_eq!((status, cookie.is_none()), (200, true));
        let approved = boss
            .post(
                &format!("/api/admin/affiliates/{}/approve", affiliate.id),
                json!({}),
            )
            .await;
        assert_eq!(approved.status, 200, "{engine:?}: {}", approved.json);
        assert_eq!(approved.json["status"], "approved");
        let link = ann.get("/api/affiliates/link").await;
        assert_eq!(
            link.json,
            json!({"code": code, "referralLink": format!("https://sitelens.test/?ref={code}")})
        );

        // The click: any page, the code in any case; an HttpOnly, SameSite=Lax cookie for 30
        // days; the same address again today is not counted again.
        let (status, cookie) = visit(
            &app.web,
            &format!("/pricing?ref={}", code.to_lowercase()),
            None,
        )
        .await;
        assert_eq!(status, 200);
        let (cookie, set) = cookie.expect("referral cookie");
        for part in [
            "HttpOnly",
            "SameSite=Lax",
            "Max-Age=2592000",
            "Path=/",
            "Secure",
        ] {
            assert!(set.contains(part), "{set}");
        }
        let (_, again) = visit(&app.web, &format!("/?ref={code}"), None).await;
        assert!(
            again.is_some(),
            "a repeated click still carries the referral"
        );
        let (_, unknown) = visit(&app.web, "/?ref=NOSUCHCODE", None).await;
        assert!(unknown.is_none());
        assert_eq!(ann.get("/api/affiliates/me").await.json["clicks"], 1);
        let clicks = store::affiliates::find_affiliate_by_user(&store_db, ann_id)
            .await
            .expect("find")
            .expect("row");
        assert_eq!(clicks.total_clicks, 1);

        // A forged cookie names nothing; the real one links the new account.
        let mut forged = Browser::new(&app.web);
        forged.carry_cookie("sitelens_ref=1.0000000000000000".to_owned());
        let forged_id = forged.sign_up("forged@example.com", "forged").await.json["account"]["id"]
            .as_i64()
            .expect("id");
        assert!(
            store::affiliates::referral_of(&store_db, forged_id)
                .await
                .expect("ref")
                .is_none()
        );
        let mut buyer = Browser::new(&app.web);
        buyer.carry_cookie(cookie.clone());
        let buyer_id = buyer.sign_up("buyer@example.com", "buyer").await.json["account"]["id"]
            .as_i64()
            .expect("id");
        let referral = store::affiliates::referral_of(&store_db, buyer_id)
            .await
            .expect("ref")
            .expect("the sign-up is the affiliate's");
        assert_eq!(referral.affiliate_id, affiliate.id);

        // Two test payments of packs: 30 % of each, pending.
        let mut payments = Vec::new();
        for package in ["credit-5", "credit-20"] {
            let started = buyer
                .post("/api/checkout", json!({"package": package}))
                .await;
            assert_eq!(started.status, 200, "{engine:?}: {}", started.json);
            let id = started.json["id"].as_str().expect("id").to_owned();
            let paid = buyer
                .post(&format!("/api/test-payments/{id}/pay"), json!({}))
                .await;
            assert_eq!(paid.status, 200, "{engine:?}: {}", paid.json);
            payments.push((
                format!("pi_test_{}", id.trim_start_matches("chk_")),
                started.json["item"]["amountCents"]
                    .as_i64()
                    .expect("amount"),
            ));
        }
        let dash = ann.get("/api/affiliates/me").await;
        let expected: i64 = payments.iter().map(|(_, a)| a * 30 / 100).sum();
        assert_eq!(dash.json["conversions"], 2, "{}", dash.json);
        assert_eq!(dash.json["pendingCents"], expected);
        assert_eq!(dash.json["earningsCents"], expected);
        assert_eq!(dash.json["recentConversions"][0]["status"], "pending");

        // The affiliate's own purchases earn nothing (no self-referral).
        let own = ann
            .post("/api/checkout", json!({"package": "credit-5"}))
            .await;
        let own_id = own.json["id"].as_str().expect("id").to_owned();
        ann.post(&format!("/api/test-payments/{own_id}/pay"), json!({}))
            .await;
        assert_eq!(ann.get("/api/affiliates/me").await.json["conversions"], 2);

        // A refund of the first payment reverses its commission.
        let refund = buyer
            .post(
                "/api/test-payments/refund",
                json!({"paymentId": payments[0].0}),
            )
            .await;
        assert_eq!(refund.status, 200, "{engine:?}: {}", refund.json);
        let dash = ann.get("/api/affiliates/me").await;
        let kept = payments[1].1 * 30 / 100;
        assert_eq!(
            (
                dash.json["conversions"].as_i64(),
                dash.json["earningsCents"].as_i64()
            ),
            (Some(1), Some(kept))
        );

        // Inside the refund window the run proposes nothing; after it, the approved commission
        // (under the $50 minimum) still waits; a $300 purchase makes it reach it.
        let now = store::now();
        let run = store::affiliates::propose_payouts(&store_db, now, None)
            .await
            .expect("run");
        assert!(run.is_empty());
        let run = store::affiliates::propose_payouts(&store_db, now + Duration::days(31), None)
            .await
            .expect("run");
        assert!(run.is_empty(), "under the minimum");
        let big = buyer
            .post("/api/checkout", json!({"package": "credit-100"}))
            .await;
        assert_eq!(big.status, 200, "{engine:?}: {}", big.json);
        let big_id = big.json["id"].as_str().expect("id").to_owned();
        buyer
            .post(&format!("/api/test-payments/{big_id}/pay"), json!({}))
            .await;
        let big_cents = big.json["item"]["amountCents"].as_i64().expect("amount");
        let later = now + Duration::days(31);
        let run = store::affiliates::propose_payouts(&store_db, later, None)
            .await
            .expect("run");
        assert_eq!(run.len(), 1);
        assert_eq!(run[0].amount_cents, kept + big_cents * 30 / 100);
        let payout = run[0].id;

        // The admin confirms it: Stripe needs keys, a manual payout needs a note.
        let confirm = format!("/api/admin/affiliates/payouts/{payout}/confirm");
        let stripe = boss.post(&confirm, json!({"method": "stripe"})).await;
        assert_eq!(stripe.status, 422, "{engine:?}: {}", stripe.json);
        let no_note = boss
            .post(&confirm, json!({"method": "manual", "note": " "}))
            .await;
        assert_eq!(no_note.status, 422, "{engine:?}: {}", no_note.json);
        let paid = boss
            .post(
                &confirm,
                json!({"method": "manual", "note": "Bank transfer ref 42"}),
            )
            .await;
        assert_eq!(paid.status, 200, "{engine:?}: {}", paid.json);
        assert_eq!(paid.json["status"], "paid");
        let twice = boss
            .post(
                &confirm,
                json!({"method": "manual", "note": "Bank transfer ref 42"}),
            )
            .await;
        assert_eq!(twice.status, 409, "{engine:?}: {}", twice.json);
        let dash = ann.get("/api/affiliates/me").await;
        assert_eq!(dash.json["paidCents"], run[0].amount_cents, "{}", dash.json);
        assert_eq!(dash.json["approvedCents"], 0);
        assert_eq!(dash.json["payouts"][0]["note"], "Bank transfer ref 42");
        assert!(dash.json["lastPayoutDate"].is_string());
        assert!(dash.json["nextPayoutDate"].is_string());

        // Every change is in the audit log.
        let audit = boss.get("/api/admin/audit").await;
        let actions: Vec<&str> = audit.json["entries"]
            .as_array()
            .expect("entries")
            .iter()
            .filter_map(|e| e["action"].as_str())
            .collect();
        assert!(actions.contains(&"affiliate.approve"), "{actions:?}");
        assert!(actions.contains(&"affiliate.payout_confirm"), "{actions:?}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_affiliate_does_not_refer_itself() {
    each_engine(|db: TestDb| async move {
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let store_db = app.running.db.clone();
        let signed = app
            .http
            .post(format!("{}/api/accounts/sign-up", app.base))
            .header("origin", "https://sitelens.test")
            .header("sec-fetch-site", "same-origin")
            .header("content-type", "application/json")
            .body(
                json!({"firstName": "Ann", "lastName": "A", "email": "ann@example.com",
                       "username": "ann", "password": PASSWORD})
                .to_string(),
            )
            .send()
            .await
            .expect("sign up");
        let session = signed
            .headers()
            .get("set-cookie")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .expect("session")
            .to_owned();
        let ann_id = store::users::find_user_by_email(&store_db, "ann@example.com")
            .await
            .expect("find")
            .expect("user")
            .id;
        let affiliate = store::affiliates::create_affiliate(
            &store_db,
            &store::affiliates::NewAffiliate {
                user_id: Some(ann_id),
                affiliate_code: "ANNSELF".into(),
                email: "ann@example.com".into(),
                commission_rate: 30,
                ..Default::default()
            },
        )
        .await
        .expect("affiliate");
        let entry = store::audit::NewAuditEntry::operator(
            "affiliate.approve",
            "affiliate",
            None,
            json!({}),
        );
        store::affiliates::review_affiliate(
            &store_db,
            affiliate.id,
            domain::affiliates::AffiliateStatus::Approved,
            None,
            store::now(),
            &entry,
        )
        .await
        .expect("approve");
        let (_, own) = visit(&app.web, "/?ref=ANNSELF", Some(&session)).await;
        assert!(own.is_none(), "the affiliate's own click is not counted");
        let (_, visitor) = visit(&app.web, "/?ref=ANNSELF", None).await;
        assert!(visitor.is_some());
        let row = store::affiliates::get_affiliate(&store_db, affiliate.id)
            .await
            .expect("row");
        assert_eq!(row.total_clicks, 1);
    })
    .await;
}
