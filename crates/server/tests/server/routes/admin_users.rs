//! The admin area's own resources on both engines (`/api/admin/overview`, `users`, `admins`,
//! `jobs`, `purchases`, `whitelabel`): the authorization table of every route (anonymous 401,
//! a user 403, support reads only, admin changes, owner manages administrators), an audit row
//! for every change, credits never below zero with their ledger row, a disabled account unable
//! to sign in or use its keys, and the last owner kept.

use std::collections::BTreeMap;

use chrono::Duration;
use domain::credits::Credits;
use serde_json::{Value, json};

use super::accounts::{Browser, PASSWORD};
use super::admin::{AdminCast, admin_cast, assert_refused_below};
use super::api_keys::{new_key, signed_up};
use super::{Case, JSON, case};
use crate::support::{TestDb, WEB_ONLY, config, each_engine, spawn_app};

/// Malformed admin requests from a visitor who is not signed in: refused before anything else.
pub fn malformed() -> Vec<Case> {
    vec![
        case("GET", "/api/admin/overview", None, "", 401),
        case("GET", "/api/admin/users?q=%ZZ", None, "", 401),
        case("GET", "/api/admin/users/abc", None, "", 401),
        case("POST", "/api/admin/users/1/credits", JSON, "{not json", 401),
        case("POST", "/api/admin/users/1/disable", None, "", 401),
        case("POST", "/api/admin/jobs/nope/retry", JSON, "{}", 401),
        case("POST", "/api/admin/admins", JSON, "[]", 401),
        case("PUT", "/api/admin/users", JSON, "{}", 405),
        case("DELETE", "/api/admin/purchases", None, "", 405),
        case("POST", "/api/admin/whitelabel", JSON, "{}", 405),
    ]
}

/// An anonymous analysis that failed; its id.
pub(crate) async fn failed_job(db: &store::DatabaseConnection, host: &str) -> String {
    let url = format!("https://{host}/");
    let job = store::jobs::enqueue_analysis(
        db,
        &store::jobs::NewAnalysis {
            url: url.clone(),
            canonical_url: url,
            report_type: domain::report::ReportType::Basic,
            requested_pages: 1,
            requester_user_id: None,
            requester_ip: None,
        },
    )
    .await
    .expect("enqueue");
    store::jobs::claim_next_job(db, "test")
        .await
        .expect("claim")
        .expect("job");
    store::jobs::fail_job(db, job.id, "test", "The site did not answer")
        .await
        .expect("fail");
    job.id.to_string()
}

/// The audit log's actions, oldest first, and the entries.
async fn audit(owner: &mut Browser<'_>) -> Vec<Value> {
    let page = owner.get("/api/admin/audit").await;
    assert_eq!(page.status, 200, "{}", page.json);
    let mut entries = page.json["entries"].as_array().expect("entries").clone();
    entries.reverse();
    entries
}

fn reason(text: &str) -> Value {
    json!({ "reason": text })
}

