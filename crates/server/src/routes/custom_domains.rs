//! Custom domains (issue 15 item 3; `services::custom_domains`):
//!
//! - `/api/white-label/domain`: the signed-in white-label account's domain: `GET` it with the
//!   records to add, `PUT {domain}` (422 for what is not a servable domain, 409 when another
//!   account has it), `DELETE` it; `POST /api/white-label/domain/verify` checks its TXT record
//!   now. 401 signed out, 403 for an account whose plan has no white-label and for team members.
//!   Session and CSRF as every account route.
//! - [`route_by_host`], the outermost layer of the app: a request for our own host is served
//!   as it always was; one for an agency's *verified* domain reaches only that agency's branded
//!   report pages ([`agency_may_reach`]); any other host is answered 421 Misdirected Request
//!   (RFC 9110 §15.5.20), except the health probes, which load balancers may send by address.

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use domain::custom_domain::{CustomDomainInput, CustomDomainSettings};
use uuid::Uuid;

use crate::app::BODY_LIMIT;
use crate::error::{AppError, AppResult};
use crate::extract::{ApiJson, CurrentUser};
use crate::services::custom_domains::{self as service, HostKind};
use crate::services::pages::is_internal_file;
use crate::state::AppState;

/// The custom domain resource.
pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/white-label/domain",
            get(get_custom_domain)
                .put(set_custom_domain)
                .delete(remove_custom_domain),
        )
        .route("/white-label/domain/verify", post(verify_custom_domain))
}

async fn get_custom_domain(
    State(state): State<AppState>,
    current: CurrentUser,
) -> AppResult<Json<CustomDomainSettings>> {
    Ok(Json(
        service::settings(&state.db, &state.domains, &current.user).await?,
    ))
}

async fn set_custom_domain(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiJson(body): ApiJson<CustomDomainInput>,
) -> AppResult<Json<CustomDomainSettings>> {
    Ok(Json(
        service::set_domain(&state.db, &state.domains, &current.user, &body.domain).await?,
    ))
}

async fn remove_custom_domain(
    State(state): State<AppState>,
    current: CurrentUser,
) -> AppResult<Json<CustomDomainSettings>> {
    Ok(Json(
        service::remove_domain(&state.db, &state.domains, &current.user).await?,
    ))
}

async fn verify_custom_domain(
    State(state): State<AppState>,
    current: CurrentUser,
) -> AppResult<Json<CustomDomainSettings>> {
    Ok(Json(
        service::verify(&state.db, &state.domains, &current.user).await?,
    ))
}

/// The health probes, answered whatever the host.
const PROBES: [&str; 2] = ["/healthz", "/readyz"];

/// What a path on an agency's domain may reach.
#[derive(Debug, PartialEq, Eq)]
enum Reach {
    /// Served as on our host: the app's assets and files, screenshots, the widget.
    Open,
    /// A report, by its id (or its analysis's): served when it wears the agency's brand.
    Report(String),
    /// The Download Report form: its body names the report.
    DownloadForm,
    /// Nothing for this host.
    Closed,
}

/// What `path` (with `query`) on an agency's domain reaches; `file` says whether the path is
/// a public file of the built app.
fn agency_may_reach(method: &Method, path: &str, query: Option<&str>, file: bool) -> Reach {
    let id_param = || {
        query
            .into_iter()
            .flat_map(|q| url::form_urlencoded::parse(q.as_bytes()))
            .find(|(k, _)| k == "id")
            .map(|(_, v)| v.into_owned())
    };
    let trimmed = path.trim_end_matches('/');
    if let Some(id) = trimmed
        .strip_prefix("/results/")
        .or_else(|| trimmed.strip_prefix("/api/results/"))
        .or_else(|| trimmed.strip_prefix("/api/download-report/"))
    {
        return Reach::Report(id.to_owned());
    }
    if trimmed == "/results" {
        return id_param().map_or(Reach::Closed, Reach::Report);
    }
    if path == "/api/download-basic-report" && method == Method::POST {
        return Reach::DownloadForm;
    }
    let open = path.starts_with("/assets/")
        || path.starts_with("/files/")
        // The embeddable widget (issue 15 item 5): its script and API.
        || path == "/widget.js"
        || path.starts_with("/api/widget/")
        // The app asks who is signed in on every page; on an agency's domain nobody is.
        || (path == "/api/session" && method == Method::GET)
        || (file && !is_internal_file(path));
    if open { Reach::Open } else { Reach::Closed }
}

