//! The calls of SPEC.md §7.

use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, FromRequestParts, Path, State};
use axum::http::request::Parts;
use axum::http::{HeaderValue, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use domain::commerce::FREE_ANALYSES_PER_DAY;
use domain::report::{
    AnalyzeRequest, AnalyzeResponse, DownloadRequest, ProgressEvent, ProgressEventType, StatsData,
    StatsResponse,
};
use domain::site_url::SiteUrl;
use futures::Stream;
use serde::Deserialize;
use store::jobs::{JobStatus, NewAnalysis};
use tokio::sync::broadcast::error::RecvError;
use uuid::Uuid;

use crate::error::{ApiJson, AppError, AppResult};
use crate::pdf;
use crate::state::{AppState, STATS_TTL};

/// Longest address accepted (the de-facto limit of browsers and servers).
const MAX_URL_LEN: usize = 2048;

/// The visitor's address: the socket peer, or the first untrusted hop of `X-Forwarded-For`
/// when the peer is a trusted proxy.
pub struct ClientIp(pub IpAddr);

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0.ip())
            .unwrap_or(IpAddr::from([127, 0, 0, 1]));
        let trusted = |ip: IpAddr| state.config.trusted_proxies.iter().any(|b| b.contains(ip));
        if !trusted(peer) {
            return Ok(Self(peer));
        }
        // Walk X-Forwarded-For from the right: the first address that is not one of our proxies
        // is the client. Anything further left was written by the client and proves nothing.
        let hops: Vec<IpAddr> = parts
            .headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .filter_map(|s| s.trim().parse().ok())
            .collect();
        Ok(Self(
            hops.into_iter()
                .rev()
                .find(|ip| !trusted(*ip))
                .unwrap_or(peer),
        ))
    }
}

/// `POST /api/analyze`: validates, spends a free analysis, queues the job.
pub async fn create_analysis(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(req): ApiJson<AnalyzeRequest>,
) -> AppResult<Json<AnalyzeResponse>> {
    if req.url.len() > MAX_URL_LEN {
        return Err(AppError::BadRequest(format!(
            "the address is longer than {MAX_URL_LEN} characters"
        )));
    }
    let site = SiteUrl::parse(&req.url).map_err(|e| AppError::BadRequest(e.to_string()))?;
    // The allowance is counted and the job queued in one transaction: a refused or failed
    // request never uses up a free analysis.
    let job = store::jobs::enqueue_free_analysis(
        &state.db,
        &ip.to_string(),
        chrono::Utc::now(),
        FREE_ANALYSES_PER_DAY,
        &NewAnalysis {
            url: site.to_string(),
            canonical_url: site.to_string(),
            report_type: domain::report::ReportType::Basic,
            requested_pages: 1,
            requester_user_id: None,
            requester_ip: Some(ip.to_string()),
        },
    )
    .await?
    .ok_or_else(|| {
        AppError::TooManyRequests(format!(
            "You have used your {FREE_ANALYSES_PER_DAY} free analyses for today. Come back tomorrow, or use a credit for a professional report."
        ))
    })?;
    state.hub.job_queued().await;
    Ok(Json(AnalyzeResponse {
        success: true,
        analysis_id: Some(job.id.to_string()),
        data: None,
        error: None,
    }))
}

fn parse_id(raw: &str, what: &str) -> AppResult<Uuid> {
    Uuid::parse_str(raw.trim()).map_err(|_| AppError::NotFound(format!("{what} not found")))
}

fn sse_event(event: &ProgressEvent) -> Event {
    Event::default()
        .json_data(event)
        .unwrap_or_else(|_| Event::default().data("{}"))
}

fn is_final(event: &ProgressEvent) -> bool {
    matches!(
        event.kind,
        ProgressEventType::Complete | ProgressEventType::Error
    )
}

/// How often a stream re-reads the job row, in case a notification was missed.
const POLL: Duration = Duration::from_secs(2);

