//! The admin area's analyses, purchases and white-label brandings (issue 16 item 4): lists
//! with each row's account, and retrying a failed analysis (`store::admin::retry_failed_job`:
//! queued again as new, a paid one charged once for the report it delivers, audited).

use domain::admin_area::{
    AdminJobRow, AdminPurchaseRow, AdminPurchases, AdminRefundRow, AdminSubscriptionRow,
    AdminWhitelabelRow, JOB_FILTER_MESSAGE, JobFilter, LIST_LIMIT, RETRY_NOT_FAILED_MESSAGE,
};
use domain::credits::Credits;
use serde_json::json;
use store::entity::credit_purchases;
use store::jobs::{Job, JobStatus};
use store::{DatabaseConnection, StoreError};
use uuid::Uuid;

use crate::services::admin_users::{AdminError, reason};
use crate::services::audit::Acting;
use crate::services::hub::Hub;

/// A job as the admin lists show it.
pub fn job_row(job: &Job, user_email: Option<String>) -> AdminJobRow {
    AdminJobRow {
        id: job.id.to_string(),
        url: job.canonical_url.clone(),
        status: job.status.as_str().to_owned(),
        report_type: job.report_type.as_str().to_owned(),
        progress: u32::from(job.progress),
        error: job.error.clone(),
        attempts: job.attempts,
        cost: job.charge.map_or(Credits::ZERO, |c| c.total()),
        refunded: job.credits_refunded_at.is_some(),
        user_id: job.requester_user_id,
        user_email,
        result_id: job.result_id.map(|id| id.to_string()),
        created_at: job.created_at.to_rfc3339(),
        finished_at: job.finished_at.map(|t| t.to_rfc3339()),
    }
}

/// A payment as the admin lists show it.
pub fn purchase_row(p: credit_purchases::Model, user_email: Option<String>) -> AdminPurchaseRow {
    AdminPurchaseRow {
        id: p.id,
        user_id: p.user_id,
        user_email,
        payment_id: p.stripe_payment_intent_id,
        package: p.package_type,
        credits: i64::from(p.credits_added),
        amount_cents: p.amount_paid_cents,
        at: p.created_at.to_rfc3339(),
    }
}

/// The newest analyses, optionally of one status (`status` as the query gave it).
pub async fn jobs(
    db: &DatabaseConnection,
    status: Option<&str>,
) -> Result<Vec<AdminJobRow>, AdminError> {
    let status = match status.filter(|s| !s.is_empty()) {
        None => None,
        Some(name) => {
            let filter = JobFilter::parse(name)
                .ok_or_else(|| AdminError::Invalid(JOB_FILTER_MESSAGE.to_owned()))?;
            JobStatus::parse(filter.as_str())
        }
    };
    let jobs = store::jobs::recent_jobs(db, status, LIST_LIMIT).await?;
    let ids: Vec<i64> = jobs.iter().filter_map(|j| j.requester_user_id).collect();
    let emails = store::admin::emails_of(db, &ids).await?;
    Ok(jobs
        .iter()
        .map(|j| {
            job_row(
                j,
                j.requester_user_id.and_then(|id| emails.get(&id).cloned()),
            )
        })
        .collect())
}

/// Queues a failed analysis again and wakes the workers.
pub async fn retry(
    db: &DatabaseConnection,
    hub: &Hub,
    actor: &Acting,
    job_id: &str,
    raw_reason: &str,
) -> Result<AdminJobRow, AdminError> {
    let why = reason(raw_reason)?;
    let not_found = || AdminError::NotFound("No such analysis.".to_owned());
    let id = Uuid::parse_str(job_id).map_err(|_| not_found())?;
    let entry = actor.entry(
        "job.retry",
        "analysis",
        Some(id.to_string()),
        Some(why),
        json!({}),
    );
    let outcome = match store::admin::retry_failed_job(db, id, &entry).await {
        Err(StoreError::NotFound) => return Err(not_found()),
        other => other?,
    };
    match outcome {
        store::admin::Retry::Queued(job) => {
            hub.job_queued().await;
            let email = match job.requester_user_id {
                Some(uid) => store::admin::emails_of(db, &[uid]).await?.remove(&uid),
                None => None,
            };
            Ok(job_row(&job, email))
        }
        store::admin::Retry::NotFailed => {
            Err(AdminError::Conflict(RETRY_NOT_FAILED_MESSAGE.to_owned()))
        }
        store::admin::Retry::Insufficient { balance } => Err(AdminError::Conflict(format!(
            "Its credits were given back when it failed, and its payer now holds {balance}: \
             not enough to run it again."
        ))),
    }
}

