//! `sitelens analyze --remote SERVER`: the command line as a client of a Sitelens server's public
//! API (`/api/v1`, `routes::api_v1`), with the same progress bar and output as a local run.
//!
//! 1. `POST /analyses` with an `Idempotency-Key` drawn once per run, so a submission retried after
//!    a lost answer returns the first one's analysis and is never charged twice.
//! 2. `GET /analyses/{id}` until it is `complete` or `failed`, polling less often as it goes
//!    (from half a second up to five) and never faster than the key's limit allows: a `429`
//!    waits its `Retry-After`, and an answer with `RateLimit-Remaining: 0` waits its
//!    `RateLimit-Reset` before the next call.
//! 3. `GET /analyses/{id}/report` (the report's contract type, `AnalysisReport`, as the web app
//!    reads it) and, with `--pdf`, `GET /analyses/{id}/report.pdf`.
//!
//! A call that cannot connect or gets a 5xx or 429 is retried a few times with growing waits;
//! every other failure ends the command with one line and its exit status (`analyze::exit`).
//! The key travels only in the `Authorization` header and is never printed.

use std::io::Write;
use std::time::Duration;

use domain::api::{AnalysisStatus, ApiAnalysis, ApiErrorBody, ApiErrorCode};
use domain::report::{AnalysisReport, ReportType};
use reqwest::header::HeaderMap;
use reqwest::{Method, StatusCode};
use tokio::time::Instant;
use url::Url;

use super::analyze::{AnalyzeArgs, Progress, deliver, exit};
use super::one_line;

/// Attempts of one call that cannot connect or gets a 5xx or 429, before giving up.
const ATTEMPTS: u32 = 4;
/// The wait before the first retry; it doubles with each one.
const FIRST_RETRY: Duration = Duration::from_millis(500);
/// The longest wait a server's `Retry-After` or `RateLimit-Reset` is honoured for.
const LONGEST_WAIT: Duration = Duration::from_secs(60);
/// The first wait between two polls of the analysis; it grows by half each time.
const FIRST_POLL: Duration = Duration::from_millis(500);
/// The longest wait between two polls.
const LONGEST_POLL: Duration = Duration::from_secs(5);

/// A Sitelens server's address, ending in `/` so the API's paths join under it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Server(Url);

/// Reads `--remote`: an `http://` or `https://` address, with or without the API's `/api/v1`.
pub fn parse_server(text: &str) -> Result<Server, String> {
    let mut url = Url::parse(text.trim()).map_err(|_| {
        "expected the server's address with http:// or https://, e.g. https://sitelens.example.com"
            .to_owned()
    })?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
        return Err("the server's address must start with http:// or https://".to_owned());
    }
    url.set_query(None);
    url.set_fragment(None);
    let path = url.path().trim_end_matches('/');
    let path = path.strip_suffix("/api/v1").unwrap_or(path).to_owned();
    url.set_path(&format!("{path}/"));
    Ok(Server(url))
}

/// An API key as the command line holds it: never shown, not even by `{:?}`.
#[derive(Clone)]
pub struct ApiKey(String);

impl std::fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ApiKey(…)")
    }
}

/// Reads `--api-key` (or `SITELENS_API_KEY`); surrounding spaces, as a copied key may carry,
/// are dropped.
pub fn parse_key(text: &str) -> Result<ApiKey, String> {
    Ok(ApiKey(text.trim().to_owned()))
}

/// Why a remote run stopped without a report.
#[derive(Debug)]
enum Failure {
    /// The key is missing its form or the server refused it.
    Key(String),
    /// The account cannot pay for the report.
    Credits(String),
    /// The site could not be analysed: the server refused the address or the analysis failed.
    NotAnalysed(String),
    /// No usable answer: not reachable, a 5xx, an answer we do not understand, too slow.
    Server(String),
}

impl Failure {
    fn exit_code(&self) -> u8 {
        match self {
            Failure::Key(_) => exit::KEY_REFUSED,
            Failure::Credits(_) => exit::NO_CREDITS,
            Failure::NotAnalysed(_) => exit::NOT_ANALYSED,
            Failure::Server(_) => exit::SERVER,
        }
    }

    fn message(&self) -> &str {
        match self {
            Failure::Key(m)
            | Failure::Credits(m)
            | Failure::NotAnalysed(m)
            | Failure::Server(m) => m,
        }
    }
}

