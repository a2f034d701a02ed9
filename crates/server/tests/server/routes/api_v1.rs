//! `/api/v1`, the public API, on both engines: an analysis from submission to its report and
//! PDF with a key, the error shape and codes, a team member's key spending the team's credits,
//! ten identical concurrent submissions queuing one analysis and charging once, the per-key rate
//! limit shared by two server processes, a failed analysis refunded, and every call recorded in
//! `api_usage`.

use std::collections::HashSet;

use domain::credits::Credits;
use serde_json::{Value, json};
use store::credits::{credit_balance, credit_history, grant_credits};

use super::api_keys::{new_key, signed_up};
use crate::support::{
    BOTH, TestDb, WEB_ONLY, Web, config, each_engine, fixture_site, fresh_window, join_team,
    spawn_app,
};

/// An answer of the API: status, the headers it is judged by, and the body.
pub(crate) struct Reply {
    pub(crate) status: u16,
    headers: reqwest::header::HeaderMap,
    pub(crate) json: Value,
    bytes: Vec<u8>,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    fn number(&self, name: &str) -> u64 {
        self.header(name)
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no {name} header"))
    }

    /// Asserts the API's error shape and code.
    pub(crate) fn error(&self, status: u16, code: &str) {
        assert_eq!(
            (self.status, self.json["error"]["code"].as_str()),
            (status, Some(code)),
            "{}",
            self.json
        );
        assert!(
            self.json["error"]["message"]
                .as_str()
                .is_some_and(|m| !m.is_empty() && m != "Internal Server Error"),
            "{}",
            self.json
        );
        assert_eq!(
            self.json.as_object().map(|o| o.len()),
            Some(1),
            "{}",
            self.json
        );
    }
}

/// A program calling the API with a key (or none).
pub(crate) struct Client<'a> {
    web: &'a Web,
    key: Option<String>,
}

impl Client<'_> {
    async fn send(
        &self,
        method: &str,
        path: &str,
        body: Option<&str>,
        headers: &[(&str, &str)],
    ) -> Reply {
        let method = reqwest::Method::from_bytes(method.as_bytes()).expect("method");
        let mut req = self
            .web
            .http
            .request(method, format!("{}/api/v1{path}", self.web.base));
        if let Some(key) = &self.key {
            req = req.header("authorization", format!("Bearer {key}"));
        }
        for (name, value) in headers {
            req = req.header(*name, *value);
        }
        if let Some(body) = body {
            req = req
                .header("content-type", "application/json")
                .body(body.to_owned());
        }
        let res = req.send().await.expect("request");
        let status = res.status().as_u16();
        let headers = res.headers().clone();
        let bytes = res.bytes().await.expect("body").to_vec();
        Reply {
            status,
            headers,
            json: serde_json::from_slice(&bytes).unwrap_or(Value::Null),
            bytes,
        }
    }

    pub(crate) async fn get(&self, path: &str) -> Reply {
        self.send("GET", path, None, &[]).await
    }

    pub(crate) async fn submit(&self, body: Value, idempotency_key: Option<&str>) -> Reply {
        let headers: Vec<(&str, &str)> = idempotency_key
            .map(|k| vec![("idempotency-key", k)])
            .unwrap_or_default();
        self.send("POST", "/analyses", Some(&body.to_string()), &headers)
            .await
    }
}

/// Grants `credits` paid credits to `user`, as an operator would.
pub(crate) async fn give(db: &store::DatabaseConnection, user: i64, credits: u32) {
    grant_credits(db, user, Credits::whole(credits), "admin", None)
        .await
        .expect("grant");
}

