//! The page model: everything the checks read from one HTML document, parsed once.
//!
//! `scraper::Html` is not `Send`, so parsing happens in one synchronous function that returns
//! this owned, `Send` structure; nothing holds the parsed tree across an `.await`.

use std::collections::{BTreeMap, HashMap, HashSet};

use ego_tree::{NodeId, NodeRef};
use scraper::{ElementRef, Html, Node, Selector};
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
    /// An inline event handler (an `on…` attribute) on the anchor or on an element around it:
    /// Lighthouse counts every listener of the anchor and of its ancestors; those a script adds
    /// are not in the HTML.
    pub event_handler: bool,
    /// Has an `id` (a fragment target).
    pub has_id: bool,
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

/// Where each element sits, gathered in one walk of the tree: asking every element for its
/// ancestors instead costs the nesting depth each time, so a deeply nested page (tens of
/// thousands of levels) took minutes.
#[derive(Default)]
struct Places {
    /// Elements inside a `<head>`.
    in_head: HashSet<NodeId>,
    /// The nearest enclosing `<a>` of each element inside one.
    link: HashMap<NodeId, NodeId>,
}

fn places(doc: &Html) -> Places {
    let mut out = Places::default();
    // (node, inside a head, nearest enclosing link): iterative, since nesting has no limit and
    // recursion would overflow the stack.
    let mut stack: Vec<(NodeRef<'_, Node>, bool, Option<NodeId>)> =
        vec![(doc.tree.root(), false, None)];
    while let Some((node, in_head, link)) = stack.pop() {
        if in_head {
            out.in_head.insert(node.id());
        }
        if let Some(l) = link {
            out.link.insert(node.id(), l);
        }
        let (child_in_head, child_link) = match node.value().as_element() {
            Some(e) => (
                in_head || e.name() == "head",
                if e.name() == "a" {
                    Some(node.id())
                } else {
                    link
                },
            ),
            None => (in_head, link),
        };
        for child in node.children() {
            stack.push((child, child_in_head, child_link));
        }
    }
    out
}

/// Parse `html` served at `base` into a [`PageDoc`].
pub fn parse(html: &str, base: &Url) -> PageDoc {
    // Nesting deeper than a browser builds is flattened first: html5ever's time grows with the
    // square of the depth.
    let html = &*crate::nesting::cap_nesting(html, crate::nesting::MAX_DEPTH);
    let doc = Html::parse_document(html);
    let places = places(&doc);
    let within_head = |e: &ElementRef<'_>| places.in_head.contains(&e.id());
    let mut page = PageDoc::default();

    // The doctype as the browser's parser sees it: comments and whitespace may come before it
    // (a licence comment often does), and one after the first element is ignored.
    let doctype = doc.tree.root().children().find_map(|n| match n.value() {
        Node::Doctype(d) => Some(d),
        _ => None,
    });
    page.has_doctype = doctype.is_some();
    page.has_html5_doctype = doctype.is_some_and(|d| {
        d.name().eq_ignore_ascii_case("html")
            && d.public_id().is_empty()
            && (d.system_id().is_empty() || d.system_id() == "about:legacy-compat")
    });

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

    let img_sel = sel("img");
    let mut image_only_links: HashMap<NodeId, bool> = HashMap::new();
    for img in doc.select(&img_sel) {
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
        // Once per link, not once per image: a link around thousands of images is read once.
        let sole_link_content = places.link.get(&img.id()).is_some_and(|&link| {
            *image_only_links.entry(link).or_insert_with(|| {
                doc.tree
                    .get(link)
                    .and_then(ElementRef::wrap)
                    .is_some_and(|a| element_text(&a).is_empty() && a.select(&img_sel).count() == 1)
            })
        });
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
        // The anchor, then the elements around it, innermost first.
        let lineage = || std::iter::once(a).chain(a.ancestors().filter_map(ElementRef::wrap));
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
            lang: lineage()
                .find_map(|e| e.value().attr("lang"))
                .map(|l| l.trim().to_owned()),
            event_handler: lineage().any(|e| {
                e.value()
                    .attrs()
                    .any(|(n, _)| n.len() > 2 && n.starts_with("on"))
            }),
            has_id: v.attr("id").is_some_and(|i| !i.is_empty()),
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

/// Append the visible text under `root`: depth-first, without recursion (nesting has no limit,
/// and a page nested a hundred thousand levels deep overflowed the stack of the worker).
fn collect_text(root: ElementRef<'_>, out: &mut String) {
    enum Step<'a> {
        Visit(NodeRef<'a, Node>),
        Space,
    }
    let mut todo: Vec<Step<'_>> = root.children().rev().map(Step::Visit).collect();
    while let Some(step) = todo.pop() {
        let child = match step {
            Step::Space => {
                out.push(' ');
                continue;
            }
            Step::Visit(child) => child,
        };
        if let Some(el) = ElementRef::wrap(child) {
            let n = el.value().name();
            if matches!(n, "script" | "style" | "noscript" | "template" | "svg") {
                continue;
            }
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
                todo.push(Step::Space);
            }
            todo.extend(child.children().rev().map(Step::Visit));
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
    fn reads_the_doctype_as_the_browser_parser_does() {
        let base = Url::parse("https://example.com/").expect("url");
        let doctype = |html: &str| {
            let p = parse(html, &base);
            (p.has_doctype, p.has_html5_doctype)
        };
        // A licence comment, a byte-order mark and whitespace may come first (a Jekyll theme's
        // pages start with one); Lighthouse passes such a page.
        assert_eq!(
            doctype(
                "\u{feff}<!-- MIT License\n* ...\n-->\n  <!DOCTYPE html><html><body>Hi</body></html>"
            ),
            (true, true)
        );
        assert_eq!(doctype("<!doctype HTML><p>Hi"), (true, true));
        assert_eq!(
            doctype(r#"<!DOCTYPE html SYSTEM "about:legacy-compat"><p>Hi"#),
            (true, true)
        );
        assert_eq!(
            doctype(
                r#"<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "http://www.w3.org/TR/html4/loose.dtd"><p>Hi"#
            ),
            (true, false)
        );
        // None at all, or one after the first element, which the parser ignores: quirks mode.
        assert_eq!(doctype("<html><body>Hi</body></html>"), (false, false));
        assert_eq!(doctype("<p>Hi</p><!DOCTYPE html>"), (false, false));
    }

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

    /// A page nested far deeper than any real one: reading its text once recursed per level and
    /// overflowed the stack of a tokio worker (2 MiB) at some ten thousand levels; this thread
    /// has a quarter of a MiB for six thousand levels.
    #[test]
    fn deeply_nested_pages_do_not_overflow_the_stack() {
        let depth = 3_000;
        let html = format!(
            "<html><head><title>x</title></head><body>{}deep text{}</body></html>",
            "<div><span>".repeat(depth),
            "</span></div>".repeat(depth)
        );
        let page = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || {
                let base = Url::parse("https://example.com/").expect("url");
                parse(&html, &base)
            })
            .expect("thread")
            .join()
            .expect("parsed without overflowing the stack");
        assert_eq!(page.text, "deep text");
        assert_eq!(page.word_count, 2);
    }

    /// Thousands of images in one link and scripts deep in the tree: each image once asked its
    /// link for its text and images, and each script walked up to the root (quadratic time).
    #[test]
    fn many_images_in_one_link_and_deep_scripts() {
        let base = Url::parse("https://example.com/").expect("url");
        let n = 20_000;
        let html = format!(
            "<head><script src=a.js></script></head><body>{}<a href=/x>{}</a><a href=/y><img src=only.png></a><script src=b.js></script></body>",
            "<div>".repeat(400),
            "<img src=i.png>".repeat(n)
        );
        let p = parse(&html, &base);
        assert_eq!(p.images.len(), n + 1);
        assert!(p.images[..n].iter().all(|i| !i.sole_link_content));
        assert!(p.images[n].sole_link_content);
        let heads: Vec<bool> = p.scripts.iter().map(|s| s.in_head).collect();
        assert_eq!(heads, vec![true, false]);
    }

    #[test]
    fn non_ascii_pages() {
        let base = Url::parse("https://bücher.example/straße/").expect("url");
        let html = "<!DOCTYPE html><html lang=\"ar\" dir=\"rtl\"><head>\
            <meta http-equiv=\"Content-Type\" content=\"text/html; charset=UTF-8\">\
            <title>  مرحبا   بالعالم — テスト 🚀 </title></head><body><h2>Привет,\u{a0}мир</h2>\
            <a href=\"ページ?q=ü#frag\">日本語　リンク</a></body></html>";
        let p = parse(html, &base);
        assert_eq!(p.meta_charset.as_deref(), Some("utf-8"));
        assert_eq!(p.titles, vec!["مرحبا بالعالم — テスト 🚀"]);
        assert_eq!(p.headings, vec![(2, "Привет, мир".to_owned())]);
        assert_eq!(
            p.anchors[0].url.as_ref().map(Url::as_str),
            Some(
                "https://xn--bcher-kva.example/stra%C3%9Fe/%E3%83%9A%E3%83%BC%E3%82%B8?q=%C3%BC#frag"
            )
        );
        assert_eq!(p.anchors[0].text, "日本語 リンク");
        assert_eq!(p.word_count, 4);
    }

    proptest::proptest! {
        /// Whitespace collapsing: no leading, trailing or doubled spaces, the same words in the
        /// same order, and collapsing again changes nothing.
        #[test]
        fn collapse_keeps_the_words(s in "\\PC{0,200}|[ \t\n\u{a0}\u{3000}a-zé日]{0,60}") {
            let c = collapse(&s);
            proptest::prop_assert!(!c.starts_with(' ') && !c.ends_with(' ') && !c.contains("  "));
            proptest::prop_assert_eq!(c.split(' ').filter(|w| !w.is_empty()).collect::<Vec<_>>(), s.split_whitespace().collect::<Vec<_>>());
            proptest::prop_assert_eq!(collapse(&c), c.clone());
        }

        /// Any text parses; the visible text is collapsed and its words are counted.
        #[test]
        fn any_text_parses(body in "\\PC{0,300}", tag in "(title|h1|a|p|style|script|img|meta)") {
            let base = Url::parse("https://bücher.example/straße/").expect("url");
            let html = format!("<{tag} href=\"{body}\" content=\"{body}\">{body}</{tag}><p>{body}</p>");
            let p = parse(&html, &base);
            proptest::prop_assert!(!p.text.contains("  ") && p.text.trim() == p.text);
            proptest::prop_assert_eq!(p.word_count, p.text.split_whitespace().count());
            for t in &p.titles {
                proptest::prop_assert_eq!(t.clone(), collapse(t));
            }
        }
    }
}
