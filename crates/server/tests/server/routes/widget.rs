//! The audit widget on both engines (issue 15 item 5): who may manage widget keys and read
//! leads (anonymous, the owner, another agency, a team member, a site admin), the embed code on
//! the brand, CORS for the key's origins only (preflight included), the hourly limits per
//! visitor and per key, the lead form's messages, a revoked key, a lead paid by the agency's
//! credit (and nothing recorded when the credits run out), the report branded on completion,
//! the CSV export's formula guard, and the script itself.

use reqwest::header::HeaderMap;
use serde_json::{Value, json};

use super::accounts::Browser;
use super::api_keys::{Cast, cast};
use super::api_v1::give;
use super::{Case, JSON, case};
use crate::support::{Answer, TestDb, WEB_ONLY, Web, answer, config, each_engine, spawn_app};

/// Malformed widget requests.
pub fn malformed() -> Vec<Case> {
    vec![
        case("GET", "/api/account/widget", None, "", 401),
        case(
            "POST",
            "/api/account/widget/keys",
            JSON,
            r#"{"allowedOrigins": ["https://a.example"]}"#,
            401,
        ),
        case("DELETE", "/api/account/widget/keys/1", None, "", 401),
        case("GET", "/api/account/widget/leads.csv", None, "", 401),
        case("GET", "/api/widget/slw_nope/config", None, "", 404),
        case("POST", "/api/widget/slw_nope/leads", JSON, "{}", 404),
        case("DELETE", "/api/widget/slw_nope/leads", None, "", 405),
    ]
}

const SHOP: &str = "http://shop.example";

/// Makes the user an Agency account, as `sitelens set-plan` does.
async fn agency(db: &store::DatabaseConnection, id: i64) {
    store::users::set_subscription_plan(db, id, "agency")
        .await
        .expect("plan");
}

/// Creates a widget key allowing `origins`; returns its public key and id.
async fn new_widget(b: &mut Browser<'_>, origins: &[&str]) -> (String, i64) {
    let created = b
        .post(
            "/api/account/widget/keys",
            json!({ "allowedOrigins": origins }),
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.json);
    (
        created.json["key"].as_str().expect("key").to_owned(),
        created.json["id"].as_i64().expect("id"),
    )
}

/// A request from a page on `origin` (none: a program), optionally from visitor `ip` through
/// the trusted proxy.
async fn public(
    web: &Web,
    method: &str,
    path: &str,
    origin: Option<&str>,
    ip: Option<&str>,
    body: Option<Value>,
) -> (Answer, HeaderMap) {
    let method = reqwest::Method::from_bytes(method.as_bytes()).expect("method");
    let mut req = web.http.request(method, format!("{}{path}", web.base));
    if let Some(origin) = origin {
        req = req.header("origin", origin);
    }
    if let Some(ip) = ip {
        req = req.header("x-forwarded-for", ip);
    }
    if let Some(body) = body {
        req = req
            .header("content-type", "application/json")
            .body(body.to_string());
    }
    let res = req.send().await.expect("request");
    let headers = res.headers().clone();
    (answer(res).await, headers)
}

fn acao(headers: &HeaderMap) -> Option<&str> {
    headers
        .get("access-control-allow-origin")
        .and_then(|v| v.to_str().ok())
}

fn brand(name: &str) -> store::accounts::Branding {
    store::accounts::Branding {
        company_name: name.to_owned(),
        ..Default::default()
    }
}

