//! Site-level SEO checks: robots.txt, sitemaps, llms.txt, hreflang return links.

use std::collections::{HashMap, HashSet};

use url::Url;

use super::{Section, Tagged, good, issue, list, short_url, warning};
use crate::config::ROBOTS_TOKEN;
use crate::crawl::{SiteData, normalized, path_and_query};
use crate::sitemap::SitemapKind;

const INDEXING: &str = "Crawling & Indexing";
const INTL: &str = "International";

fn push(out: &mut Vec<Tagged>, group: &'static str, f: domain::report::Finding) {
    out.push(Tagged {
        section: Section::Seo,
        group,
        finding: f,
    });
}

/// Run the site-level SEO checks.
pub fn run(site: &SiteData, out: &mut Vec<Tagged>) {
    if let Some(why) = &site.stopped_early {
        push(
            out,
            INDEXING,
            warning(
                "seo.crawl.incomplete",
                None,
                "The site was too slow to analyse completely",
                format!("The report covers part of the site: {why}."),
                "Speed up the server's responses (caching, a CDN); search engines also crawl slow sites less.",
            ),
        );
    }
    robots_txt(site, out);
    sitemap(site, out);
    llms_txt(site, out);
    hreflang_return_links(site, out);
}

/// Lighthouse `robots-txt`: a 5xx fails, parse errors fail. A missing file (4xx) is fine, and
/// Lighthouse finds its audit not applicable then, so that finding carries no audit id.
fn robots_txt(site: &SiteData, out: &mut Vec<Tagged>) {
    let r = &site.robots;
    let id = "seo.robots-txt";
    let audit = Some("robots-txt");
    let f = match (r.status, &r.robots) {
        (Some(s), _) if s >= 500 => issue(
            id,
            audit,
            "robots.txt fails",
            format!(
                "{} answers HTTP {s}; crawlers then stop crawling the site.",
                r.url
            ),
            "Make robots.txt answer 200 (or 404 if you have none).",
        ),
        (Some(s), _) if s >= 400 => good(
            id,
            None,
            "No robots.txt",
            format!(
                "{} answers HTTP {s}, which allows crawling everything. A robots.txt is where to list the sitemap.",
                r.url
            ),
        ),
        (Some(_), None) if r.served_html => issue(
            id,
            audit,
            "robots.txt is an HTML page",
            format!(
                "{} returns an HTML page instead of robots.txt rules.",
                r.url
            ),
            "Serve a plain-text robots.txt, or a 404 when there is none.",
        ),
        (Some(_), Some(robots)) if !robots.errors.is_empty() => {
            let errs: Vec<String> = robots
                .errors
                .iter()
                .map(|e| format!("line {}: {} ({})", e.line, e.message, e.content.trim()))
                .collect();
            issue(
                id,
                audit,
                "robots.txt has errors",
                format!(
                    "{} lines could not be understood: {}.",
                    errs.len(),
                    list(&errs, 4)
                ),
                "Fix the listed lines: each must be User-agent, Allow, Disallow or Sitemap followed by a colon and a value.",
            )
        }
        (Some(_), Some(robots)) => {
            let everything = robots.groups.iter().any(|g| {
                g.agents.iter().any(|a| a == "*")
                    && g.rules.iter().any(|r| !r.allow && r.pattern == "/")
            });
            if everything {
                issue(
                    id,
                    audit,
                    "robots.txt blocks the whole site",
                    "robots.txt disallows \"/\" for all crawlers, so no page can be crawled.",
                    "Remove \"Disallow: /\" from the User-agent: * group unless the site must stay out of search.",
                )
            } else {
                good(
                    id,
                    audit,
                    "robots.txt is valid",
                    format!(
                        "{} groups, {} sitemap(s) listed.",
                        robots.groups.len(),
                        robots.sitemaps.len()
                    ),
                )
            }
        }
        (_, _) => warning(
            id,
            audit,
            "robots.txt could not be fetched",
            format!(
                "Requesting {} failed: {}.",
                r.url,
                r.error.as_deref().unwrap_or("no response")
            ),
            "Make sure robots.txt answers (200 or 404).",
        ),
    };
    push(out, INDEXING, f);
    if !site.blocked_by_robots.is_empty() {
        let paths: Vec<String> = site
            .blocked_by_robots
            .iter()
            .map(|u| short_url(u))
            .collect();
        push(
            out,
            INDEXING,
            warning(
                "seo.robots-txt.blocked-links",
                None,
                "Linked pages are blocked by robots.txt",
                format!(
                    "{} pages linked from the site are disallowed for crawlers: {}.",
                    paths.len(),
                    list(&paths, 5)
                ),
                "Check these rules are intended; linking to blocked pages wastes crawl budget.",
            ),
        );
    }
}

