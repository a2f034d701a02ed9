//! Backlinks and domain authority from the link graph of every page Sitelens has crawled.
//!
//! [`LinkGraph`] is the storage seam: the server backs it with the database (the `store`
//! crate), the CLI and tests use [`MemoryLinkGraph`]. [`GraphAuthority`] records each crawl's
//! outgoing links, then derives referring domains and a PageRank-style score over domains. It
//! never invents a number: with no referring domain there is no score, and the report states how
//! many pages and domains the evidence rests on.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use serde::Serialize;
use serde_json::json;
use url::Url;

use crate::crawl::SiteData;

/// A failure of the graph storage.
#[derive(Debug, thiserror::Error)]
#[error("link graph unavailable: {0}")]
pub struct GraphError(pub String);

/// A link from one crawled page to another address.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Edge {
    /// The linking page.
    pub from_url: String,
    /// The linked address.
    pub to_url: String,
}

/// Size of the graph: how much evidence any figure rests on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GraphStats {
    /// Crawled pages recorded.
    pub pages: u64,
    /// Distinct domains among those pages.
    pub domains: u64,
}

/// Storage of crawled pages' outgoing links.
pub trait LinkGraph: Send + Sync {
    /// Record `page_url`'s outgoing links, replacing what was recorded for it before.
    fn record_page<'a>(
        &'a self,
        page_url: &'a str,
        links: &'a [String],
    ) -> BoxFuture<'a, Result<(), GraphError>>;
    /// Every recorded edge whose target is on `domain` (see [`domain_of`]).
    fn edges_into<'a>(&'a self, domain: &'a str) -> BoxFuture<'a, Result<Vec<Edge>, GraphError>>;
    /// Distinct (from domain, to domain) pairs between different domains.
    fn domain_edges(&self) -> BoxFuture<'_, Result<Vec<(String, String)>, GraphError>>;
    /// Pages and domains recorded.
    fn stats(&self) -> BoxFuture<'_, Result<GraphStats, GraphError>>;
}

/// The domain key of an address: the host, lower-case, without `www.`.
pub fn domain_of(url: &str) -> Option<String> {
    let u = Url::parse(url).ok()?;
    Some(
        u.host_str()?
            .trim_start_matches("www.")
            .to_ascii_lowercase(),
    )
}

/// An in-memory [`LinkGraph`], for the CLI and tests.
#[derive(Debug, Default)]
pub struct MemoryLinkGraph {
    pages: Mutex<BTreeMap<String, Vec<String>>>,
}

impl MemoryLinkGraph {
    /// An empty graph.
    pub fn new() -> Self {
        Self::default()
    }

    fn snapshot(&self) -> BTreeMap<String, Vec<String>> {
        self.pages.lock().map(|p| p.clone()).unwrap_or_default()
    }
}

impl LinkGraph for MemoryLinkGraph {
    fn record_page<'a>(
        &'a self,
        page_url: &'a str,
        links: &'a [String],
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

    fn edges_into<'a>(&'a self, domain: &'a str) -> BoxFuture<'a, Result<Vec<Edge>, GraphError>> {
        Box::pin(async move {
            Ok(self
                .snapshot()
                .into_iter()
                .flat_map(|(from, links)| {
                    links
                        .into_iter()
                        .filter(|l| domain_of(l).as_deref() == Some(domain))
                        .map(move |to| Edge {
                            from_url: from.clone(),
                            to_url: to,
                        })
                })
                .collect())
        })
    }