fn lead(first_name: &str, site: &str) -> Value {
    json!({"firstName": first_name, "email": "ada@visitor.example", "websiteUrl": site})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn widget_routes_answer_by_who_asks() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let store_db = app.running.db.clone();
        let Cast {
            mut owner,
            owner_id,
            mut member,
            team_admin: _,
            mut site_admin,
            mut other,
            mut anonymous,
        } = cast(&app.web, &store_db).await;

        // Not white-label yet: no key, with a text that says why.
        let overview = owner.get("/api/account/widget").await;
        assert_eq!(overview.status, 200, "{engine:?}: {}", overview.json);
        assert_eq!(overview.json, json!({"enabled": false, "keys": []}));
        let refused = owner
            .post(
                "/api/account/widget/keys",
                json!({"allowedOrigins": [SHOP]}),
            )
            .await;
        assert_eq!(refused.status, 403, "{engine:?}: {}", refused.json);
        assert_eq!(refused.json["error"], domain::widget::NOT_ENTITLED);

        agency(&store_db, owner_id).await;
        let bad = owner
            .post(
                "/api/account/widget/keys",
                json!({"allowedOrigins": ["https://shop.example/page"]}),
            )
            .await;
        assert_eq!(bad.status, 422, "{engine:?}: {}", bad.json);
        assert_eq!(bad.json["fields"][0]["field"], "allowedOrigins");
        let created = owner
            .post(
                "/api/account/widget/keys",
                json!({"allowedOrigins": ["HTTP://Shop.Example:80/", SHOP]}),
            )
            .await;
        assert_eq!(created.status, 201, "{engine:?}: {}", created.json);
        let key = created.json["key"].as_str().expect("key").to_owned();
        let id = created.json["id"].as_i64().expect("id");
        assert!(domain::widget::is_well_formed_key(&key), "{key}");
        assert_eq!(created.json["allowedOrigins"], json!([SHOP]));
        assert_eq!(
            created.json["embedCode"],
            domain::widget::embed_snippet("https://sitelens.test", &key)
        );

        // Anonymous: 401 everywhere.
        for (method, path) in [
            ("GET", "/api/account/widget".to_owned()),
            ("POST", "/api/account/widget/keys".to_owned()),
            ("PUT", format!("/api/account/widget/keys/{id}")),
            ("DELETE", format!("/api/account/widget/keys/{id}")),
            ("GET", "/api/account/widget/leads".to_owned()),
            ("GET", "/api/account/widget/leads.csv".to_owned()),
        ] {
            let body =
                (method == "POST" || method == "PUT").then(|| json!({"allowedOrigins": [SHOP]}));
            let a = anonymous.send(method, &path, body).await;
            assert_eq!(a.status, 401, "{engine:?} anonymous {method} {path}");
        }

        // Another agency, a team member and a site admin see none of the owner's keys or leads
        // and cannot change them.
        let other_user = store::users::find_user_by_email(&store_db, "other@example.com")
            .await
            .expect("lookup")
            .expect("other");
        agency(&store_db, other_user.id).await;
        for (who, b) in [
            ("other agency", &mut other),
            ("team member", &mut member),
            ("site admin", &mut site_admin),
        ] {
            let seen = b.get("/api/account/widget").await;
            assert_eq!(seen.status, 200, "{engine:?} {who}");
            assert_eq!(seen.json["keys"], json!([]), "{engine:?} {who}");
            let leads = b.get("/api/account/widget/leads").await;
            assert_eq!(leads.json["total"], 0, "{engine:?} {who}");
            let revoke = b
                .send("DELETE", &format!("/api/account/widget/keys/{id}"), None)
                .await;
            assert_eq!(revoke.status, 404, "{engine:?} {who}: {}", revoke.json);
            let change = b
                .send(
                    "PUT",
                    &format!("/api/account/widget/keys/{id}"),
                    Some(json!({"allowedOrigins": ["https://evil.example"]})),
                )
                .await;
            // An account without white-label is refused as such; the other agency finds no key.
            let expected = if who == "other agency" { 404 } else { 403 };
            assert_eq!(change.status, expected, "{engine:?} {who}: {}", change.json);
        }

        // A forged request (no CSRF token) changes nothing.
        let mut forged = owner.clone();
        forged.drop_csrf();
        let csrf = forged
            .send("DELETE", &format!("/api/account/widget/keys/{id}"), None)
            .await;
        assert_eq!(csrf.status, 403, "{engine:?}");

        // The owner: the key is listed, re-scoped, and its snippet lands on a saved brand only.
        assert!(
            store::accounts::branding_for_user(&store_db, owner_id)
                .await
                .expect("brand")
                .is_none(),
            "the widget never creates a brand"
        );
        store::accounts::save_branding(&store_db, owner_id, &brand("Studio Grace"))
            .await
            .expect("brand");
        let listed = owner.get("/api/account/widget").await;
        assert_eq!(listed.json["enabled"], true);
        assert_eq!(listed.json["keys"][0]["key"], key.as_str());
        let brand = store::accounts::branding_for_user(&store_db, owner_id)
            .await
            .expect("brand")
            .expect("a brand");
        assert_eq!(
            brand.embed_code.as_deref(),
            listed.json["keys"][0]["embedCode"].as_str()
        );
        let changed = owner
            .send(
                "PUT",
                &format!("/api/account/widget/keys/{id}"),
                Some(json!({"allowedOrigins": ["https://shop.example", SHOP]})),
            )
            .await;
        assert_eq!(changed.status, 200, "{engine:?}: {}", changed.json);
        assert_eq!(
            changed.json["allowedOrigins"],
            json!(["https://shop.example", SHOP])
        );
        let revoked = owner
            .send("DELETE", &format!("/api/account/widget/keys/{id}"), None)
            .await;
        assert_eq!(revoked.status, 200, "{engine:?}: {}", revoked.json);
        let again = owner
            .send("DELETE", &format!("/api/account/widget/keys/{id}"), None)
            .await;
        assert_eq!(again.status, 404, "{engine:?}");
        let brand = store::accounts::branding_for_user(&store_db, owner_id)
            .await
            .expect("brand")
            .expect("a brand");
        assert_eq!(brand.embed_code, None, "no key, no snippet");
        app.running.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn cors_allows_only_the_keys_origins() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let store_db = app.running.db.clone();
        let Cast {
            mut owner,
            owner_id,
            ..
        } = cast(&app.web, &store_db).await;
        agency(&store_db, owner_id).await;
        let (key, id) = new_widget(&mut owner, &[SHOP]).await;
        let config_path = format!("/api/widget/{key}/config");
        let leads_path = format!("/api/widget/{key}/leads");

        // The allowed origin: the agency's defaults (no brand saved), with CORS.
        let (ok, h) = public(&app.web, "GET", &config_path, Some(SHOP), None, None).await;
        assert_eq!(ok.status, 200, "{engine:?}: {}", ok.json);
        assert_eq!(acao(&h), Some(SHOP));
        assert_eq!(h.get("vary").and_then(|v| v.to_str().ok()), Some("Origin"));
        assert_eq!(ok.json["primaryColor"], domain::whitelabel::DEFAULT_PRIMARY);
        assert_eq!(
            ok.json["messages"]["firstName"],
            "Please enter your first name"
        );
        // With a brand, its name and colours.
        let mut saved = brand("Studio Grace");
        saved.primary_color = "#0F766E".to_owned();
        store::accounts::save_branding(&store_db, owner_id, &saved)
            .await
            .expect("brand");
        let (ok, _) = public(&app.web, "GET", &config_path, Some(SHOP), None, None).await;
        assert_eq!(ok.json["companyName"], "Studio Grace");
        assert_eq!(ok.json["primaryColor"], "#0F766E");

        // Preflight: allowed, and refused for another origin.
        let (pre, h) = public(&app.web, "OPTIONS", &leads_path, Some(SHOP), None, None).await;
        assert_eq!(pre.status, 204, "{engine:?}");
        assert_eq!(acao(&h), Some(SHOP));
        let methods = h
            .get("access-control-allow-methods")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        assert!(methods.contains("POST"), "{methods}");
        assert!(
            h.get("access-control-allow-headers")
                .and_then(|v| v.to_str().ok())
                .is_some_and(|v| v.contains("content-type"))
        );
        for origin in [Some("https://evil.example"), Some("null"), None] {
            for (method, path) in [
                ("OPTIONS", &leads_path),
                ("GET", &config_path),
                ("POST", &leads_path),
            ] {
                let (refused, h) = public(
                    &app.web,
                    method,
                    path,
                    origin,
                    None,
                    Some(lead("Ada", "ada.example")),
                )
                .await;
                assert_eq!(refused.status, 403, "{engine:?} {method} from {origin:?}");
                assert_eq!(acao(&h), None, "{engine:?} {method} from {origin:?}");
                if method != "OPTIONS" {
                    assert!(
                        refused.json["error"]
                            .as_str()
                            .is_some_and(|m| m.contains("origin")),
                        "{}",
                        refused.json
                    );
                }
            }
        }
        // Unknown, malformed and (below) revoked keys are not found.
        for path in [
            format!("/api/widget/slw_{}/config", "0".repeat(32)),
            "/api/widget/not-a-key/config".to_owned(),
        ] {
            let (missing, _) = public(&app.web, "GET", &path, Some(SHOP), None, None).await;
            assert_eq!(missing.status, 404, "{engine:?} {path}");
        }
        // A plan without white-label takes the form off the pages; the key comes back with it.
        store::users::set_subscription_plan(&store_db, owner_id, "business")
            .await
            .expect("downgrade");
        let (downgraded, _) = public(&app.web, "GET", &config_path, Some(SHOP), None, None).await;
        assert_eq!(downgraded.status, 404, "{engine:?}");
        agency(&store_db, owner_id).await;
        let (back, _) = public(&app.web, "GET", &config_path, Some(SHOP), None, None).await;
        assert_eq!(back.status, 200, "{engine:?}");
        let revoked = owner
            .send("DELETE", &format!("/api/account/widget/keys/{id}"), None)
            .await;
        assert_eq!(revoked.status, 200);
        for (method, path) in [("GET", &config_path), ("POST", &leads_path)] {
            let (gone, _) = public(
                &app.web,
                method,
                path,
                Some(SHOP),
                None,
                Some(lead("Ada", "ada.example")),
            )
            .await;
            assert_eq!(gone.status, 404, "{engine:?} {method} revoked");
            assert_eq!(gone.json["error"], domain::widget::KEY_UNKNOWN);
        }
        app.running.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn leads_are_limited_per_visitor_and_per_key() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let mut cfg = config(&db);
        cfg.trusted_proxies = vec![server::config::IpBlock::parse("127.0.0.1").expect("block")];
        let app = spawn_app(cfg, WEB_ONLY).await;
        let store_db = app.running.db.clone();
        let Cast {
            mut owner,
            owner_id,
            ..
        } = cast(&app.web, &store_db).await;
        agency(&store_db, owner_id).await;
        let (key, _) = new_widget(&mut owner, &[SHOP]).await;
        let path = format!("/api/widget/{key}/leads");
        let per_visitor = domain::widget::REQUESTS_PER_VISITOR_PER_HOUR;
        let per_key = domain::widget::REQUESTS_PER_KEY_PER_HOUR;

        // Every submission counts, a refused form too: an empty form is 422 with each field's
        // message, until the visitor's hour is used up.
        for n in 0..per_visitor {
            let (a, h) = public(
                &app.web,
                "POST",
                &path,
                Some(SHOP),
                Some("203.0.113.7"),
                Some(json!({})),
            )
            .await;
            assert_eq!(a.status, 422, "{engine:?} attempt {n}: {}", a.json);
            assert_eq!(acao(&h), Some(SHOP), "errors are readable by the page");
            let fields: Vec<&str> = a.json["fields"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|f| f["field"].as_str())
                .collect();
            assert_eq!(fields, ["firstName", "email", "websiteUrl"]);
            assert_eq!(a.json["error"], "Please enter your first name");
        }
        let (limited, h) = public(
            &app.web,
            "POST",
            &path,
            Some(SHOP),
            Some("203.0.113.7"),
            Some(json!({})),
        )
        .await;
        assert_eq!(limited.status, 429, "{engine:?}: {}", limited.json);
        assert_eq!(acao(&h), Some(SHOP));
        assert_eq!(
            limited.json["error"],
            domain::widget::rate_limited_message(true)
        );
        let wait = limited.retry_after.expect("Retry-After");
        assert!((1..=3600).contains(&wait), "{wait}");

        // Other visitors still get through, until the key's hour is used up.
        let mut counted = per_visitor;
        let mut n = 0u32;
        while counted < per_key {
            let ip = format!("198.51.{}.{}", n / 200, n % 200 + 1);
            let (a, _) = public(
                &app.web,
                "POST",
                &path,
                Some(SHOP),
                Some(&ip),
                Some(json!({"firstName": "x"})),
            )
            .await;
            assert_eq!(a.status, 422, "{engine:?} visitor {ip}: {}", a.json);
            counted += 1;
            n += 1;
        }
        let (busy, _) = public(
            &app.web,
            "POST",
            &path,
            Some(SHOP),
            Some("192.0.2.99"),
            Some(json!({})),
        )
        .await;
        assert_eq!(busy.status, 429, "{engine:?}: {}", busy.json);
        assert_eq!(
            busy.json["error"],
            domain::widget::rate_limited_message(false)
        );
        assert!(busy.retry_after.is_some());
        app.running.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_lead_is_paid_by_the_agency_branded_and_exported() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let store_db = app.running.db.clone();
        let Cast {
            mut owner,
            owner_id,
            ..
        } = cast(&app.web, &store_db).await;
        agency(&store_db, owner_id).await;
        let (key, _) = new_widget(&mut owner, &[SHOP]).await;
        let path = format!("/api/widget/{key}/leads");
        // One credit: two basic reports.
        give(&store_db, owner_id, 1).await;

        let mut analyses = Vec::new();
        for first_name in ["Ada", "=HYPERLINK(\"http://evil.example\",\"x\")"] {
            let (ok, h) = public(
                &app.web,
                "POST",
                &path,
                Some(SHOP),
                None,
                Some(lead(first_name, "ada.example")),
            )
            .await;
            assert_eq!(ok.status, 201, "{engine:?}: {}", ok.json);
            assert_eq!(acao(&h), Some(SHOP));
            let id = ok.json["analysisId"].as_str().expect("id").to_owned();
            assert_eq!(
                ok.json["reportUrl"],
                format!("https://sitelens.test/results?id={id}")
            );
            analyses.push(id);
        }
        let balance = store::credits::credit_balance(&store_db, owner_id, store::now())
            .await
            .expect("balance");
        assert!(balance.total().is_zero(), "{engine:?}: {balance:?}");

        // The job is the agency's, paid, and wears its brand once complete.
        let job = store::jobs::get_job(&store_db, analyses[0].parse().expect("uuid"))
            .await
            .expect("job");
        assert_eq!(job.requester_user_id, Some(owner_id));
        assert_eq!(job.canonical_url, "https://ada.example/");
        assert!(job.charge.is_some());
        let (progress, h) = public(
            &app.web,
            "GET",
            &format!("/api/widget/{key}/analyses/{}", analyses[0]),
            Some(SHOP),
            None,
            None,
        )
        .await;
        assert_eq!(progress.status, 200, "{engine:?}: {}", progress.json);
        assert_eq!(acao(&h), Some(SHOP));
        assert_eq!(progress.json["status"], "queued");
        assert_eq!(progress.json.get("reportUrl"), None);
        let claimed = store::jobs::claim_next_job(&store_db, "test-worker")
            .await
            .expect("claim")
            .expect("a job");
        let result = store::jobs::complete_job(
            &store_db,
            claimed.id,
            "test-worker",
            &store::results::NewResult::default(),
        )
        .await
        .expect("complete");
        let row = store::results::get_result(&store_db, result)
            .await
            .expect("result");
        assert!(row.is_white_labeled, "{engine:?}");
        assert_eq!(row.whitelabel_user_id, Some(owner_id));
        let (done, _) = public(
            &app.web,
            "GET",
            &format!("/api/widget/{key}/analyses/{}", claimed.id),
            Some(SHOP),
            None,
            None,
        )
        .await;
        assert_eq!(done.json["status"], "complete");
        assert_eq!(
            done.json["reportUrl"],
            format!("https://sitelens.test/results?id={result}")
        );
        // Another analysis is no business of the widget.
        let (foreign, _) = public(
            &app.web,
            "GET",
            &format!("/api/widget/{key}/analyses/{}", uuid::Uuid::new_v4()),
            Some(SHOP),
            None,
            None,
        )
        .await;
        assert_eq!(foreign.status, 404);

        // The agency was mailed each lead, with Reply-To the visitor.
        let mails = store::outbox::recent_emails(&store_db, 50)
            .await
            .expect("outbox");
        let lead_mails: Vec<_> = mails
            .iter()
            .filter(|m| m.subject.starts_with("New lead from your audit widget"))
            .collect();
        assert_eq!(lead_mails.len(), 2, "{engine:?}");
        assert!(
            lead_mails
                .iter()
                .all(|m| m.to_address == "owner@example.com")
        );
        assert!(
            lead_mails
                .iter()
                .all(|m| m.reply_to.as_deref() == Some("ada@visitor.example"))
        );

        // Out of credits: refused, and nothing is recorded.
        let jobs_before = store::jobs::jobs_for_user(&store_db, owner_id, 100)
            .await
            .expect("jobs")
            .len();
        let (refused, h) = public(
            &app.web,
            "POST",
            &path,
            Some(SHOP),
            None,
            Some(lead("Grace", "grace.example")),
        )
        .await;
        assert_eq!(refused.status, 402, "{engine:?}: {}", refused.json);
        assert_eq!(acao(&h), Some(SHOP));
        assert_eq!(refused.json["error"], domain::widget::AGENCY_OUT_OF_CREDITS);
        let page = owner.get("/api/account/widget/leads").await;
        assert_eq!(page.json["total"], 2, "{engine:?}");
        assert_eq!(
            store::jobs::jobs_for_user(&store_db, owner_id, 100)
                .await
                .expect("jobs")
                .len(),
            jobs_before
        );
        let mails_after = store::outbox::recent_emails(&store_db, 50)
            .await
            .expect("outbox");
        assert_eq!(mails_after.len(), mails.len(), "no mail for a refused lead");

        // The list, newest first, and the export with its formula guard.
        let listed = owner.get("/api/account/widget/leads?perPage=1").await;
        assert_eq!(listed.status, 200);
        assert_eq!(listed.json["perPage"], 1);
        assert_eq!(listed.json["leads"].as_array().map(Vec::len), Some(1));
        assert_eq!(listed.json["leads"][0]["analysisId"], analyses[1].as_str());
        let bad_page = owner.get("/api/account/widget/leads?page=0").await;
        assert_eq!(bad_page.status, 400);
        let (status, headers, csv) = owner.get_text("/api/account/widget/leads.csv").await;
        assert_eq!(status, 200, "{engine:?}: {csv}");
        assert!(
            headers
                .get("content-type")
                .and_then(|v| v.to_str().ok())
                .is_some_and(|v| v.starts_with("text/csv"))
        );
        assert!(
            headers
                .get("content-disposition")
                .and_then(|v| v.to_str().ok())
                .is_some_and(|v| v.contains("attachment"))
        );
        let lines: Vec<&str> = csv.split("\r\n").filter(|l| !l.is_empty()).collect();
        assert_eq!(lines.len(), 3, "{csv}");
        assert!(lines[0].starts_with("Date (UTC),First name,Email,Website"));
        assert!(
            lines[1].contains(",\"'=HYPERLINK(\"\"http://evil.example\"\",\"\"x\"\")\","),
            "{csv}"
        );
        assert!(
            lines[2].contains(",Ada,ada@visitor.example,https://ada.example/,"),
            "{csv}"
        );
        app.running.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_script_is_javascript_any_origin_may_load() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        // Without a built script, the route says how to build it.
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let (status, _, _) = app.page("/widget.js").await;
        assert_eq!(status, 404, "{engine:?}");
        app.running.shutdown().await;

        let web = db.dir().join("web");
        std::fs::create_dir_all(&web).expect("dir");
        std::fs::write(web.join("widget.js"), "(()=>{})();").expect("script");
        let mut cfg = config(&db);
        cfg.web_dir = web;
        let app = spawn_app(cfg, WEB_ONLY).await;
        let (status, headers, body) = app.page("/widget.js").await;
        assert_eq!(status, 200, "{engine:?}");
        assert_eq!(body, "(()=>{})();");
        let header = |name: &str| {
            headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .to_owned()
        };
        assert_eq!(header("content-type"), "text/javascript; charset=utf-8");
        assert_eq!(header("cache-control"), "public, max-age=300");
        assert_eq!(header("access-control-allow-origin"), "*");
        assert_eq!(header("cross-origin-resource-policy"), "cross-origin");
        let etag = header("etag");
        let again = app
            .http
            .get(format!("{}/widget.js", app.base))
            .header("if-none-match", &etag)
            .send()
            .await
            .expect("request");
        assert_eq!(again.status(), 304);
        app.running.shutdown().await;
    })
    .await;
}
