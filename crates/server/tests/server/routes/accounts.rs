//! The accounts API on both engines: sign-up, verification, sign-in and out, the trial, session
//! fixation, CSRF, throttling, password reset through a real SMTP server (aiosmtpd on
//! 127.0.0.1), the data export and deletion, teams, and the authorization table of every
//! route that reads or changes account data.

use serde_json::{Value, json};

use super::{Case, JSON, case};
use crate::support::{
    Answer, TestDb, WEB_ONLY, Web, config, each_engine, received, spawn_app, start_smtp,
};

/// Malformed account requests.
pub fn malformed() -> Vec<Case> {
    vec![
        case("POST", "/api/accounts/sign-in", JSON, "{", 400),
        case("POST", "/api/accounts/sign-in", JSON, "{}", 422),
        case(
            "POST",
            "/api/accounts/sign-up",
            JSON,
            r#"{"email": 1}"#,
            422,
        ),
        case("POST", "/api/accounts/reset-password", JSON, "[]", 422),
        case("GET", "/api/account", None, "", 401),
        case("GET", "/api/dashboard", None, "", 401),
        case("POST", "/api/start-free-trial", JSON, "", 401),
        case("DELETE", "/api/team/members/abc", None, "", 401),
    ]
}

/// Our public origin in the tests' configuration.
const ORIGIN: &str = "https://sitelens.test";
pub(crate) const PASSWORD: &str = "correct horse battery";

/// A browser as the server sees it: a session cookie (kept by hand: it is `Secure`, and the
/// tests speak plain HTTP on loopback), the page's CSRF token, and our origin on each request.
#[derive(Clone)]
pub(crate) struct Browser<'a> {
    web: &'a Web,
    cookie: Option<String>,
    csrf: Option<String>,
    headers: Vec<(&'static str, String)>,
}

impl<'a> Browser<'a> {
    pub(crate) fn new(web: &'a Web) -> Self {
        Browser {
            web,
            cookie: None,
            csrf: None,
            headers: vec![
                ("origin", ORIGIN.to_owned()),
                ("sec-fetch-site", "same-origin".to_owned()),
            ],
        }
    }

    /// The same browser seen from another site (a cross-site form or fetch).
    fn cross_site(&self) -> Self {
        let mut b = self.clone();
        b.headers = vec![
            ("origin", "https://evil.example".to_owned()),
            ("sec-fetch-site", "cross-site".to_owned()),
        ];
        b
    }

    /// Sends `cookie` (`name=value`) with every request as well, as a browser sends its other
    /// cookies (the referral cookie, for example).
    pub(crate) fn carry_cookie(&mut self, cookie: String) {
        self.headers.push(("cookie", cookie));
    }

    /// Forgets the page's CSRF token, as a forged request from elsewhere would lack it.
    pub(crate) fn drop_csrf(&mut self) {
        self.csrf = None;
    }

    pub(crate) async fn send(&mut self, method: &str, path: &str, body: Option<Value>) -> Answer {
        let body = body.map(|b| ("application/json", b.to_string().into_bytes()));
        self.send_body(method, path, body).await
    }

    /// Sends `body` as its content type says (a file upload, for example).
    pub(crate) async fn send_body(
        &mut self,
        method: &str,
        path: &str,
        body: Option<(&str, Vec<u8>)>,
    ) -> Answer {
        let method = reqwest::Method::from_bytes(method.as_bytes()).expect("method");
        let mut req = self
            .web
            .http
            .request(method, format!("{}{path}", self.web.base));
        for (name, value) in &self.headers {
            req = req.header(*name, value);
        }
        if let Some(cookie) = &self.cookie {
            req = req.header("cookie", format!("sitelens_session={cookie}"));
        }
        if let Some(csrf) = &self.csrf {
            req = req.header("x-csrf-token", csrf);
        }
        if let Some((content_type, bytes)) = body {
            req = req.header("content-type", content_type).body(bytes);
        }
        let res = req.send().await.expect("request");
        if let Some(set) = res
            .headers()
            .get("set-cookie")
            .and_then(|v| v.to_str().ok())
        {
            assert!(set.contains("HttpOnly"), "{set}");
            assert!(set.contains("SameSite=Lax"), "{set}");
            assert!(set.contains("Secure"), "the public URL is https: {set}");
            let value = set
                .split(';')
                .next()
                .and_then(|p| p.split_once('='))
                .map(|(_, v)| v.to_owned())
                .unwrap_or_default();
            self.cookie = (!value.is_empty()).then_some(value);
        }
        let answer = crate::support::answer(res).await;
        if let Some(csrf) = answer.json["account"]["csrfToken"].as_str() {
            self.csrf = Some(csrf.to_owned());
        }
        answer
    }

