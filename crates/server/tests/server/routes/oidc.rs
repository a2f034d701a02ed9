//! Sign-in through OpenID Connect against a real provider on 127.0.0.1 (`oauth2-mock-server`
//! from npm, pinned in e2e/package.json, run by `e2e/oidc-provider.mjs`), on both engines: a
//! new identity makes an account, a known one signs in, a verified address links the account
//! that has it and an unverified one does not, and a callback that is not this browser's, a
//! token for another client, with another nonce or expired, signs nobody in.

use std::path::PathBuf;
use std::process::Stdio;

use serde_json::{Value, json};
use server::config::{OidcSettings, Secret};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout};

use crate::support::{TestDb, WEB_ONLY, Web, config, each_engine, spawn_app, under_ci};

const CLIENT_ID: &str = "sitelens-test";

/// The provider process and its control lines.
struct Provider {
    _child: Child,
    stdin: ChildStdin,
    stdout: Lines<BufReader<ChildStdout>>,
    issuer: String,
}

impl Provider {
    /// Starts the provider; `None` (with a warning, or a failure under CI) when the e2e npm
    /// packages are not installed.
    async fn start() -> Option<Self> {
        let e2e = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../e2e");
        if !e2e.join("node_modules/oauth2-mock-server").is_dir() {
            assert!(
                !under_ci(),
                "oauth2-mock-server is not installed: run `just setup`"
            );
            eprintln!(
                "WARNING: e2e's npm packages are not installed (run `just setup`): the OpenID Connect test is skipped"
            );
            return None;
        }
        let mut child = tokio::process::Command::new("node")
            .arg(e2e.join("oidc-provider.mjs"))
            .current_dir(&e2e)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("node runs");
        let stdin = child.stdin.take().expect("stdin");
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let line = stdout
            .next_line()
            .await
            .expect("reads")
            .expect("the issuer line");
        let issuer = serde_json::from_str::<Value>(&line).expect("JSON")["issuer"]
            .as_str()
            .expect("issuer")
            .to_owned();
        Some(Provider {
            _child: child,
            stdin,
            stdout,
            issuer,
        })
    }

    /// Who signs in from now on: claims merged into every token the provider signs.
    async fn next(&mut self, claims: Value) {
        self.stdin
            .write_all(format!("{claims}\n").as_bytes())
            .await
            .expect("writes");
        let ok = self.stdout.next_line().await.expect("reads");
        assert_eq!(ok.as_deref(), Some("ok"));
    }

    fn settings(&self) -> OidcSettings {
        OidcSettings {
            issuer: self.issuer.clone(),
            client_id: CLIENT_ID.to_owned(),
            client_secret: Some(Secret("a client secret".to_owned())),
            name: "Test Provider".to_owned(),
        }
    }
}

/// What the browser ends with after a round trip through the provider.
#[derive(Debug)]
struct Outcome {
    /// Where the callback sent it.
    location: String,
    /// The session cookie's value, when one was set.
    session: Option<String>,
}

/// A `Set-Cookie` value of `name`, when the response sets one (empty when it clears it).
fn set_cookie(res: &reqwest::Response, name: &str) -> Option<String> {
    res.headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with(&format!("{name}=")))
        .map(|v| {
            assert!(v.contains("HttpOnly") && v.contains("SameSite=Lax"), "{v}");
            v.split(';')
                .next()
                .and_then(|p| p.split_once('='))
                .map(|(_, v)| v.to_owned())
                .unwrap_or_default()
        })
}

fn location(res: &reqwest::Response) -> String {
    res.headers()
        .get("location")
        .and_then(|v| v.to_str().ok())
        .expect("a Location")
        .to_owned()
}

/// A client that does not follow redirects: each hop is checked.
fn no_redirects() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client")
}