/// An answer read whole: status, headers and body.
struct Answer {
    status: StatusCode,
    headers: HeaderMap,
    body: bytes::Bytes,
}

impl Answer {
    /// The API's error message, or what the status says when the body is not the API's.
    fn error_message(&self) -> (Option<ApiErrorCode>, String) {
        match serde_json::from_slice::<ApiErrorBody>(&self.body) {
            Ok(b) => (Some(b.error.code), one_line(&b.error.message)),
            Err(_) => (None, format!("the server answered {}", self.status)),
        }
    }

    fn json<T: serde::de::DeserializeOwned>(&self, what: &str) -> Result<T, Failure> {
        serde_json::from_slice(&self.body).map_err(|e| {
            Failure::Server(format!(
                "the server's {what} is not what this version of sitelens reads ({e}); is it a Sitelens server of the same version?"
            ))
        })
    }
}

/// Seconds in a header such as `Retry-After` or `RateLimit-Reset`.
fn seconds(headers: &HeaderMap, name: &str) -> Option<Duration> {
    headers
        .get(name)?
        .to_str()
        .ok()?
        .trim()
        .parse::<u64>()
        .ok()
        .map(|s| Duration::from_secs(s).min(LONGEST_WAIT))
}

/// The API as one run uses it.
struct Client {
    http: reqwest::Client,
    server: Server,
    key: ApiKey,
    /// No call before this instant: the key's window is used up.
    not_before: Option<Instant>,
}

impl Client {
    fn endpoint(&self, path: &str) -> Result<Url, Failure> {
        self.server
            .0
            .join(&format!("api/v1/{path}"))
            .map_err(|e| Failure::Server(format!("bad API address: {e}")))
    }

    /// One call, retried with the same headers (and so the same `Idempotency-Key`) while it
    /// cannot connect or gets a 5xx or 429.
    async fn call(
        &mut self,
        method: Method,
        path: &str,
        body: Option<&serde_json::Value>,
        idempotency_key: Option<&str>,
    ) -> Result<Answer, Failure> {
        let url = self.endpoint(path)?;
        let mut wait = FIRST_RETRY;
        let mut attempt = 1;
        loop {
            if let Some(at) = self.not_before.take() {
                tokio::time::sleep_until(at).await;
            }
            let mut request = self
                .http
                .request(method.clone(), url.clone())
                .bearer_auth(&self.key.0);
            if let Some(k) = idempotency_key {
                request = request.header("idempotency-key", k);
            }
            if let Some(b) = body {
                request = request
                    .header(reqwest::header::CONTENT_TYPE, "application/json")
                    .body(b.to_string());
            }
            let outcome = match request.send().await {
                Ok(res) => {
                    let status = res.status();
                    let headers = res.headers().clone();
                    match res.bytes().await {
                        Ok(body) => Ok(Answer {
                            status,
                            headers,
                            body,
                        }),
                        Err(e) => Err(e),
                    }
                }
                Err(e) => Err(e),
            };
            let retry_after = match &outcome {
                Ok(a) if a.status == StatusCode::TOO_MANY_REQUESTS => Some(
                    seconds(&a.headers, "retry-after")
                        .or_else(|| seconds(&a.headers, "ratelimit-reset"))
                        .unwrap_or(wait),
                ),
                Ok(a) if a.status.is_server_error() => {
                    Some(seconds(&a.headers, "retry-after").unwrap_or(wait))
                }
                Ok(_) => None,
                Err(_) => Some(wait),
            };
            match (outcome, retry_after) {
                (Ok(answer), None) => {
                    if answer
                        .headers
                        .get("ratelimit-remaining")
                        .and_then(|v| v.to_str().ok())
                        == Some("0")
                    {
                        self.not_before =
                            seconds(&answer.headers, "ratelimit-reset").map(|d| Instant::now() + d);
                    }
                    return Ok(answer);
                }
                (outcome, Some(pause)) if attempt < ATTEMPTS => {
                    tracing::debug!(attempt, ?pause, ok = outcome.is_ok(), "retrying a call");
                    tokio::time::sleep(pause).await;
                    attempt += 1;
                    wait *= 2;
                }
                (Ok(answer), Some(_)) => {
                    let (_, message) = answer.error_message();
                    return Err(Failure::Server(format!(
                        "the Sitelens server at {} did not serve {method} {} after {ATTEMPTS} attempts: {message}",
                        self.server.0,
                        url.path()
                    )));
                }
                (Err(e), _) => {
                    return Err(Failure::Server(format!(
                        "could not reach the Sitelens server at {}: {}",
                        self.server.0,
                        one_line(&chain(&e))
                    )));
                }
            }
        }
    }
}

