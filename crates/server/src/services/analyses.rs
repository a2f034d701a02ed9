//! Submitting an analysis: the address is validated; the visitor's free allowance is counted
//! (a free basic report) or the signed-in user's credits are spent (a paid report), and the
//! job is queued, in one store transaction; then idle workers are woken.

use std::net::IpAddr;

use chrono::{DateTime, Utc};

use domain::commerce::{
    FREE_ANALYSES_PER_DAY, PAID_REPORT_NEEDS_SIGN_IN, free_allowance_key,
    insufficient_credits_message, report_cost,
};
use domain::report::ReportType;
use domain::site_url::SiteUrl;
use store::DatabaseConnection;
use store::credits::Payer;
use store::entity::users;
use store::jobs::{ApiOptions, Job, KeyedAnalysis, NewAnalysis, PaidAnalysis};
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
    /// A paid report was asked for without signing in.
    #[error("{}", PAID_REPORT_NEEDS_SIGN_IN)]
    SignInRequired,
    /// The user's credits do not cover the paid report; the message says what it costs and
    /// what they have.
    #[error("{0}")]
    InsufficientCredits(String),
    /// An API client's `Idempotency-Key` was used before for a different address or report.
    #[error(
        "this Idempotency-Key was used before for a different request: use a new key for a new analysis"
    )]
    IdempotencyKeyReused,
    /// The `callbackUrl` of an API submission cannot be called back; the message says why.
    #[error("{0}")]
    InvalidCallbackUrl(String),
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
    let site = parse_site(url)?;
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

fn parse_site(url: &str) -> Result<SiteUrl, SubmitError> {
    if url.len() > MAX_URL_LEN {
        return Err(SubmitError::TooLong);
    }
    SiteUrl::parse(url).map_err(|e| SubmitError::InvalidUrl(e.to_string()))
}

/// Queues a paid report of `report_type` of `url` for the signed-in `user` (`None`: refused,
/// a paid report needs an account) and returns its id.
///
/// The price (docs/PRODUCT.md §9.2, [`report_cost`]) is spent from the user's trial credit
/// first, then from the paid credits of the team owner when the user is a team member (members
/// share their owner's credits) or their own; the spend, the job and its owner are written in
/// one transaction, so a refused request writes nothing.
pub async fn submit_paid_analysis(
    db: &DatabaseConnection,
    hub: &Hub,
    ip: IpAddr,
    user: Option<&users::Model>,
    report_type: ReportType,
    url: &str,
) -> Result<Uuid, SubmitError> {
    let site = parse_site(url)?;
    let user = user.ok_or(SubmitError::SignInRequired)?;
    let queued = store::jobs::enqueue_paid_analysis(
        db,
        payer_of(db, user).await?,
        report_cost(report_type),
        &paid_analysis(ip, user, report_type, &site),
    )
    .await?;
    match queued {
        PaidAnalysis::Queued(job) => {
            hub.job_queued().await;
            Ok(job.id)
        }
        PaidAnalysis::Insufficient { balance } => Err(SubmitError::InsufficientCredits(
            insufficient_credits_message(report_type, balance),
        )),
    }
}

/// Who pays for `user`'s paid report: the team owner's paid credits for a member (members
/// share their owner's credits), else the user's own; the trial credit is always the user's.
pub(crate) async fn payer_of(
    db: &DatabaseConnection,
    user: &users::Model,
) -> Result<Payer, SubmitError> {
    let paid_by = match store::accounts::membership_of(db, user.id).await? {
        Some((_, owner)) => owner.id,
        None => user.id,
    };
    Ok(Payer {
        user_id: user.id,
        paid_by,
    })
}

fn paid_analysis(
    ip: IpAddr,
    user: &users::Model,
    report_type: ReportType,
    site: &SiteUrl,
) -> NewAnalysis {
    NewAnalysis {
        url: site.to_string(),
        canonical_url: site.to_string(),
        report_type,
        requested_pages: report_type.pages(),
        requester_user_id: Some(user.id),
        requester_ip: Some(ip.to_string()),
    }
}

/// A paid report submitted through the API.
#[derive(Debug, Clone)]
pub struct ApiSubmission {
    /// The analysis.
    pub job: Job,
    /// True when an earlier submission with the same `Idempotency-Key` queued it: nothing was
    /// spent this time.
    pub replayed: bool,
}

/// The oldest submission whose `Idempotency-Key` still names its analysis at `now`: a day
/// before (`domain::api::IDEMPOTENCY_KEY_TTL_SECONDS`).
pub fn idempotency_keys_valid_since(now: DateTime<Utc>) -> DateTime<Utc> {
    now - chrono::Duration::seconds(domain::api::IDEMPOTENCY_KEY_TTL_SECONDS)
}

/// [`submit_paid_analysis`] for an API client, which spends credits exactly as the web does.
/// With an idempotency key (validated by the caller) the report is queued and paid at most
/// once per user and key, however often and however concurrently it is submitted
/// ([`store::jobs::enqueue_api_analysis`]); a key reused for another address, report type or
/// callback address is refused. A callback address (checked by
/// `services::callbacks::check_callback_url`) is stored on the job. A key names its analysis
/// for a day ([`idempotency_keys_valid_since`]); after that the same key queues a new one.
pub async fn submit_api_analysis(
    db: &DatabaseConnection,
    hub: &Hub,
    ip: IpAddr,
    user: &users::Model,
    report_type: ReportType,
    url: &str,
    options: &ApiOptions<'_>,
) -> Result<ApiSubmission, SubmitError> {
    let site = parse_site(url)?;
    let outcome = store::jobs::enqueue_api_analysis(
        db,
        payer_of(db, user).await?,
        report_cost(report_type),
        &paid_analysis(ip, user, report_type, &site),
        options,
        idempotency_keys_valid_since(store::now()),
    )
    .await?;
    match outcome {
        KeyedAnalysis::Queued(job) => {
            hub.job_queued().await;
            Ok(ApiSubmission {
                job,
                replayed: false,
            })
        }
        KeyedAnalysis::Existing(job) => {
            if job.canonical_url != site.to_string()
                || job.report_type != report_type
                || job.callback_url.as_deref() != options.callback_url
            {
                return Err(SubmitError::IdempotencyKeyReused);
            }
            Ok(ApiSubmission {
                job,
                replayed: true,
            })
        }
        KeyedAnalysis::Insufficient { balance } => Err(SubmitError::InsufficientCredits(
            insufficient_credits_message(report_type, balance),
        )),
    }
}
