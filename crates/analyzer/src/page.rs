//! The page model: everything the checks read from one HTML document, parsed once.
//!
//! `scraper::Html` is not `Send`, so parsing happens in one synchronous function that returns
//! this owned, `Send` structure; nothing holds the parsed tree across an `.await`.

use std::collections::BTreeMap;

use scraper::{ElementRef, Html, Selector};
use url::Url;

/// An `<img>` element.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    /// The `src` attribute, resolved against the page when possible.
    pub src: String,
    /// The `alt` attribute, `None` when absent.
    pub alt: Option<String>,
    /// `role="presentation"`/`none` or `aria-hidden="true"`: decorative by declaration.
    pub decorative: bool,
    /// A non-empty `aria-label`, `aria-labelledby` or `title` names it instead of alt.
    pub has_other_name: bool,
    /// The image is the only content of a link (its alt is the link's name).
    pub sole_link_content: bool,
}

/// An `<a>` element.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Anchor {
    /// Raw `href`, `None` when absent.
    pub href: Option<String>,
    /// Resolved absolute URL, when `href` parses.
    pub url: Option<Url>,
    /// Visible text, whitespace collapsed.
    pub text: String,
    /// `rel` tokens, lower-case.
    pub rel: Vec<String>,
    /// `name` attribute.
    pub name: Option<String>,
    /// `role` attribute.
    pub role: Option<String>,
    /// Has an `aria-label` or `title`, or an image with alt text, naming it.
    pub has_accessible_name: bool,
    /// `lang` of the element or of its nearest ancestor that has one.
    pub lang: Option<String>,
    /// Has an inline click handler (`onclick`).
    pub onclick: bool,
    /// Has an attribute that only means something with an href (`target`, `download`, `ping`,
    /// `rel`, `hreflang`, `type`, `referrerpolicy`).
    pub link_attributes: bool,
}

/// A `<script>` element.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Script {
    /// Resolved `src`, `None` for inline scripts.
    pub src: Option<String>,
    /// Inside `<head>`.
    pub in_head: bool,
    /// `async`, `defer` or `type=module` (none of which block rendering).
    pub non_blocking: bool,
    /// The script is data, not code (`application/ld+json` and friends).
    pub is_data: bool,
}

/// A `<link rel=stylesheet>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stylesheet {
    /// Resolved `href`.
    pub href: String,
    /// Inside `<head>`.
    pub in_head: bool,
    /// A `media` query that does not match screens by default (print, etc.): not blocking.
    pub non_blocking_media: bool,
}

/// Everything the checks read from one HTML document.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageDoc {
    /// The document starts with `<!DOCTYPE html>`.
    pub has_html5_doctype: bool,
    /// Any doctype at all.
    pub has_doctype: bool,
    /// Declared charset from `<meta charset>` or `http-equiv=content-type`.
    pub meta_charset: Option<String>,
    /// Byte offset of the charset declaration (must be within the first 1024 bytes).
    pub meta_charset_offset: Option<usize>,
    /// `<html lang>`.
    pub html_lang: Option<String>,
    /// Text of every `<title>` in the head.
    pub titles: Vec<String>,
    /// Content of every `<meta name=description>`.
    pub meta_descriptions: Vec<String>,
    /// (lower-case name, content) of `<meta name=robots>` and bot-specific robots metas.
    pub meta_robots: Vec<(String, String)>,
    /// `<meta name=viewport>` content.
    pub viewport: Option<String>,
    /// Raw `href`s of `<link rel=canonical>`.
    pub canonicals: Vec<String>,
    /// (hreflang, raw href) of `<link rel=alternate hreflang>`.
    pub hreflangs: Vec<(String, String)>,
    /// (level, text) of every heading h1-h6 in document order.
    pub headings: Vec<(u8, String)>,
    /// Open Graph properties (`og:*`), first value of each.
    pub open_graph: BTreeMap<String, String>,
    /// Twitter card properties (`twitter:*`).
    pub twitter: BTreeMap<String, String>,
    /// Raw text of every `application/ld+json` script.
    pub json_ld: Vec<String>,
    /// Text of every inline `<style>` element and `style` attribute.
    pub inline_css: Vec<String>,
    /// schema.org types declared as microdata (`itemtype`) or RDFa (`typeof`).
    pub microdata_types: Vec<String>,
    /// Images.
    pub images: Vec<Image>,
    /// Links.
    pub anchors: Vec<Anchor>,
    /// Scripts.
    pub scripts: Vec<Script>,
    /// Stylesheets.
    pub stylesheets: Vec<Stylesheet>,
    /// Resolved favicon `href`s (`rel` containing `icon`).
    pub icons: Vec<String>,
    /// `<meta name=generator>` contents.
    pub generators: Vec<String>,
    /// Every subresource URL the page loads (img, script, stylesheet, iframe, media, source).
    pub subresources: Vec<String>,
    /// Visible body text, whitespace collapsed.
    pub text: String,
    /// Words of the visible text.
    pub word_count: usize,
    /// Every `<a href>` pointing at a form such as `<form action>`; only for mixed content.
    pub form_actions: Vec<String>,
}