/// Starts a sign-in at our server, lets the provider approve it, and returns the callback's
/// path and the pending-sign-in cookie (the browser's state between the two).
async fn through_provider(web: &Web, return_to: &str) -> (String, String) {
    let http = no_redirects();
    let start = http
        .get(format!(
            "{}/api/accounts/oidc/start?redirect_url={}",
            web.base,
            url::form_urlencoded::byte_serialize(return_to.as_bytes()).collect::<String>()
        ))
        .send()
        .await
        .expect("start");
    assert_eq!(start.status(), 303);
    let pending = set_cookie(&start, "sitelens_oidc").expect("the pending sign-in cookie");
    let authorize = location(&start);
    let parsed = url::Url::parse(&authorize).expect("URL");
    let query: std::collections::HashMap<_, _> = parsed.query_pairs().into_owned().collect();
    assert_eq!(query["response_type"], "code");
    assert_eq!(query["client_id"], CLIENT_ID);
    assert_eq!(query["code_challenge_method"], "S256");
    assert_eq!(
        query["redirect_uri"],
        "https://sitelens.test/api/accounts/oidc/callback"
    );
    assert!(query["scope"].split(' ').any(|s| s == "openid"));
    assert!(query["state"].len() >= 43 && query["nonce"].len() >= 43);
    let approved = http.get(&authorize).send().await.expect("authorize");
    assert_eq!(approved.status(), 302);
    // The provider sends the browser to our public address; the test reaches it on loopback.
    let back = url::Url::parse(&location(&approved)).expect("callback URL");
    assert_eq!(back.path(), "/api/accounts/oidc/callback");
    let path = format!("{}?{}", back.path(), back.query().unwrap_or_default());
    (path, pending)
}

/// Completes the callback in the browser holding `pending` (or none).
async fn callback(web: &Web, path: &str, pending: Option<&str>) -> Outcome {
    let mut req = no_redirects().get(format!("{}{path}", web.base));
    if let Some(p) = pending {
        req = req.header("cookie", format!("sitelens_oidc={p}"));
    }
    let res = req.send().await.expect("callback");
    assert_eq!(res.status(), 303);
    Outcome {
        session: set_cookie(&res, "sitelens_session").filter(|s| !s.is_empty()),
        location: location(&res),
    }
}

async fn sign_in(web: &Web, return_to: &str) -> Outcome {
    let (path, pending) = through_provider(web, return_to).await;
    callback(web, &path, Some(&pending)).await
}

async fn account(web: &Web, session: &str) -> Value {
    let res = web
        .http
        .get(format!("{}/api/account", web.base))
        .header("cookie", format!("sitelens_session={session}"))
        .send()
        .await
        .expect("account");
    assert_eq!(res.status(), 200);
    serde_json::from_slice(&res.bytes().await.expect("body")).expect("JSON")
}

/// The message a refused sign-in brings back to the sign-in page.
fn refusal(outcome: &Outcome) -> String {
    assert!(
        outcome.session.is_none(),
        "nobody is signed in: {outcome:?}"
    );
    let url = url::Url::parse(&format!("https://x{}", outcome.location)).expect("URL");
    assert_eq!(url.path(), "/accounts/sign-in", "{outcome:?}");
    url.query_pairs()
        .find(|(k, _)| k == "error")
        .map(|(_, v)| v.into_owned())
        .expect("an error message")
}

/// Signs up with a password through the API, as the sign-up page does; returns the user id.
async fn sign_up_with_password(web: &Web, email: &str, username: &str) -> i64 {
    let res = web
        .http
        .post(format!("{}/api/accounts/sign-up", web.base))
        .header("origin", "https://sitelens.test")
        .header("sec-fetch-site", "same-origin")
        .header("content-type", "application/json")
        .body(
            json!({"firstName": "Grace", "lastName": "Hopper", "email": email,
                   "username": username, "password": "a long enough password"})
            .to_string(),
        )
        .send()
        .await
        .expect("sign-up");
    assert_eq!(res.status(), 200);
    let body: Value = serde_json::from_slice(&res.bytes().await.expect("body")).expect("JSON");
    body["account"]["id"].as_i64().expect("id")
}

