//! The analyzer's [`LinkGraph`] over the store's link tables, so backlink and authority
//! evidence accumulates across analyses and survives restarts (docs/ARCHITECTURE.md §5). The
//! analyzer and the store never know each other; this adapter is where they meet.

use analyzer::LinkGraph;
use analyzer::authority::{Edge, GraphError, GraphStats, OutLink};
use futures::future::BoxFuture;
use store::links::NewLink;

/// Most inbound links read for one host.
const INBOUND_LIMIT: u64 = 10_000;

/// A [`LinkGraph`] backed by the database.
pub struct StoreLinkGraph {
    db: store::DatabaseConnection,
}

impl StoreLinkGraph {
    /// The graph in `db`.
    pub fn new(db: store::DatabaseConnection) -> Self {
        Self { db }
    }
}

fn graph_error(e: store::StoreError) -> GraphError {
    GraphError(crate::chain::Chain(&e).to_string())
}

impl LinkGraph for StoreLinkGraph {
    fn record_page<'a>(
        &'a self,
        page_url: &'a str,
        links: &'a [OutLink],
    ) -> BoxFuture<'a, Result<(), GraphError>> {
        Box::pin(async move {
            let links: Vec<NewLink> = links
                .iter()
                .map(|l| NewLink {
                    to_url: l.to_url.clone(),
                    nofollow: l.nofollow,
                })
                .collect();
            store::links::record_page_links(&self.db, page_url, &links)
                .await
                .map(|_| ())
                .map_err(graph_error)
        })
    }

    fn edges_into<'a>(&'a self, host: &'a str) -> BoxFuture<'a, Result<Vec<Edge>, GraphError>> {
        Box::pin(async move {
            let rows = store::links::inbound_links(&self.db, host, INBOUND_LIMIT)
                .await
                .map_err(graph_error)?;
            Ok(rows
                .into_iter()
                .map(|l| Edge {
                    from_url: l.from_url,
                    to_url: l.to_url,
                    nofollow: l.nofollow,
                })
                .collect())
        })
    }

    fn host_edges(&self) -> BoxFuture<'_, Result<Vec<(String, String)>, GraphError>> {
        Box::pin(async move {
            let rows = store::links::host_edges(&self.db, false)
                .await
                .map_err(graph_error)?;
            Ok(rows.into_iter().map(|e| (e.from_host, e.to_host)).collect())
        })
    }

    fn stats(&self) -> BoxFuture<'_, Result<GraphStats, GraphError>> {
        Box::pin(async move {
            let size = store::links::graph_size(&self.db)
                .await
                .map_err(graph_error)?;
            Ok(GraphStats {
                pages: u64::try_from(size.pages).unwrap_or(0),
                domains: u64::try_from(size.hosts).unwrap_or(0),
            })
        })
    }
}
