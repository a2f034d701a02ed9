//! Links: descriptive text, crawlable anchors and internal linking.

use super::{LINKS, Section, push};
use crate::checks::{PageCtx, Tagged, good, issue, list, warning};
use crate::crawl::same_site;

/// Generic link texts (Lighthouse `link-text` list, in several languages).
const GENERIC_LINK_TEXT: &[&str] = &[
    "click here",
    "click this",
    "go",
    "here",
    "information",
    "learn more",
    "more",
    "more info",
    "more information",
    "right here",
    "read more",
    "see more",
    "start",
    "this",
    "link",
    // German
    "hier klicken",
    "hier",
    "mehr",
    "mehr erfahren",
    "weiterlesen",
    "klicken sie hier",
    "mehr infos",
    // French
    "cliquez ici",
    "ici",
    "plus",
    "en savoir plus",
    "lire la suite",
    "voir plus",
    // Spanish
    "haga clic aquí",
    "haz clic aquí",
    "aquí",
    "más",
    "más información",
    "leer más",
    "ver más",
    // Italian
    "clicca qui",
    "qui",
    "altro",
    "leggi di più",
    "maggiori informazioni",
    "scopri di più",
    // Portuguese
    "clique aqui",
    "aqui",
    "saiba mais",
    "leia mais",
    "veja mais",
    // Dutch
    "klik hier",
    "meer",
    "lees meer",
    "meer info",
    "meer informatie",
];

pub(super) fn link_text(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
    let page = ctx.page.final_url();
    let generic: Vec<String> = ctx
        .doc
        .anchors
        .iter()
        .filter(|a| {
            let Some(u) = &a.url else { return false };
            // Lighthouse skips same-page fragment links and javascript: links.
            let mut same = u.clone();
            same.set_fragment(None);
            let mut p = page.clone();
            p.set_fragment(None);
            !(u.fragment().is_some() && same == p)
        })
        .filter(|a| {
            let t = a
                .text
                .trim()
                .trim_end_matches(['.', '!', '…', '»', '›', '→'])
                .trim()
                .to_lowercase();
            GENERIC_LINK_TEXT.contains(&t.as_str())
        })
        .map(|a| format!("\"{}\"", a.text))
        .collect();
    let f = if generic.is_empty() {
        good(
            "seo.link-text",
            Some("link-text"),
            "Links have descriptive text",
            "No link uses a generic text such as \"click here\" or \"read more\".",
        )
    } else {
        issue(
            "seo.link-text",
            Some("link-text"),
            "Links without descriptive text",
            format!(
                "{} links use generic text: {}.",
                generic.len(),
                list(&generic, 5)
            ),
            "Say where each link goes (\"pricing for teams\" rather than \"click here\"); search engines use link text to understand the target.",
        )
    };
    push(out, Section::Seo, LINKS, f);
}

/// Lighthouse `crawlable-anchors`.
pub(super) fn crawlable_anchors(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
    let failing: Vec<String> = ctx
        .doc
        .anchors
        .iter()
        .filter(|a| {
            if a.role.as_deref().is_some_and(|r| !r.trim().is_empty()) {
                return false;
            }
            let href: String = a
                .href
                .as_deref()
                .unwrap_or("")
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect();
            let lower = href.to_ascii_lowercase();
            if lower.starts_with("file:") {
                return true;
            }
            if a.name.as_deref().is_some_and(|n| !n.trim().is_empty()) {
                return false;
            }
            if a.href.is_none() {
                // An anchor without href and without a name is a placeholder or a script hook.
                return true;
            }
            if lower.starts_with("javascript:") {
                return true;
            }
            if lower.is_empty() {
                return false;
            }
            ctx.page.final_url().join(&href).is_err()
        })
        .map(|a| match &a.href {
            Some(h) => format!("<a href=\"{h}\">{}</a>", a.text),
            None => format!("<a>{}</a>", a.text),
        })
        .collect();
    let f = if failing.is_empty() {
        good(
            "seo.crawlable-anchors",
            Some("crawlable-anchors"),
            "Links are crawlable",
            "Every link has an href search engines can follow.",
        )
    } else {
        issue(
            "seo.crawlable-anchors",
            Some("crawlable-anchors"),
            "Links search engines cannot follow",
            format!(
                "{} anchors have no resolvable href: {}.",
                failing.len(),
                list(&failing, 4)
            ),
            "Give every link a real href (use <button> for actions); search engines do not run javascript: links or click handlers.",
        )
    };
    push(out, Section::Seo, LINKS, f);
}

pub(super) fn internal_links(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
    let page = ctx.page.final_url();
    let mut targets: Vec<String> = ctx
        .doc
        .anchors
        .iter()
        .filter_map(|a| a.url.as_ref())
        .filter(|u| same_site(page, u))
        .map(|u| {
            let mut x = u.clone();
            x.set_fragment(None);
            x.to_string()
        })
        .filter(|u| u != page.as_str())
        .collect();
    targets.sort();
    targets.dedup();
    let n = targets.len();
    let f = if n >= 3 {
        good(
            "seo.internal-links",
            None,
            "Page links to other pages of the site",
            format!("{n} distinct internal links (good: at least 3)."),
        )
    } else {
        warning(
            "seo.internal-links",
            None,
            "Few internal links",
            format!(
                "The page links to {n} other pages of the site; 3-5 relevant internal links help visitors and search engines find related content."
            ),
            "Link to related pages with descriptive anchor text.",
        )
    };
    push(out, Section::Seo, LINKS, f);
}
