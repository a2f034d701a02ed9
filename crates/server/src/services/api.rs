//! What `/api/v1` answers besides submitting (which is `services::analyses`): an analysis of
//! the caller's, its report, a page of their analyses and their usage.
//!
//! An analysis belongs to the user who submitted it (a team member's key acts as the member);
//! any other id is "not found", whoever owns it, so ids cannot be probed.

use chrono::{Datelike, TimeZone, Utc};
use domain::api::{
    ApiAnalysis, ApiAnalysisPage, ApiUsage, DEFAULT_RATE_LIMIT_PER_MINUTE, page_bounds,
};
use domain::report::AnalysisReport;
use store::DatabaseConnection;
use store::entity::users;
use store::jobs::{Job, JobStatus};
use uuid::Uuid;

use crate::services::accounts::{AccountError, spendable_credits};
use crate::services::reports::{ReportError, find_report};

/// The analysis `id` if `user` submitted it.
pub async fn own_analysis(
    db: &DatabaseConnection,
    user: &users::Model,
    id: Uuid,
) -> Result<Job, ReportError> {
    let job = store::jobs::get_job(db, id).await?;
    if job.requester_user_id == Some(user.id) {
        Ok(job)
    } else {
        Err(ReportError::NotFound)
    }
}

/// The analysis `id` as `/api/v1` shows it, with its callback's delivery, if `user` submitted
/// it.
pub async fn own_analysis_view(
    db: &DatabaseConnection,
    user: &users::Model,
    id: Uuid,
) -> Result<ApiAnalysis, ReportError> {
    let job = own_analysis(db, user, id).await?;
    let mut views = store::callbacks::api_views(db, std::slice::from_ref(&job)).await?;
    views.pop().ok_or(ReportError::NotFound)
}

/// The report of the analysis `id` if `user` submitted it and it is complete, as its readers
/// may see it (`services::reports::find_report`).
pub async fn own_report(
    db: &DatabaseConnection,
    user: &users::Model,
    id: Uuid,
) -> Result<AnalysisReport, ReportError> {
    let job = own_analysis(db, user, id).await?;
    match (job.status, job.result_id) {
        (JobStatus::Complete, Some(result_id)) => find_report(db, result_id).await,
        (JobStatus::Failed, _) => Err(ReportError::Failed(
            job.error
                .unwrap_or_else(|| "the analysis failed".to_owned()),
        )),
        _ => Err(ReportError::NotFinished),
    }
}

/// Why a page of analyses could not be given.
#[derive(Debug, thiserror::Error)]
pub enum PageError {
    /// The page or its size is out of bounds; the message says which.
    #[error("{0}")]
    Invalid(String),
    /// The database failed.
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

/// Page `page` (from 1) of `user`'s analyses, `per_page` to a page, newest first.
pub async fn analyses_page(
    db: &DatabaseConnection,
    user: &users::Model,
    page: Option<u32>,
    per_page: Option<u32>,
) -> Result<ApiAnalysisPage, PageError> {
    let (offset, limit) = page_bounds(page, per_page).map_err(PageError::Invalid)?;
    let (jobs, total) = store::jobs::jobs_page_for_user(db, user.id, offset, limit).await?;
    Ok(ApiAnalysisPage {
        data: store::callbacks::api_views(db, &jobs).await?,
        page: page.unwrap_or(1),
        per_page: u32::try_from(limit).unwrap_or(u32::MAX),
        total,
        has_more: offset + (jobs.len() as u64) < total,
    })
}

/// Requests per minute each of `user`'s keys may make: the account's `apiRateLimit`, the
/// default when the stored value is not positive.
pub fn rate_limit(user: &users::Model) -> u32 {
    u32::try_from(user.api_rate_limit)
        .ok()
        .filter(|l| *l > 0)
        .unwrap_or(DEFAULT_RATE_LIMIT_PER_MINUTE)
}

/// `user`'s credits, API calls in all and this calendar month (UTC), and their rate limit.
pub async fn usage(db: &DatabaseConnection, user: &users::Model) -> Result<ApiUsage, AccountError> {
    let credits = spendable_credits(db, user).await?;
    let now = store::now();
    let period_start = Utc
        .with_ymd_and_hms(now.year(), now.month(), 1, 0, 0, 0)
        .single()
        .unwrap_or(now);
    // Read after this request was counted would be one more; the user row was read when the
    // request was authenticated, before it was recorded, so both figures leave it out.
    let calls_this_period = store::api_keys::api_calls_since(db, user.id, period_start).await?;
    Ok(ApiUsage {
        paid_credits: credits.paid,
        trial_credits: credits.trial,
        unlimited_reports: credits.unlimited,
        api_calls: u64::try_from(user.api_calls).unwrap_or(0),
        calls_this_period,
        period_start: period_start.to_rfc3339(),
        rate_limit_per_minute: rate_limit(user),
    })
}
