//! Finding a report by its id or by its analysis's id, keeping serialised results in memory,
//! and recording who downloaded a report.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use bytes::Bytes;
use domain::report::{AnalysisReport, DownloadRequest};
use store::jobs::JobStatus;
use store::{DatabaseConnection, StoreError};
use uuid::Uuid;

/// Why a report could not be given.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// No report and no analysis has this id.
    #[error("analysis not found")]
    NotFound,
    /// The analysis is queued or running.
    #[error("the analysis is not finished yet")]
    NotFinished,
    /// The analysis failed; the message is the one its visitor was shown.
    #[error("{0}")]
    Failed(String),
    /// The database failed.
    #[error(transparent)]
    Store(StoreError),
}

impl From<StoreError> for ReportError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::NotFound => ReportError::NotFound,
            other => ReportError::Store(other),
        }
    }
}

/// The stored report with this id, or the report of the analysis with this id (a client that
/// only knows its analysis id, its progress stream lost, can still open the report), as its
/// readers may see it: an unpaid report without its Pro-only content
/// ([`domain::entitlement::viewable`]). Every answer that carries a report — the results JSON,
/// the PDFs — is built from this, so nothing in a request (`paid=true` in an address) can
/// reveal more.
pub async fn find_report(db: &DatabaseConnection, id: Uuid) -> Result<AnalysisReport, ReportError> {
    Ok(domain::entitlement::viewable(
        find_stored_report(db, id).await?,
    ))
}

/// The stored report, whole (see [`find_report`]).
async fn find_stored_report(
    db: &DatabaseConnection,
    id: Uuid,
) -> Result<AnalysisReport, ReportError> {
    match store::results::get_report(db, id).await {
        Err(StoreError::NotFound) => {}
        other => return Ok(other?),
    }
    let job = store::jobs::get_job(db, id).await?;
    match (job.status, job.result_id) {
        (JobStatus::Complete, Some(result_id)) => {
            Ok(store::results::get_report(db, result_id).await?)
        }
        (JobStatus::Failed, _) => Err(ReportError::Failed(
            job.error
                .unwrap_or_else(|| "the analysis failed".to_owned()),
        )),
        _ => Err(ReportError::NotFinished),
    }
}

/// Records the basic report's Download Report form (docs/PRODUCT.md §5.3) as a lead for `report`.
pub async fn record_download(
    db: &DatabaseConnection,
    form: &DownloadRequest,
    report: &AnalysisReport,
) -> Result<(), StoreError> {
    store::reports::create_email_report(
        db,
        &store::reports::NewEmailReport {
            email: form.email.trim().to_owned(),
            first_name: form.first_name.trim().to_owned(),
            last_name: Some(form.last_name.trim().to_owned()),
            website_url: report.url.clone(),
            report_type: report.report_type,
            analysis_result_id: Uuid::parse_str(&report.id).ok(),
            upgrade_token: Some(Uuid::new_v4().simple().to_string()),
            agree_to_emails: form.agree_to_emails,
        },
    )
    .await?;
    Ok(())
}

/// Results kept in memory.
const RESULT_CACHE_SIZE: usize = 512;

/// A bounded cache of serialised result responses (oldest evicted first). A result never
/// changes once written, so a cached body never goes stale.
#[derive(Default)]
pub struct ResultCache {
    inner: Mutex<(HashMap<Uuid, Bytes>, VecDeque<Uuid>)>,
}

impl ResultCache {
    /// The cached response body for `id`.
    pub fn get(&self, id: &Uuid) -> Option<Bytes> {
        self.inner.lock().ok()?.0.get(id).cloned()
    }

    /// Keeps `body` for `id`, evicting the oldest entry when full.
    pub fn put(&self, id: Uuid, body: Bytes) {
        let Ok(mut guard) = self.inner.lock() else {
            return;
        };
        let (map, order) = &mut *guard;
        if map.insert(id, body).is_none() {
            order.push_back(id);
            if order.len() > RESULT_CACHE_SIZE
                && let Some(old) = order.pop_front()
            {
                map.remove(&old);
            }
        }
    }
}
