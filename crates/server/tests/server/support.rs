//! Test support: fresh databases on both engines (`test-support`), a fixture website on
//! 127.0.0.1, the real server on port 0 ([`spawn_app`]), and a small HTTP client.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use axum::Router;
use axum::response::Html;
use axum::routing::get;
use serde_json::Value;
use server::config::Chromium;
use server::{Config, Roles, Running};

pub use test_support::{Engine, TestDb, each_engine, run_on, under_ci};

/// A configuration for tests: port 0, private targets allowed, no browser.
pub fn config(db: &TestDb) -> Config {
    Config {
        database_url: db.url.clone(),
        bind: "127.0.0.1:0".parse().expect("addr"),
        web_dir: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/server/webapp"),
        data_dir: db.dir().join("data"),
        blob_storage: server::config::BlobStorage::Local,
        workers: 2,
        trusted_proxies: Vec::new(),
        allow_private_targets: true,
        chromium: Chromium::Off,
        public_url: "https://sitelens.test".to_owned(),
        heartbeat_timeout: Duration::from_secs(60),
        llm: None,
        accounts_url: String::new(),
        smtp_url: None,
        mail_from: "Sitelens <no-reply@sitelens.test>".to_owned(),
        sales_email: None,
        mail_attachment_max_bytes: domain::report_mail::ATTACHMENT_MAX_BYTES,
        oidc: None,
        stripe: None,
        referral_salt: None,
        dns_resolver: None,
        log_filter: "info".to_owned(),
        node_name: "test".to_owned(),
    }
}

/// A web node as its clients see it: an address and an HTTP client.
pub struct Web {
    /// Base URL, `http://127.0.0.1:PORT`.
    pub base: String,
    /// HTTP client.
    pub http: reqwest::Client,
}

impl Web {
    /// A client for the web node at `base` (another process, for example).
    pub fn at(base: String) -> Self {
        Web {
            base,
            http: client(),
        }
    }
}

/// A server running in the test's process, and a client for it (the [`Web`] methods).
pub struct TestApp {
    /// The client side.
    pub web: Web,
    /// The server.
    pub running: Running,
}

impl std::ops::Deref for TestApp {
    type Target = Web;

    fn deref(&self) -> &Web {
        &self.web
    }
}

/// A client that talks plain HTTP on loopback.
pub fn client() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .build()
        .expect("client")
}

/// Web and worker in one process, as `sitelens serve` runs them.
pub const BOTH: Roles = Roles {
    web: true,
    worker: true,
};

/// A web process without a worker: requests are admitted, nothing is analysed.
pub const WEB_ONLY: Roles = Roles {
    web: true,
    worker: false,
};

/// Starts the server with `config` and `roles` on port 0: every test's one way in.
pub async fn spawn_app(config: Config, roles: Roles) -> TestApp {
    let running = server::start(config, roles).await.expect("server starts");
    let addr = running.addr.expect("web role binds");
    TestApp {
        web: Web::at(format!("http://{addr}")),
        running,
    }
}

/// A status and a JSON body.
pub struct Answer {
    /// HTTP status.
    pub status: u16,
    /// Parsed body (Null when not JSON).
    pub json: Value,
    /// `Retry-After` in seconds, when sent (always with a 429).
    pub retry_after: Option<u64>,
}

impl Web {
    /// POSTs a JSON body.
    pub async fn post_json(&self, path: &str, body: &Value) -> Answer {
        let res = self
            .http
            .post(format!("{}{path}", self.base))
            .header("content-type", "application/json")
            .body(body.to_string())
            .send()
            .await
            .expect("request");
        answer(res).await
    }

    /// POSTs a JSON body as a visitor at `visitor`, through a proxy the app trusts (the test's
    /// loopback address must be in `trusted_proxies`).
    pub async fn post_json_from(&self, path: &str, body: &Value, visitor: &str) -> Answer {
        let res = self
            .http
            .post(format!("{}{path}", self.base))
            .header("content-type", "application/json")
            .header("x-forwarded-for", visitor)
            .body(body.to_string())
            .send()
            .await
            .expect("request");
        answer(res).await
    }

    /// GETs a path.
    pub async fn get(&self, path: &str) -> Answer {
        let res = self
            .http
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .expect("request");
        answer(res).await
    }