fn sitemap(site: &SiteData, out: &mut Vec<Tagged>) {
    let id = "seo.sitemap";
    let read: Vec<_> = site.sitemaps.iter().filter(|s| s.parsed.is_ok()).collect();
    if read.is_empty() {
        let why: Vec<String> = site
            .sitemaps
            .iter()
            .map(|s| {
                format!(
                    "{}: {}",
                    s.url,
                    s.parsed.as_ref().err().map(String::as_str).unwrap_or("")
                )
            })
            .collect();
        let bad_xml = site
            .sitemaps
            .iter()
            .any(|s| s.status.is_some_and(|x| (200..300).contains(&x)));
        let f = if bad_xml {
            issue(
                id,
                None,
                "Sitemap is not valid",
                format!("The sitemap could not be read: {}.", list(&why, 3)),
                "Serve a valid XML sitemap (<urlset> with <url><loc> entries) and list it in robots.txt.",
            )
        } else {
            warning(
                id,
                None,
                "No XML sitemap",
                format!(
                    "No sitemap was found via robots.txt or at /sitemap.xml ({}).",
                    list(&why, 2)
                ),
                "Publish /sitemap.xml listing every indexable page and add a Sitemap: line to robots.txt.",
            )
        };
        push(out, INDEXING, f);
        return;
    }
    let index = read.iter().any(|s| {
        s.parsed
            .as_ref()
            .is_ok_and(|d| d.kind == SitemapKind::Index)
    });
    let invalid: usize = read
        .iter()
        .filter_map(|s| s.parsed.as_ref().ok())
        .map(|d| d.invalid_entries)
        .sum();
    let via = read[0].found_via;
    let desc = format!(
        "{} URLs in {} sitemap document(s){}, found via {via}.",
        site.sitemap_urls.len(),
        read.len(),
        if index { " (with a sitemap index)" } else { "" }
    );
    let f = if invalid > 0 {
        warning(
            id,
            None,
            "Sitemap has invalid entries",
            format!("{desc} {invalid} entries have no absolute <loc>."),
            "Give every entry an absolute <loc> URL.",
        )
    } else if site.sitemap_urls.is_empty() {
        warning(
            id,
            None,
            "Sitemap is empty",
            desc,
            "List every indexable page in the sitemap.",
        )
    } else {
        good(id, None, "XML sitemap found", desc)
    };
    push(out, INDEXING, f);
    if via == "default path" && site.robots.robots.is_some() {
        push(
            out,
            INDEXING,
            warning(
                "seo.sitemap.robots",
                None,
                "Sitemap is not listed in robots.txt",
                "The sitemap exists at /sitemap.xml but robots.txt does not name it.",
                "Add \"Sitemap: https://…/sitemap.xml\" to robots.txt.",
            ),
        );
    }

    // Which analysed pages are listed, and which listed pages should not be.
    let listed: HashSet<Url> = site
        .sitemap_urls
        .iter()
        .filter_map(|u| Url::parse(u).ok())
        .map(|u| normalized(&u))
        .collect();
    let mut unlisted = Vec::new();
    let mut bad_listed = Vec::new();
    for p in &site.pages {
        let Ok(f) = &p.fetched else { continue };
        let key = normalized(&f.final_url);
        let in_map = listed.contains(&key) || listed.contains(&normalized(&p.url));
        let noindex = p.doc.as_ref().is_some_and(|d| {
            d.meta_robots.iter().any(|(n, c)| {
                (n == "robots" || n == "googlebot") && c.to_ascii_lowercase().contains("noindex")
            })
        }) || f
            .headers
            .get_all("x-robots-tag")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .any(|v| v.to_ascii_lowercase().contains("noindex"));
        if in_map {
            if noindex {
                bad_listed.push(format!("{} (noindex)", short_url(key.as_str())));
            } else if f.status >= 400 {
                bad_listed.push(format!("{} (HTTP {})", short_url(key.as_str()), f.status));
            } else if !f.hops.is_empty() && listed.contains(&normalized(&p.url)) {
                bad_listed.push(format!("{} (redirects)", short_url(p.url.as_str())));
            }
        } else if f.status < 300 && !noindex && p.doc.is_some() {
            unlisted.push(short_url(key.as_str()));
        }
    }
    if let Some(r) = &site.robots.robots {
        for u in &listed {
            if !r.is_allowed(ROBOTS_TOKEN, &path_and_query(u))
                || !r.is_allowed("googlebot", &path_and_query(u))
            {
                bad_listed.push(format!("{} (blocked by robots.txt)", short_url(u.as_str())));
            }
        }
    }
    bad_listed.sort();
    bad_listed.dedup();
    let f = if bad_listed.is_empty() {
        good(
            "seo.sitemap.entries",
            None,
            "Sitemap lists only indexable pages",
            "No listed page among those analysed is noindexed, broken, redirected or blocked.",
        )
    } else {
        issue(
            "seo.sitemap.entries",
            None,
            "Sitemap lists pages that cannot be indexed",
            format!(
                "{} sitemap entries should not be there: {}.",
                bad_listed.len(),
                list(&bad_listed, 5)
            ),
            "List only final, indexable URLs (status 200, no noindex, not blocked) in the sitemap.",
        )
    };
    push(out, INDEXING, f);
    let f = if unlisted.is_empty() {
        good(
            "seo.sitemap.coverage",
            None,
            "Analysed pages are in the sitemap",
            format!(
                "All {} analysed indexable pages are listed.",
                site.pages.len()
            ),
        )
    } else {
        warning(
            "seo.sitemap.coverage",
            None,
            "Pages missing from the sitemap",
            format!(
                "{} analysed pages are not listed in the sitemap: {}.",
                unlisted.len(),
                list(&unlisted, 5)
            ),
            "Add every indexable page to the sitemap so search engines find it.",
        )
    };
    push(out, INDEXING, f);
}

