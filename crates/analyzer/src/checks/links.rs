//! Link checks across the crawl: broken and redirected internal links, orphan candidates, link
//! depth, nofollow on internal links, pages with too many links, and sampled external links.

use std::collections::{BTreeMap, HashMap, HashSet};

use url::Url;

use super::{Section, Tagged, good, issue, list, short_url, warning};
use crate::crawl::{SiteData, normalized, same_site};

const LINKS: &str = "Links";

/// More links than this on one page dilutes each link.
pub const TOO_MANY_LINKS: usize = 300;
/// Pages deeper than this many clicks from the start page are hard to find.
pub const DEEP: u32 = 3;

fn push(out: &mut Vec<Tagged>, f: domain::report::Finding) {
    out.push(Tagged {
        section: Section::Seo,
        group: LINKS,
        finding: f,
    });
}

/// Status of every same-site URL the crawl knows: crawled pages and checked link targets.
/// Value: (final status or None, redirect count).
pub fn known_statuses(site: &SiteData) -> HashMap<Url, (Option<u16>, usize)> {
    let mut m = HashMap::new();
    for p in &site.pages {
        let v = match &p.fetched {
            Ok(f) => (Some(f.status), f.hops.len()),
            Err(_) => (None, 0),
        };
        m.insert(normalized(&p.url), v);
    }
    for (u, s) in &site.internal_links {
        if let Ok(url) = Url::parse(u) {
            m.insert(url, (s.status, s.redirects));
        }
    }
    m
}

