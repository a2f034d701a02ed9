//! `sitelens analyze --remote` against a real server on 127.0.0.1 (the binary as a CI pipeline
//! runs it), `--fail-under` on local and remote runs, and the operator's
//! `sitelens set-api-rate-limit`: exit statuses, the one line each failure prints, the key never
//! printed, and a submission retried after a lost answer charged once.

use std::path::Path;
use std::process::Output;
use std::sync::{Arc, Mutex};

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use domain::credits::Credits;
use domain::report::AnalysisReport;
use serde_json::Value;
use store::credits::{credit_history, grant_credits};

use crate::cli::sitelens;
use crate::routes::api_keys::{new_key, signed_up};
use crate::support::{
    BOTH, TestApp, TestDb, WEB_ONLY, config, each_engine, fixture_site, spawn_app,
};

/// Runs the binary off the async runtime: `args`, with `env`, in `dir`.
async fn run(args: Vec<String>, env: Vec<(&'static str, String)>, dir: &Path) -> Output {
    let dir = dir.to_owned();
    tokio::task::spawn_blocking(move || {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let env: Vec<(&str, &str)> = env.iter().map(|(n, v)| (*n, v.as_str())).collect();
        sitelens(&args, &env, &dir)
    })
    .await
    .expect("the binary runs")
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|a| (*a).to_owned()).collect()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The lowest of the report's scores below 100, by name; the fixture is not perfect.
fn weakest(report: &AnalysisReport) -> (&'static str, u32) {
    let s = report.scores;
    [
        ("seo", s.seo),
        ("design", s.design),
        ("technical", s.technical),
        ("performance", s.performance),
    ]
    .into_iter()
    .min_by_key(|(_, v)| *v)
    .filter(|(_, v)| *v < 100)
    .expect("a score below 100")
}

async fn give(db: &store::DatabaseConnection, user: i64, credits: u32) {
    grant_credits(db, user, Credits::whole(credits), "admin", None)
        .await
        .expect("grant");
}

/// An account signed up on `app` with a key named CI and `credits` paid credits: the key and
/// the account's id.
async fn customer(app: &TestApp, email: &str, username: &str, credits: u32) -> (String, i64) {
    let (mut browser, id) = signed_up(&app.web, email, username).await;
    let (key, _) = new_key(&mut browser, "CI").await;
    if credits > 0 {
        give(&app.running.db, id, credits).await;
    }
    (key, id)
}

async fn spends(db: &store::DatabaseConnection, user: i64) -> usize {
    credit_history(db, user, 100)
        .await
        .expect("ledger")
        .into_iter()
        .filter(|e| e.reason == "spend")
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_remote_analysis_prints_what_a_local_one_does_and_gates_on_budgets() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let site = fixture_site().await;
        let app = spawn_app(config(&db), BOTH).await;
        let store_db = app.running.db.clone();
        let (secret, owner_id) = customer(&app, "ci@example.com", "pipeline", 3).await;
        let url = format!("http://{site}/");
        let env = vec![("SITELENS_API_KEY", secret.clone())];
        let pdf = db.dir().join("report.pdf");

        // The full report as JSON, and its PDF.
        let out = run(
            strings(&[
                "analyze",
                &url,
                "--remote",
                &app.base,
                "--json",
                "-",
                "--pdf",
                &pdf.display().to_string(),
            ]),
            env.clone(),
            db.dir(),
        )
        .await;
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert_eq!(out.status.code(), Some(0), "{engine:?}: {stderr}");
        let report: AnalysisReport = serde_json::from_str(&stdout).expect("the contract type");
        assert_eq!(report.url, url);
        assert!(report.paid, "a report paid with credits");
        assert!(
            std::fs::read(&pdf).expect("pdf").starts_with(b"%PDF"),
            "{stderr}"
        );
        assert!(stderr.contains("PDF written to"), "{stderr}");

        // The summary a local run prints, and budgets met (a score equal to its budget passes).
        let (weak, score) = weakest(&report);
        let met = format!("{weak}={score},overall=0");
        let out = run(
            strings(&["analyze", &url, "--remote", &app.base, "--fail-under", &met]),
            env.clone(),
            db.dir(),
        )
        .await;
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert_eq!(out.status.code(), Some(0), "{engine:?}: {stderr}");
        for want in [
            "Sitelens report for",
            "Overall",
            "Performance",
            "Top actions:",
        ] {
            assert!(stdout.contains(want), "{want} in {stdout}");
        }

        // A score under its budget: the report is still printed, the status is 3 and the line
        // names the score.
        let missed = format!("{weak}={},overall=0", score + 1);
        let out = run(
            strings(&[
                "analyze",
                &url,
                "--remote",
                &app.base,
                "--fail-under",
                &missed,
                "--json",
                "-",
            ]),
            env.clone(),
            db.dir(),
        )
        .await;
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert_eq!(out.status.code(), Some(3), "{engine:?}: {stderr}");
        let again: AnalysisReport = serde_json::from_str(&stdout).expect("report printed");
        assert_eq!(
            again.scores.overall, report.scores.overall,
            "same site, same scores"
        );
        assert!(
            stderr.contains(&format!("{weak} {score} is below {}", score + 1)),
            "{stderr}"
        );

        // Three runs, three analyses, three charges; the key never printed.
        assert_eq!(spends(&store_db, owner_id).await, 3, "{engine:?}");
        assert!(!stderr.contains(&secret) && !stdout.contains(&secret));
        app.running.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn remote_failures_are_one_line_with_their_own_status() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let site = fixture_site().await;
        let app = spawn_app(config(&db), BOTH).await;
        let (rich_key, _) = customer(&app, "rich@example.com", "rich", 2).await;
        let (poor_key, _) = customer(&app, "poor@example.com", "poor", 0).await;
        let idle = {
            let db2 = TestDb::create(engine).await.expect("second database");
            let idle = spawn_app(config(&db2), WEB_ONLY).await;
            (idle, db2)
        };
        let (waiting_key, _) = customer(&idle.0, "wait@example.com", "wait", 1).await;

        let url = format!("http://{site}/");
        let unknown = format!("slk_{}", "0".repeat(64));
        let site_base = format!("http://{site}");
        let cases: Vec<(Vec<&str>, Option<&str>, i32, &str)> = vec![
            (
                vec![&url, "--remote", &app.base],
                Some(&unknown),
                4,
                "refused the API key",
            ),
            (
                vec![&url, "--remote", &app.base],
                Some("not-a-key"),
                4,
                "not a Sitelens key",
            ),
            (
                vec![&url, "--remote", &app.base],
                None,
                2,
                "needs an API key",
            ),
            (
                vec![&url, "--remote", &app.base],
                Some(&poor_key),
                5,
                "not enough credits",
            ),
            (
                vec![&url, "--remote", "http://127.0.0.1:1"],
                Some(&rich_key),
                6,
                "could not reach the Sitelens server at http://127.0.0.1:1/",
            ),
            (
                vec![&url, "--remote", &site_base],
                Some(&rich_key),
                6,
                "a Sitelens server?",
            ),
            (
                vec!["http://127.0.0.1:1/", "--remote", &app.base],
                Some(&rich_key),
                1,
                "could not analyse http://127.0.0.1:1/",
            ),
            (
                vec![&url, "--remote", &idle.0.base, "--timeout", "1"],
                Some(&waiting_key),
                6,
                "did not finish within 1 seconds",
            ),
            (
                vec![&url, "--remote", &app.base, "--pages", "3"],
                Some(&rich_key),
                2,
                "--pages",
            ),
            (
                vec![&url, "--remote", "sitelens.example.com"],
                Some(&rich_key),
                2,
                "--remote",
            ),
        ];
        for (args, key, status, want) in cases {
            let mut argv = vec!["analyze"];
            argv.extend(args.iter().copied());
            let env = key
                .map(|k| vec![("SITELENS_API_KEY", k.to_owned())])
                .unwrap_or_default();
            let out = run(strings(&argv), env, db.dir()).await;
            let stderr = text(&out.stderr);
            let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
            assert_eq!(
                out.status.code(),
                Some(status),
                "{engine:?} {argv:?}: {stderr}"
            );
            assert_eq!(lines.len(), 1, "{argv:?}: one line, not {stderr}");
            assert!(lines[0].contains(want), "{argv:?}: {want:?} in {stderr}");
            assert!(out.stdout.is_empty(), "{argv:?}");
            if let Some(k) = key {
                assert!(!stderr.contains(k), "{argv:?}: the key is never printed");
            }
        }
        // The failed analysis gave its credits back.
        let usage: Value = app
            .web
            .http
            .get(format!("{}/api/v1/usage", app.base))
            .bearer_auth(&rich_key)
            .send()
            .await
            .expect("usage")
            .bytes()
            .await
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .expect("json");
        assert_eq!(usage["paidCredits"], 2, "{usage}");
        idle.0.running.shutdown().await;
        idle.1.drop_db().await;
        app.running.shutdown().await;
    })
    .await;
}

