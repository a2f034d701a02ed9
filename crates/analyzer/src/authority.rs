//! Backlinks and domain authority from the link graph of every page Sitelens has crawled.
//!
//! [`LinkGraph`] is the storage seam: the server backs it with the database (the `store`
//! crate), the CLI and tests use [`MemoryLinkGraph`]. [`GraphAuthority`] records each crawl's
//! outgoing links, then derives referring domains and a PageRank-style score over domains. It
//! never invents a number: with no referring domain there is no score, and the report states how
//! many pages and domains the evidence rests on.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, Mutex};

use domain::professional::{BacklinkFigures, GraphEvidence, ReferringDomain};
use futures::future::BoxFuture;
use serde::Serialize;
use url::Url;

use crate::crawl::SiteData;
use crate::report::count;

/// A failure of the graph storage.
#[derive(Debug, thiserror::Error)]
#[error("link graph unavailable: {0}")]
pub struct GraphError(pub String);

/// A link found on a crawled page.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OutLink {
    /// The absolute address linked to.
    pub to_url: String,
    /// `rel` contains nofollow, sponsored or ugc: no authority passes through it.
    pub nofollow: bool,
}

/// A link from one crawled page to another address.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Edge {
    /// The linking page.
    pub from_url: String,
    /// The linked address.
    pub to_url: String,
    /// Whether the link is nofollow.
    pub nofollow: bool,
}

/// Size of the graph: how much evidence any figure rests on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GraphStats {
    /// Crawled pages recorded.
    pub pages: u64,
    /// Distinct hosts among those pages.
    pub domains: u64,
}

/// Storage of crawled pages' outgoing links. Hosts are compared exactly as the `url` crate
/// gives them (lower-case, no port), the same key the store's `links` module uses, so a
/// store-backed implementation maps one function to one repository call.
pub trait LinkGraph: Send + Sync {
    /// Record `page_url`'s outgoing links, replacing what was recorded for it before.
    fn record_page<'a>(
        &'a self,
        page_url: &'a str,
        links: &'a [OutLink],
    ) -> BoxFuture<'a, Result<(), GraphError>>;
    /// Every recorded link into `host` from a page on another host.
    fn edges_into<'a>(&'a self, host: &'a str) -> BoxFuture<'a, Result<Vec<Edge>, GraphError>>;
    /// Distinct (from host, to host) pairs between different hosts joined by at least one
    /// followed (not nofollow) link: the graph authority is computed on.
    fn host_edges(&self) -> BoxFuture<'_, Result<Vec<(String, String)>, GraphError>>;
    /// Pages and hosts recorded.
    fn stats(&self) -> BoxFuture<'_, Result<GraphStats, GraphError>>;
}

/// The host key of an address: lower-case, without port, `www.` kept (see [`LinkGraph`]).
pub fn host_of(url: &str) -> Option<String> {
    Url::parse(url)
        .ok()?
        .host_str()
        .map(str::to_ascii_lowercase)
}

/// The same site under the other spelling: `www.example.com` ↔ `example.com`.
pub fn www_twin(host: &str) -> String {
    match host.strip_prefix("www.") {
        Some(bare) => bare.to_owned(),
        None => format!("www.{host}"),
    }
}

fn plural(n: u64, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// An in-memory [`LinkGraph`], for the CLI and tests.
#[derive(Debug, Default)]
pub struct MemoryLinkGraph {
    pages: Mutex<BTreeMap<String, Vec<OutLink>>>,
}

impl MemoryLinkGraph {
    /// An empty graph.
    pub fn new() -> Self {
        Self::default()
    }

    fn snapshot(&self) -> BTreeMap<String, Vec<OutLink>> {
        self.pages.lock().map(|p| p.clone()).unwrap_or_default()
    }
}

impl LinkGraph for MemoryLinkGraph {
    fn record_page<'a>(
        &'a self,
        page_url: &'a str,
        links: &'a [OutLink],
    ) -> BoxFuture<'a, Result<(), GraphError>> {
        Box::pin(async move {
            let mut pages = self
                .pages
                .lock()
                .map_err(|_| GraphError("poisoned lock".to_owned()))?;
            pages.insert(page_url.to_owned(), links.to_vec());
            Ok(())
        })
    }

    fn edges_into<'a>(&'a self, host: &'a str) -> BoxFuture<'a, Result<Vec<Edge>, GraphError>> {
        Box::pin(async move {
            Ok(self
                .snapshot()
                .into_iter()
                .filter(|(from, _)| host_of(from).as_deref() != Some(host))
                .flat_map(|(from, links)| {
                    links
                        .into_iter()
                        .filter(|l| host_of(&l.to_url).as_deref() == Some(host))
                        .map(move |l| Edge {
                            from_url: from.clone(),
                            to_url: l.to_url,
                            nofollow: l.nofollow,
                        })
                })
                .collect())
        })
    }

    fn host_edges(&self) -> BoxFuture<'_, Result<Vec<(String, String)>, GraphError>> {
        Box::pin(async move {
            let mut set = HashSet::new();
            for (from, links) in self.snapshot() {
                let Some(fh) = host_of(&from) else { continue };
                for l in links.iter().filter(|l| !l.nofollow) {
                    if let Some(th) = host_of(&l.to_url)
                        && th != fh
                    {
                        set.insert((fh.clone(), th));
                    }
                }
            }
            let mut v: Vec<(String, String)> = set.into_iter().collect();
            v.sort();
            Ok(v)
        })
    }

    fn stats(&self) -> BoxFuture<'_, Result<GraphStats, GraphError>> {
        Box::pin(async move {
            let snap = self.snapshot();
            let hosts: HashSet<String> = snap.keys().filter_map(|p| host_of(p)).collect();
            Ok(GraphStats {
                pages: snap.len() as u64,
                domains: hosts.len() as u64,
            })
        })
    }
}

