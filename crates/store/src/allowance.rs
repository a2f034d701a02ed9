//! The free allowance: a number of free basic analyses per visitor address and UTC day
//! (SPEC.md section 9: 3; the constant lives in the domain crate and is passed in).
//!
//! The decision is one guarded increment of a counter row keyed by (address, day), inside the
//! same transaction as the `ip_analysis_tracking` row, so concurrent requests from one address
//! cannot both see "two used" and both pass.

use chrono::{DateTime, NaiveDate, Utc};
use sea_orm::{ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter};

use crate::entity::ip_daily_usage;
use crate::sql::{exec, now};
use crate::{StoreResult, begin_write};

/// The outcome of [`record_free_analysis`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FreeAnalysis {
    /// Counted; `used` free analyses (including this one) of `limit` are now used today.
    Allowed {
        /// Free analyses used today, this one included.
        used: u32,
    },
    /// The address has used its allowance for the day; nothing was recorded.
    LimitReached,
}

/// The UTC day a moment belongs to, the day the allowance is counted against.
pub fn utc_day(at: DateTime<Utc>) -> NaiveDate {
    at.date_naive()
}

/// Records one free analysis of `website_url` for `ip_address` on the UTC day of `at`, unless
/// `limit` analyses were already recorded for that address and day.
pub async fn record_free_analysis(
    db: &DatabaseConnection,
    ip_address: &str,
    website_url: &str,
    at: DateTime<Utc>,
    limit: u32,
) -> StoreResult<FreeAnalysis> {
    let txn = begin_write(db).await?;
    let outcome = record_in(&txn, ip_address, website_url, at, limit).await?;
    match outcome {
        FreeAnalysis::Allowed { .. } => txn.commit().await?,
        FreeAnalysis::LimitReached => txn.rollback().await?,
    }
    Ok(outcome)
}

/// [`record_free_analysis`] inside the caller's write transaction.
pub(crate) async fn record_in<C: ConnectionTrait>(
    txn: &C,
    ip_address: &str,
    website_url: &str,
    at: DateTime<Utc>,
    limit: u32,
) -> StoreResult<FreeAnalysis> {
    let day = utc_day(at);
    let limit = i32::try_from(limit).unwrap_or(i32::MAX);
    exec(
        txn,
        "INSERT INTO ip_daily_usage (ip_address, day, used) VALUES (?, ?, 0) \
         ON CONFLICT (ip_address, day) DO NOTHING",
        vec![ip_address.into(), day.into()],
    )
    .await?;
    let counted = exec(
        txn,
        "UPDATE ip_daily_usage SET used = used + 1 WHERE ip_address = ? AND day = ? AND used < ?",
        vec![ip_address.into(), day.into(), limit.into()],
    )
    .await?;
    if counted.rows_affected() != 1 {
        return Ok(FreeAnalysis::LimitReached);
    }
    exec(
        txn,
        "INSERT INTO ip_analysis_tracking (ip_address, analysis_date, website_url, created_at) \
         VALUES (?, ?, ?, ?)",
        vec![
            ip_address.into(),
            day.into(),
            website_url.into(),
            now().into(),
        ],
    )
    .await?;
    let used = free_analyses_used_on(txn, ip_address, day).await?;
    Ok(FreeAnalysis::Allowed { used })
}

/// How many free analyses `ip_address` has used on the UTC day of `at`.
pub async fn free_analyses_used(
    db: &DatabaseConnection,
    ip_address: &str,
    at: DateTime<Utc>,
) -> StoreResult<u32> {
    free_analyses_used_on(db, ip_address, utc_day(at)).await
}

async fn free_analyses_used_on<C: ConnectionTrait>(
    db: &C,
    ip_address: &str,
    day: NaiveDate,
) -> StoreResult<u32> {
    let row = ip_daily_usage::Entity::find()
        .filter(ip_daily_usage::Column::IpAddress.eq(ip_address))
        .filter(ip_daily_usage::Column::Day.eq(day))
        .one(db)
        .await?;
    Ok(row.map_or(0, |r| u32::try_from(r.used).unwrap_or(0)))
}

/// Gives back one free analysis of `ip_address` on the UTC day of `at`, for an analysis that
/// could not be made (the site was unreachable, or the analysis was interrupted): a visitor
/// loses nothing for a failure. Never goes below zero; returns whether one was given back.
pub async fn refund_free_analysis(
    db: &DatabaseConnection,
    ip_address: &str,
    at: DateTime<Utc>,
) -> StoreResult<bool> {
    let updated = exec(
        db,
        "UPDATE ip_daily_usage SET used = used - 1 WHERE ip_address = ? AND day = ? AND used > 0",
        vec![ip_address.into(), utc_day(at).into()],
    )
    .await?;
    Ok(updated.rows_affected() == 1)
}