/// `claims` with `extra` merged over them.
fn with(mut claims: Value, extra: &Value) -> Value {
    if let (Some(c), Some(e)) = (claims.as_object_mut(), extra.as_object()) {
        c.extend(e.clone());
    }
    claims
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sign_in_through_a_real_openid_connect_provider() {
    let Some(provider) = Provider::start().await else {
        return;
    };
    // One provider for both engines (they run one after the other).
    let provider = std::sync::Arc::new(tokio::sync::Mutex::new(provider));
    each_engine(|db: TestDb| {
        let provider = provider.clone();
        async move {
            let mut provider = provider.lock().await;
            let mut cfg = config(&db);
            cfg.oidc = Some(provider.settings());
            let app = spawn_app(cfg, WEB_ONLY).await;
            let web = &app.web;
            let store_db = app.running.db.clone();

            // The sign-in page offers it.
            let offered: Value = serde_json::from_slice(
                &web.http
                    .get(format!("{}/api/accounts/oidc", web.base))
                    .send()
                    .await
                    .expect("offer")
                    .bytes()
                    .await
                    .expect("body"),
            )
            .expect("JSON");
            assert_eq!(offered, json!({"enabled": true, "name": "Test Provider"}));

            // A new identity with a verified address: a new account, verified, without a
            // password, back where the visitor started.
            let ada = json!({"sub": "ada-1", "email": "Ada@Example.com", "email_verified": true,
                             "given_name": "Ada", "family_name": "Lovelace",
                             "preferred_username": "ada"});
            provider.next(ada.clone()).await;
            let first = sign_in(web, "/pricing").await;
            assert_eq!(first.location, "/pricing");
            let session = first.session.expect("signed in");
            let me = account(web, &session).await;
            assert_eq!(
                (
                    &me["email"],
                    &me["emailVerified"],
                    &me["hasPassword"],
                    &me["firstName"]
                ),
                (
                    &json!("ada@example.com"),
                    &json!(true),
                    &json!(false),
                    &json!("Ada")
                )
            );
            let id = me["id"].as_i64().expect("id");
            let user = store::users::get_user(&store_db, id).await.expect("user");
            let key = format!("{}#ada-1", provider.issuer);
            assert_eq!(user.clerk_id.as_deref(), Some(key.as_str()));

            // The same identity again, even with another address: the same account, a new session.
            provider
                .next(with(ada.clone(), &json!({"email": "ada.new@example.com"})))
                .await;
            let again = sign_in(web, "/dashboard").await;
            assert_eq!(again.location, "/dashboard");
            let second = again.session.expect("signed in");
            assert_ne!(second, session, "a new session on every sign-in");
            assert_eq!(account(web, &second).await["id"], id);

            // An account made with a password is linked only when the provider verified its address.
            let grace_id = sign_up_with_password(web, "grace@example.com", "grace").await;
            let grace =
                json!({"sub": "grace-9", "email": "grace@example.com", "email_verified": false});
            provider.next(grace.clone()).await;
            assert_eq!(
                refusal(&sign_in(web, "/dashboard").await),
                domain::accounts::PROVIDER_EMAIL_UNVERIFIED_MESSAGE
            );
            provider
                .next(with(grace.clone(), &json!({"email_verified": "true"})))
                .await;
            let linked = sign_in(web, "/dashboard").await;
            let me = account(web, &linked.session.expect("signed in")).await;
            assert_eq!(
                (me["id"].as_i64(), &me["emailVerified"]),
                (Some(grace_id), &json!(true))
            );
            // Another identity with that verified address cannot take the linked account over.
            provider
                .next(with(
                    grace,
                    &json!({"sub": "grace-other", "email_verified": true}),
                ))
                .await;
            assert_eq!(
                refusal(&sign_in(web, "/dashboard").await),
                domain::accounts::PROVIDER_OTHER_IDENTITY_MESSAGE
            );

            // An unverified address nobody uses: a new account, sent our own verification
            // link; its username is the preferred one made unique, case aside.
            provider
                .next(
                    json!({"sub": "new-2", "email": "new@example.com", "email_verified": false,
                             "preferred_username": "ADA"}),
                )
                .await;
            let fresh = sign_in(web, "/").await;
            let me = account(web, &fresh.session.expect("signed in")).await;
            assert_eq!(
                (&me["emailVerified"], &me["username"]),
                (&json!(false), &json!("ADA2"))
            );
            let mails = store::outbox::recent_emails(&store_db, 20)
                .await
                .expect("outbox");
            assert!(
                mails.iter().any(|m| m.to_address == "new@example.com"
                    && m.subject == "Confirm your email address")
            );

            // Refused, with nobody signed in: the callback in a browser that did not start the
            // sign-in, a state that is not the started one's, and the provider saying no.
            provider.next(ada.clone()).await;
            let (path, pending) = through_provider(web, "/").await;
            assert_eq!(
                refusal(&callback(web, &path, None).await),
                domain::accounts::LINK_INVALID_MESSAGE
            );
            let tampered = path.replace("state=", "state=x");
            assert_eq!(
                refusal(&callback(web, &tampered, Some(&pending)).await),
                domain::accounts::LINK_INVALID_MESSAGE
            );
            assert_eq!(
                refusal(
                    &callback(
                        web,
                        "/api/accounts/oidc/callback?error=access_denied",
                        Some(&pending)
                    )
                    .await
                ),
                domain::accounts::PROVIDER_FAILED_MESSAGE
            );
            // ID tokens that fail verification: for another client, another sign-in's nonce,
            // expired, from another issuer.
            for bad in [
                json!({"aud": "another-client"}),
                json!({"nonce": "not-the-one-we-sent"}),
                json!({"exp": 1_000_000_000}),
                json!({"iss": "https://impostor.example"}),
            ] {
                provider.next(with(ada.clone(), &bad)).await;
                assert_eq!(
                    refusal(&sign_in(web, "/").await),
                    domain::accounts::PROVIDER_FAILED_MESSAGE,
                    "{bad}"
                );
            }
            app.running.shutdown().await;
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_provider_nothing_is_offered() {
    each_engine(|db: TestDb| async move {
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let offered = app.get("/api/accounts/oidc").await;
        assert_eq!(offered.json, json!({"enabled": false, "name": null}));
        assert_eq!(app.get("/api/accounts/oidc/start").await.status, 404);
        assert_eq!(
            app.get("/api/accounts/oidc/callback?code=a&state=b")
                .await
                .status,
            404
        );
        app.running.shutdown().await;
    })
    .await;
}

/// An account made through the provider by a visitor carrying an affiliate's referral cookie
/// is that affiliate's referral (issue 16); an account that existed before the click is not.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_provider_sign_up_keeps_the_referral() {
    let Some(provider) = Provider::start().await else {
        return;
    };
    let provider = std::sync::Arc::new(tokio::sync::Mutex::new(provider));
    each_engine(|db: TestDb| {
        let provider = provider.clone();
        async move {
            let mut provider = provider.lock().await;
            let mut cfg = config(&db);
            cfg.oidc = Some(provider.settings());
            let app = spawn_app(cfg, WEB_ONLY).await;
            let web = &app.web;
            let store_db = app.running.db.clone();
            let early = sign_up_with_password(web, "early@example.com", "early").await;
            let owner = store::users::create_user(
                &store_db,
                &store::users::NewUser {
                    email: "ann@example.com".into(),
                    ..Default::default()
                },
            )
            .await
            .expect("owner");
            let affiliate = store::affiliates::create_affiliate(
                &store_db,
                &store::affiliates::NewAffiliate {
                    user_id: Some(owner.id),
                    affiliate_code: "ANNOIDC1".into(),
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
            let (_, cookie) = super::affiliates::visit(web, "/?ref=ANNOIDC1", None).await;
            let (referral, _) = cookie.expect("referral cookie");

            for (sub, email) in [
                ("grace-1", "grace@example.com"),
                ("early-1", "early@example.com"),
            ] {
                provider
                    .next(json!({"sub": sub, "email": email, "email_verified": true}))
                    .await;
                let (path, pending) = through_provider(web, "/").await;
                let res = no_redirects()
                    .get(format!("{}{path}", web.base))
                    .header("cookie", format!("sitelens_oidc={pending}; {referral}"))
                    .send()
                    .await
                    .expect("callback");
                assert_eq!(res.status(), 303);
            }
            let grace = store::users::find_user_by_email(&store_db, "grace@example.com")
                .await
                .expect("find")
                .expect("made by the provider sign-in");
            let linked = store::affiliates::referral_of(&store_db, grace.id)
                .await
                .expect("referral")
                .expect("the new account is the affiliate's referral");
            assert_eq!(linked.affiliate_id, affiliate.id);
            assert!(
                store::affiliates::referral_of(&store_db, early)
                    .await
                    .expect("referral")
                    .is_none(),
                "an account older than the click is nobody's referral"
            );
        }
    })
    .await;
}
