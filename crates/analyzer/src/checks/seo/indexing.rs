//! Crawling and indexing: the canonical URL, robots directives and the address itself.

use url::Url;

use super::{INDEXING, Section, push};
use crate::checks::{PageCtx, Tagged, good, issue, list, warning};
use crate::crawl::{path_and_query, same_site};

/// Lighthouse's `canonical` audit, plus the hreflang consistency it checks. Where our rule is
/// stricter than Lighthouse's (no canonical at all, a canonical on another host, a canonical
/// naming an hreflang alternate of a page that is not itself in the hreflang set), the finding
/// carries no Lighthouse audit id: Lighthouse passes those pages (its pass is a finding of its
/// own, [`lighthouse_passes`]) or finds the audit not applicable.
pub(super) fn canonical(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
    let id = "seo.canonical";
    let audit = Some("canonical");
    let page_url = ctx.page.final_url();
    let raw: Vec<&String> = ctx.doc.canonicals.iter().collect();
    if raw.is_empty() {
        // Lighthouse: not applicable, so this finding carries no audit id (it neither passes
        // nor fails Lighthouse's audit, nor weighs in the SEO score). Nothing is wrong with the
        // links there are (none), and our own rule asks for one.
        push(
            out,
            Section::Seo,
            INDEXING,
            good(
                id,
                None,
                "No conflicting canonical URL",
                "The page declares no canonical link, so none can point search engines elsewhere.",
            ),
        );
        push(
            out,
            Section::Seo,
            INDEXING,
            warning(
                "seo.canonical.missing",
                None,
                "No canonical URL",
                "The page declares no canonical URL. Lighthouse does not fail this, but without one, duplicate addresses (tracking parameters, http/https, trailing slashes) split ranking signals.",
                "Add <link rel=\"canonical\" href=\"https://…\"> with the page's preferred absolute address.",
            ),
        );
        return;
    }
    let mut distinct: Vec<&String> = raw.clone();
    distinct.sort();
    distinct.dedup();
    if distinct.len() > 1 {
        push(
            out,
            Section::Seo,
            INDEXING,
            issue(
                id,
                audit,
                "Conflicting canonical URLs",
                format!(
                    "The page declares {} different canonical URLs: {}.",
                    distinct.len(),
                    list(
                        &distinct.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
                        3
                    )
                ),
                "Keep exactly one canonical link.",
            ),
        );
        return;
    }
    let href = distinct[0].trim();
    let Ok(canon) = Url::parse(href) else {
        let relative = page_url.join(href).is_ok() && !href.is_empty();
        let f = if relative {
            issue(
                id,
                audit,
                "Canonical URL is relative",
                format!("The canonical URL \"{href}\" is not absolute."),
                "Write the canonical URL in full, with scheme and host.",
            )
        } else {
            issue(
                id,
                audit,
                "Canonical URL is invalid",
                format!("The canonical URL \"{href}\" is not a valid address."),
                "Point the canonical link at the page's full, valid address.",
            )
        };
        push(out, Section::Seo, INDEXING, f);
        return;
    };
    // Pointing at another language version defeats hreflang.
    let hreflang_targets: Vec<Url> = ctx
        .doc
        .hreflangs
        .iter()
        .filter_map(|(_, h)| page_url.join(h).ok())
        .collect();
    if hreflang_targets.iter().any(|h| h == &canon) && &canon != page_url {
        // Lighthouse fails this only when the page itself is in the hreflang set too.
        let lighthouse = hreflang_targets.iter().any(|h| h == page_url);
        if !lighthouse {
            lighthouse_passes(&canon, out);
        }
        push(
            out,
            Section::Seo,
            INDEXING,
            issue(
                id,
                audit.filter(|_| lighthouse),
                "Canonical points to another language version",
                format!(
                    "The canonical URL {canon} is one of the page's hreflang alternates, so search engines drop this language version."
                ),
                "Make each language version canonical to itself.",
            ),
        );
        return;
    }
    if canon.path() == "/" && page_url.path() != "/" && canon.origin() == page_url.origin() {
        push(
            out,
            Section::Seo,
            INDEXING,
            issue(
                id,
                audit,
                "Canonical points to the home page",
                format!(
                    "This deep page ({}) names the site's root as canonical, telling search engines to ignore it.",
                    page_url.path()
                ),
                "Point the canonical link at this page's own address, or at the equivalent content page.",
            ),
        );
        return;
    }
    if !same_site(page_url, &canon) {
        lighthouse_passes(&canon, out);
        push(
            out,
            Section::Seo,
            INDEXING,
            // Lighthouse passes a canonical on another host (syndication); the warning is ours.
            warning(
                id,
                None,
                "Canonical points to another domain",
                format!(
                    "The canonical URL {canon} is on another host; make sure this is intended (syndicated content)."
                ),
                "If this page is the original, make it canonical to itself.",
            ),
        );
        return;
    }
    let mut self_url = page_url.clone();
    self_url.set_fragment(None);
    let f = if canon == self_url {
        good(
            id,
            audit,
            "Canonical URL is valid",
            format!("The page is canonical to itself ({canon})."),
        )
    } else {
        good(
            id,
            audit,
            "Canonical URL is valid",
            format!("The page names {canon} as its canonical version."),
        )
    };
    push(out, Section::Seo, INDEXING, f);
}

/// Lighthouse's `canonical` verdict where our own rule is stricter: one valid, absolute
/// canonical URL passes there, and so counts in its SEO score.
fn lighthouse_passes(canon: &Url, out: &mut Vec<Tagged>) {
    push(
        out,
        Section::Seo,
        INDEXING,
        good(
            "seo.canonical.valid",
            Some("canonical"),
            "Canonical link is well-formed",
            format!("The page declares one absolute, valid canonical URL ({canon})."),
        ),
    );
}

