//! Websites by canonical URL (docs/PRODUCT.md §3.1, websites).

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Alias, Expr, ExprTrait, OnConflict};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter,
};

use crate::entity::websites;
use crate::entity::websites::Column as W;
use crate::stats::{WEBSITES_ANALYZED, increment};
use crate::{StoreError, StoreResult, begin_write};

/// Counts one more analysis of the site at `canonical_url` (created on first sight), and
/// moves `last_analyzed` forward to `at`.
///
/// One `INSERT ... ON CONFLICT DO UPDATE SET analysis_count = analysis_count + 1`, so
/// concurrent analyses of one site are all counted on both engines.
pub async fn record_website_analysis(
    db: &DatabaseConnection,
    canonical_url: &str,
    at: DateTime<Utc>,
) -> StoreResult<websites::Model> {
    let txn = begin_write(db).await?;
    let website = upsert(&txn, canonical_url, at).await?;
    txn.commit().await?;
    Ok(website)
}

/// The upsert itself, inside the caller's transaction.
pub(crate) async fn upsert<C: ConnectionTrait>(
    db: &C,
    canonical_url: &str,
    at: DateTime<Utc>,
) -> StoreResult<websites::Model> {
    let stored = |c: W| Expr::col((websites::Entity, c));
    let offered = |c: W| Expr::col((Alias::new("excluded"), c));
    let website = websites::Entity::insert(websites::ActiveModel {
        url: Set(canonical_url.to_owned()),
        last_analyzed: Set(at),
        analysis_count: Set(1),
        created_at: Set(at),
        ..Default::default()
    })
    .on_conflict(
        OnConflict::column(W::Url)
            .value(W::AnalysisCount, stored(W::AnalysisCount).add(1))
            // Analyses may finish out of order: the latest time wins.
            .value(
                W::LastAnalyzed,
                Expr::case(
                    offered(W::LastAnalyzed).gt(stored(W::LastAnalyzed)),
                    offered(W::LastAnalyzed),
                )
                .finally(stored(W::LastAnalyzed)),
            )
            .to_owned(),
    )
    .exec_with_returning(db)
    .await?;
    if website.analysis_count == 1 {
        increment(db, WEBSITES_ANALYZED).await?;
    }
    Ok(website)
}

/// The website with this canonical URL, if it was ever analysed.
pub async fn find_website(
    db: &DatabaseConnection,
    canonical_url: &str,
) -> StoreResult<Option<websites::Model>> {
    Ok(websites::Entity::find()
        .filter(websites::Column::Url.eq(canonical_url))
        .one(db)
        .await?)
}

/// The website with this id.
pub async fn get_website(db: &DatabaseConnection, id: i64) -> StoreResult<websites::Model> {
    websites::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or(StoreError::NotFound)
}
