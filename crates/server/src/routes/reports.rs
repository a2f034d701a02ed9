//! Report downloads (docs/PRODUCT.md §7.8, §7.9): `POST /api/download-basic-report` (the Download
//! Report form) and `GET /api/download-report/{reportId}`, both answering the PDF.

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use domain::report::{AnalysisReport, DownloadRequest};

use crate::error::{AppError, AppResult};
use crate::extract::ApiJson;
use crate::routes::parse_id;
use crate::services::pdf::{file_name, render_pdf};
use crate::services::reports::{find_report, record_download};
use crate::state::AppState;

/// The report downloads.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/download-basic-report", post(download_basic_report))
        .route("/download-report/{id}", get(download_report))
}

/// Validates the form, records the lead, answers the PDF.
async fn download_basic_report(
    State(state): State<AppState>,
    ApiJson(form): ApiJson<DownloadRequest>,
) -> AppResult<Response> {
    if let Some(first) = domain::forms::validate_download(&form).first() {
        return Err(AppError::Unprocessable(first.message.clone()));
    }
    let report = find_report(&state.db, parse_id(&form.report_id, "report")?).await?;
    record_download(&state.db, &form, &report).await?;
    pdf_response(&state, report).await
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
    let disposition =
        HeaderValue::from_str(&format!("attachment; filename=\"{}\"", file_name(&report)))
            .map_err(AppError::internal)?;
    let bytes = render_pdf(report, &state.blobs)
        .await
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