fn not_found(path: &str) -> Response {
    if path.starts_with("/api/") {
        AppError::NotFound("report not found".to_owned()).into_response()
    } else {
        (
            StatusCode::NOT_FOUND,
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/plain; charset=utf-8"),
            )],
            "Not found\n",
        )
            .into_response()
    }
}

fn misdirected() -> Response {
    (
        StatusCode::MISDIRECTED_REQUEST,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; charset=utf-8"),
        )],
        "This site is not served at this address.\n",
    )
        .into_response()
}

/// Whether the report or analysis `raw` wears `agency`'s brand.
async fn is_agency_report(state: &AppState, agency: i64, raw: &str) -> Result<bool, Response> {
    let Ok(id) = Uuid::parse_str(raw.trim()) else {
        return Ok(false);
    };
    match state.domains.report_owner(&state.db, id).await {
        Ok(owner) => Ok(owner == Some(agency)),
        Err(e) => Err(AppError::from(e).into_response()),
    }
}

/// The layer that routes by `Host` (see the module's documentation).
pub async fn route_by_host(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let authority = req
        .headers()
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
        .or_else(|| req.uri().authority().map(ToString::to_string));
    let kind = match state.domains.host(&state.db, authority.as_deref()).await {
        Ok(kind) => kind,
        Err(e) => return AppError::from(e).into_response(),
    };
    let agency = match kind {
        HostKind::Own => return next.run(req).await,
        _ if PROBES.contains(&req.uri().path()) => return next.run(req).await,
        HostKind::Unknown => return misdirected(),
        HostKind::Agency(agency) => agency,
    };
    let path = req.uri().path().to_owned();
    let file = path.len() > 1
        && tokio::fs::metadata(state.web.dir().join(path.trim_start_matches('/')))
            .await
            .is_ok_and(|m| m.is_file());
    match agency_may_reach(req.method(), &path, req.uri().query(), file) {
        Reach::Open => next.run(req).await,
        Reach::Closed => not_found(&path),
        Reach::Report(raw) => match is_agency_report(&state, agency, &raw).await {
            Ok(true) => next.run(req).await,
            Ok(false) => not_found(&path),
            Err(answer) => answer,
        },
        Reach::DownloadForm => {
            let (parts, body) = req.into_parts();
            let Ok(bytes) = axum::body::to_bytes(body, BODY_LIMIT).await else {
                return AppError::PayloadTooLarge("the request body is too large".to_owned())
                    .into_response();
            };
            let report_id = serde_json::from_slice::<serde_json::Value>(&bytes)
                .ok()
                .and_then(|v| v.get("reportId")?.as_str().map(str::to_owned))
                .unwrap_or_default();
            match is_agency_report(&state, agency, &report_id).await {
                Ok(true) => {
                    next.run(Request::from_parts(parts, Body::from(bytes)))
                        .await
                }
                Ok(false) => not_found(&path),
                Err(answer) => answer,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_agency_domain_reaches_report_pages_and_their_files_only() {
        let get = Method::GET;
        let id = "0b6f7f38-6f55-4d43-9a43-8f7f4a8f3a11";
        let reach = |method: &Method, path: &str, query: Option<&str>, file: bool| {
            agency_may_reach(method, path, query, file)
        };
        for path in [
            format!("/results/{id}"),
            format!("/results/{id}/"),
            format!("/api/results/{id}"),
            format!("/api/download-report/{id}"),
        ] {
            assert_eq!(
                reach(&get, &path, None, false),
                Reach::Report(id.into()),
                "{path}"
            );
        }
        assert_eq!(
            reach(&get, "/results", Some(&format!("id={id}&paid=true")), false),
            Reach::Report(id.into())
        );
        assert_eq!(reach(&get, "/results", None, false), Reach::Closed);
        assert_eq!(
            reach(&Method::POST, "/api/download-basic-report", None, false),
            Reach::DownloadForm
        );
        for open in [
            "/assets/index-abc.js",
            "/files/shots/a.png",
            "/widget.js",
            "/api/widget/v1/audit",
            "/api/session",
        ] {
            assert_eq!(reach(&get, open, None, false), Reach::Open, "{open}");
        }
        assert_eq!(reach(&get, "/favicon.svg", None, true), Reach::Open);
        for closed in [
            "/",
            "/pricing",
            "/dashboard",
            "/api/analyze",
            "/api/account",
            "/api/white-label/domain",
            "/admin",
            "/sign-in",
        ] {
            assert_eq!(reach(&get, closed, None, false), Reach::Closed, "{closed}");
        }
        assert_eq!(
            reach(&Method::POST, "/api/session", None, false),
            Reach::Closed
        );
    }
}
