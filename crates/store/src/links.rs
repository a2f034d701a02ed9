//! The link graph of every page Sitelens has crawled: the evidence behind the default
//! backlink and domain-authority provider (docs/ARCHITECTURE.md §5).
//!
//! Hosts are stored as the `url` crate gives them (lower-case, without port); callers compare
//! `www.example.com` and `example.com` as different hosts unless they normalise first.

use std::collections::BTreeMap;

use sea_orm::sea_query::{
    Alias, Asterisk, Expr, ExprTrait, Func, OnConflict, Order, Query, SelectStatement,
};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter,
};
use url::Url;

use crate::clock::now;
use crate::entity::crawled_pages::Column as P;
use crate::entity::page_links::Column as L;
use crate::entity::{crawled_pages, page_links};
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
    let page = crawled_pages::Entity::insert(crawled_pages::ActiveModel {
        url: Set(page_url.to_owned()),
        host: Set(page_host),
        last_crawled_at: Set(now()),
        ..Default::default()
    })
    .on_conflict(
        OnConflict::column(P::Url)
            .update_columns([P::LastCrawledAt, P::Host])
            .to_owned(),
    )
    .exec_with_returning(&txn)
    .await?;
    page_links::Entity::delete_many()
        .filter(L::FromPageId.eq(page.id))
        .exec(&txn)
        .await?;
    let entries: Vec<_> = unique.into_iter().collect();
    for chunk in entries.chunks(INSERT_BATCH) {
        let rows = chunk
            .iter()
            .map(|(to_url, (to_host, nofollow))| page_links::ActiveModel {
                from_page_id: Set(page.id),
                to_url: Set((*to_url).to_owned()),
                to_host: Set(to_host.clone()),
                nofollow: Set(*nofollow),
                ..Default::default()
            });
        page_links::Entity::insert_many(rows)
            .exec_without_returning(&txn)
            .await?;
    }
    txn.commit().await?;
    Ok(entries.len())
}

/// `page_links` joined to the page each link is on.
fn links_with_pages() -> SelectStatement {
    Query::select()
        .from(page_links::Entity)
        .inner_join(
            crawled_pages::Entity,
            Expr::col((crawled_pages::Entity, P::Id)).equals((page_links::Entity, L::FromPageId)),
        )
        .to_owned()
}

fn page(c: P) -> Expr {
    Expr::col((crawled_pages::Entity, c))
}

fn link(c: L) -> Expr {
    Expr::col((page_links::Entity, c))
}

/// Hosts linking to `host` from pages on other hosts, most links first.
pub async fn referring_domains(
    db: &DatabaseConnection,
    host: &str,
) -> StoreResult<Vec<ReferringDomain>> {
    let query = links_with_pages()
        .expr_as(page(P::Host), Alias::new("host"))
        .expr_as(Func::count(Expr::col(Asterisk)), Alias::new("links"))
        .expr_as(
            Func::sum(Expr::case(link(L::Nofollow).eq(true), 0).finally(1)),
            Alias::new("followed_links"),
        )
        .and_where(link(L::ToHost).eq(host))
        .and_where(page(P::Host).ne(host))
        .group_by_col((crawled_pages::Entity, P::Host))
        .order_by(Alias::new("links"), Order::Desc)
        .order_by((crawled_pages::Entity, P::Host), Order::Asc)
        .to_owned();
    db.query_all(&query)
        .await?
        .iter()
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
    let query = links_with_pages()
        .expr_as(page(P::Url), Alias::new("from_url"))
        .expr_as(page(P::Host), Alias::new("from_host"))
        .expr_as(link(L::ToUrl), Alias::new("to_url"))
        .expr_as(link(L::Nofollow), Alias::new("nofollow"))
        .and_where(link(L::ToHost).eq(host))
        .and_where(page(P::Host).ne(host))
        .order_by((crawled_pages::Entity, P::Url), Order::Asc)
        .order_by((page_links::Entity, L::ToUrl), Order::Asc)
        .limit(limit)
        .to_owned();
    db.query_all(&query)
        .await?
        .iter()
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
    let mut query = links_with_pages()
        .expr_as(page(P::Host), Alias::new("from_host"))
        .expr_as(link(L::ToHost), Alias::new("to_host"))
        .expr_as(Func::count(Expr::col(Asterisk)), Alias::new("links"))
        .and_where(page(P::Host).ne(link(L::ToHost)))
        .group_by_col((crawled_pages::Entity, P::Host))
        .group_by_col((page_links::Entity, L::ToHost))
        .order_by((crawled_pages::Entity, P::Host), Order::Asc)
        .order_by((page_links::Entity, L::ToHost), Order::Asc)
        .to_owned();
    if !include_nofollow {
        query.and_where(link(L::Nofollow).eq(false));
    }
    db.query_all(&query)
        .await?
        .iter()
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
    let query = links_with_pages()
        .expr_as(link(L::ToUrl), Alias::new("to_url"))
        .expr_as(link(L::Nofollow), Alias::new("nofollow"))
        .and_where(page(P::Url).eq(page_url))
        .order_by((page_links::Entity, L::ToUrl), Order::Asc)
        .to_owned();
    db.query_all(&query)
        .await?
        .iter()
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
    let count = |query: SelectStatement| Expr::SubQuery(None, Box::new(query.into()));
    let query = Query::select()
        .expr_as(
            count(
                Query::select()
                    .expr(Func::count(Expr::col(Asterisk)))
                    .from(crawled_pages::Entity)
                    .to_owned(),
            ),
            Alias::new("pages"),
        )
        .expr_as(
            count(
                Query::select()
                    .expr(Func::count(Expr::col(Asterisk)))
                    .from(page_links::Entity)
                    .to_owned(),
            ),
            Alias::new("links"),
        )
        .expr_as(
            count(
                Query::select()
                    .expr(Func::count_distinct(Expr::col(P::Host)))
                    .from(crawled_pages::Entity)
                    .to_owned(),
            ),
            Alias::new("hosts"),
        )
        .to_owned();
    let row = db.query_one(&query).await?.ok_or(StoreError::NotFound)?;
    Ok(GraphSize {
        pages: row.try_get("", "pages")?,
        links: row.try_get("", "links")?,
        hosts: row.try_get("", "hosts")?,
    })
}

fn host_of(url: &str) -> Option<String> {
    Url::parse(url).ok()?.host_str().map(str::to_owned)
}