/// `GET /api/analysis-progress/{analysisId}`: server-sent events until complete or error.
pub async fn progress_stream(
    State(state): State<AppState>,
    Path(raw): Path<String>,
) -> AppResult<Sse<impl Stream<Item = Result<Event, Infallible>>>> {
    let id = parse_id(&raw, "analysis")?;
    // Subscribe before reading the row, so nothing published in between is missed.
    let rx = state.hub.subscribe();
    let job = store::jobs::get_job(&state.db, id)
        .await
        .map_err(|_| AppError::NotFound("analysis not found".to_owned()))?;
    let connected = ProgressEvent {
        kind: ProgressEventType::Connected,
        analysis_id: id.to_string(),
        step: None,
        progress: 0,
        message: "Connected to progress updates".to_owned(),
        timestamp: chrono::Utc::now().timestamp_millis() as f64,
        result_id: None,
    };
    let current = job.progress_event();
    struct S {
        state: AppState,
        id: Uuid,
        rx: tokio::sync::broadcast::Receiver<ProgressEvent>,
        pending: Vec<ProgressEvent>,
        last: (u32, ProgressEventType),
        done: bool,
    }
    let init = S {
        state,
        id,
        rx,
        last: (current.progress, current.kind),
        pending: vec![current, connected],
        done: false,
    };
    let stream = futures::stream::unfold(init, |mut s| async move {
        loop {
            if let Some(ev) = s.pending.pop() {
                if s.done {
                    return None;
                }
                s.done = is_final(&ev);
                return Some((Ok(sse_event(&ev)), s));
            }
            if s.done {
                return None;
            }
            let next = tokio::time::timeout(POLL, s.rx.recv()).await;
            let event = match next {
                Ok(Ok(ev)) if ev.analysis_id == s.id.to_string() => Some(ev),
                Ok(Ok(_)) => None,
                // Lagged, closed or quiet: the job row has the truth.
                Ok(Err(RecvError::Lagged(_))) | Err(_) | Ok(Err(RecvError::Closed)) => {
                    match store::jobs::get_job(&s.state.db, s.id).await {
                        Ok(job) => {
                            let ev = job.progress_event();
                            (s.last != (ev.progress, ev.kind)).then_some(ev)
                        }
                        Err(e) => {
                            tracing::warn!(error = %e, "progress poll failed");
                            None
                        }
                    }
                }
            };
            if let Some(ev) = event {
                s.last = (ev.progress, ev.kind);
                s.pending.push(ev);
            }
        }
    });
    Ok(Sse::new(stream).keep_alive(
        KeepAlive::new()
            .interval(Duration::from_secs(15))
            .text("keep-alive"),
    ))
}

/// `GET /api/results/{id}`: `{success, data}`.
pub async fn get_result(
    State(state): State<AppState>,
    Path(raw): Path<String>,
) -> AppResult<Response> {
    let id = parse_id(&raw, "analysis")?;
    let body = match state.results.get(&id) {
        Some(body) => body,
        None => {
            let report = find_report(&state, id).await?;
            let json = serde_json::to_vec(&domain::report::ResultResponse {
                success: true,
                data: report,
            })
            .map_err(AppError::internal)?;
            let body = Bytes::from(json);
            state.results.put(id, body.clone());
            body
        }
    };
    Ok((
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        Body::from(body),
    )
        .into_response())
}

/// `GET /api/stats`.
pub async fn get_stats(State(state): State<AppState>) -> AppResult<Json<StatsResponse>> {
    let cached = state
        .stats
        .lock()
        .ok()
        .and_then(|g| *g)
        .filter(|(at, _)| at.elapsed() < STATS_TTL)
        .map(|(_, n)| n);
    let total = match cached {
        Some(n) => n,
        None => {
            let n = store::stats::stats(&state.db).await?.websites_analyzed;
            if let Ok(mut g) = state.stats.lock() {
                *g = Some((Instant::now(), n));
            }
            n
        }
    };
    Ok(Json(StatsResponse {
        success: true,
        message: "Statistics retrieved".to_owned(),
        data: StatsData {
            total_websites_analyzed: total.to_string(),
        },
    }))
}

/// `GET /api/check-trial-eligibility`: accounts arrive with a later issue, so every visitor is
/// anonymous and the answer is 401 (the home page then treats the visitor as new).
pub async fn check_trial_eligibility() -> AppError {
    AppError::Unauthorized("sign in to check free trial eligibility".to_owned())
}