/// What the proxy in front of the server has seen.
#[derive(Clone)]
struct Proxy {
    upstream: String,
    http: reqwest::Client,
    submissions: Arc<Mutex<Vec<String>>>,
}

/// Forwards every request; the first submission's answer is lost (a 502 after the server took
/// it), as when a load balancer times out.
async fn forward(State(proxy): State<Proxy>, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    let body = axum::body::to_bytes(body, 1 << 20)
        .await
        .unwrap_or_default();
    let mut forwarded = proxy.http.request(
        parts.method.clone(),
        format!("{}{}", proxy.upstream, parts.uri),
    );
    for (name, value) in &parts.headers {
        if !["host", "content-length", "transfer-encoding", "connection"].contains(&name.as_str()) {
            forwarded = forwarded.header(name, value);
        }
    }
    let Ok(answer) = forwarded.body(body).send().await else {
        return StatusCode::BAD_GATEWAY.into_response();
    };
    let lost = if parts.method == "POST" {
        let key = parts
            .headers
            .get("idempotency-key")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_owned();
        let mut seen = proxy.submissions.lock().expect("lock");
        seen.push(key);
        seen.len() == 1
    } else {
        false
    };
    if lost {
        return StatusCode::BAD_GATEWAY.into_response();
    }
    let status = answer.status();
    let headers = answer.headers().clone();
    let bytes = answer.bytes().await.unwrap_or_default();
    let mut res = Response::new(Body::from(bytes));
    *res.status_mut() = status;
    for (name, value) in &headers {
        if !["content-length", "transfer-encoding", "connection"].contains(&name.as_str()) {
            res.headers_mut().append(name, value.clone());
        }
    }
    res
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_submission_whose_answer_was_lost_is_retried_and_charged_once() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let site = fixture_site().await;
        let app = spawn_app(config(&db), BOTH).await;
        let store_db = app.running.db.clone();
        let (secret, owner_id) = customer(&app, "retry@example.com", "retry", 1).await;
        let proxy = Proxy {
            upstream: app.base.clone(),
            http: crate::support::client(),
            submissions: Arc::default(),
        };
        let seen = proxy.submissions.clone();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind proxy");
        let proxy_base = format!("http://{}", listener.local_addr().expect("addr"));
        tokio::spawn(async move {
            let _ = axum::serve(
                listener,
                axum::Router::new().fallback(forward).with_state(proxy),
            )
            .await;
        });
        let out = run(
            strings(&[
                "analyze",
                &format!("http://{site}/"),
                "--remote",
                &proxy_base,
                "--json",
                "-",
            ]),
            vec![("SITELENS_API_KEY", secret)],
            db.dir(),
        )
        .await;
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{engine:?}: {stderr}");
        let keys = seen.lock().expect("lock").clone();
        assert_eq!(
            keys.len(),
            2,
            "{engine:?}: submitted, lost, submitted again"
        );
        assert!(
            !keys[0].is_empty() && keys[0] == keys[1],
            "one Idempotency-Key: {keys:?}"
        );
        assert_eq!(
            spends(&store_db, owner_id).await,
            1,
            "{engine:?}: charged once"
        );
        let page = store::jobs::jobs_page_for_user(&store_db, owner_id, 0, 10)
            .await
            .expect("jobs");
        assert_eq!(page.1, 1, "{engine:?}: one analysis");
        app.running.shutdown().await;
    })
    .await;
}