/// Calls `method path` as each of `levels` in turn and checks each status.
async fn allowed(
    cast: &mut AdminCast<'_>,
    method: &str,
    path: &str,
    body: Option<Value>,
    expect: &[(&str, u16)],
) -> Vec<Value> {
    let mut answers = Vec::new();
    for (level, status) in expect {
        let browser = match *level {
            "support" => &mut cast.support,
            "admin" => &mut cast.admin,
            _ => &mut cast.owner,
        };
        let answer = browser.send(method, path, body.clone()).await;
        assert_eq!(
            answer.status, *status,
            "{level} {method} {path}: {}",
            answer.json
        );
        answers.push(answer.json);
    }
    answers
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_admin_route_answers_by_level_and_audits_each_change() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let store_db = app.running.db.clone();
        let mut cast = admin_cast(&app.web, &store_db).await;
        let (_target, tid) = signed_up(&app.web, "target@example.com", "targetuser").await;
        // The target used a trial that has expired, so it can be granted again.
        store::credits::start_trial(&store_db, tid, Credits::whole(1), Duration::zero())
            .await
            .expect("trial");
        let job = failed_job(&store_db, "broken.example").await;
        let user = format!("/api/admin/users/{tid}");

        // Reads: every level.
        let reads = [
            "/api/admin/overview".to_owned(),
            "/api/admin/users?q=target".to_owned(),
            user.clone(),
            "/api/admin/admins".to_owned(),
            "/api/admin/jobs?status=failed".to_owned(),
            "/api/admin/purchases".to_owned(),
            "/api/admin/whitelabel".to_owned(),
        ];
        for path in &reads {
            assert_refused_below(&mut cast, "GET", path, None, "support").await;
            let all = [("support", 200), ("admin", 200), ("owner", 200)];
            allowed(&mut cast, "GET", path, None, &all).await;
        }

        // Changes: admin and owner; what each did is checked after the table.
        let credits = json!({"direction": "add", "amount": 2, "reason": "goodwill credit"});
        type Change<'s> = (String, Value, [(&'s str, u16); 2]);
        let changes: [Change; 6] = [
            (
                format!("{user}/credits"),
                credits,
                [("admin", 200), ("owner", 200)],
            ),
            (
                format!("{user}/trial"),
                reason("asked nicely"),
                [("admin", 200), ("owner", 409)],
            ),
            (
                format!("{user}/sign-out"),
                reason("lost laptop"),
                [("admin", 200), ("owner", 200)],
            ),
            (
                format!("{user}/disable"),
                reason("abuse report"),
                [("admin", 200), ("owner", 409)],
            ),
            (
                format!("{user}/enable"),
                reason("resolved"),
                [("admin", 200), ("owner", 409)],
            ),
            (
                format!("/api/admin/jobs/{job}/retry"),
                reason("site is back"),
                [("admin", 200), ("owner", 409)],
            ),
        ];
        for (path, body, expect) in &changes {
            assert_refused_below(&mut cast, "POST", path, Some(body.clone()), "admin").await;
            let support = cast.support.post(path, body.clone()).await;
            assert_eq!(
                support.json["error"],
                "Your admin level (support) can only read."
            );
            allowed(&mut cast, "POST", path, Some(body.clone()), expect).await;
        }

        // Owners only: admin levels.
        let grant =
            json!({"email": "target@example.com", "level": "support", "reason": "new hire"});
        assert_refused_below(
            &mut cast,
            "POST",
            "/api/admin/admins",
            Some(grant.clone()),
            "owner",
        )
        .await;
        let listed = allowed(
            &mut cast,
            "POST",
            "/api/admin/admins",
            Some(grant),
            &[("owner", 200)],
        )
        .await;
        assert!(
            listed[0]
                .as_array()
                .expect("admins")
                .iter()
                .any(|a| a["email"] == "target@example.com" && a["level"] == "support"),
            "{}",
            listed[0]
        );

        // Every change that was made left exactly one audit row, with its actor and reason;
        // no refused call left any.
        let entries = audit(&mut cast.owner).await;
        let mine: Vec<&Value> = entries
            .iter()
            .filter(|e| e["actorEmail"] != store::audit::OPERATOR)
            .collect();
        let mut counts = BTreeMap::new();
        for e in &mine {
            *counts
                .entry(e["action"].as_str().expect("action"))
                .or_insert(0) += 1;
            assert!(e["reason"].as_str().is_some_and(|r| r.len() >= 3), "{e}");
        }
        assert_eq!(
            counts,
            BTreeMap::from([
                ("admin.grant", 1),
                ("credits.adjust", 2),
                ("job.retry", 1),
                ("trial.regrant", 1),
                ("user.disable", 1),
                ("user.enable", 1),
                ("user.sign_out_everywhere", 2),
            ]),
            "{engine:?}"
        );
        assert_eq!(mine[0]["actorEmail"], "admin@example.com");
        assert_eq!(mine[0]["targetId"], tid.to_string());
        assert_eq!(mine[0]["reason"], "goodwill credit");

        // The two additions are ledger rows with the reason.
        let detail = cast.support.get(&user).await.json;
        assert_eq!(detail["user"]["paidCredits"], json!(4), "{detail}");
        let ledger = detail["ledger"].as_array().expect("ledger");
        assert_eq!(
            ledger
                .iter()
                .filter(|l| l["reason"] == "goodwill credit")
                .count(),
            2,
            "{detail}"
        );
        assert_eq!(detail["hasUsedTrial"], false);
        assert_eq!(detail["user"]["disabledAt"], Value::Null);
        assert_eq!(detail["user"]["adminLevel"], "support");
        assert!(detail["audit"].as_array().expect("audit").len() >= 7);
        let retried = store::jobs::get_job(&store_db, job.parse().expect("uuid"))
            .await
            .expect("job");
        assert_eq!(retried.status, store::jobs::JobStatus::Queued);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn credits_disabling_and_levels_keep_their_rules() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let store_db = app.running.db.clone();
        let mut cast = admin_cast(&app.web, &store_db).await;
        let (mut target, tid) = signed_up(&app.web, "target@example.com", "targetuser").await;
        let user = format!("/api/admin/users/{tid}");
        let audit_len = |entries: &Vec<Value>| entries.len();
        let before = audit_len(&audit(&mut cast.owner).await);

        // Never below zero; a reason is required; bad amounts are the admin's mistake.
        for (body, status) in [
            (
                json!({"direction": "remove", "amount": 1, "reason": "chargeback"}),
                422,
            ),
            (
                json!({"direction": "add", "amount": 1, "reason": "  "}),
                422,
            ),
            (
                json!({"direction": "add", "amount": 0, "reason": "nothing"}),
                422,
            ),
            (
                json!({"direction": "add", "amount": 0.25, "reason": "quarter"}),
                422,
            ),
            (
                json!({"direction": "sideways", "amount": 1, "reason": "what"}),
                422,
            ),
        ] {
            let answer = cast
                .admin
                .post(&format!("{user}/credits"), body.clone())
                .await;
            assert_eq!(answer.status, status, "{engine:?} {body}: {}", answer.json);
            assert_eq!(answer.json["success"], false);
        }
        let no_reason = cast
            .admin
            .post(
                &format!("{user}/credits"),
                json!({"direction": "add", "amount": 1, "reason": ""}),
            )
            .await;
        assert!(
            no_reason.json["error"]
                .as_str()
                .expect("error")
                .contains("reason"),
            "{}",
            no_reason.json
        );
        let added = cast
            .admin
            .post(
                &format!("{user}/credits"),
                json!({"direction": "add", "amount": 1.5, "reason": "apology"}),
            )
            .await;
        assert_eq!(added.status, 200, "{}", added.json);
        let removed = cast
            .admin
            .post(
                &format!("{user}/credits"),
                json!({"direction": "remove", "amount": 1.5, "reason": "mistake"}),
            )
            .await;
        assert_eq!(removed.json["user"]["paidCredits"], json!(0));
        let ledger = removed.json["ledger"].as_array().expect("ledger").clone();
        assert_eq!(ledger.len(), 2, "{}", removed.json);
        assert_eq!(ledger[0]["added"], false);
        assert_eq!(ledger[0]["reason"], "mistake");
        let again = cast
            .admin
            .post(
                &format!("{user}/credits"),
                json!({"direction": "remove", "amount": 0.5, "reason": "below zero"}),
            )
            .await;
        assert_eq!(again.status, 422, "{}", again.json);
        assert_eq!(audit_len(&audit(&mut cast.owner).await), before + 2);

        // Unknown users and jobs.
        let missing = cast
            .admin
            .post(
                "/api/admin/users/999999/credits",
                json!({"direction": "add", "amount": 1, "reason": "who"}),
            )
            .await;
        assert_eq!(missing.status, 404, "{}", missing.json);
        assert_eq!(cast.support.get("/api/admin/users/abc").await.status, 404);
        assert_eq!(
            cast.admin
                .post("/api/admin/jobs/nope/retry", reason("retry"))
                .await
                .status,
            404
        );
        assert_eq!(
            cast.support.get("/api/admin/jobs?status=lost").await.status,
            422
        );

        // A disabled account: its sessions end, it cannot sign in, its API keys are refused.
        let (key, _) = new_key(&mut target, "ci").await;
        let bearer = |key: &str| {
            app.http
                .get(format!("{}/api/v1/analyses", app.base))
                .header("authorization", format!("Bearer {key}"))
                .send()
        };
        assert_eq!(bearer(&key).await.expect("v1").status().as_u16(), 200);
        let disabled = cast
            .admin
            .post(&format!("{user}/disable"), reason("fraud"))
            .await;
        assert_eq!(disabled.status, 200, "{}", disabled.json);
        assert!(disabled.json["user"]["disabledAt"].is_string());
        assert_eq!(disabled.json["sessions"], json!(0));
        assert_eq!(target.get("/api/account").await.status, 401, "{engine:?}");
        let mut fresh = Browser::new(&app.web);
        let refused = fresh
            .post(
                "/api/accounts/sign-in",
                json!({"email": "target@example.com", "password": PASSWORD}),
            )
            .await;
        assert_eq!(refused.status, 403, "{}", refused.json);
        assert_eq!(
            refused.json["error"],
            domain::admin_area::ACCOUNT_DISABLED_MESSAGE
        );
        assert_eq!(bearer(&key).await.expect("v1").status().as_u16(), 401);
        // Enabled again: signing in and the key work.
        let enabled = cast
            .admin
            .post(&format!("{user}/enable"), reason("cleared"))
            .await;
        assert_eq!(enabled.status, 200, "{}", enabled.json);
        let back = fresh
            .post(
                "/api/accounts/sign-in",
                json!({"email": "target@example.com", "password": PASSWORD}),
            )
            .await;
        assert_eq!(back.status, 200, "{}", back.json);
        assert_eq!(bearer(&key).await.expect("v1").status().as_u16(), 200);

        // Sign out everywhere ends that new session.
        let out = cast
            .admin
            .post(&format!("{user}/sign-out"), reason("stolen phone"))
            .await;
        assert_eq!(out.status, 200, "{}", out.json);
        assert_eq!(fresh.get("/api/account").await.status, 401);

        // Nobody disables themselves; only owners disable administrators.
        let me = format!("/api/admin/users/{}/disable", cast.admin_id);
        let own = cast.admin.post(&me, reason("oops")).await;
        assert_eq!(own.status, 403, "{}", own.json);
        let owner = format!("/api/admin/users/{}/disable", cast.owner_id);
        let up = cast.admin.post(&owner, reason("coup")).await;
        assert_eq!(up.status, 403, "{}", up.json);
        assert_eq!(
            up.json["error"],
            "Only an owner can disable an administrator."
        );

        // The last owner cannot step down; with a second owner they can.
        let step_down = json!({"email": "owner@example.com", "level": null, "reason": "retiring"});
        let last = cast
            .owner
            .post("/api/admin/admins", step_down.clone())
            .await;
        assert_eq!(last.status, 409, "{}", last.json);
        assert_eq!(last.json["error"], domain::admin_area::LAST_OWNER_MESSAGE);
        let promote =
            json!({"email": "admin@example.com", "level": "owner", "reason": "succession"});
        assert_eq!(
            cast.owner.post("/api/admin/admins", promote).await.status,
            200
        );
        let stepped = cast.owner.post("/api/admin/admins", step_down).await;
        assert_eq!(stepped.status, 200, "{}", stepped.json);
        assert_eq!(cast.owner.get("/api/admin/me").await.status, 403);
        let unknown = cast
            .admin
            .post(
                "/api/admin/admins",
                json!({"email": "nobody@example.com", "level": "admin", "reason": "typo"}),
            )
            .await;
        assert_eq!(unknown.status, 404, "{}", unknown.json);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_overview_and_lists_show_what_is_stored() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let store_db = app.running.db.clone();
        let mut cast = admin_cast(&app.web, &store_db).await;

        // Nothing happened but four sign-ups: zeros, and no invented shares.
        let empty = cast.support.get("/api/admin/overview").await.json;
        assert_eq!(empty["days"].as_array().expect("days").len(), 30);
        assert_eq!(empty["signups"], 4, "{engine:?}: {empty}");
        assert_eq!(empty["analyses"], 0);
        assert_eq!(empty["grossRevenueCents"], 0);
        assert_eq!(empty["creditsSold"], 0);
        assert_eq!(empty["failureRate"]["percent"], Value::Null);
        assert_eq!(
            empty["conversion"],
            json!({"part": 0, "whole": 4, "percent": 0.0})
        );
        assert_eq!(empty["queueWaiting"], 0);
        assert!(
            empty["conversionDefinition"]
                .as_str()
                .expect("text")
                .contains("credit_purchases")
        );

        // A purchase, a refund, a failed and a waiting analysis, a branding.
        let (_buyer, bid) = signed_up(&app.web, "buyer@example.com", "buyer").await;
        store::credits::grant_purchase(
            &store_db,
            &store::credits::Purchase {
                user_id: bid,
                payment_id: "pi_test_1".into(),
                credits: Credits::whole(5),
                amount_paid_cents: 1900,
                package_type: "credit-5".into(),
            },
        )
        .await
        .expect("purchase");
        store::billing::apply_refund(
            &store_db,
            &store::billing::Refund {
                id: "re_1".into(),
                payment_id: "pi_test_1".into(),
                refunded_total_cents: 500,
                payment_amount_cents: 1900,
            },
        )
        .await
        .expect("refund");
        failed_job(&store_db, "down.example").await;
        store::jobs::enqueue_analysis(
            &store_db,
            &store::jobs::NewAnalysis {
                url: "https://wait.example/".into(),
                canonical_url: "https://wait.example/".into(),
                report_type: domain::report::ReportType::Basic,
                requested_pages: 1,
                requester_user_id: Some(bid),
                requester_ip: None,
            },
        )
        .await
        .expect("enqueue");
        store::accounts::save_branding(
            &store_db,
            bid,
            &store::accounts::Branding {
                company_name: "Acme Audits".into(),
                ..Default::default()
            },
        )
        .await
        .expect("branding");
        store::custom_domains::set_domain(
            &store_db,
            bid,
            "audits.acme.example",
            "0123456789abcdef0123456789abcdef",
        )
        .await
        .expect("custom domain");

        let view = cast.support.get("/api/admin/overview").await.json;
        assert_eq!(view["analyses"], 2, "{view}");
        assert_eq!(view["grossRevenueCents"], 1900);
        assert_eq!(view["refundedCents"], 500);
        assert_eq!(view["creditsSold"], 5);
        assert_eq!(
            view["conversion"],
            json!({"part": 1, "whole": 5, "percent": 20.0})
        );
        assert_eq!(
            view["failureRate"],
            json!({"part": 1, "whole": 1, "percent": 100.0})
        );
        assert_eq!(view["queueWaiting"], 1);
        let today = view["days"][29].clone();
        assert_eq!(today["analyses"], 2, "{today}");
        assert_eq!(today["failed"], 1);
        assert_eq!(today["signups"], 5);
        assert_eq!(today["revenueCents"], 1400);

        let lists = cast.support.get("/api/admin/purchases").await.json;
        assert_eq!(
            lists["purchases"][0]["userEmail"], "buyer@example.com",
            "{lists}"
        );
        assert_eq!(lists["purchases"][0]["amountCents"], 1900);
        assert_eq!(lists["refunds"][0]["amountCents"], 500);
        assert_eq!(lists["refunds"][0]["userEmail"], "buyer@example.com");
        assert_eq!(lists["subscriptions"], json!([]));
        let brands = cast.support.get("/api/admin/whitelabel").await.json;
        assert_eq!(brands[0]["companyName"], "Acme Audits", "{brands}");
        assert_eq!(brands[0]["customDomain"], "audits.acme.example");
        assert_eq!(brands[0]["customDomainVerified"], false);
        assert_eq!(brands[0]["userEmail"], "buyer@example.com");

        let jobs = cast.support.get("/api/admin/jobs?status=failed").await.json;
        let jobs = jobs.as_array().expect("jobs");
        assert_eq!(jobs.len(), 1);
        assert_eq!(jobs[0]["error"], "The site did not answer");
        let queued = cast.support.get("/api/admin/jobs?status=queued").await.json;
        assert_eq!(queued[0]["userEmail"], "buyer@example.com", "{queued}");
        assert_eq!(
            cast.support
                .get("/api/admin/jobs")
                .await
                .json
                .as_array()
                .expect("all")
                .len(),
            2
        );
        let plain = cast
            .support
            .get("/api/admin/users?q=user@example")
            .await
            .json;
        assert_eq!(plain[0]["id"], cast.user_id, "{plain}");
        let found = cast.support.get("/api/admin/users?q=BUYER").await.json;
        assert_eq!(found.as_array().expect("users").len(), 1, "{found}");
        assert_eq!(found[0]["email"], "buyer@example.com");
    })
    .await;
}