/// The professional report's backlink figures.
#[derive(Debug, Clone, PartialEq)]
pub struct AuthorityReport {
    /// 0-100, `None` when no referring domain is known.
    pub domain_authority: Option<u32>,
    /// The backlink figures for the report.
    pub backlinks: BacklinkFigures,
}

/// Computes backlinks and authority for a crawled site.
pub trait AuthorityProvider: Send + Sync {
    /// Figures for the site of `site`.
    fn assess<'a>(
        &'a self,
        site: &'a SiteData,
    ) -> BoxFuture<'a, Result<AuthorityReport, GraphError>>;
}

/// The default provider: the link graph of everything Sitelens has crawled.
#[derive(Clone)]
pub struct GraphAuthority {
    graph: Arc<dyn LinkGraph>,
}

impl GraphAuthority {
    /// Use `graph`.
    pub fn new(graph: Arc<dyn LinkGraph>) -> Self {
        Self { graph }
    }
}

/// PageRank over domains (damping 0.85, 40 iterations); dangling mass is spread evenly.
pub fn domain_rank(edges: &[(String, String)]) -> HashMap<String, f64> {
    let mut nodes: Vec<&str> = edges
        .iter()
        .flat_map(|(a, b)| [a.as_str(), b.as_str()])
        .collect();
    nodes.sort_unstable();
    nodes.dedup();
    let n = nodes.len();
    if n == 0 {
        return HashMap::new();
    }
    let index: HashMap<&str, usize> = nodes.iter().enumerate().map(|(i, d)| (*d, i)).collect();
    let mut out_links: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (a, b) in edges {
        if let (Some(&i), Some(&j)) = (index.get(a.as_str()), index.get(b.as_str())) {
            out_links[i].push(j);
        }
    }
    let d = 0.85;
    let mut rank = vec![1.0 / n as f64; n];
    for _ in 0..40 {
        let dangling: f64 = (0..n)
            .filter(|&i| out_links[i].is_empty())
            .map(|i| rank[i])
            .sum();
        let mut next = vec![(1.0 - d) / n as f64 + d * dangling / n as f64; n];
        for i in 0..n {
            if out_links[i].is_empty() {
                continue;
            }
            let share = d * rank[i] / out_links[i].len() as f64;
            for &j in &out_links[i] {
                next[j] += share;
            }
        }
        rank = next;
    }
    nodes.into_iter().map(str::to_owned).zip(rank).collect()
}