/// Directives that keep a page out of the index (Lighthouse `is-crawlable`).
fn blocks_indexing(content: &str) -> Option<String> {
    let lower = content.to_ascii_lowercase();
    for d in lower.split(',').map(str::trim) {
        if d == "noindex" || d == "none" {
            return Some(d.to_owned());
        }
        if let Some(date) = d.strip_prefix("unavailable_after:")
            && let Ok(when) = chrono::DateTime::parse_from_rfc2822(date.trim())
                .or_else(|_| chrono::DateTime::parse_from_rfc3339(date.trim()))
            && when < chrono::Utc::now()
        {
            return Some("unavailable_after (passed)".to_owned());
        }
    }
    None
}

pub(super) fn indexable(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
    let mut blockers: Vec<String> = Vec::new();
    let mut nofollow: Vec<String> = Vec::new();
    for (name, content) in &ctx.doc.meta_robots {
        // Rules for other crawlers (bingbot, sitelens) are reported but do not fail the
        // Google-centred audit, exactly as Lighthouse does for robots and googlebot only.
        let general = name == "robots" || name == "googlebot";
        if let Some(d) = blocks_indexing(content) {
            if general {
                blockers.push(format!(
                    "<meta name=\"{name}\" content=\"{content}\"> ({d})"
                ));
            } else {
                nofollow.push(format!("<meta name=\"{name}\"> says {d} for that crawler"));
            }
        }
        if content.to_ascii_lowercase().contains("nofollow") {
            nofollow.push(format!("<meta name=\"{name}\" content=\"{content}\">"));
        }
    }
    if let Ok(f) = &ctx.page.fetched {
        for v in f
            .headers
            .get_all("x-robots-tag")
            .iter()
            .filter_map(|v| v.to_str().ok())
        {
            // "googlebot: noindex" applies to one bot; a bare value applies to all.
            let (bot, rules) = match v.split_once(':') {
                Some((b, r))
                    if !b.contains(',')
                        && !b.trim().contains(' ')
                        && !b.trim().eq_ignore_ascii_case("unavailable_after") =>
                {
                    (Some(b.trim().to_ascii_lowercase()), r)
                }
                _ => (None, v),
            };
            let applies = bot.as_deref().is_none_or(|b| b == "googlebot" || b == "*");
            if let Some(d) = blocks_indexing(rules) {
                if applies {
                    blockers.push(format!("X-Robots-Tag: {v} ({d})"));
                } else {
                    nofollow.push(format!("X-Robots-Tag: {v} for that crawler"));
                }
            }
            if rules.to_ascii_lowercase().contains("nofollow") {
                nofollow.push(format!("X-Robots-Tag: {v}"));
            }
        }
    }
    if let Some(r) = &ctx.site.robots.robots {
        let path = path_and_query(ctx.page.final_url());
        for bot in ["googlebot", "*"] {
            if let Some(rule) = r.blocking_rule(bot, &path) {
                blockers.push(format!("robots.txt blocks it for {bot} ({rule})"));
                break;
            }
        }
    }
    let f = if blockers.is_empty() {
        good(
            "seo.indexable",
            Some("is-crawlable"),
            "Page can be indexed",
            "No robots meta tag, X-Robots-Tag header or robots.txt rule keeps this page out of search results.",
        )
    } else {
        issue(
            "seo.indexable",
            Some("is-crawlable"),
            "Page is blocked from indexing",
            format!(
                "Search engines are told not to index this page: {}.",
                list(&blockers, 3)
            ),
            "Remove the noindex directive (meta robots, X-Robots-Tag) and any robots.txt rule blocking the page, unless hiding it is intended.",
        )
    };
    push(out, Section::Seo, INDEXING, f);
    if !nofollow.is_empty() {
        push(
            out,
            Section::Seo,
            INDEXING,
            warning(
                "seo.robots.directives",
                None,
                "Restrictive robots directives",
                format!(
                    "Crawler-specific or link-following rules apply: {}.",
                    list(&nofollow, 3)
                ),
                "Check these directives are intended: nofollow stops search engines from following every link on the page.",
            ),
        );
    }
}

pub(super) fn url_hygiene(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
    let u = ctx.page.final_url();
    let path = u.path();
    let mut problems = Vec::new();
    if u.as_str().len() > 100 {
        problems.push(format!("it is {} characters long", u.as_str().len()));
    }
    if path.chars().any(|c| c.is_ascii_uppercase()) {
        problems.push("the path has capital letters".to_owned());
    }
    if path.contains('_') {
        problems.push("it uses underscores instead of hyphens".to_owned());
    }
    if path.contains("//") {
        problems.push("it has a double slash".to_owned());
    }
    if u.query_pairs().count() > 2 {
        problems.push(format!(
            "it has {} query parameters",
            u.query_pairs().count()
        ));
    }
    if path.contains('%') {
        problems.push("it contains encoded characters".to_owned());
    }
    let f = if problems.is_empty() {
        good(
            "seo.url",
            None,
            "Address is clean",
            format!("{} is short, lower-case and readable.", u.path()),
        )
    } else {
        warning(
            "seo.url",
            None,
            "Address could be cleaner",
            format!("{}: {}.", u.path(), problems.join("; ")),
            "Use short, lower-case, hyphenated paths without session or tracking parameters.",
        )
    };
    push(out, Section::Seo, INDEXING, f);
}