    /// GETs a page: status, headers and text.
    pub async fn page(&self, path: &str) -> (u16, reqwest::header::HeaderMap, String) {
        let res = self
            .http
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .expect("page");
        let status = res.status().as_u16();
        let headers = res.headers().clone();
        (status, headers, res.text().await.expect("text"))
    }

    /// Follows the progress stream of `id` until it ends; returns every event.
    pub async fn follow(&self, id: &str) -> Vec<Value> {
        let mut res = self
            .http
            .get(format!("{}/api/analysis-progress/{id}", self.base))
            .send()
            .await
            .expect("stream");
        assert_eq!(res.status(), 200);
        assert!(
            res.headers()
                .get("content-type")
                .and_then(|v| v.to_str().ok())
                .is_some_and(|v| v.starts_with("text/event-stream"))
        );
        let mut buf = String::new();
        let mut events = Vec::new();
        while let Some(chunk) = tokio::time::timeout(Duration::from_secs(90), res.chunk())
            .await
            .expect("stream stalls")
            .expect("stream read")
        {
            buf.push_str(&String::from_utf8_lossy(&chunk));
            while let Some(end) = buf.find("\n\n") {
                let block: String = buf.drain(..end + 2).collect();
                for line in block.lines() {
                    if let Some(data) = line.strip_prefix("data:") {
                        events.push(serde_json::from_str(data.trim()).expect("event JSON"));
                    }
                }
            }
        }
        events
    }
}

/// Reads an answer; every 429 must say when to try again (`Retry-After` in whole seconds).
pub async fn answer(res: reqwest::Response) -> Answer {
    let status = res.status().as_u16();
    let retry_after = retry_after(&res);
    let bytes = res.bytes().await.expect("body");
    Answer {
        status,
        json: serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        retry_after,
    }
}

/// The `Retry-After` seconds of a response; asserts that a 429 has them.
pub fn retry_after(res: &reqwest::Response) -> Option<u64> {
    let seconds = res
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if res.status().as_u16() == 429 {
        assert!(
            seconds.is_some_and(|s| s > 0),
            "a 429 without Retry-After seconds"
        );
    }
    seconds
}

/// Every error body has the shared shape, with a message that is not the generic one.
pub fn assert_error_shape(body: &Value, context: &str) {
    assert_eq!(body["success"], false, "{context}: {body}");
    let msg = body["error"].as_str().unwrap_or_default();
    assert!(!msg.is_empty(), "{context}: empty error");
    assert_ne!(msg, "Internal Server Error", "{context}");
}