impl AuthorityProvider for GraphAuthority {
    fn assess<'a>(
        &'a self,
        site: &'a SiteData,
    ) -> BoxFuture<'a, Result<AuthorityReport, GraphError>> {
        Box::pin(async move {
            // Record this crawl first, so the graph grows with every analysis.
            for p in site
                .pages
                .iter()
                .filter(|p| p.status().is_some_and(|s| s < 400))
            {
                let Some(doc) = &p.doc else { continue };
                let links: Vec<OutLink> = doc
                    .anchors
                    .iter()
                    .filter_map(|a| a.url.as_ref().map(|u| (u, a)))
                    .filter(|(u, _)| u.scheme() == "http" || u.scheme() == "https")
                    .map(|(u, a)| {
                        let mut u = u.clone();
                        u.set_fragment(None);
                        OutLink {
                            to_url: u.to_string(),
                            nofollow: a
                                .rel
                                .iter()
                                .any(|r| r == "nofollow" || r == "sponsored" || r == "ugc"),
                        }
                    })
                    .collect();
                self.graph
                    .record_page(p.final_url().as_str(), &links)
                    .await?;
            }
            let me = host_of(site.start_page().final_url().as_str()).unwrap_or_default();
            // www.example.com and example.com are one site: count links into either.
            let twin = www_twin(&me);
            let stats = self.graph.stats().await?;
            let mut inbound = self.graph.edges_into(&me).await?;
            inbound.extend(self.graph.edges_into(&twin).await?);
            inbound.retain(|e| host_of(&e.from_url).is_some_and(|h| h != me && h != twin));
            let mut by_host: BTreeMap<String, (usize, usize)> = BTreeMap::new();
            for e in &inbound {
                if let Some(h) = host_of(&e.from_url) {
                    let entry = by_host.entry(h).or_default();
                    entry.0 += 1;
                    if !e.nofollow {
                        entry.1 += 1;
                    }
                }
            }
            let mut top: Vec<(String, (usize, usize))> = by_host.clone().into_iter().collect();
            top.sort_by(|a, b| b.1.0.cmp(&a.1.0).then_with(|| a.0.cmp(&b.0)));
            top.truncate(10);
            let followed_hosts = by_host.values().filter(|(_, f)| *f > 0).count();

            // Authority flows through followed links only; with none, there is no score.
            let domain_authority = if followed_hosts == 0 {
                None
            } else {
                let edges = self.graph.host_edges().await?;
                let ranks = domain_rank(&edges);
                let max = ranks.values().cloned().fold(f64::MIN, f64::max);
                let min = ranks.values().cloned().fold(f64::MAX, f64::min);
                let mine = [ranks.get(&me), ranks.get(&twin)]
                    .into_iter()
                    .flatten()
                    .cloned()
                    .fold(f64::MIN, f64::max);
                (mine > 0.0).then(|| {
                    if max > min {
                        (((mine.ln() - min.ln()) / (max.ln() - min.ln())) * 100.0)
                            .round()
                            .clamp(0.0, 100.0) as u32
                    } else {
                        50
                    }
                })
            };
            let note = if by_host.is_empty() {
                format!(
                    "No page linking to {me} from another site is known yet. The figures rest on the {} across {} crawled so far; no authority score is given without evidence.",
                    plural(stats.pages, "page"),
                    plural(stats.domains, "site")
                )
            } else if domain_authority.is_none() {
                format!(
                    "{} links from {} sites point to {me}, all nofollow, so no authority passes. The figures rest on the {} pages across {} sites crawled so far.",
                    inbound.len(),
                    by_host.len(),
                    stats.pages,
                    stats.domains
                )
            } else {
                format!(
                    "{} links from {} sites point to {me}, among the {} pages across {} sites crawled so far. The authority score ranks {me} in that graph only; a larger crawl history makes it more meaningful.",
                    inbound.len(),
                    by_host.len(),
                    stats.pages,
                    stats.domains
                )
            };
            Ok(AuthorityReport {
                domain_authority,
                backlinks: BacklinkFigures {
                    provider: domain::professional::OWN_LINK_GRAPH.to_owned(),
                    domain: me,
                    evidence: GraphEvidence {
                        pages_in_graph: count(stats.pages),
                        domains_in_graph: count(stats.domains),
                    },
                    backlinks: count(inbound.len()),
                    followed_backlinks: count(inbound.iter().filter(|e| !e.nofollow).count()),
                    referring_domains: count(by_host.len()),
                    top_referring_domains: top
                        .into_iter()
                        .map(|(domain, (links, followed))| ReferringDomain {
                            domain,
                            links: count(links),
                            followed_links: count(followed),
                        })
                        .collect(),
                    authority_score: domain_authority,
                    note,
                },
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_memory_graph_keeps_nofollow_out_of_the_host_graph() {
        let g = MemoryLinkGraph::new();
        let link = |to: &str, nofollow: bool| OutLink {
            to_url: to.to_owned(),
            nofollow,
        };
        g.record_page(
            "https://b.test/post",
            &[
                link("https://a.test/", false),
                link("https://c.test/", true),
            ],
        )
        .await
        .expect("record");
        g.record_page("https://a.test/", &[link("https://a.test/about", false)])
            .await
            .expect("record");
        // Recording a page again replaces its links.
        g.record_page(
            "https://b.test/post",
            &[
                link("https://a.test/", false),
                link("https://c.test/", true),
            ],
        )
        .await
        .expect("record");
        let into_a = g.edges_into("a.test").await.expect("edges");
        assert_eq!(into_a.len(), 1, "a.test's own links are not backlinks");
        assert!(g.edges_into("c.test").await.expect("edges")[0].nofollow);
        assert_eq!(
            g.host_edges().await.expect("hosts"),
            vec![("b.test".to_owned(), "a.test".to_owned())]
        );
        assert_eq!(
            g.stats().await.expect("stats"),
            GraphStats {
                pages: 2,
                domains: 2
            }
        );
        assert_eq!(www_twin("www.a.test"), "a.test");
        assert_eq!(www_twin("a.test"), "www.a.test");
    }

    #[test]
    fn rank_favours_the_linked_domain() {
        let e = |a: &str, b: &str| (a.to_owned(), b.to_owned());
        let r = domain_rank(&[e("a", "hub"), e("b", "hub"), e("c", "hub"), e("hub", "a")]);
        assert!(r["hub"] > r["a"] && r["a"] > r["b"]);
        let total: f64 = r.values().sum();
        assert!((total - 1.0).abs() < 1e-6);
    }
}
