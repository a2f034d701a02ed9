//! Websites by canonical URL (SPEC.md section 3, websites).

use chrono::{DateTime, Utc};
use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, FromQueryResult, QueryFilter,
};

use crate::entity::websites;
use crate::sql::query_one;
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
    let row = query_one(
        db,
        "INSERT INTO websites (url, last_analyzed, analysis_count, created_at) VALUES (?, ?, 1, ?) \
         ON CONFLICT (url) DO UPDATE SET analysis_count = websites.analysis_count + 1, \
         last_analyzed = CASE WHEN excluded.last_analyzed > websites.last_analyzed \
         THEN excluded.last_analyzed ELSE websites.last_analyzed END \
         RETURNING id, url, last_analyzed, analysis_count, created_at",
        vec![canonical_url.into(), at.into(), at.into()],
    )
    .await?
    .ok_or_else(|| StoreError::Conflict("upsert returned no row".into()))?;
    let website = websites::Model::from_query_result(&row, "")?;
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
