//! The link graph of every page Sitelens has crawled: the evidence behind the default
//! backlink and domain-authority provider (ARCHITECTURE.md section 4).
//!
//! Hosts are stored as the `url` crate gives them (lower-case, without port); callers compare
//! `www.example.com` and `example.com` as different hosts unless they normalise first.

use std::collections::BTreeMap;

use sea_orm::{DatabaseConnection, Value};
use url::Url;

use crate::sql::{exec, now, query_all, query_one};
use crate::{StoreError, StoreResult, begin_write};

/// A link found on a page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewLink {
    /// The absolute URL linked to.
    pub to_url: String,
    /// Whether the link carries `rel="nofollow"` (or sponsored/ugc).
    pub nofollow: bool,
}

/// A host linking to the host asked about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReferringDomain {
    /// The linking host.
    pub host: String,
    /// Links from it.
    pub links: i64,
    /// Of which followed (not nofollow).
    pub followed_links: i64,
}

/// A link into the host asked about from another host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InboundLink {
    /// The page with the link.
    pub from_url: String,
    /// Its host.
    pub from_host: String,
    /// The target.
    pub to_url: String,
    /// Whether the link is nofollow.
    pub nofollow: bool,
}

/// Links between two different hosts, one edge of the host graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostEdge {
    /// Linking host.
    pub from_host: String,
    /// Linked host.
    pub to_host: String,
    /// Number of page-to-page links behind the edge.
    pub links: i64,
}

/// How much evidence the graph holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GraphSize {
    /// Crawled pages.
    pub pages: i64,
    /// Links stored.
    pub links: i64,
    /// Distinct crawled hosts.
    pub hosts: i64,
}

const INSERT_BATCH: usize = 100;

/// Replaces the outgoing links of a crawled page with `links` (a recrawl sees the page as it is
/// now). Links that are not absolute URLs with a host are skipped; duplicates are stored once
/// (followed if any copy is). Returns how many links were stored.
pub async fn record_page_links(
    db: &DatabaseConnection,
    page_url: &str,
    links: &[NewLink],
) -> StoreResult<usize> {
    let page_host = host_of(page_url).ok_or_else(|| {
        StoreError::Conflict(format!("not an absolute URL with a host: {page_url}"))
    })?;
    let mut unique: BTreeMap<&str, (String, bool)> = BTreeMap::new();
    for link in links {
        let Some(host) = host_of(&link.to_url) else {
            continue;
        };
        unique
            .entry(link.to_url.as_str())
            .and_modify(|(_, nofollow)| *nofollow &= link.nofollow)
            .or_insert((host, link.nofollow));
    }
    let txn = begin_write(db).await?;
    let row = query_one(
        &txn,
        "INSERT INTO crawled_pages (url, host, last_crawled_at) VALUES (?, ?, ?) \
         ON CONFLICT (url) DO UPDATE SET last_crawled_at = excluded.last_crawled_at, host = excluded.host \
         RETURNING id",
        vec![page_url.into(), page_host.into(), now().into()],
    )
    .await?
    .ok_or_else(|| StoreError::Conflict("upsert returned no row".into()))?;
    let page_id: i64 = row.try_get("", "id")?;
    exec(
        &txn,
        "DELETE FROM page_links WHERE from_page_id = ?",
        vec![page_id.into()],
    )
    .await?;
    let entries: Vec<_> = unique.into_iter().collect();
    for chunk in entries.chunks(INSERT_BATCH) {
        let placeholders = vec!["(?, ?, ?, ?)"; chunk.len()].join(", ");
        let mut values: Vec<Value> = Vec::with_capacity(chunk.len() * 4);
        for (to_url, (to_host, nofollow)) in chunk {
            values.push(page_id.into());
            values.push((*to_url).into());
            values.push(to_host.clone().into());
            values.push((*nofollow).into());
        }
        exec(
            &txn,
            &format!("INSERT INTO page_links (from_page_id, to_url, to_host, nofollow) VALUES {placeholders}"),
            values,
        )
        .await?;
    }
    txn.commit().await?;
    Ok(entries.len())
}