fn sel(s: &str) -> Selector {
    // Every selector here is a constant; a typo is a programming error every test would catch.
    Selector::parse(s).expect("constant selector parses")
}

fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn element_text(e: &ElementRef<'_>) -> String {
    collapse(&e.text().collect::<String>())
}

fn resolve(base: &Url, raw: &str) -> Option<Url> {
    base.join(raw.trim()).ok()
}

fn within_head(e: &ElementRef<'_>) -> bool {
    e.ancestors()
        .filter_map(ElementRef::wrap)
        .any(|a| a.value().name() == "head")
}

/// Parse `html` served at `base` into a [`PageDoc`].
pub fn parse(html: &str, base: &Url) -> PageDoc {
    let doc = Html::parse_document(html);
    let mut page = PageDoc::default();

    let start = html.trim_start_matches('\u{feff}').trim_start();
    let lower_start: String = start
        .chars()
        .take(40)
        .collect::<String>()
        .to_ascii_lowercase();
    page.has_doctype = lower_start.starts_with("<!doctype");
    page.has_html5_doctype = {
        let compact: String = lower_start.split_whitespace().collect::<Vec<_>>().join(" ");
        compact.starts_with("<!doctype html>")
    };

    // A <base href> changes how relative URLs resolve.
    let base = doc
        .select(&sel("base[href]"))
        .next()
        .and_then(|b| b.value().attr("href"))
        .and_then(|h| resolve(base, h))
        .unwrap_or_else(|| base.clone());

    if let Some(h) = doc.select(&sel("html")).next() {
        page.html_lang = h.value().attr("lang").map(|s| s.trim().to_owned());
    }
    page.titles = doc
        .select(&sel("head title, title"))
        .map(|t| element_text(&t))
        .collect();
    page.titles.dedup();

    for m in doc.select(&sel("meta")) {
        let v = m.value();
        let content = v.attr("content").map(str::trim).unwrap_or("").to_owned();
        if let Some(cs) = v.attr("charset") {
            page.meta_charset = Some(cs.trim().to_ascii_lowercase());
        }
        if let Some(eq) = v.attr("http-equiv")
            && eq.eq_ignore_ascii_case("content-type")
            && let Some(idx) = content.to_ascii_lowercase().find("charset=")
        {
            page.meta_charset = Some(content[idx + 8..].trim().to_ascii_lowercase());
        }
        if let Some(name) = v.attr("name") {
            let name = name.trim().to_ascii_lowercase();
            match name.as_str() {
                "description" => page.meta_descriptions.push(content.clone()),
                "viewport" => page.viewport = Some(content.clone()),
                "generator" => page.generators.push(content.clone()),
                "robots" | "googlebot" | "bingbot" | "googlebot-news" | "sitelens" => {
                    page.meta_robots.push((name.clone(), content.clone()))
                }
                n if n.starts_with("twitter:") => {
                    page.twitter.entry(n.to_owned()).or_insert(content.clone());
                }
                _ => {}
            }
        }
        if let Some(prop) = v.attr("property") {
            let prop = prop.trim().to_ascii_lowercase();
            if prop.starts_with("og:") {
                page.open_graph.entry(prop).or_insert(content.clone());
            } else if prop.starts_with("twitter:") {
                page.twitter.entry(prop).or_insert(content.clone());
            }
        }
    }
    let lower_html = html.to_ascii_lowercase();
    page.meta_charset_offset = lower_html
        .find("<meta charset")
        .or_else(|| lower_html.find("charset="));

    for l in doc.select(&sel("link[rel]")) {
        let v = l.value();
        let rel: Vec<String> = v
            .attr("rel")
            .unwrap_or("")
            .split_whitespace()
            .map(str::to_ascii_lowercase)
            .collect();
        let href = v.attr("href").unwrap_or("").trim().to_owned();
        // Search engines (and Lighthouse) read canonical and hreflang links only in the head.
        let head = within_head(&l);
        if head && rel.iter().any(|r| r == "canonical") {
            page.canonicals.push(href.clone());
        }
        if head
            && rel.iter().any(|r| r == "alternate")
            && let Some(lang) = v.attr("hreflang")
        {
            page.hreflangs.push((lang.trim().to_owned(), href.clone()));
        }
        if rel.iter().any(|r| r == "icon" || r == "apple-touch-icon")
            && let Some(u) = resolve(&base, &href)
        {
            page.icons.push(u.to_string());
        }
        if rel.iter().any(|r| r == "stylesheet")
            && let Some(u) = resolve(&base, &href)
        {
            let media = v.attr("media").unwrap_or("").trim().to_ascii_lowercase();
            let non_blocking_media =
                !(media.is_empty() || media == "all" || media.contains("screen"));
            page.stylesheets.push(Stylesheet {
                href: u.to_string(),
                in_head: within_head(&l),
                non_blocking_media,
            });
            page.subresources.push(u.to_string());
        }
    }

    page.headings = doc
        .select(&sel("h1, h2, h3, h4, h5, h6"))
        .map(|h| {
            let level = h.value().name()[1..].parse::<u8>().unwrap_or(6);
            (level, element_text(&h))
        })
        .collect();

    for s in doc.select(&sel("script")) {
        let v = s.value();
        let ty = v.attr("type").unwrap_or("").trim().to_ascii_lowercase();
        if ty == "application/ld+json" {
            page.json_ld.push(s.text().collect());
        }
        let is_data = !(ty.is_empty()
            || ty == "module"
            || ty.contains("javascript")
            || ty.contains("ecmascript"));
        let src = v
            .attr("src")
            .and_then(|h| resolve(&base, h))
            .map(|u| u.to_string());
        if let Some(src) = &src {
            page.subresources.push(src.clone());
        }
        page.scripts.push(Script {
            src,
            in_head: within_head(&s),
            non_blocking: v.attr("async").is_some() || v.attr("defer").is_some() || ty == "module",
            is_data,
        });
    }

    for st in doc.select(&sel("style")) {
        page.inline_css.push(st.text().collect());
    }
    for el in doc.select(&sel("[style]")) {
        if let Some(css) = el.value().attr("style") {
            page.inline_css.push(css.to_owned());
        }
    }

    for el in doc.select(&sel("[itemtype], [typeof]")) {
        let v = el.value();
        let raw = v
            .attr("itemtype")
            .or_else(|| v.attr("typeof"))
            .unwrap_or("");
        for t in raw.split_whitespace() {
            let name = t.rsplit(['/', ':']).next().unwrap_or(t).to_owned();
            if !name.is_empty() && !page.microdata_types.contains(&name) {
                page.microdata_types.push(name);
            }
        }
    }

    for img in doc.select(&sel("img")) {
        let v = img.value();
        let src_raw = v.attr("src").unwrap_or("").trim();
        let src = resolve(&base, src_raw)
            .map(|u| u.to_string())
            .unwrap_or_else(|| src_raw.to_owned());
        if !src_raw.is_empty() && !src_raw.starts_with("data:") {
            page.subresources.push(src.clone());
        }
        let role = v.attr("role").unwrap_or("").trim().to_ascii_lowercase();
        let decorative = role == "presentation"
            || role == "none"
            || v.attr("aria-hidden").map(str::trim) == Some("true");
        let has_other_name = ["aria-label", "aria-labelledby", "title"]
            .iter()
            .any(|a| v.attr(a).is_some_and(|x| !x.trim().is_empty()));
        let sole_link_content = img
            .ancestors()
            .filter_map(ElementRef::wrap)
            .find(|a| a.value().name() == "a")
            .is_some_and(|a| element_text(&a).is_empty() && a.select(&sel("img")).count() == 1);
        page.images.push(Image {
            src,
            alt: v.attr("alt").map(|a| a.trim().to_owned()),
            decorative,
            has_other_name,
            sole_link_content,
        });
    }

    for el in doc.select(&sel(
        "iframe[src], video[src], audio[src], source[src], embed[src]",
    )) {
        if let Some(u) = el.value().attr("src").and_then(|h| resolve(&base, h)) {
            page.subresources.push(u.to_string());
        }
    }
    for f in doc.select(&sel("form[action]")) {
        if let Some(u) = f.value().attr("action").and_then(|h| resolve(&base, h)) {
            page.form_actions.push(u.to_string());
        }
    }

    for a in doc.select(&sel("a")) {
        let v = a.value();
        let href = v.attr("href").map(|h| h.to_owned());
        let url = href.as_deref().and_then(|h| {
            let h = h.trim();
            if h.is_empty() || h.to_ascii_lowercase().starts_with("javascript:") {
                None
            } else {
                resolve(&base, h)
            }
        });
        let text = element_text(&a);
        let img_alt = a
            .select(&sel("img[alt]"))
            .any(|i| i.value().attr("alt").is_some_and(|x| !x.trim().is_empty()));
        let has_accessible_name = img_alt
            || ["aria-label", "title", "aria-labelledby"]
                .iter()
                .any(|n| v.attr(n).is_some_and(|x| !x.trim().is_empty()));
        page.anchors.push(Anchor {
            href,
            url,
            text,
            rel: v
                .attr("rel")
                .unwrap_or("")
                .split_whitespace()
                .map(str::to_ascii_lowercase)
                .collect(),
            name: v.attr("name").map(str::to_owned),
            role: v.attr("role").map(str::to_owned),
            has_accessible_name,
            lang: std::iter::once(a)
                .chain(a.ancestors().filter_map(ElementRef::wrap))
                .find_map(|e| e.value().attr("lang"))
                .map(|l| l.trim().to_owned()),
            onclick: v.attr("onclick").is_some(),
            link_attributes: [
                "target",
                "download",
                "ping",
                "rel",
                "hreflang",
                "type",
                "referrerpolicy",
            ]
            .iter()
            .any(|n| v.attr(n).is_some()),
        });
    }

    // Visible text: the body without scripts, styles and templates.
    if let Some(body) = doc.select(&sel("body")).next() {
        let mut out = String::new();
        collect_text(body, &mut out);
        page.text = collapse(&out);
    }
    page.word_count = page.text.split_whitespace().count();
    page
}

