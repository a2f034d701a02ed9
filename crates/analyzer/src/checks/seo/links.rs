//! Links: descriptive text, crawlable anchors and internal linking.

use super::{LINKS, Section, push};
use crate::checks::{PageCtx, Tagged, good, issue, list, warning};
use crate::crawl::same_site;

/// The link texts Lighthouse 12.8.2's `link-text` audit calls non-descriptive, by language. A
/// link whose language is known is matched against its language's list only (a language
/// without a list passes); a link of unknown language against every list.
const LIGHTHOUSE_LINK_TEXT: &[(&str, &[&str])] = &[
    (
        "en",
        &[
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
        ],
    ),
    (
        "ja",
        &[
            "ここをクリック",
            "こちらをクリック",
            "リンク",
            "続きを読む",
            "続く",
            "全文表示",
        ],
    ),
    (
        "es",
        &[
            "click aquí",
            "click aqui",
            "clicka aquí",
            "clicka aqui",
            "pincha aquí",
            "pincha aqui",
            "aquí",
            "aqui",
            "más",
            "mas",
            "más información",
            "más informacion",
            "mas información",
            "mas informacion",
            "este",
            "enlace",
            "este enlace",
            "empezar",
        ],
    ),
    (
        "pt",
        &[
            "clique aqui",
            "ir",
            "mais informação",
            "mais informações",
            "mais",
            "veja mais",
        ],
    ),
    (
        "ko",
        &[
            "여기",
            "여기를 클릭",
            "클릭",
            "링크",
            "자세히",
            "자세히 보기",
            "계속",
            "이동",
            "전체 보기",
        ],
    ),
    (
        "sv",
        &[
            "här",
            "klicka här",
            "läs mer",
            "mer",
            "mer info",
            "mer information",
        ],
    ),
    (
        "de",
        &[
            "klicke hier",
            "hier klicken",
            "hier",
            "mehr",
            "siehe",
            "dies",
            "das",
            "weiterlesen",
        ],
    ),
    (
        "ta",
        &[
            "அடுத்த பக்கம்",
            "மறுபக்கம்",
            "முந்தைய பக்கம்",
            "முன்பக்கம்",
            "மேலும் அறிக",
            "மேலும் தகவலுக்கு",
            "மேலும் தரவுகளுக்கு",
            "தயவுசெய்து இங்கே அழுத்தவும்",
            "இங்கே கிளிக் செய்யவும்",
        ],
    ),
    (
        "fa",
        &[
            "اطلاعات بیشتر",
            "اطلاعات",
            "این",
            "اینجا بزنید",
            "اینجا کلیک کنید",
            "اینجا",
            "برو",
            "بیشتر بخوانید",
            "بیشتر بدانید",
            "بیشتر",
            "شروع",
        ],
    ),
];

/// Generic link texts our own, broader rule adds to Lighthouse's lists (which it applies
/// whatever the link's language, ignoring trailing arrows and dots).
const GENERIC_LINK_TEXT: &[&str] = &[
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

/// Lighthouse's verdict on one link's text: `text` trimmed and lower-cased, `lang` the link's
/// language.
fn lighthouse_generic(text: &str, lang: Option<&str>) -> bool {
    let t = text.trim().to_lowercase();
    match lang.map(|l| l.split('-').next().unwrap_or("").to_ascii_lowercase()) {
        Some(l) => LIGHTHOUSE_LINK_TEXT
            .iter()
            .find(|(code, _)| *code == l)
            .is_some_and(|(_, list)| list.contains(&t.as_str())),
        None => LIGHTHOUSE_LINK_TEXT
            .iter()
            .any(|(_, list)| list.contains(&t.as_str())),
    }
}

/// Our broader verdict on one link's text.
fn vague(text: &str) -> bool {
    let t = text
        .trim()
        .trim_end_matches(['.', '!', '…', '»', '›', '→'])
        .trim()
        .to_lowercase();
    lighthouse_generic(&t, None) || GENERIC_LINK_TEXT.contains(&t.as_str())
}

fn uncrawlable(a: &crate::page::Anchor, page: &url::Url) -> bool {
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
    if href.starts_with("mailto:") {
        return false;
    }
    // An anchor with an id and no (or an empty) href is a fragment target, not a link.
    if href.is_empty() && a.has_id {
        return false;
    }
    if href.starts_with("file:") {
        return true;
    }
    if a.name.as_deref().is_some_and(|n| !n.trim().is_empty()) {
        return false;
    }
    if a.href.is_none() {
        return a.event_handler || a.link_attributes;
    }
    // Lighthouse's pattern: `javascript:void(0)`, parentheses optional, anywhere in the href.
    if href.contains("javascript:void(0") || href.contains("javascript:void0") {
        return true;
    }
    !href.is_empty() && page.join(&href).is_err()
}

/// Lighthouse `link-text`: links that lead somewhere else (not `nofollow`, not `javascript:`
/// or `mailto:`, not this page itself) whose whole text is a non-descriptive phrase of their
/// language. Texts only our broader list calls vague are our own warning.
pub(super) fn link_text(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
    let mut page = ctx.page.final_url().clone();
    page.set_fragment(None);
    let mut generic = Vec::new();
    let mut vague_only = Vec::new();
    for a in &ctx.doc.anchors {
        let Some(u) = &a.url else { continue };
        if a.rel.iter().any(|r| r == "nofollow") || u.scheme() == "mailto" {
            continue;
        }
        let mut target = u.clone();
        target.set_fragment(None);
        if target == page {
            continue;
        }
        let shown = format!("\"{}\"", a.text);
        if lighthouse_generic(&a.text, a.lang.as_deref()) {
            generic.push(shown);
        } else if vague(&a.text) {
            vague_only.push(shown);
        }
    }
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
    if !vague_only.is_empty() {
        push(
            out,
            Section::Seo,
            LINKS,
            warning(
                "seo.link-text.vague",
                None,
                "Vague link texts",
                format!(
                    "{} links say little about where they lead: {}.",
                    vague_only.len(),
                    list(&vague_only, 5)
                ),
                "Name the destination in the link text (\"read the pricing guide\" rather than \"read more »\").",
            ),
        );
    }
}

/// Lighthouse `crawlable-anchors`, rule for rule: an anchor with a role, a `mailto:` href or an
/// empty href with an id passes; a `file:` href fails; a named anchor passes; an anchor without
/// href fails only when it or an element around it has an event listener (Lighthouse sees
/// script listeners too, we see inline `on…` handlers) or it has attributes that need an href;
/// `javascript:void(0)` fails; any other href fails only when it cannot be resolved.
pub(super) fn crawlable_anchors(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
    let failing: Vec<String> = ctx
        .doc
        .anchors
        .iter()
        .filter(|a| uncrawlable(a, ctx.page.final_url()))
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