/// An error and its causes on one line (reqwest's own text says only "error sending request").
fn chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let more = s.to_string();
        if !text.contains(&more) {
            text.push_str(": ");
            text.push_str(&more);
        }
        source = s.source();
    }
    text
}

/// What a refusal of the API means for this command: the exit status and its line.
fn refused(answer: &Answer, url: &str) -> Failure {
    let (code, message) = answer.error_message();
    match (answer.status, code) {
        (StatusCode::UNAUTHORIZED, _) => {
            Failure::Key(format!("the server refused the API key: {message}"))
        }
        (StatusCode::PAYMENT_REQUIRED, _) | (_, Some(ApiErrorCode::InsufficientCredits)) => {
            Failure::Credits(format!("not enough credits: {message}"))
        }
        (_, Some(ApiErrorCode::InvalidUrl)) => {
            Failure::NotAnalysed(format!("could not analyse {url}: {message}"))
        }
        (StatusCode::NOT_FOUND, None) => Failure::Server(format!(
            "{message}: is the address given to --remote a Sitelens server?"
        )),
        _ => Failure::Server(format!("the server refused the request: {message}")),
    }
}

/// The remote run, from submission to the report on `stdout`; returns the exit status.
pub fn run(
    args: &AnalyzeArgs,
    server: Server,
    stdout: &mut (dyn Write + Send),
    stderr: &mut (dyn Write + Send),
    show_progress: bool,
) -> u8 {
    let Some(key) = args.api_key.clone().filter(|k| !k.0.is_empty()) else {
        let _ = writeln!(
            stderr,
            "error: --remote needs an API key: pass --api-key or set SITELENS_API_KEY (create one on the server's dashboard)"
        );
        return exit::USAGE;
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            let _ = writeln!(stderr, "error: could not start the async runtime: {e}");
            return exit::SERVER;
        }
    };
    runtime.block_on(execute(args, server, key, stdout, stderr, show_progress))
}

async fn execute(
    args: &AnalyzeArgs,
    server: Server,
    key: ApiKey,
    stdout: &mut (dyn Write + Send),
    stderr: &mut (dyn Write + Send),
    show_progress: bool,
) -> u8 {
    if !domain::api::is_well_formed_key(&key.0) {
        let _ = writeln!(
            stderr,
            "error: the API key is not a Sitelens key (slk_ and 64 hex digits); copy it again from the server's dashboard"
        );
        return exit::KEY_REFUSED;
    }
    if server.0.scheme() == "http"
        && !matches!(
            server.0.host_str(),
            Some("localhost" | "127.0.0.1" | "[::1]")
        )
    {
        let _ = writeln!(
            stderr,
            "note: the API key travels unencrypted to {} (http://); use https:// outside a trusted network",
            server.0
        );
    }
    let _ = rustls::crypto::ring::default_provider().install_default();
    let http = match reqwest::Client::builder()
        .user_agent(concat!("sitelens-cli/", env!("CARGO_PKG_VERSION")))
        .connect_timeout(Duration::from_secs(10))
        .timeout(Duration::from_secs(120))
        .build()
    {
        Ok(h) => h,
        Err(e) => {
            let _ = writeln!(stderr, "error: could not build the HTTP client: {e}");
            return exit::SERVER;
        }
    };
    let mut client = Client {
        http,
        server,
        key,
        not_before: None,
    };
    let bar = Progress::new(show_progress);
    let outcome = analyse(args, &mut client, &bar).await;
    bar.finish();
    match outcome {
        Ok((report, pdf)) => {
            if let (Some(path), Some(pdf)) = (&args.pdf, pdf) {
                if let Err(e) = std::fs::write(path, &pdf) {
                    let _ = writeln!(stderr, "error: could not write {}: {e}", path.display());
                    return exit::USAGE;
                }
                let _ = writeln!(stderr, "PDF written to {}", path.display());
            }
            deliver(args, &report, stdout, stderr)
        }
        Err(f) => {
            let _ = writeln!(stderr, "error: {}", f.message());
            f.exit_code()
        }
    }
}

