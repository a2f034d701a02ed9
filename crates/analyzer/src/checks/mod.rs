//! The checks. Each check has a stable id, belongs to a section and a group, and yields findings
//! shaped as docs/PRODUCT.md §3.15's Finding. Where a check matches a Lighthouse audit the
//! finding names that audit and reaches the same verdict Lighthouse would on the same page.
//!
//! Page checks run on every crawled HTML page; [`merge_pages`] folds their findings into one
//! finding per id (the worst verdict, naming the affected pages). Site checks run once.

use domain::report::{Finding, FindingType};

pub mod content;
pub mod links;
pub mod seo;
pub mod site;
pub mod technical;

use crate::crawl::{CrawledPage, SiteData};
use crate::page::PageDoc;

/// The report section a group belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Section {
    /// SEO tab.
    Seo,
    /// Design & UX tab.
    Design,
    /// Technical tab.
    Technical,
    /// Performance tab (scored from these findings when no browser measured the page).
    Performance,
}

/// Findings of one check, tagged with where they go.
#[derive(Debug, Clone)]
pub struct Tagged {
    /// Section.
    pub section: Section,
    /// Group title, for example "Meta Tags".
    pub group: &'static str,
    /// The finding.
    pub finding: Finding,
}

/// What a page check reads.
pub struct PageCtx<'a> {
    /// The page.
    pub page: &'a CrawledPage,
    /// Its parsed document.
    pub doc: &'a PageDoc,
    /// The whole crawl (robots.txt, other pages).
    pub site: &'a SiteData,
}

/// Build a finding: the one constructor every check and browser audit uses, so each finding
/// has the same shape. A good finding never carries a solution.
pub fn finding(
    id: &str,
    kind: FindingType,
    title: impl Into<String>,
    description: impl Into<String>,
    solution: Option<&str>,
    audit: Option<&str>,
) -> Finding {
    Finding {
        id: id.to_owned(),
        kind,
        title: title.into(),
        description: description.into(),
        solution: solution
            .filter(|_| kind != FindingType::Good)
            .map(str::to_owned),
        audit: audit.map(str::to_owned),
    }
}

/// A good finding.
pub fn good(
    id: &str,
    audit: Option<&str>,
    title: impl Into<String>,
    description: impl Into<String>,
) -> Finding {
    finding(id, FindingType::Good, title, description, None, audit)
}

/// A warning.
pub fn warning(
    id: &str,
    audit: Option<&str>,
    title: impl Into<String>,
    description: impl Into<String>,
    solution: &str,
) -> Finding {
    finding(
        id,
        FindingType::Warning,
        title,
        description,
        Some(solution),
        audit,
    )
}

/// An issue.
pub fn issue(
    id: &str,
    audit: Option<&str>,
    title: impl Into<String>,
    description: impl Into<String>,
    solution: &str,
) -> Finding {
    finding(
        id,
        FindingType::Issue,
        title,
        description,
        Some(solution),
        audit,
    )
}

/// Run every page check on one page.
pub fn page_checks(ctx: &PageCtx<'_>) -> Vec<Tagged> {
    let mut out = Vec::new();
    seo::run(ctx, &mut out);
    technical::run_page(ctx, &mut out);
    out
}

fn rank(kind: FindingType) -> u8 {
    match kind {
        FindingType::Good => 0,
        FindingType::Warning => 1,
        FindingType::Issue => 2,
    }
}

/// Fold per-page findings into one finding per id. `per_page[i]` are the findings of the
/// page at `urls[i]`; the first page is the start page. A finding that is good everywhere keeps
/// the start page's text; otherwise the worst verdict is kept and the description names the
/// affected pages.
pub fn merge_pages(per_page: Vec<(String, Vec<Tagged>)>) -> Vec<Tagged> {
    let total_pages = per_page.len();
    if total_pages <= 1 {
        return per_page.into_iter().flat_map(|(_, f)| f).collect();
    }
    let mut order: Vec<String> = Vec::new();
    let mut by_id: std::collections::HashMap<String, Vec<(String, Tagged)>> =
        std::collections::HashMap::new();
    for (url, findings) in per_page {
        for t in findings {
            let id = t.finding.id.clone();
            if !by_id.contains_key(&id) {
                order.push(id.clone());
            }
            by_id.entry(id).or_default().push((url.clone(), t));
        }
    }
    let mut out = Vec::new();
    for id in order {
        let Some(list) = by_id.remove(&id) else {
            continue;
        };
        let worst = list
            .iter()
            .map(|(_, t)| rank(t.finding.kind))
            .max()
            .unwrap_or(0);
        if worst == 0 {
            let mut t = list[0].1.clone();
            if list.len() > 1 {
                t.finding.description = format!(
                    "{} (all {} pages checked pass)",
                    t.finding.description,
                    list.len()
                );
            }
            out.push(t);
            continue;
        }
        let affected: Vec<&(String, Tagged)> = list
            .iter()
            .filter(|(_, t)| rank(t.finding.kind) == worst)
            .collect();
        let mut t = affected[0].1.clone();
        let names: Vec<String> = affected.iter().take(5).map(|(u, _)| short_url(u)).collect();
        let more = affected.len().saturating_sub(5);
        let pages = if more > 0 {
            format!("{} and {more} more", names.join(", "))
        } else {
            names.join(", ")
        };
        t.finding.description = format!(
            "{} Affects {} of {} pages: {pages}.",
            t.finding.description,
            affected.len(),
            list.len()
        );
        out.push(t);
    }
    out
}

/// A URL without scheme and host, for listing pages compactly.
pub fn short_url(u: &str) -> String {
    match url::Url::parse(u) {
        Ok(p) => {
            let mut s = p.path().to_owned();
            if let Some(q) = p.query() {
                s.push('?');
                s.push_str(q);
            }
            s
        }
        Err(_) => u.to_owned(),
    }
}

/// A good range of docs/PRODUCT.md §9.7, read from `domain` (one rule, one place): (min, max),
/// whole numbers, inclusive; an open bound is 0 or `usize::MAX`.
pub fn good_range(id: &str) -> (usize, usize) {
    domain::performance::good_ranges()
        .into_iter()
        .find(|r| r.id == id)
        .map(|r| {
            (
                r.min.unwrap_or(0.0) as usize,
                r.max.map_or(usize::MAX, |m| m as usize),
            )
        })
        .unwrap_or((0, usize::MAX))
}

/// Count characters as people do (Unicode scalar values).
pub fn chars(s: &str) -> usize {
    s.chars().count()
}

/// A list for a description: at most `n` items, then "and N more".
pub fn list(items: &[String], n: usize) -> String {
    let shown: Vec<&str> = items.iter().take(n).map(String::as_str).collect();
    let more = items.len().saturating_sub(n);
    if more > 0 {
        format!("{} and {more} more", shown.join(", "))
    } else {
        shown.join(", ")
    }
}