/// Polls the job `id` until `done` holds for it (every 50 ms, at most `within`); returns it.
pub async fn wait_for_job(
    db: &store::DatabaseConnection,
    id: &str,
    within: Duration,
    done: impl Fn(&store::jobs::Job) -> bool,
) -> store::jobs::Job {
    let id = id.parse().expect("job id");
    let deadline = tokio::time::Instant::now() + within;
    loop {
        let job = store::jobs::get_job(db, id).await.expect("job");
        if done(&job) {
            return job;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "job never reached the expected state: {job:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A fixture site whose first request for `/` never gets an answer (an analysis of it stays
/// running until it is stopped), and whose later requests get [`fixture_site`]'s home page.
/// The number of requests for `/` so far is shared, so a test knows when the first one hangs.
pub async fn stalling_site() -> (SocketAddr, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let hits = Arc::new(AtomicUsize::new(0));
    let counted = hits.clone();
    let app = Router::new().route(
        "/",
        get(move || {
            let first = counted.fetch_add(1, Ordering::SeqCst) == 0;
            async move {
                if first {
                    std::future::pending::<()>().await;
                }
                Html(HOME_PAGE)
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind stalling fixture");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (addr, hits)
}

/// The fixture site's home page.
const HOME_PAGE: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Acme Plumbing — 24/7 emergency plumbers in Springfield</title>
<meta name="description" content="Acme Plumbing fixes leaks, blocked drains and boilers across Springfield, day and night. Fixed prices, certified engineers, and a one-year guarantee on work.">
<link rel="canonical" href="/">
</head><body>
<header><nav><a href="/">Home</a> <a href="/services">Services</a> <a href="/contact">Contact</a></nav></header>
<main><h1>Emergency plumbers in Springfield</h1>
<p>We repair leaks, unblock drains and service boilers. Call us any time of day.</p>
<h2>Our services</h2><p>Leak detection, drain clearing, boiler servicing and bathroom installations.</p>
<img src="/van.png" alt="An Acme Plumbing van parked outside a customer's house in Springfield">
</main><footer><a href="/privacy">Privacy</a></footer></body></html>"#;

/// A small but realistic website on 127.0.0.1, for the analyzer to audit.
pub async fn fixture_site() -> SocketAddr {
    let home = Html(HOME_PAGE);
    let page = Html(
        "<!doctype html><html lang=\"en\"><head><title>Services | Acme Plumbing</title></head><body><h1>Services</h1><a href=\"/\">Home</a></body></html>",
    );
    let app = Router::new()
        .route("/", get(move || async move { home }))
        .route("/services", get(move || async move { page }))
        .route("/robots.txt", get(|| async { "User-agent: *\nAllow: /\n" }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind fixture");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    addr
}

/// Where `just setup` installs aiosmtpd (`SITELENS_TEST_AIOSMTPD` overrides it).
fn aiosmtpd_dir() -> PathBuf {
    std::env::var_os("SITELENS_TEST_AIOSMTPD")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../.tools/aiosmtpd"))
}

/// Starts a real SMTP server (`scripts/mail-sink.py`: aiosmtpd on 127.0.0.1) writing what it
/// receives into `dir`, on `port` (0 for a free one); returns it and its port. `None` (with a
/// warning, or a failure under CI) when aiosmtpd is not installed.
pub async fn start_smtp(dir: &Path, port: u16) -> Option<(tokio::process::Child, u16)> {
    if !aiosmtpd_dir().join("aiosmtpd").is_dir() {
        assert!(!under_ci(), "aiosmtpd is not installed: run `just setup`");
        eprintln!(
            "WARNING: aiosmtpd is not installed (run `just setup`): the SMTP test is skipped"
        );
        return None;
    }
    std::fs::create_dir_all(dir).expect("mail dir");
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scripts/mail-sink.py");
    let mut child = tokio::process::Command::new("python3")
        .arg("-S")
        .arg(script)
        .arg(dir)
        .arg(port.to_string())
        .env("PYTHONPATH", aiosmtpd_dir())
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("python3 runs");
    let port = printed_port(&mut child).await;
    Some((child, port))
}

/// The port a local peer the test started (spawned with its standard output piped) prints on
/// its first line once it listens.
pub async fn printed_port(child: &mut tokio::process::Child) -> u16 {
    use tokio::io::AsyncBufReadExt;
    let stdout = child.stdout.take().expect("stdout");
    let mut line = String::new();
    tokio::io::BufReader::new(stdout)
        .read_line(&mut line)
        .await
        .expect("the port");
    line.trim().parse().expect("a port number")
}

/// The messages the SMTP server of [`start_smtp`] received, in order.
pub fn received(dir: &Path) -> Vec<Value> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("mail dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| serde_json::from_str(&std::fs::read_to_string(p).expect("mail")).expect("JSON"))
        .collect()
}

/// Makes `member` an active member of `owner`'s team in `role`, as an accepted invitation does.
pub async fn join_team(db: &store::DatabaseConnection, owner: i64, member: i64, role: &str) {
    store::accounts::add_team_member(db, owner, member, role, &[])
        .await
        .expect("invite");
    store::accounts::accept_team_invitation(db, owner, member)
        .await
        .expect("join");
}

/// Makes the user an administrator at `level` (`support`, `admin` or `owner`), as
/// `sitelens admin grant` does.
pub async fn make_admin(db: &store::DatabaseConnection, user_id: i64, level: &str) {
    let entry = store::audit::NewAuditEntry::operator(
        "admin.grant",
        "user",
        Some(user_id.to_string()),
        serde_json::json!({ "level": level }),
    );
    store::users::set_admin_level(db, user_id, Some(level), &entry)
        .await
        .expect("make admin");
}

/// Waits, if needed, for a window with at least 20 seconds left, so a short test's requests
/// all fall in one window (the windows are the wall clock's minutes).
pub async fn fresh_window() {
    let window = domain::api::rate_window(store::now().timestamp_millis());
    if window.reset_after < 20 {
        tokio::time::sleep(std::time::Duration::from_secs(window.reset_after + 1)).await;
    }
}