pub(crate) fn with_key<'a>(web: &'a Web, key: &str) -> Client<'a> {
    Client {
        web,
        key: Some(key.to_owned()),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_analysis_runs_through_the_api_from_submission_to_pdf() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let site = fixture_site().await;
        let app = spawn_app(config(&db), BOTH).await;
        let store_db = app.running.db.clone();
        let (mut owner, owner_id) = signed_up(&app.web, "owner@example.com", "owner").await;
        let (secret, key_id) = new_key(&mut owner, "CI").await;
        give(&store_db, owner_id, 2).await;
        let api = with_key(&app.web, &secret);
        let url = format!("http://{site}/");

        let created = api
            .submit(json!({"url": url, "reportType": "basic"}), None)
            .await;
        assert_eq!(created.status, 201, "{engine:?}: {}", created.json);
        let id = created.json["id"].as_str().expect("id").to_owned();
        assert_eq!(created.json["url"], url.as_str());
        assert_eq!(created.json["reportType"], "basic");
        assert_eq!(
            created.json["cost"], 0.5,
            "a basic report costs half a credit"
        );
        assert!(["queued", "running"].contains(&created.json["status"].as_str().unwrap_or("")));

        // Its report does not exist until it completes; the progress stream says when.
        let early = api.get(&format!("/analyses/{id}/report")).await;
        if early.status != 200 {
            early.error(409, "analysis_not_finished");
        }
        let events = app.follow(&id).await;
        assert_eq!(
            events.last().and_then(|e| e["type"].as_str()),
            Some("complete"),
            "{events:?}"
        );
        let status = api.get(&format!("/analyses/{id}")).await;
        assert_eq!(status.status, 200, "{}", status.json);
        assert_eq!(
            (&status.json["status"], &status.json["progress"]),
            (&json!("complete"), &json!(100))
        );
        assert!(status.json["finishedAt"].is_string());

        // The report is the web's contract type, the same document the results page reads.
        let report = api.get(&format!("/analyses/{id}/report")).await;
        assert_eq!(report.status, 200, "{}", report.json);
        let typed: domain::report::AnalysisReport =
            serde_json::from_value(report.json.clone()).expect("the contract type");
        assert!(typed.paid, "a report paid with credits");
        let web = app.get(&format!("/api/results/{id}")).await;
        assert_eq!(web.json["data"], report.json);
        let pdf = api.get(&format!("/analyses/{id}/report.pdf")).await;
        assert_eq!(pdf.status, 200);
        assert_eq!(pdf.header("content-type"), Some("application/pdf"));
        assert!(pdf.bytes.starts_with(b"%PDF"));

        // The account's analyses, a page at a time.
        let second = api
            .submit(
                json!({"url": format!("{url}services"), "reportType": "basic"}),
                None,
            )
            .await;
        assert_eq!(second.status, 201, "{}", second.json);
        let page = api.get("/analyses?perPage=1").await;
        assert_eq!(page.status, 200, "{}", page.json);
        assert_eq!(
            (
                &page.json["total"],
                &page.json["perPage"],
                &page.json["hasMore"]
            ),
            (&json!(2), &json!(1), &json!(true))
        );
        assert_eq!(
            page.json["data"][0]["id"], second.json["id"],
            "newest first"
        );
        let last = api.get("/analyses?page=2&perPage=1").await;
        assert_eq!(last.json["data"][0]["id"], id.as_str());
        assert_eq!(last.json["hasMore"], false);

        // Usage: credits left (2 - 0.5 - 0.5), the calls so far, the limit.
        let usage = api.get("/usage").await;
        assert_eq!(usage.status, 200, "{}", usage.json);
        assert_eq!(usage.json["paidCredits"], 1);
        assert_eq!(usage.json["rateLimitPerMinute"], 100);
        let calls_before = 8;
        assert_eq!(
            usage.json["callsThisPeriod"], calls_before,
            "{}",
            usage.json
        );
        assert_eq!(usage.json["apiCalls"], calls_before);

        // Every call is recorded with its route, method, status and time, and counted.
        let calls = store::api_keys::recent_api_calls(&store_db, owner_id, 50)
            .await
            .expect("calls");
        assert_eq!(calls.len(), calls_before + 1);
        assert!(calls.iter().all(|c| c.api_key_id == Some(key_id)));
        let newest = &calls[0];
        assert_eq!(
            (
                newest.endpoint.as_str(),
                newest.method.as_str(),
                newest.status_code
            ),
            ("/api/v1/usage", "GET", 200)
        );
        assert!(
            calls
                .iter()
                .any(|c| c.endpoint == "/api/v1/analyses/{id}/report.pdf")
        );
        assert!(
            calls
                .iter()
                .any(|c| c.endpoint == "/api/v1/analyses/{id}/report" && c.status_code == 200)
        );
        assert!(calls.iter().all(|c| c.response_time_ms >= 0));
        let user = store::users::get_user(&store_db, owner_id)
            .await
            .expect("user");
        assert_eq!(user.api_calls, (calls_before + 1) as i64);
        let listed = owner.get("/api/account/api-keys").await;
        assert!(listed.json[0]["lastUsedAt"].is_string(), "{}", listed.json);
        app.running.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn api_errors_have_one_shape_and_stable_codes() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let store_db = app.running.db.clone();
        let (mut owner, owner_id) = signed_up(&app.web, "owner@example.com", "owner").await;
        let (secret, _) = new_key(&mut owner, "CI").await;
        let (mut other, other_id) = signed_up(&app.web, "other@example.com", "other").await;
        let (other_secret, other_key) = new_key(&mut other, "theirs").await;
        let api = with_key(&app.web, &secret);
        let theirs = with_key(&app.web, &other_secret);
        let standard = json!({"url": "https://paid.example/", "reportType": "standard"});

        // No key, a malformed one, an unknown one, a session cookie instead of a key.
        for client in [
            Client { web: &app.web, key: None },
            with_key(&app.web, "not-a-key"),
            with_key(&app.web, &format!("slk_{}", "0".repeat(64))),
        ] {
            let refused = client.get("/usage").await;
            refused.error(401, "unauthorized");
            assert_eq!(refused.header("www-authenticate"), Some("Bearer"));
        }
        assert_eq!(owner.get("/api/v1/usage").await.status, 401, "a session is not a key");

        // Short of credits: 402, nothing written.
        api.submit(standard.clone(), None)
            .await
            .error(402, "insufficient_credits");
        assert!(
            store::jobs::recent_jobs(&store_db, None, 10)
                .await
                .expect("jobs")
                .is_empty()
        );
        give(&store_db, owner_id, 3).await;
        give(&store_db, other_id, 3).await;

        // Bad input is a 4xx, never a 5xx.
        for (body, status, code) in [
            ("{", 400, "invalid_request"),
            ("[]", 422, "invalid_request"),
            (r#"{"url": "https://a.example/"}"#, 422, "invalid_request"),
            (
                r#"{"url": "https://a.example/", "reportType": "gold"}"#,
                422,
                "invalid_request",
            ),
            (
                r#"{"url": "https://a.example/", "reportType": "basic", "callbackURL": "https://hook.example/"}"#,
                422,
                "invalid_request",
            ),
            (
                r#"{"url": "https://a.example/", "reportType": "basic", "callbackUrl": "ftp://hook.example/"}"#,
                422,
                "invalid_callback_url",
            ),
            (r#"{"url": "ftp://a.example/", "reportType": "basic"}"#, 422, "invalid_url"),
            (r#"{"url": "", "reportType": "basic"}"#, 422, "invalid_url"),
        ] {
            let reply = api.send("POST", "/analyses", Some(body), &[]).await;
            reply.error(status, code);
        }
        let no_json = api
            .send("POST", "/analyses", None, &[("content-type", "text/plain")])
            .await;
        no_json.error(415, "unsupported_media_type");
        let long = "k".repeat(256);
        api.submit(standard.clone(), Some(&long))
            .await
            .error(400, "invalid_request");
        for query in ["?page=0", "?perPage=0", "?perPage=101", "?page=x"] {
            api.get(&format!("/analyses{query}"))
                .await
                .error(400, "invalid_request");
        }
        api.get("/no-such-endpoint").await.error(404, "not_found");
        api.send("DELETE", "/usage", None, &[])
            .await
            .error(405, "method_not_allowed");

        // Another account's analysis, an unknown one and a malformed id are all "not found".
        let mine = api.submit(standard.clone(), None).await;
        assert_eq!(mine.status, 201, "{engine:?}: {}", mine.json);
        let id = mine.json["id"].as_str().expect("id");
        for path in [
            format!("/analyses/{id}"),
            format!("/analyses/{id}/report"),
            format!("/analyses/{id}/report.pdf"),
        ] {
            theirs.get(&path).await.error(404, "not_found");
        }
        assert_eq!(theirs.get("/analyses").await.json["total"], 0);
        for path in [
            format!("/analyses/{}", uuid::Uuid::new_v4()),
            "/analyses/not-an-id".to_owned(),
            "/analyses/not-an-id/report".to_owned(),
        ] {
            api.get(&path).await.error(404, "not_found");
        }
        // Queued, not run (no worker): the report is not there yet.
        api.get(&format!("/analyses/{id}/report"))
            .await
            .error(409, "analysis_not_finished");
        api.get(&format!("/analyses/{id}/report.pdf"))
            .await
            .error(409, "analysis_not_finished");

        // A revoked key authenticates nothing, at once.
        let revoked = other
            .send("DELETE", &format!("/api/account/api-keys/{other_key}"), None)
            .await;
        assert_eq!(revoked.status, 200);
        theirs.get("/usage").await.error(401, "unauthorized");
        app.running.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_failed_analysis_has_no_report_and_gives_its_credits_back() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let app = spawn_app(config(&db), BOTH).await;
        let store_db = app.running.db.clone();
        let (mut owner, owner_id) = signed_up(&app.web, "owner@example.com", "owner").await;
        let (secret, _) = new_key(&mut owner, "CI").await;
        give(&store_db, owner_id, 1).await;
        let api = with_key(&app.web, &secret);
        // A port nothing listens on: bind, read the port, close.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .expect("bind")
            .local_addr()
            .expect("addr")
            .port();
        let queued = api
            .submit(
                json!({"url": format!("http://127.0.0.1:{port}/"), "reportType": "standard"}),
                None,
            )
            .await;
        assert_eq!(queued.status, 201, "{engine:?}: {}", queued.json);
        assert_eq!(queued.json["cost"], 1);
        let id = queued.json["id"].as_str().expect("id").to_owned();
        let events = app.follow(&id).await;
        assert_eq!(
            events.last().and_then(|e| e["type"].as_str()),
            Some("error")
        );

        let status = api.get(&format!("/analyses/{id}")).await;
        assert_eq!(status.json["status"], "failed", "{}", status.json);
        assert_eq!(
            status.json["error"],
            "We could not analyse this website: the site could not be reached"
        );
        let report = api.get(&format!("/analyses/{id}/report")).await;
        report.error(409, "analysis_failed");
        assert!(
            report.json["error"]["message"]
                .as_str()
                .is_some_and(|m| m.ends_with("the site could not be reached")),
            "{}",
            report.json
        );
        api.get(&format!("/analyses/{id}/report.pdf"))
            .await
            .error(409, "analysis_failed");
        assert_eq!(
            api.get("/usage").await.json["paidCredits"],
            1,
            "{engine:?}: the credit is given back"
        );
        let reasons: Vec<String> = credit_history(&store_db, owner_id, 10)
            .await
            .expect("ledger")
            .into_iter()
            .map(|e| e.reason)
            .collect();
        assert!(reasons.contains(&"spend".to_owned()), "{reasons:?}");
        assert_eq!(reasons.len(), 3, "grant, spend and refund: {reasons:?}");
        app.running.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_team_members_key_spends_the_teams_credits() {
    each_engine(|db: TestDb| async move {
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let store_db = app.running.db.clone();
        let (_, owner_id) = signed_up(&app.web, "owner@example.com", "owner").await;
        let (mut member, member_id) = signed_up(&app.web, "member@example.com", "member").await;
        join_team(&store_db, owner_id, member_id, "member").await;
        give(&store_db, owner_id, 2).await;
        let (secret, _) = new_key(&mut member, "member's CI").await;
        let api = with_key(&app.web, &secret);

        assert_eq!(
            api.get("/usage").await.json["paidCredits"],
            2,
            "the team's credits"
        );
        let queued = api
            .submit(
                json!({"url": "https://team.example/", "reportType": "standard"}),
                None,
            )
            .await;
        assert_eq!(queued.status, 201, "{}", queued.json);
        let job = store::jobs::get_job(
            &store_db,
            queued.json["id"]
                .as_str()
                .expect("id")
                .parse()
                .expect("uuid"),
        )
        .await
        .expect("job");
        assert_eq!(
            job.requester_user_id,
            Some(member_id),
            "the member's analysis"
        );
        let charge = job.charge.expect("charged");
        assert_eq!((charge.paid, charge.paid_by), (Credits::whole(1), owner_id));
        let at = store::now();
        assert_eq!(
            credit_balance(&store_db, owner_id, at)
                .await
                .expect("owner")
                .paid,
            Credits::whole(1)
        );
        assert_eq!(api.get("/usage").await.json["paidCredits"], 1);
        // Premium (2) is more than the team has left.
        api.submit(
            json!({"url": "https://team.example/", "reportType": "premium"}),
            None,
        )
        .await
        .error(402, "insufficient_credits");
        app.running.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn ten_identical_concurrent_submissions_queue_one_analysis_and_charge_once() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let store_db = app.running.db.clone();
        let (mut owner, owner_id) = signed_up(&app.web, "owner@example.com", "owner").await;
        let (secret, _) = new_key(&mut owner, "CI").await;
        give(&store_db, owner_id, 5).await;
        let body = json!({"url": "https://retry.example/", "reportType": "standard"});
        let key = "0f8fad5b-d9cb-469f-a165-70867728950e";

        let mut handles = Vec::new();
        for _ in 0..10 {
            let base = app.web.base.clone();
            let (secret, body) = (secret.clone(), body.clone());
            handles.push(tokio::spawn(async move {
                let web = Web::at(base);
                let reply = with_key(&web, &secret).submit(body, Some(key)).await;
                (
                    reply.status,
                    reply.header("idempotent-replayed").map(str::to_owned),
                    reply.json,
                )
            }));
        }
        let mut ids = HashSet::new();
        let mut statuses = Vec::new();
        for h in handles {
            let (status, replayed, json) = h.await.expect("task");
            assert_eq!(
                replayed.is_some(),
                status == 200,
                "{engine:?}: {status} {json}"
            );
            statuses.push(status);
            ids.insert(json["id"].as_str().expect("id").to_owned());
        }
        statuses.sort_unstable();
        assert_eq!(
            statuses,
            [200, 200, 200, 200, 200, 200, 200, 200, 200, 201],
            "{engine:?}"
        );
        assert_eq!(ids.len(), 1, "{engine:?}: every answer names one analysis");
        let jobs = store::jobs::recent_jobs(&store_db, None, 50)
            .await
            .expect("jobs");
        assert_eq!(jobs.len(), 1, "{engine:?}: one analysis");
        let spends = credit_history(&store_db, owner_id, 50)
            .await
            .expect("ledger")
            .into_iter()
            .filter(|e| e.reason == "spend")
            .count();
        assert_eq!(spends, 1, "{engine:?}: one charge");
        assert_eq!(
            credit_balance(&store_db, owner_id, store::now())
                .await
                .expect("balance")
                .paid,
            Credits::whole(4)
        );

        // A later retry still answers it; the same key for another request is refused; a new
        // key is a new analysis.
        let api = with_key(&app.web, &secret);
        let retry = api.submit(body.clone(), Some(key)).await;
        assert_eq!(retry.status, 200);
        assert!(ids.contains(retry.json["id"].as_str().expect("id")));
        api.submit(
            json!({"url": "https://other.example/", "reportType": "standard"}),
            Some(key),
        )
        .await
        .error(409, "idempotency_key_reused");
        api.submit(
            json!({"url": "https://retry.example/", "reportType": "premium"}),
            Some(key),
        )
        .await
        .error(409, "idempotency_key_reused");
        let fresh = api.submit(body.clone(), Some("another-key")).await;
        assert_eq!(fresh.status, 201, "{}", fresh.json);
        assert!(!ids.contains(fresh.json["id"].as_str().expect("id")));
        app.running.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_rate_limit_is_per_key_and_shared_by_every_server_process() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        // Two server processes' worth of web nodes on one database.
        let first = spawn_app(config(&db), WEB_ONLY).await;
        let second = spawn_app(config(&db), WEB_ONLY).await;
        let store_db = first.running.db.clone();
        let (mut owner, owner_id) = signed_up(&first.web, "owner@example.com", "owner").await;
        let (secret, _) = new_key(&mut owner, "busy").await;
        let (spare, _) = new_key(&mut owner, "spare").await;
        store::users::set_api_rate_limit(&store_db, owner_id, 4)
            .await
            .expect("limit");
        fresh_window().await;

        let nodes = [
            with_key(&first.web, &secret),
            with_key(&second.web, &secret),
        ];
        for n in 0..4u64 {
            let reply = nodes[(n % 2) as usize].get("/usage").await;
            assert_eq!(reply.status, 200, "{engine:?}: {}", reply.json);
            assert_eq!(reply.number("ratelimit-limit"), 4);
            assert_eq!(
                reply.number("ratelimit-remaining"),
                3 - n,
                "{engine:?} request {n}"
            );
            let reset = reply.number("ratelimit-reset");
            assert!((1..=60).contains(&reset), "{reset}");
        }
        for node in &nodes {
            let limited = node.get("/usage").await;
            limited.error(429, "rate_limited");
            assert_eq!(limited.number("ratelimit-remaining"), 0);
            let retry = limited.number("retry-after");
            assert!((1..=60).contains(&retry), "{retry}");
            assert_eq!(retry, limited.number("ratelimit-reset"));
        }
        // The limit is per key: the account's other key has its own window.
        let other = with_key(&second.web, &spare).get("/usage").await;
        assert_eq!(
            (other.status, other.number("ratelimit-remaining")),
            (200, 3)
        );

        // Refused calls are recorded too.
        let calls = store::api_keys::recent_api_calls(&store_db, owner_id, 50)
            .await
            .expect("calls");
        assert_eq!(calls.iter().filter(|c| c.status_code == 429).count(), 2);
        first.running.shutdown().await;
        second.running.shutdown().await;
    })
    .await;
}