/// Hosts linking to `host` from pages on other hosts, most links first.
pub async fn referring_domains(
    db: &DatabaseConnection,
    host: &str,
) -> StoreResult<Vec<ReferringDomain>> {
    let rows = query_all(
        db,
        "SELECT p.host AS host, COUNT(*) AS links, \
         SUM(CASE WHEN l.nofollow THEN 0 ELSE 1 END) AS followed_links \
         FROM page_links l JOIN crawled_pages p ON p.id = l.from_page_id \
         WHERE l.to_host = ? AND p.host <> ? \
         GROUP BY p.host ORDER BY links DESC, p.host",
        vec![host.into(), host.into()],
    )
    .await?;
    rows.iter()
        .map(|row| {
            Ok(ReferringDomain {
                host: row.try_get("", "host")?,
                links: row.try_get("", "links")?,
                followed_links: row.try_get("", "followed_links")?,
            })
        })
        .collect()
}

/// Up to `limit` links into `host` from pages on other hosts.
pub async fn inbound_links(
    db: &DatabaseConnection,
    host: &str,
    limit: u64,
) -> StoreResult<Vec<InboundLink>> {
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let rows = query_all(
        db,
        "SELECT p.url AS from_url, p.host AS from_host, l.to_url AS to_url, l.nofollow AS nofollow \
         FROM page_links l JOIN crawled_pages p ON p.id = l.from_page_id \
         WHERE l.to_host = ? AND p.host <> ? ORDER BY p.url, l.to_url LIMIT ?",
        vec![host.into(), host.into(), limit.into()],
    )
    .await?;
    rows.iter()
        .map(|row| {
            Ok(InboundLink {
                from_url: row.try_get("", "from_url")?,
                from_host: row.try_get("", "from_host")?,
                to_url: row.try_get("", "to_url")?,
                nofollow: row.try_get("", "nofollow")?,
            })
        })
        .collect()
}

/// The host graph for a PageRank-style score: one edge per pair of different hosts with at
/// least one link between them, optionally counting nofollow links too. Ordered, so repeated
/// runs over the same data give the same score.
pub async fn host_edges(
    db: &DatabaseConnection,
    include_nofollow: bool,
) -> StoreResult<Vec<HostEdge>> {
    let rows = query_all(
        db,
        "SELECT p.host AS from_host, l.to_host AS to_host, COUNT(*) AS links \
         FROM page_links l JOIN crawled_pages p ON p.id = l.from_page_id \
         WHERE p.host <> l.to_host AND (? OR l.nofollow = ?) \
         GROUP BY p.host, l.to_host ORDER BY p.host, l.to_host",
        vec![include_nofollow.into(), false.into()],
    )
    .await?;
    rows.iter()
        .map(|row| {
            Ok(HostEdge {
                from_host: row.try_get("", "from_host")?,
                to_host: row.try_get("", "to_host")?,
                links: row.try_get("", "links")?,
            })
        })
        .collect()
}

/// The outgoing links stored for a page (empty when it was never crawled).
pub async fn page_links(db: &DatabaseConnection, page_url: &str) -> StoreResult<Vec<NewLink>> {
    let rows = query_all(
        db,
        "SELECT l.to_url AS to_url, l.nofollow AS nofollow \
         FROM page_links l JOIN crawled_pages p ON p.id = l.from_page_id \
         WHERE p.url = ? ORDER BY l.to_url",
        vec![page_url.into()],
    )
    .await?;
    rows.iter()
        .map(|row| {
            Ok(NewLink {
                to_url: row.try_get("", "to_url")?,
                nofollow: row.try_get("", "nofollow")?,
            })
        })
        .collect()
}

/// How much the graph holds, to say how much evidence a score rests on.
pub async fn graph_size(db: &DatabaseConnection) -> StoreResult<GraphSize> {
    let row = query_one(
        db,
        "SELECT (SELECT COUNT(*) FROM crawled_pages) AS pages, \
         (SELECT COUNT(*) FROM page_links) AS links, \
         (SELECT COUNT(DISTINCT host) FROM crawled_pages) AS hosts",
        vec![],
    )
    .await?
    .ok_or(StoreError::NotFound)?;
    Ok(GraphSize {
        pages: row.try_get("", "pages")?,
        links: row.try_get("", "links")?,
        hosts: row.try_get("", "hosts")?,
    })
}

fn host_of(url: &str) -> Option<String> {
    Url::parse(url).ok()?.host_str().map(str::to_owned)
}
