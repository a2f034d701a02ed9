//! Site-wide counters for the home page (docs/PRODUCT.md §7.4, `GET /api/stats`).
//!
//! Kept in the `counters` table and incremented in the same transaction as the change they
//! count, so reading them is one primary-key lookup however large the tables grow.

use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter};

use crate::StoreResult;
use crate::entity::counters;

/// Counter name: distinct websites ever analysed.
pub const WEBSITES_ANALYZED: &str = "websites_analyzed";
/// Counter name: analyses that finished with a report.
pub const ANALYSES_COMPLETED: &str = "analyses_completed";

/// The home page figures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Distinct websites (canonical URLs) analysed.
    pub websites_analyzed: i64,
    /// Reports completed.
    pub analyses_completed: i64,
}

/// Reads the counters.
pub async fn stats(db: &DatabaseConnection) -> StoreResult<Stats> {
    let mut stats = Stats::default();
    for row in counters::Entity::find().all(db).await? {
        match row.name.as_str() {
            WEBSITES_ANALYZED => stats.websites_analyzed = row.value,
            ANALYSES_COMPLETED => stats.analyses_completed = row.value,
            _ => {}
        }
    }
    Ok(stats)
}

/// Adds one to a counter, inside the caller's transaction.
pub(crate) async fn increment<C: ConnectionTrait>(db: &C, name: &str) -> StoreResult<()> {
    counters::Entity::update_many()
        .col_expr(
            counters::Column::Value,
            Expr::col(counters::Column::Value).add(1),
        )
        .filter(counters::Column::Name.eq(name))
        .exec(db)
        .await?;
    Ok(())
}