/// `--fail-under` on a local run, and its mistakes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_local_run_gates_on_budgets_too() {
    let site = fixture_site().await;
    let dir = std::env::temp_dir().join(format!("sitelens-budget-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).expect("dir");
    let url = format!("http://{site}/");
    let allow = || vec![("SITELENS_ALLOW_PRIVATE_TARGETS", "true".to_owned())];
    let out = run(
        strings(&["analyze", &url, "--no-browser", "--json", "-"]),
        allow(),
        &dir,
    )
    .await;
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report: AnalysisReport = serde_json::from_slice(&out.stdout).expect("report");
    let (weak, score) = weakest(&report);
    let overall = report.scores.overall;

    let met = format!("{overall},{weak}={score}");
    let out = run(
        strings(&["analyze", &url, "--no-browser", "--fail-under", &met]),
        allow(),
        &dir,
    )
    .await;
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("Top actions:"));

    let missed = format!("{},{weak}={}", overall + 1, score + 1);
    let out = run(
        strings(&["analyze", &url, "--no-browser", "--fail-under", &missed]),
        allow(),
        &dir,
    )
    .await;
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(
        text(&out.stdout).contains("Top actions:"),
        "the report is still printed"
    );
    assert!(
        stderr.contains(&format!(
            "scores are below budget (--fail-under): overall {overall} is below {}, {weak} {score} is below {}",
            overall + 1,
            score + 1
        )),
        "{stderr}"
    );

    for (budget, want) in [
        ("speed=50", "unknown score 'speed'"),
        ("101", "from 0 to 100"),
        ("seo=80,seo=90", "given twice"),
    ] {
        let out = run(
            strings(&["analyze", &url, "--no-browser", "--fail-under", budget]),
            allow(),
            &dir,
        )
        .await;
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{budget}: {stderr}");
        assert!(
            stderr.contains(want) && stderr.contains("--fail-under"),
            "{budget}: {stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
    let help = run(strings(&["analyze", "--help"]), Vec::new(), &dir).await;
    let help = text(&help.stdout);
    for want in [
        "Exit status:",
        "3  a score is below",
        "--remote <SERVER>",
        "SITELENS_API_KEY",
    ] {
        assert!(help.contains(want), "{want} in {help}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_operator_sets_an_accounts_api_rate_limit() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let (secret, _) = customer(&app, "limits@example.com", "limits", 0).await;
        let env = || vec![("SITELENS_DATABASE_URL", db.url.clone())];
        let set = |email: &str, limit: &str| strings(&["set-api-rate-limit", email, limit]);

        let out = run(set("Limits@Example.com", "250"), env(), db.dir()).await;
        assert_eq!(
            out.status.code(),
            Some(0),
            "{engine:?}: {}",
            text(&out.stderr)
        );
        assert_eq!(
            text(&out.stdout).trim(),
            "limits@example.com's API keys may now make 250 requests a minute each."
        );
        let res = app
            .web
            .http
            .get(format!("{}/api/v1/usage", app.base))
            .bearer_auth(&secret)
            .send()
            .await
            .expect("usage");
        assert_eq!(
            res.headers()
                .get("ratelimit-limit")
                .and_then(|v| v.to_str().ok()),
            Some("250")
        );
        let usage: Value = res
            .bytes()
            .await
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .expect("json");
        assert_eq!(usage["rateLimitPerMinute"], 250, "{engine:?}");

        for (email, limit, status, want) in [
            ("limits@example.com", "0", 2, "from 1 to 1000000"),
            ("limits@example.com", "-5", 2, "not '-5'"),
            ("limits@example.com", "lots", 2, "not 'lots'"),
            ("limits@example.com", "1000001", 2, "from 1 to 1000000"),
            (
                "nobody@example.com",
                "10",
                1,
                "no account has the address nobody@example.com",
            ),
        ] {
            let out = run(set(email, limit), env(), db.dir()).await;
            let stderr = text(&out.stderr);
            assert_eq!(out.status.code(), Some(status), "{limit}: {stderr}");
            assert!(stderr.contains(want), "{limit}: {stderr}");
        }
        let user = store::users::find_user_by_email(&app.running.db, "limits@example.com")
            .await
            .expect("find")
            .expect("user");
        assert_eq!(user.api_rate_limit, 250, "refused values change nothing");
        app.running.shutdown().await;
    })
    .await;
}