    fn domain_edges(&self) -> BoxFuture<'_, Result<Vec<(String, String)>, GraphError>> {
        Box::pin(async move {
            let mut set = HashSet::new();
            for (from, links) in self.snapshot() {
                let Some(fd) = domain_of(&from) else { continue };
                for l in links {
                    if let Some(td) = domain_of(&l)
                        && td != fd
                    {
                        set.insert((fd.clone(), td));
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
            let domains: HashSet<String> = snap.keys().filter_map(|p| domain_of(p)).collect();
            Ok(GraphStats {
                pages: snap.len() as u64,
                domains: domains.len() as u64,
            })
        })
    }
}

/// The professional report's backlink figures.
#[derive(Debug, Clone, PartialEq)]
pub struct AuthorityReport {
    /// 0-100, `None` when no referring domain is known.
    pub domain_authority: Option<u32>,
    /// The backlink analysis JSON for the report.
    pub backlink_analysis: serde_json::Value,
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
            for p in &site.pages {
                let Some(doc) = &p.doc else { continue };
                let links: Vec<String> = doc
                    .anchors
                    .iter()
                    .filter_map(|a| a.url.as_ref())
                    .filter(|u| u.scheme() == "http" || u.scheme() == "https")
                    .map(|u| {
                        let mut u = u.clone();
                        u.set_fragment(None);
                        u.to_string()
                    })
                    .collect();
                self.graph
                    .record_page(p.final_url().as_str(), &links)
                    .await?;
            }
            let me = domain_of(site.start_page().final_url().as_str()).unwrap_or_default();
            let stats = self.graph.stats().await?;
            let inbound: Vec<Edge> = self
                .graph
                .edges_into(&me)
                .await?
                .into_iter()
                .filter(|e| domain_of(&e.from_url).is_some_and(|d| d != me))
                .collect();
            let mut by_domain: BTreeMap<String, usize> = BTreeMap::new();
            for e in &inbound {
                if let Some(d) = domain_of(&e.from_url) {
                    *by_domain.entry(d).or_default() += 1;
                }
            }
            let mut top: Vec<(String, usize)> = by_domain.clone().into_iter().collect();
            top.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            top.truncate(10);

            let domain_authority = if by_domain.is_empty() {
                None
            } else {
                let edges = self.graph.domain_edges().await?;
                let ranks = domain_rank(&edges);
                let max = ranks.values().cloned().fold(f64::MIN, f64::max);
                let min = ranks.values().cloned().fold(f64::MAX, f64::min);
                ranks.get(&me).map(|r| {
                    if max > min {
                        (((r.ln() - min.ln()) / (max.ln() - min.ln())) * 100.0)
                            .round()
                            .clamp(0.0, 100.0) as u32
                    } else {
                        50
                    }
                })
            };
            let note = if by_domain.is_empty() {
                format!(
                    "No page linking to {me} from another domain is known yet. The figures rest on the {} pages across {} domains Sitelens has crawled; no authority score is given without evidence.",
                    stats.pages, stats.domains
                )
            } else {
                format!(
                    "{} links from {} domains point to {me}, among the {} pages across {} domains Sitelens has crawled. The authority score ranks {me} in that graph only; a larger crawl history makes it more meaningful.",
                    inbound.len(),
                    by_domain.len(),
                    stats.pages,
                    stats.domains
                )
            };
            Ok(AuthorityReport {
                domain_authority,
                backlink_analysis: json!({
                    "provider": "sitelens-link-graph",
                    "domain": me,
                    "evidence": { "pagesInGraph": stats.pages, "domainsInGraph": stats.domains },
                    "backlinks": inbound.len(),
                    "referringDomains": by_domain.len(),
                    "topReferringDomains": top.iter().map(|(d, n)| json!({"domain": d, "links": n})).collect::<Vec<_>>(),
                    "authorityScore": domain_authority,
                    "note": note,
                }),
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_favours_the_linked_domain() {
        let e = |a: &str, b: &str| (a.to_owned(), b.to_owned());
        let r = domain_rank(&[e("a", "hub"), e("b", "hub"), e("c", "hub"), e("hub", "a")]);
        assert!(r["hub"] > r["a"] && r["a"] > r["b"]);
        let total: f64 = r.values().sum();
        assert!((total - 1.0).abs() < 1e-6);
    }
}