/// The stored report with this id, or the report of the analysis with this id: a client that
/// only knows its analysis id (its progress stream was lost) can still open the report.
async fn find_report(state: &AppState, id: Uuid) -> AppResult<domain::report::AnalysisReport> {
    match store::results::get_report(&state.db, id).await {
        Ok(row) => return Ok(row),
        Err(store::StoreError::NotFound) => {}
        Err(e) => return Err(e.into()),
    }
    let job = match store::jobs::get_job(&state.db, id).await {
        Ok(job) => job,
        Err(store::StoreError::NotFound) => {
            return Err(AppError::NotFound("analysis not found".to_owned()));
        }
        Err(e) => return Err(e.into()),
    };
    match (job.status, job.result_id) {
        (JobStatus::Complete, Some(result_id)) => {
            Ok(store::results::get_report(&state.db, result_id).await?)
        }
        (JobStatus::Failed, _) => Err(AppError::NotFound(
            job.error
                .unwrap_or_else(|| "the analysis failed".to_owned()),
        )),
        _ => Err(AppError::NotFound(
            "the analysis is not finished yet".to_owned(),
        )),
    }
}

async fn load_report(state: &AppState, id: &str) -> AppResult<domain::report::AnalysisReport> {
    let id = parse_id(id, "report")?;
    find_report(state, id).await
}

fn pdf_response(state: &AppState, report: &domain::report::AnalysisReport) -> AppResult<Response> {
    let bytes = pdf::render(report, &state.config.data_dir).map_err(AppError::internal)?;
    let name = pdf::file_name(report);
    let disposition = HeaderValue::from_str(&format!("attachment; filename=\"{name}\""))
        .map_err(AppError::internal)?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/pdf"),
            ),
            (header::CONTENT_DISPOSITION, disposition),
            (
                header::CACHE_CONTROL,
                HeaderValue::from_static("private, no-store"),
            ),
        ],
        bytes,
    )
        .into_response())
}

/// `POST /api/download-basic-report`: validates the form, records the lead, returns the PDF.
pub async fn download_basic_report(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<DownloadRequest>,
) -> AppResult<Response> {
    let errors = domain::forms::validate_download(&req);
    if let Some(first) = errors.first() {
        return Err(AppError::Unprocessable(first.message.clone()));
    }
    let report = load_report(&state, &req.report_id).await?;
    store::reports::create_email_report(
        &state.db,
        &store::reports::NewEmailReport {
            email: req.email.trim().to_owned(),
            first_name: req.first_name.trim().to_owned(),
            last_name: Some(req.last_name.trim().to_owned()),
            website_url: report.url.clone(),
            report_type: "basic".to_owned(),
            analysis_result_id: Uuid::parse_str(&report.id).ok(),
            upgrade_token: Some(Uuid::new_v4().simple().to_string()),
            agree_to_emails: req.agree_to_emails,
        },
    )
    .await?;
    pdf_response(&state, &report)
}

/// `GET /api/download-report/{reportId}`.
pub async fn download_report(
    State(state): State<AppState>,
    Path(raw): Path<String>,
) -> AppResult<Response> {
    let report = load_report(&state, &raw).await?;
    pdf_response(&state, &report)
}

/// The contact form.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContactRequest {
    /// Name.
    pub name: String,
    /// E-mail.
    pub email: String,
    /// Subject.
    #[serde(default)]
    pub subject: String,
    /// Message.
    pub message: String,
}

/// `POST /api/contact`: stores the message.
pub async fn create_contact(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<ContactRequest>,
) -> AppResult<Json<serde_json::Value>> {
    if req.name.trim().is_empty() {
        return Err(AppError::Unprocessable("Please enter your name".to_owned()));
    }
    if !domain::forms::is_valid_email(&req.email) {
        return Err(AppError::Unprocessable(
            domain::forms::EMAIL_MESSAGE.to_owned(),
        ));
    }
    let message = req.message.trim();
    if message.is_empty() {
        return Err(AppError::Unprocessable("Please enter a message".to_owned()));
    }
    if message.chars().count() > 5000
        || req.subject.chars().count() > 200
        || req.name.chars().count() > 200
    {
        return Err(AppError::Unprocessable(
            "The message is too long: keep it under 5,000 characters".to_owned(),
        ));
    }
    store::contact::save_contact_message(
        &state.db,
        &store::contact::NewContactMessage {
            name: req.name.trim().to_owned(),
            email: req.email.trim().to_owned(),
            subject: req.subject.trim().to_owned(),
            message: message.to_owned(),
        },
    )
    .await?;
    Ok(Json(
        serde_json::json!({"success": true, "message": "Thanks! We will reply within two working days."}),
    ))
}

/// Answer for an unknown `/api/...` path.
pub async fn api_not_found() -> AppError {
    AppError::NotFound("no such API endpoint".to_owned())
}
