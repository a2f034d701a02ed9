//! The free allowance: a number of free basic analyses per visitor address and UTC day
//! (docs/PRODUCT.md §9.1: 3; the constant lives in the domain crate and is passed in).
//!
//! The decision is one guarded increment of a counter row keyed by (address, day), inside the
//! same transaction as the `ip_analysis_tracking` row, so concurrent requests from one address
//! cannot both see "two used" and both pass.

use chrono::{DateTime, NaiveDate, Utc};
use sea_orm::sea_query::{Expr, ExprTrait, OnConflict};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter,
};

use crate::clock::now;
use crate::entity::ip_daily_usage::Column as U;
use crate::entity::{ip_analysis_tracking, ip_daily_usage};
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
    // The day's counter row exists before the guarded increment, so the increment is the one
    // statement that decides.
    ip_daily_usage::Entity::insert(ip_daily_usage::ActiveModel {
        ip_address: Set(ip_address.to_owned()),
        day: Set(day),
        used: Set(0),
    })
    .on_conflict(
        OnConflict::columns([U::IpAddress, U::Day])
            .do_nothing()
            .to_owned(),
    )
    .exec_without_returning(txn)
    .await?;
    let counted = ip_daily_usage::Entity::update_many()
        .col_expr(U::Used, Expr::col(U::Used).add(1))
        .filter(U::IpAddress.eq(ip_address))
        .filter(U::Day.eq(day))
        .filter(U::Used.lt(limit))
        .exec(txn)
        .await?;
    if counted.rows_affected != 1 {
        return Ok(FreeAnalysis::LimitReached);
    }
    ip_analysis_tracking::Entity::insert(ip_analysis_tracking::ActiveModel {
        ip_address: Set(ip_address.to_owned()),
        analysis_date: Set(day),
        website_url: Set(website_url.to_owned()),
        created_at: Set(now()),
        ..Default::default()
    })
    .exec_without_returning(txn)
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
    let updated = ip_daily_usage::Entity::update_many()
        .col_expr(U::Used, Expr::col(U::Used).sub(1))
        .filter(U::IpAddress.eq(ip_address))
        .filter(U::Day.eq(utc_day(at)))
        .filter(U::Used.gt(0))
        .exec(db)
        .await?;
    Ok(updated.rows_affected == 1)
}
