//! Submitting an analysis: the address is validated, the visitor's free allowance is counted
//! and the job is queued, in one store transaction, then idle workers are woken.

use std::net::IpAddr;

use domain::commerce::{FREE_ANALYSES_PER_DAY, free_allowance_key};
use domain::report::ReportType;
use domain::site_url::SiteUrl;
use store::DatabaseConnection;
use store::jobs::NewAnalysis;
use uuid::Uuid;

use crate::services::hub::Hub;

/// Longest address accepted (the de-facto limit of browsers and servers).
pub const MAX_URL_LEN: usize = 2048;

/// Why an analysis was not queued.
#[derive(Debug, thiserror::Error)]
pub enum SubmitError {
    /// The address is too long.
    #[error("the address is longer than {MAX_URL_LEN} characters")]
    TooLong,
    /// The address is not an analysable website address; the message says why.
    #[error("{0}")]
    InvalidUrl(String),
    /// The visitor's free analyses of the day are used up.
    #[error(
        "You have used your {FREE_ANALYSES_PER_DAY} free analyses for today. Come back tomorrow, or use a credit for a professional report."
    )]
    AllowanceUsed,
    /// The database failed.
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

/// Queues a free basic analysis of `url` for the visitor at `ip` (signed in as `requester`,
/// whose dashboard then lists it) and returns its id.
///
/// The allowance is counted against the visitor's [`free_allowance_key`] (an IPv6 visitor's
/// /64) and the job queued in one transaction: a refused or failed request never uses up a free
/// analysis.
pub async fn submit_free_analysis(
    db: &DatabaseConnection,
    hub: &Hub,
    ip: IpAddr,
    requester: Option<i64>,
    url: &str,
) -> Result<Uuid, SubmitError> {
    if url.len() > MAX_URL_LEN {
        return Err(SubmitError::TooLong);
    }
    let site = SiteUrl::parse(url).map_err(|e| SubmitError::InvalidUrl(e.to_string()))?;
    let visitor = free_allowance_key(ip);
    let ip = ip.to_string();
    let job = store::jobs::enqueue_free_analysis(
        db,
        &visitor,
        chrono::Utc::now(),
        FREE_ANALYSES_PER_DAY,
        &NewAnalysis {
            url: site.to_string(),
            canonical_url: site.to_string(),
            report_type: ReportType::Basic,
            requested_pages: ReportType::Basic.pages(),
            requester_user_id: requester,
            requester_ip: Some(ip.clone()),
        },
    )
    .await?
    .ok_or(SubmitError::AllowanceUsed)?;
    hub.job_queued().await;
    Ok(job.id)
}