/// The newest payments, subscriptions and refunds with their accounts.
pub async fn purchases(db: &DatabaseConnection) -> Result<AdminPurchases, AdminError> {
    let purchases = store::admin::recent_purchases(db, LIST_LIMIT).await?;
    let subscriptions = store::admin::recent_subscriptions(db, LIST_LIMIT).await?;
    let refunds = store::admin::recent_refunds(db, LIST_LIMIT).await?;
    let ids: Vec<i64> = purchases
        .iter()
        .filter_map(|p| p.user_id)
        .chain(subscriptions.iter().map(|s| s.user_id))
        .chain(refunds.iter().filter_map(|r| r.user_id))
        .collect();
    let emails = store::admin::emails_of(db, &ids).await?;
    let email = |id: Option<i64>| id.and_then(|id| emails.get(&id).cloned());
    Ok(AdminPurchases {
        purchases: purchases
            .into_iter()
            .map(|p| {
                let e = email(p.user_id);
                purchase_row(p, e)
            })
            .collect(),
        subscriptions: subscriptions
            .into_iter()
            .map(|s| AdminSubscriptionRow {
                id: s.id,
                user_id: s.user_id,
                user_email: email(Some(s.user_id)),
                plan: s.plan_id,
                interval: s.billing_interval,
                status: s.status,
                amount_cents: s.amount_cents,
                period_end: s.current_period_end.to_rfc3339(),
            })
            .collect(),
        refunds: refunds
            .into_iter()
            .map(|r| AdminRefundRow {
                user_email: email(r.user_id),
                id: r.id,
                user_id: r.user_id,
                payment_id: r.payment_id,
                amount_cents: r.amount_cents,
                credits_removed: Credits::from_halves(
                    u32::try_from(r.credits_removed).unwrap_or(0),
                ),
                at: r.created_at.to_rfc3339(),
            })
            .collect(),
    })
}

/// The white-label brandings with their accounts.
pub async fn whitelabel(db: &DatabaseConnection) -> Result<Vec<AdminWhitelabelRow>, AdminError> {
    let rows = store::admin::whitelabel_brandings(db, LIST_LIMIT).await?;
    let ids: Vec<i64> = rows.iter().map(|r| r.user_id).collect();
    let emails = store::admin::emails_of(db, &ids).await?;
    // Custom domains live in their own table (migration 000029); the branding row's old
    // `custom_domain` column is no longer set.
    let domains: std::collections::HashMap<i64, (String, bool)> =
        store::custom_domains::domains_of(db, &ids)
            .await?
            .into_iter()
            .map(|d| (d.user_id, (d.domain, d.verified_at.is_some())))
            .collect();
    Ok(rows
        .into_iter()
        .map(|r| AdminWhitelabelRow {
            custom_domain: domains.get(&r.user_id).map(|(d, _)| d.clone()),
            custom_domain_verified: domains.get(&r.user_id).is_some_and(|(_, v)| *v),
            user_email: emails.get(&r.user_id).cloned(),
            id: r.id,
            user_id: r.user_id,
            company_name: r.company_name,
            website_url: r.website_url,
            contact_email: r.contact_email,
            primary_color: r.primary_color,
            updated_at: r.updated_at.to_rfc3339(),
        })
        .collect())
}