fn llms_txt(site: &SiteData, out: &mut Vec<Tagged>) {
    let f = match site.llms_txt {
        Some(s) if (200..300).contains(&s) => good(
            "seo.llms-txt",
            None,
            "llms.txt is present",
            "/llms.txt gives AI assistants a curated summary of the site.",
        ),
        _ => warning(
            "seo.llms-txt",
            None,
            "No llms.txt",
            "/llms.txt is missing. It is an emerging convention (llmstxt.org) that tells AI assistants what the site is and which pages matter.",
            "Publish /llms.txt: a Markdown file with the site's name, a one-line summary and links to its key pages.",
        ),
    };
    push(out, INDEXING, f);
}

/// hreflang return links: if A names B as an alternate, B must name A back.
fn hreflang_return_links(site: &SiteData, out: &mut Vec<Tagged>) {
    let mut alternates: HashMap<Url, Vec<Url>> = HashMap::new();
    for p in &site.pages {
        let Some(doc) = &p.doc else { continue };
        let base = p.final_url();
        let list: Vec<Url> = doc
            .hreflangs
            .iter()
            .filter_map(|(_, h)| base.join(h).ok())
            .map(|u| normalized(&u))
            .collect();
        if !list.is_empty() {
            alternates.insert(normalized(base), list);
        }
    }
    if alternates.is_empty() {
        return;
    }
    let mut missing = Vec::new();
    for (page, alts) in &alternates {
        for alt in alts {
            if alt == page {
                continue;
            }
            if let Some(back) = alternates.get(alt)
                && !back.contains(page)
            {
                missing.push(format!(
                    "{} → {} has no link back",
                    short_url(page.as_str()),
                    short_url(alt.as_str())
                ));
            }
        }
    }
    missing.sort();
    let checked = alternates.len();
    let f = if missing.is_empty() {
        good(
            "seo.hreflang.return-links",
            None,
            "hreflang alternates link back",
            format!("Checked among {checked} crawled pages with hreflang."),
        )
    } else {
        issue(
            "seo.hreflang.return-links",
            None,
            "hreflang return links are missing",
            format!(
                "Search engines ignore hreflang pairs that do not confirm each other: {}.",
                list(&missing, 4)
            ),
            "Every language version must list all versions, itself included.",
        )
    };
    push(out, INTL, f);
}
