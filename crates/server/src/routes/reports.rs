//! Report downloads (docs/PRODUCT.md §7.8, §7.9): `POST /api/download-basic-report` (the Download
//! Report form, which also mails the reader the report when mail is configured) and
//! `GET /api/download-report/{reportId}`, both answering the PDF; and
//! `POST /api/reports/{id}/send`, a report sent to a client from the dashboard (issue 15 item 4).

use axum::extract::{Path, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use domain::report::{AnalysisReport, DownloadRequest};
use domain::report_mail::{SendReportRequest, SendReportResponse};

use crate::error::{AppError, AppResult};
use crate::extract::{ApiJson, CurrentUser};
use crate::routes::parse_id;
use crate::services::pdf::file_name;
use crate::services::reports::{
    ReportOutbox, find_report, record_download, report_pdf, send_to_client,
};
use crate::state::AppState;

/// The report downloads and sends.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/download-basic-report", post(download_basic_report))
        .route("/download-report/{id}", get(download_report))
        .route("/reports/{id}/send", post(send_report))
}

/// How this server mails reports.
fn outbox(state: &AppState) -> ReportOutbox<'_> {
    ReportOutbox {
        mailer: &state.mailer,
        blobs: &state.blobs,
        public_url: &state.config.public_url,
        attachment_max_bytes: state.config.mail_attachment_max_bytes,
    }
}

/// Validates the form, records the lead (mailing the reader when mail is configured), answers
/// the PDF.
async fn download_basic_report(
    State(state): State<AppState>,
    ApiJson(form): ApiJson<DownloadRequest>,
) -> AppResult<Response> {
    if let Some(first) = domain::forms::validate_download(&form).first() {
        return Err(AppError::Unprocessable(first.message.clone()));
    }
    let report = find_report(&state.db, parse_id(&form.report_id, "report")?).await?;
    let pdf = report_pdf(&state.db, &state.blobs, &report)
        .await
        .map_err(AppError::internal)?;
    record_download(&state.db, outbox(&state), &form, &report, &pdf).await?;
    pdf_bytes(&report, pdf)
}

/// Sends a report of the signed-in user's team to a client's address.
async fn send_report(
    State(state): State<AppState>,
    current: CurrentUser,
    Path(raw): Path<String>,
    ApiJson(form): ApiJson<SendReportRequest>,
) -> AppResult<Json<SendReportResponse>> {
    let id = parse_id(&raw, "report")?;
    Ok(Json(
        send_to_client(&state.db, outbox(&state), &current.user, id, &form).await?,
    ))
}

/// The PDF of a report.
async fn download_report(
    State(state): State<AppState>,
    Path(raw): Path<String>,
) -> AppResult<Response> {
    let report = find_report(&state.db, parse_id(&raw, "report")?).await?;
    pdf_response(&state, report).await
}

/// The PDF of `report` as a download (also `/api/v1`'s `report.pdf`).
pub(crate) async fn pdf_response(state: &AppState, report: AnalysisReport) -> AppResult<Response> {
    let bytes = report_pdf(&state.db, &state.blobs, &report)
        .await
        .map_err(AppError::internal)?;
    pdf_bytes(&report, bytes)
}

/// The rendered PDF of `report` as a download.
fn pdf_bytes(report: &AnalysisReport, bytes: Vec<u8>) -> AppResult<Response> {
    let disposition =
        HeaderValue::from_str(&format!("attachment; filename=\"{}\"", file_name(report)))
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