    pub(crate) async fn get(&mut self, path: &str) -> Answer {
        self.send("GET", path, None).await
    }

    /// GETs `path` with this browser's session: status, headers and the body as text (a
    /// download, for example).
    pub(crate) async fn get_text(&self, path: &str) -> (u16, reqwest::header::HeaderMap, String) {
        let mut req = self.web.http.get(format!("{}{path}", self.web.base));
        for (name, value) in &self.headers {
            req = req.header(*name, value);
        }
        if let Some(cookie) = &self.cookie {
            req = req.header("cookie", format!("sitelens_session={cookie}"));
        }
        let res = req.send().await.expect("request");
        let status = res.status().as_u16();
        let headers = res.headers().clone();
        (status, headers, res.text().await.expect("text"))
    }

    pub(crate) async fn post(&mut self, path: &str, body: Value) -> Answer {
        self.send("POST", path, Some(body)).await
    }

    pub(crate) async fn sign_up(&mut self, email: &str, username: &str) -> Answer {
        self.post(
            "/api/accounts/sign-up",
            json!({"firstName": "Ada", "lastName": "Lovelace", "email": email,
                   "username": username, "password": PASSWORD}),
        )
        .await
    }

    pub(crate) async fn sign_in(&mut self, email: &str, password: &str) -> Answer {
        self.post(
            "/api/accounts/sign-in",
            json!({"email": email, "password": password}),
        )
        .await
    }
}

/// The one-time token in the newest outbox mail to `to` whose link goes to `page`.
pub(crate) async fn outbox_token(db: &store::DatabaseConnection, to: &str, page: &str) -> String {
    let mails = store::outbox::recent_emails(db, 50).await.expect("outbox");
    let mail = mails
        .iter()
        .find(|m| m.to_address == to && m.body.contains(&format!("/{page}?token=")))
        .unwrap_or_else(|| panic!("no {page} mail to {to}"));
    token_in(&mail.body, page)
}