/// Run the link checks.
pub fn run(site: &SiteData, out: &mut Vec<Tagged>) {
    let origin = site.start_page().final_url().clone();
    let statuses = known_statuses(site);
    // (target, sources)
    let mut broken: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut redirected: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut nofollow_internal: Vec<String> = Vec::new();
    let mut crowded: Vec<String> = Vec::new();
    let mut linked: HashSet<Url> = HashSet::new();
    for p in &site.pages {
        let Some(doc) = &p.doc else { continue };
        let from = short_url(p.final_url().as_str());
        if doc.anchors.len() > TOO_MANY_LINKS {
            crowded.push(format!("{from} ({} links)", doc.anchors.len()));
        }
        for a in &doc.anchors {
            let Some(u) = &a.url else { continue };
            if !same_site(&origin, u) {
                continue;
            }
            let u = normalized(u);
            linked.insert(u.clone());
            if a.rel.iter().any(|r| r == "nofollow") {
                nofollow_internal.push(format!("{from} → {}", short_url(u.as_str())));
            }
            match statuses.get(&u) {
                Some((Some(s), _)) if *s >= 400 => broken
                    .entry(format!("{} ({s})", short_url(u.as_str())))
                    .or_default()
                    .push(from.clone()),
                Some((None, _)) => broken
                    .entry(format!("{} (no response)", short_url(u.as_str())))
                    .or_default()
                    .push(from.clone()),
                Some((Some(_), hops)) if *hops > 0 => redirected
                    .entry(format!(
                        "{} ({hops} redirect{})",
                        short_url(u.as_str()),
                        if *hops == 1 { "" } else { "s" }
                    ))
                    .or_default()
                    .push(from.clone()),
                _ => {}
            }
        }
    }

    let describe = |m: &BTreeMap<String, Vec<String>>| -> Vec<String> {
        m.iter()
            .map(|(t, froms)| {
                let mut f = froms.clone();
                f.sort();
                f.dedup();
                format!("{t} from {}", list(&f, 2))
            })
            .collect()
    };
    let checked = statuses.len();
    let f = if broken.is_empty() {
        good(
            "links.broken-internal",
            None,
            "No broken internal links",
            format!("{checked} internal addresses checked."),
        )
    } else {
        issue(
            "links.broken-internal",
            None,
            "Broken internal links",
            format!(
                "{} internal link targets fail: {}.",
                broken.len(),
                list(&describe(&broken), 5)
            ),
            "Fix or remove links to missing pages, or redirect the old addresses (301) to their replacements.",
        )
    };
    push(out, f);
    let f = if redirected.is_empty() {
        good(
            "links.redirected-internal",
            None,
            "Internal links point at final addresses",
            "No internal link goes through a redirect.",
        )
    } else {
        warning(
            "links.redirected-internal",
            None,
            "Internal links through redirects",
            format!(
                "{} internal link targets redirect: {}.",
                redirected.len(),
                list(&describe(&redirected), 5)
            ),
            "Update the links to point straight at the final address.",
        )
    };
    push(out, f);

    // Orphan candidates: listed in the sitemap, linked from no crawled page.
    if !site.sitemap_urls.is_empty() && site.pages.len() > 1 {
        let start = normalized(&site.start);
        let orphans: Vec<String> = site
            .sitemap_urls
            .iter()
            .filter_map(|u| Url::parse(u).ok())
            .map(|u| normalized(&u))
            .filter(|u| {
                same_site(&origin, u)
                    && !linked.contains(u)
                    && *u != start
                    && normalized(&origin) != *u
            })
            .map(|u| short_url(u.as_str()))
            .collect();
        let f = if orphans.is_empty() {
            good(
                "links.orphans",
                None,
                "No orphan candidates",
                "Every sitemap page is linked from a crawled page.",
            )
        } else {
            warning(
                "links.orphans",
                None,
                "Orphan page candidates",
                format!(
                    "{} pages in the sitemap are linked from none of the {} crawled pages: {}.",
                    orphans.len(),
                    site.pages.len(),
                    list(&orphans, 5)
                ),
                "Link to these pages from related content or navigation, or drop them from the sitemap if they are obsolete.",
            )
        };
        push(out, f);
    }

    if site.pages.len() > 1 {
        let deep: Vec<String> = site
            .pages
            .iter()
            .filter(|p| p.depth.is_some_and(|d| d > DEEP))
            .map(|p| {
                format!(
                    "{} ({} clicks)",
                    short_url(p.url.as_str()),
                    p.depth.unwrap_or(0)
                )
            })
            .collect();
        let max = site.pages.iter().filter_map(|p| p.depth).max().unwrap_or(0);
        let f = if deep.is_empty() {
            good(
                "links.depth",
                None,
                "Pages are close to the start page",
                format!("Every crawled page is at most {max} clicks from the start page."),
            )
        } else {
            warning(
                "links.depth",
                None,
                "Pages buried deep",
                format!(
                    "{} pages need more than {DEEP} clicks from the start page: {}.",
                    deep.len(),
                    list(&deep, 5)
                ),
                "Link important pages from the navigation, hub pages or the home page.",
            )
        };
        push(out, f);
    }

    let f = if nofollow_internal.is_empty() {
        good(
            "links.nofollow-internal",
            None,
            "Internal links are followed",
            "No internal link carries rel=nofollow.",
        )
    } else {
        warning(
            "links.nofollow-internal",
            None,
            "nofollow on internal links",
            format!(
                "{} internal links carry rel=nofollow, which stops search engines passing signals to your own pages: {}.",
                nofollow_internal.len(),
                list(&nofollow_internal, 4)
            ),
            "Remove rel=nofollow from links to your own pages.",
        )
    };
    push(out, f);
    if !crowded.is_empty() {
        push(
            out,
            warning(
                "links.too-many",
                None,
                "Pages with very many links",
                format!(
                    "{} pages have more than {TOO_MANY_LINKS} links: {}.",
                    crowded.len(),
                    list(&crowded, 4)
                ),
                "Trim navigation and footers; a focused set of links passes more value to each.",
            ),
        );
    }

    if !site.external_links.is_empty() {
        let failing: Vec<String> = site
            .external_links
            .iter()
            .filter(|(_, s)| s.status.is_none_or(|x| x >= 400))
            .map(|(u, s)| match (s.status, &s.error) {
                (Some(x), _) => format!("{u} ({x})"),
                (None, Some(e)) => format!("{u} ({e})"),
                (None, None) => u.clone(),
            })
            .collect();
        let n = site.external_links.len();
        let f = if failing.is_empty() {
            good(
                "links.external",
                None,
                "External links work",
                format!("A sample of {n} external links all answer."),
            )
        } else {
            warning(
                "links.external",
                None,
                "Broken external links",
                format!(
                    "{} of {n} sampled external links fail: {}.",
                    failing.len(),
                    list(&failing, 4)
                ),
                "Update or remove links to pages that no longer exist.",
            )
        };
        push(out, f);
    }
}