fn collect_text(e: ElementRef<'_>, out: &mut String) {
    for child in e.children() {
        if let Some(el) = ElementRef::wrap(child) {
            let n = el.value().name();
            if matches!(n, "script" | "style" | "noscript" | "template" | "svg") {
                continue;
            }
            collect_text(el, out);
            if matches!(
                n,
                "p" | "div"
                    | "li"
                    | "h1"
                    | "h2"
                    | "h3"
                    | "h4"
                    | "h5"
                    | "h6"
                    | "br"
                    | "td"
                    | "section"
            ) {
                out.push(' ');
            }
        } else if let Some(t) = child.value().as_text() {
            out.push_str(t);
            out.push(' ');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_parts_checks_need() {
        let base = Url::parse("https://example.com/a/b").expect("url");
        let html = r#"<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
            <title> Hello   world </title><meta name="description" content="Desc">
            <link rel="canonical" href="https://example.com/a/b">
            <meta property="og:title" content="OG"><script src="/x.js"></script>
            </head><body><h1>Top</h1><p>Some words here.</p>
            <a href="c">Read more</a><img src="i.png"><script>var hidden = 1;</script></body></html>"#;
        let p = parse(html, &base);
        assert!(p.has_html5_doctype);
        assert_eq!(p.html_lang.as_deref(), Some("en"));
        assert_eq!(p.titles, vec!["Hello world"]);
        assert_eq!(p.meta_descriptions, vec!["Desc"]);
        assert_eq!(p.open_graph.get("og:title").map(String::as_str), Some("OG"));
        assert_eq!(p.headings, vec![(1, "Top".to_owned())]);
        assert_eq!(
            p.anchors[0].url.as_ref().map(Url::as_str),
            Some("https://example.com/a/c")
        );
        assert_eq!(p.images[0].alt, None);
        assert!(p.scripts[0].in_head && !p.scripts[0].non_blocking);
        assert!(!p.text.contains("hidden"));
        assert_eq!(p.word_count, 6);
        let m = parse(
            r#"<div itemscope itemtype="https://schema.org/Product"><span itemprop="offers" itemscope itemtype="http://schema.org/Offer"></span></div><p vocab="https://schema.org/" typeof="Person"></p>"#,
            &base,
        );
        assert_eq!(m.microdata_types, vec!["Product", "Offer", "Person"]);
    }
}