fn token_in(body: &str, page: &str) -> String {
    let marker = format!("/accounts/{page}?token=");
    let start = body.find(&marker).expect("a link in the mail") + marker.len();
    body[start..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sign_up_verify_sign_in_start_the_trial_and_sign_out() {
    each_engine(|db: TestDb| async move {
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let mut ada = Browser::new(&app.web);
        let up = ada.sign_up("ada@example.com", "ada").await;
        assert_eq!(up.status, 200, "{}", up.json);
        assert_eq!(up.json["account"]["emailVerified"], false);
        assert_eq!(
            ada.sign_up("ADA@example.com", "ada2").await.json["error"],
            domain::accounts::EMAIL_TAKEN_MESSAGE
        );

        let token = outbox_token(&app.running.db, "ada@example.com", "verify").await;
        let verified = ada
            .post("/api/accounts/verify-email", json!({"token": token}))
            .await;
        assert_eq!(verified.status, 200, "{}", verified.json);
        assert_eq!(ada.get("/api/account").await.json["emailVerified"], true);
        let again = ada
            .post("/api/accounts/verify-email", json!({"token": token}))
            .await;
        assert_eq!(
            (again.status, again.json["error"].as_str()),
            (400, Some(domain::accounts::LINK_INVALID_MESSAGE))
        );

        // The trial: eligible once, 1 credit for 7 days, then the 'already used' message.
        assert_eq!(
            ada.get("/api/check-trial-eligibility").await.json["eligible"],
            true
        );
        let trial = ada.post("/api/start-free-trial", json!({})).await;
        assert_eq!(trial.status, 200, "{}", trial.json);
        assert_eq!(
            trial.json["message"],
            domain::accounts::TRIAL_STARTED_MESSAGE
        );
        let expires: chrono::DateTime<chrono::Utc> = trial.json["expiresAt"]
            .as_str()
            .and_then(|t| t.parse().ok())
            .expect("expiry");
        let days = (expires - chrono::Utc::now()).num_hours();
        assert!((167..=168).contains(&days), "valid 7 days: {days} hours");
        let account = ada.get("/api/account").await.json;
        assert_eq!(
            (
                account["trialCredits"].as_u64(),
                account["hasUsedTrial"].as_bool()
            ),
            (Some(1), Some(true))
        );
        let twice = ada.post("/api/start-free-trial", json!({})).await;
        assert_eq!(
            (twice.status, twice.json["error"].as_str()),
            (409, Some(domain::commerce::TRIAL_USED_MESSAGE))
        );
        assert_eq!(
            ada.get("/api/check-trial-eligibility").await.json["eligible"],
            false
        );

        // Sign-out ends the session on the server: the old cookie no longer works.
        let old = ada.clone();
        assert_eq!(
            ada.post("/api/accounts/sign-out", json!({})).await.status,
            200
        );
        assert!(ada.cookie.is_none(), "the cookie is cleared");
        assert_eq!(old.clone().get("/api/account").await.status, 401);
        let ended = old.clone().get("/api/session").await;
        assert_eq!((ended.status, ended.json.is_null()), (200, true));

        // One answer for a wrong password and for no account at all.
        let wrong = ada.sign_in("ada@example.com", "not the password").await;
        let nobody = ada.sign_in("nobody@example.com", PASSWORD).await;
        assert_eq!((wrong.status, nobody.status), (401, 401));
        assert_eq!(wrong.json, nobody.json);
        assert_eq!(
            wrong.json["error"],
            domain::accounts::SIGN_IN_FAILED_MESSAGE
        );
        let back = ada.sign_in("Ada@Example.com", PASSWORD).await;
        assert_eq!(back.status, 200, "{}", back.json);

        // Sign-out everywhere ends every session of the account.
        let mut phone = Browser::new(&app.web);
        assert_eq!(phone.sign_in("ada@example.com", PASSWORD).await.status, 200);
        assert_eq!(
            ada.post("/api/accounts/sign-out-everywhere", json!({}))
                .await
                .status,
            200
        );
        assert_eq!(phone.get("/api/account").await.status, 401);
        app.running.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn signing_in_always_issues_a_new_session() {
    each_engine(|db: TestDb| async move {
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let mut first = Browser::new(&app.web);
        first.sign_up("fix@example.com", "fix").await;
        let before = first.cookie.clone().expect("a session");

        // A session id planted before sign-in (by an attacker, or left over) is never adopted.
        let mut planted = Browser::new(&app.web);
        planted.cookie = Some("attacker-chosen-value".to_owned());
        assert_eq!(planted.get("/api/account").await.status, 401);
        assert_eq!(
            planted.sign_in("fix@example.com", PASSWORD).await.status,
            200
        );
        let after = planted.cookie.clone().expect("a new session");
        assert_ne!(after, "attacker-chosen-value");
        assert_ne!(after, before);

        // Signing in again over a live session replaces it too.
        let mut again = first.clone();
        assert_eq!(again.sign_in("fix@example.com", PASSWORD).await.status, 200);
        assert_ne!(again.cookie, Some(before.clone()));

        // Changing the password ends every other session and issues a new one here.
        let changed = again
            .post(
                "/api/account/password",
                json!({"currentPassword": PASSWORD, "newPassword": "a new long password"}),
            )
            .await;
        assert_eq!(changed.status, 200, "{}", changed.json);
        assert_eq!(first.get("/api/account").await.status, 401);
        assert_eq!(planted.get("/api/account").await.status, 401);
        assert_eq!(again.get("/api/account").await.status, 200);
        app.running.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn cross_site_requests_are_refused() {
    each_engine(|db: TestDb| async move {
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let mut ada = Browser::new(&app.web);
        ada.sign_up("csrf@example.com", "csrf").await;

        // A cross-site POST carrying the cookie (what a hostile page's form would send).
        let mut hostile = ada.cross_site();
        hostile.csrf = None;
        let refused = hostile.post("/api/start-free-trial", json!({})).await;
        assert_eq!(refused.status, 403, "{}", refused.json);
        // Even with the token, a request the browser marks as cross-site is refused.
        let mut with_token = ada.cross_site();
        assert_eq!(
            with_token
                .post("/api/start-free-trial", json!({}))
                .await
                .status,
            403
        );
        // From our own page, without the token: refused.
        let mut no_token = ada.clone();
        no_token.csrf = None;
        assert_eq!(
            no_token
                .post("/api/start-free-trial", json!({}))
                .await
                .status,
            403
        );
        // Nothing was started by the refused requests.
        assert_eq!(
            ada.get("/api/check-trial-eligibility").await.json["eligible"],
            true
        );
        assert_eq!(
            ada.post("/api/start-free-trial", json!({})).await.status,
            200
        );

        // A login form on another site cannot sign the visitor in (login CSRF).
        let mut other = Browser::new(&app.web).cross_site();
        assert_eq!(
            other.sign_in("csrf@example.com", PASSWORD).await.status,
            403
        );
        // Reading is allowed cross-site-free: GETs need no token.
        assert_eq!(no_token.get("/api/account").await.status, 200);
        app.running.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sign_in_is_throttled_per_account_and_per_address() {
    each_engine(|db: TestDb| async move {
        let mut cfg = config(&db);
        cfg.trusted_proxies = vec![server::config::IpBlock::parse("127.0.0.1").expect("block")];
        let app = spawn_app(cfg, WEB_ONLY).await;
        let mut owner = Browser::new(&app.web);
        owner.sign_up("target@example.com", "target").await;

        // Per account: failures from many addresses add up.
        for n in 0..domain::accounts::THROTTLE_PER_ACCOUNT {
            let mut b = Browser::new(&app.web);
            b.headers
                .push(("x-forwarded-for", format!("198.51.100.{n}")));
            assert_eq!(
                b.sign_in("target@example.com", "wrong password")
                    .await
                    .status,
                401
            );
        }
        let mut late = Browser::new(&app.web);
        late.headers
            .push(("x-forwarded-for", "198.51.100.200".to_owned()));
        let throttled = late.sign_in("target@example.com", PASSWORD).await;
        assert_eq!(
            throttled.status, 429,
            "even the right password waits: {}",
            throttled.json
        );
        assert_eq!(
            throttled.json["error"],
            domain::accounts::throttled_message()
        );
        assert_eq!(
            throttled.retry_after,
            Some(u64::from(domain::accounts::THROTTLE_WINDOW_MINUTES) * 60)
        );

        // Per address: one address trying many accounts.
        let mut sprayer = Browser::new(&app.web);
        sprayer
            .headers
            .push(("x-forwarded-for", "203.0.113.7".to_owned()));
        for n in 0..domain::accounts::THROTTLE_PER_ADDRESS {
            assert_eq!(
                sprayer
                    .sign_in(&format!("user{n}@example.com"), "guess")
                    .await
                    .status,
                401
            );
        }
        assert_eq!(
            sprayer.sign_in("fresh@example.com", "guess").await.status,
            429
        );
        // Another address is not affected by that one.
        let mut neighbour = Browser::new(&app.web);
        neighbour
            .headers
            .push(("x-forwarded-for", "203.0.113.8".to_owned()));
        assert_eq!(
            neighbour.sign_in("fresh@example.com", "guess").await.status,
            401
        );
        app.running.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_forgotten_password_is_reset_through_the_mailed_link() {
    each_engine(|db: TestDb| async move {
        let mail_dir = db.dir().join("mail");
        let Some((_smtp, port)) = start_smtp(&mail_dir, 0).await else {
            return;
        };
        let mut cfg = config(&db);
        cfg.smtp_url = Some(server::config::Secret(format!("smtp://127.0.0.1:{port}")));
        let app = spawn_app(cfg, WEB_ONLY).await;
        let mut ada = Browser::new(&app.web);
        ada.sign_up("reset@example.com", "reset").await;
        let signed_up = ada.clone();
        assert_eq!(
            received(&mail_dir).len(),
            1,
            "the verification mail went out"
        );

        let mut visitor = Browser::new(&app.web);
        let asked = visitor
            .post(
                "/api/accounts/forgot-password",
                json!({"email": "reset@example.com"}),
            )
            .await;
        let unknown = visitor
            .post(
                "/api/accounts/forgot-password",
                json!({"email": "nobody@example.com"}),
            )
            .await;
        assert_eq!((asked.status, unknown.status), (200, 200));
        assert_eq!(
            asked.json, unknown.json,
            "the same answer whether the account exists"
        );
        let mails = received(&mail_dir);
        assert_eq!(mails.len(), 2, "no mail for an unknown address");
        let reset = &mails[1];
        assert_eq!(reset["to"], json!(["reset@example.com"]));
        assert_eq!(reset["subject"], "Reset your Sitelens password");
        let token = token_in(reset["body"].as_str().expect("body"), "reset-password");
        // Sent over SMTP, and kept in the outbox marked sent.
        let outbox = store::outbox::recent_emails(&app.running.db, 10)
            .await
            .expect("outbox");
        assert!(outbox.iter().all(|m| m.sent_at.is_some()));

        // A weak password is refused without spending the link.
        let weak = visitor
            .post(
                "/api/accounts/reset-password",
                json!({"token": token, "password": "short"}),
            )
            .await;
        assert_eq!(weak.status, 422);
        let done = visitor
            .post(
                "/api/accounts/reset-password",
                json!({"token": token, "password": "a brand new password"}),
            )
            .await;
        assert_eq!(done.status, 200, "{}", done.json);
        let reused = visitor
            .post(
                "/api/accounts/reset-password",
                json!({"token": token, "password": "another new password"}),
            )
            .await;
        assert_eq!(reused.status, 400);

        assert_eq!(
            signed_up.clone().get("/api/account").await.status,
            401,
            "sessions ended"
        );
        assert_eq!(
            visitor.sign_in("reset@example.com", PASSWORD).await.status,
            401
        );
        assert_eq!(
            visitor
                .sign_in("reset@example.com", "a brand new password")
                .await
                .status,
            200
        );
        app.running.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn my_data_is_exported_and_deleted_with_my_reports() {
    each_engine(|db: TestDb| async move {
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let mut ada = Browser::new(&app.web);
        let id = ada.sign_up("gone@example.com", "gone").await.json["account"]["id"]
            .as_i64()
            .expect("id");
        let report = complete_analysis(&app.running.db, "https://mine.example/", id, 64).await;

        let export = ada.get("/api/account/export").await;
        assert_eq!(export.status, 200);
        assert_eq!(export.json["account"]["email"], "gone@example.com");
        assert_eq!(
            export.json["analyses"][0]["report"]["scores"]["overall"],
            64
        );
        assert!(
            !export.json.to_string().contains("argon2"),
            "no password hash in the export"
        );

        let wrong = ada
            .post("/api/account/delete", json!({"currentPassword": "nope"}))
            .await;
        assert_eq!(
            (wrong.status, wrong.json["error"].as_str()),
            (422, Some(domain::accounts::CURRENT_PASSWORD_MESSAGE))
        );
        let deleted = ada
            .post("/api/account/delete", json!({"currentPassword": PASSWORD}))
            .await;
        assert_eq!(deleted.status, 200, "{}", deleted.json);
        assert!(matches!(
            store::results::get_result(&app.running.db, report).await,
            Err(store::StoreError::NotFound)
        ));
        assert_eq!(
            Browser::new(&app.web)
                .sign_in("gone@example.com", PASSWORD)
                .await
                .status,
            401
        );
        app.running.shutdown().await;
    })
    .await;
}

/// The analyzer's premium report of the planted site (its insta snapshot).
pub(crate) fn premium_snapshot() -> domain::report::AnalysisReport {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../analyzer/tests/snapshots/analyzer__snapshots__premium_report_of_the_planted_site.snap"
    );
    let text = std::fs::read_to_string(path).expect("the analyzer's premium snapshot");
    let body = text.splitn(3, "---\n").nth(2).expect("snapshot body");
    serde_json::from_str(body).expect("report")
}

/// A completed analysis of `url` requested by `user`, with the analyzer's premium snapshot as
/// its report and `score` as its overall score; returns the report id.
pub(crate) async fn complete_analysis(
    db: &store::DatabaseConnection,
    url: &str,
    user: i64,
    score: u32,
) -> uuid::Uuid {
    let mut report = premium_snapshot();
    report.url = url.to_owned();
    report.scores.overall = score;
    store::jobs::enqueue_analysis(
        db,
        &store::jobs::NewAnalysis {
            url: url.to_owned(),
            canonical_url: url.to_owned(),
            report_type: domain::report::ReportType::Basic,
            requested_pages: 1,
            requester_user_id: Some(user),
            requester_ip: None,
        },
    )
    .await
    .expect("enqueue");
    let job = store::jobs::claim_next_job(db, "test")
        .await
        .expect("claim")
        .expect("job");
    store::jobs::complete_job(
        db,
        job.id,
        "test",
        &store::results::NewResult::from_report(&report).expect("row"),
    )
    .await
    .expect("complete")
}

/// Who calls a route in the authorization tables (this one and billing's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Who {
    Anonymous,
    Owner,
    Member,
    Other,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn account_routes_answer_by_who_asks() {
    each_engine(|db: TestDb| async move {
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let store_db = app.running.db.clone();
        let mut owner = Browser::new(&app.web);
        let owner_id = owner.sign_up("owner@example.com", "owner").await.json["account"]["id"]
            .as_i64()
            .expect("id");
        // The owner is on the Business plan: 3 seats (docs/PRODUCT.md §9.3).
        store::users::set_subscription_plan(&store_db, owner_id, "business")
            .await
            .expect("plan");
        complete_analysis(&store_db, "https://owned.example/", owner_id, 71).await;

        let mut member = Browser::new(&app.web);
        member.sign_up("member@example.com", "member").await;
        let mut other = Browser::new(&app.web);
        let other_id = other.sign_up("other@example.com", "other").await.json["account"]["id"]
            .as_i64()
            .expect("id");
        complete_analysis(&store_db, "https://others.example/", other_id, 33).await;

        // The owner invites the member, who accepts through the mailed link.
        let invited = owner
            .post(
                "/api/team/invitations",
                json!({"email": "member@example.com"}),
            )
            .await;
        assert_eq!(invited.status, 200, "{}", invited.json);
        let token = outbox_token(&store_db, "member@example.com", "join").await;
        assert_eq!(
            other
                .post("/api/team/join", json!({"token": token}))
                .await
                .status,
            409,
            "sent to another address"
        );
        let joined = member.post("/api/team/join", json!({"token": token})).await;
        assert_eq!(joined.status, 200, "{}", joined.json);
        let team = owner.get("/api/team").await.json;
        let membership = team["members"][0]["id"].as_i64().expect("membership id");
        assert_eq!(team["members"][0]["status"], "active");
        assert_eq!(team["seats"], 3);

        let mut anonymous = Browser::new(&app.web);
        let sites = |a: &Answer| -> Vec<String> {
            a.json["sites"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|s| s["url"].as_str().map(str::to_owned))
                .collect()
        };
        for who in [Who::Anonymous, Who::Owner, Who::Member, Who::Other] {
            let b = match who {
                Who::Anonymous => &mut anonymous,
                Who::Owner => &mut owner,
                Who::Member => &mut member,
                Who::Other => &mut other,
            };
            let signed_in = who != Who::Anonymous;
            let expect = |s: u16| if signed_in { s } else { 401 };

            let account = b.get("/api/account").await;
            assert_eq!(account.status, expect(200), "{who:?} account");
            // The header's question answers everyone, with the caller's own account or null.
            let session = b.get("/api/session").await;
            assert_eq!(session.status, 200, "{who:?} session");
            if signed_in {
                assert_eq!(session.json["id"], account.json["id"], "{who:?} session");
                assert!(session.json["id"].is_i64(), "{who:?} session");
            } else {
                assert!(session.json.is_null(), "{who:?} session: {}", session.json);
            }
            let dashboard = b.get("/api/dashboard").await;
            assert_eq!(dashboard.status, expect(200), "{who:?} dashboard");
            let seen = sites(&dashboard);
            match who {
                // The owner and the member see the team's reports; nobody sees another's.
                Who::Owner | Who::Member => {
                    assert_eq!(seen, vec!["https://owned.example/"], "{who:?}")
                }
                Who::Other => assert_eq!(seen, vec!["https://others.example/"]),
                Who::Anonymous => assert!(seen.is_empty()),
            }
            assert_eq!(
                b.get("/api/account/export").await.status,
                expect(200),
                "{who:?} export"
            );
            let team = b.get("/api/team").await;
            assert_eq!(team.status, expect(200), "{who:?} team");
            if who == Who::Member {
                assert_eq!(
                    (team.json["ownerEmail"].as_str(), team.json["role"].as_str()),
                    (Some("owner@example.com"), Some("member"))
                );
                assert_eq!(account.json["team"]["ownerEmail"], "owner@example.com");
            }
            assert_eq!(
                b.get("/api/check-trial-eligibility").await.status,
                expect(200),
                "{who:?} trial check"
            );
            // Sign-in through a provider is public, and off without SITELENS_OIDC_ISSUER.
            let offer = b.get("/api/accounts/oidc").await;
            assert_eq!(
                (offer.status, &offer.json["enabled"]),
                (200, &json!(false)),
                "{who:?} provider"
            );
            for path in [
                "/api/accounts/oidc/start",
                "/api/accounts/oidc/callback?code=c&state=s",
            ] {
                assert_eq!(b.get(path).await.status, 404, "{who:?} {path}");
            }
            if matches!(who, Who::Anonymous | Who::Other) {
                let leave = b.post("/api/team/leave", json!({})).await;
                assert_eq!(leave.status, expect(404), "{who:?} leave");
            }

            let invite = b
                .post(
                    "/api/team/invitations",
                    json!({"email": "third@example.com"}),
                )
                .await;
            let want = match who {
                Who::Anonymous => 401,
                Who::Owner => 200,
                Who::Member => 403,
                // One seat without a plan: nobody to invite.
                Who::Other => 409,
            };
            assert_eq!(invite.status, want, "{who:?} invite: {}", invite.json);
            if who != Who::Owner {
                let removal = b
                    .send("DELETE", &format!("/api/team/members/{membership}"), None)
                    .await;
                let want = match who {
                    Who::Anonymous => 401,
                    Who::Member => 403,
                    _ => 404,
                };
                assert_eq!(removal.status, want, "{who:?} remove");
            }
        }

        // Seats: owner + member + the invited third fill Business's 3 seats.
        let full = owner
            .post(
                "/api/team/invitations",
                json!({"email": "fourth@example.com"}),
            )
            .await;
        assert_eq!(full.status, 409, "{}", full.json);

        // Removing the member ends their access to the team's reports at once.
        let removed = owner
            .send("DELETE", &format!("/api/team/members/{membership}"), None)
            .await;
        assert_eq!(removed.status, 200, "{}", removed.json);
        assert!(sites(&member.get("/api/dashboard").await).is_empty());
        assert_eq!(member.get("/api/account").await.json["team"], Value::Null);
        app.running.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn usernames_are_unique_regardless_of_case() {
    each_engine(|db: TestDb| async move {
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let mut first = Browser::new(&app.web);
        assert_eq!(first.sign_up("first@example.com", "Ada").await.status, 200);
        let mut second = Browser::new(&app.web);
        let taken = second.sign_up("second@example.com", "aDA").await;
        assert_eq!(taken.status, 422, "{}", taken.json);
        assert_eq!(
            taken.json["error"],
            domain::accounts::USERNAME_TAKEN_MESSAGE
        );
        assert_eq!(
            second.get("/api/account").await.status,
            401,
            "no account, no session"
        );
        // The database's index holds where two sign-ups race past the check.
        let raced = store::users::create_user(
            &app.running.db,
            &store::users::NewUser {
                email: "third@example.com".into(),
                first_name: None,
                last_name: None,
                username: Some("ADA".into()),
                password_hash: None,
                clerk_id: None,
                image_url: None,
            },
        )
        .await;
        assert!(
            matches!(raced, Err(store::StoreError::Conflict(_))),
            "{raced:?}"
        );
        assert_eq!(
            second.sign_up("second@example.com", "grace").await.status,
            200
        );
        app.running.shutdown().await;
    })
    .await;
}