/// Submits, follows and fetches the analysis; the report, and its PDF when `--pdf` asks.
async fn analyse(
    args: &AnalyzeArgs,
    client: &mut Client,
    bar: &Progress,
) -> Result<(AnalysisReport, Option<bytes::Bytes>), Failure> {
    let report_type = args.report_type.unwrap_or(ReportType::Basic);
    let idempotency_key = uuid::Uuid::new_v4().to_string();
    let body = serde_json::json!({"url": args.url, "reportType": report_type});
    let answer = client
        .call(
            Method::POST,
            "analyses",
            Some(&body),
            Some(&idempotency_key),
        )
        .await?;
    if !answer.status.is_success() {
        return Err(refused(&answer, &args.url));
    }
    let mut analysis: ApiAnalysis = answer.json("analysis")?;
    let id = analysis.id.clone();
    let deadline = Instant::now() + Duration::from_secs(args.timeout);
    let mut pause = FIRST_POLL;
    loop {
        match analysis.status {
            AnalysisStatus::Complete => break,
            AnalysisStatus::Failed => {
                return Err(Failure::NotAnalysed(format!(
                    "could not analyse {}: {}",
                    args.url,
                    one_line(analysis.error.as_deref().unwrap_or("the analysis failed"))
                )));
            }
            AnalysisStatus::Queued => bar.set(
                analysis.progress,
                "Queued",
                "waiting for a worker on the server",
            ),
            AnalysisStatus::Running => bar.set(
                analysis.progress,
                analysis.step.as_deref().unwrap_or("Running"),
                analysis.message.as_deref().unwrap_or(""),
            ),
        }
        if Instant::now() + pause > deadline {
            return Err(Failure::Server(format!(
                "the analysis {id} did not finish within {} seconds (--timeout); it goes on on the server: GET /api/v1/analyses/{id}",
                args.timeout
            )));
        }
        tokio::time::sleep(pause).await;
        pause = (pause * 3 / 2).min(LONGEST_POLL);
        let answer = client
            .call(Method::GET, &format!("analyses/{id}"), None, None)
            .await?;
        if !answer.status.is_success() {
            return Err(refused(&answer, &args.url));
        }
        analysis = answer.json("analysis")?;
    }
    bar.set(100, "Complete", "fetching the report");
    let answer = client
        .call(Method::GET, &format!("analyses/{id}/report"), None, None)
        .await?;
    if !answer.status.is_success() {
        return Err(refused(&answer, &args.url));
    }
    let report: AnalysisReport = answer.json("report")?;
    let pdf = match &args.pdf {
        None => None,
        Some(_) => {
            let answer = client
                .call(
                    Method::GET,
                    &format!("analyses/{id}/report.pdf"),
                    None,
                    None,
                )
                .await?;
            if !answer.status.is_success() {
                return Err(refused(&answer, &args.url));
            }
            Some(answer.body)
        }
    };
    Ok((report, pdf))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_addresses_are_normalised() {
        let base = |t: &str| parse_server(t).map(|s| s.0.to_string());
        assert_eq!(
            base("https://sitelens.example.com").as_deref(),
            Ok("https://sitelens.example.com/")
        );
        assert_eq!(
            base("http://127.0.0.1:8080/api/v1/").as_deref(),
            Ok("http://127.0.0.1:8080/")
        );
        assert_eq!(
            base("https://example.com/sitelens?x=1#y").as_deref(),
            Ok("https://example.com/sitelens/")
        );
        assert!(parse_server("sitelens.example.com").is_err());
        assert!(parse_server("ftp://example.com").is_err());
    }

    #[test]
    fn a_key_is_never_shown() {
        let key = parse_key(" slk_secret ").expect("key");
        assert_eq!(key.0, "slk_secret");
        assert_eq!(format!("{key:?}"), "ApiKey(…)");
    }

    #[test]
    fn waits_in_headers_are_capped() {
        let mut h = HeaderMap::new();
        h.insert("retry-after", "7".parse().expect("value"));
        h.insert("ratelimit-reset", "3600".parse().expect("value"));
        assert_eq!(seconds(&h, "retry-after"), Some(Duration::from_secs(7)));
        assert_eq!(seconds(&h, "ratelimit-reset"), Some(LONGEST_WAIT));
        assert_eq!(seconds(&h, "missing"), None);
    }
}
