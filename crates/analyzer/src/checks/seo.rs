//! Page-level SEO checks (and the design/accessibility checks an HTTP fetch can decide).

use domain::report::FindingType;
use url::Url;

use super::{PageCtx, Section, Tagged, chars, good, issue, list, warning};
use crate::crawl::{path_and_query, same_site};

const META: &str = "Meta Tags";
const HEADINGS: &str = "Headings";
const INDEXING: &str = "Crawling & Indexing";
const SOCIAL: &str = "Social & Structured Data";
const IMAGES: &str = "Images";
const LINKS: &str = "Links";
const INTL: &str = "International";
const MOBILE: &str = "Mobile & Accessibility";

/// Good title length (docs/PRODUCT.md §9.7): 30-60 characters.
pub fn title_range() -> (usize, usize) {
    super::good_range("title")
}
/// Good meta description length (docs/PRODUCT.md §9.7): 120-160 characters.
pub fn description_range() -> (usize, usize) {
    super::good_range("description")
}
/// Longest useful alt text (docs/PRODUCT.md §9.7): 125 characters.
pub fn alt_max() -> usize {
    super::good_range("altText").1
}

fn push(out: &mut Vec<Tagged>, section: Section, group: &'static str, f: domain::report::Finding) {
    out.push(Tagged {
        section,
        group,
        finding: f,
    });
}

/// Run the page's SEO checks.
pub fn run(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
    title(ctx, out);
    description(ctx, out);
    h1(ctx, out);
    heading_hierarchy(ctx, out);
    canonical(ctx, out);
    indexable(ctx, out);
    hreflang(ctx, out);
    html_lang(ctx, out);
    viewport(ctx, out);
    open_graph(ctx, out);
    structured_data(ctx, out);
    image_alt(ctx, out);
    link_text(ctx, out);
    crawlable_anchors(ctx, out);
    internal_links(ctx, out);
    url_hygiene(ctx, out);
    favicon(ctx, out);
}

fn title(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
    let t = ctx.doc.titles.first().map(String::as_str).unwrap_or("");
    if t.trim().is_empty() {
        push(
            out,
            Section::Seo,
            META,
            issue(
                "seo.title",
                Some("document-title"),
                "Missing page title",
                "The page has no <title> element, or it is empty. Search engines show the title as the headline of the result.",
                "Add a unique <title> of 30-60 characters that names the page's topic and the brand.",
            ),
        );
        return;
    }
    push(
        out,
        Section::Seo,
        META,
        good(
            "seo.title",
            Some("document-title"),
            "Page has a title",
            format!("The title is \"{t}\"."),
        ),
    );
    let n = chars(t);
    let (lo, hi) = title_range();
    let f = if (lo..=hi).contains(&n) {
        good(
            "seo.title.length",
            None,
            "Title length is good",
            format!("The title has {n} characters (good: {lo}-{hi})."),
        )
    } else if n < lo {
        warning(
            "seo.title.length",
            None,
            "Title is too short",
            format!(
                "The title has {n} characters; {lo}-{hi} uses the space search results give it."
            ),
            "Lengthen the title with the page's main keyword and a benefit, to 30-60 characters.",
        )
    } else {
        warning(
            "seo.title.length",
            None,
            "Title is too long",
            format!("The title has {n} characters; search results cut titles after about {hi}."),
            "Shorten the title to at most 60 characters, keeping the main keyword first.",
        )
    };
    push(out, Section::Seo, META, f);
    if ctx.doc.titles.len() > 1 {
        push(
            out,
            Section::Seo,
            META,
            warning(
                "seo.title.multiple",
                None,
                "Several title elements",
                format!(
                    "The page has {} <title> elements; browsers and search engines use only the first.",
                    ctx.doc.titles.len()
                ),
                "Keep exactly one <title> element in the head.",
            ),
        );
    }
}

fn description(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
    let d = ctx
        .doc
        .meta_descriptions
        .first()
        .map(String::as_str)
        .unwrap_or("");
    if d.trim().is_empty() {
        push(
            out,
            Section::Seo,
            META,
            issue(
                "seo.description",
                Some("meta-description"),
                "Missing meta description",
                "The page has no meta description, or it is empty. Search engines then pick a snippet themselves, often a poor one.",
                "Add <meta name=\"description\" content=\"…\"> with a 120-160 character summary that invites the click.",
            ),
        );
        return;
    }
    push(
        out,
        Section::Seo,
        META,
        good(
            "seo.description",
            Some("meta-description"),
            "Page has a meta description",
            format!("The meta description is \"{d}\"."),
        ),
    );
    let n = chars(d);
    let (lo, hi) = description_range();
    let f = if (lo..=hi).contains(&n) {
        good(
            "seo.description.length",
            None,
            "Meta description length is good",
            format!("The description has {n} characters (good: {lo}-{hi})."),
        )
    } else if n < lo {
        warning(
            "seo.description.length",
            None,
            "Meta description is too short",
            format!("The description has {n} characters; {lo}-{hi} fills the snippet."),
            "Expand the description to 120-160 characters: what the page offers and why to click.",
        )
    } else {
        warning(
            "seo.description.length",
            None,
            "Meta description is too long",
            format!("The description has {n} characters; snippets are cut after about {hi}."),
            "Shorten the description to at most 160 characters, most important words first.",
        )
    };
    push(out, Section::Seo, META, f);
    if ctx.doc.meta_descriptions.len() > 1 {
        push(
            out,
            Section::Seo,
            META,
            warning(
                "seo.description.multiple",
                None,
                "Several meta descriptions",
                format!(
                    "The page has {} meta description tags; which one is used is undefined.",
                    ctx.doc.meta_descriptions.len()
                ),
                "Keep exactly one meta description.",
            ),
        );
    }
}

fn h1(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
    let h1s: Vec<&String> = ctx
        .doc
        .headings
        .iter()
        .filter(|(l, _)| *l == 1)
        .map(|(_, t)| t)
        .collect();
    let f = match h1s.len() {
        0 => issue(
            "seo.h1",
            None,
            "No H1 heading",
            "The page has no <h1>. The main heading tells readers and search engines what the page is about.",
            "Add one <h1> that states the page's topic.",
        ),
        1 if h1s[0].trim().is_empty() => issue(
            "seo.h1",
            None,
            "The H1 heading is empty",
            "The page's <h1> has no text.",
            "Put the page's topic in the <h1>.",
        ),
        1 => good(
            "seo.h1",
            None,
            "One H1 heading",
            format!("The H1 is \"{}\".", h1s[0]),
        ),
        n => warning(
            "seo.h1",
            None,
            "Several H1 headings",
            format!(
                "The page has {n} <h1> elements ({}); one clear main heading is best.",
                list(
                    &h1s.iter().map(|s| format!("\"{s}\"")).collect::<Vec<_>>(),
                    3
                )
            ),
            "Keep one <h1> for the page's topic and turn the others into <h2>.",
        ),
    };
    push(out, Section::Seo, HEADINGS, f);
}

fn heading_hierarchy(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
    let hs = &ctx.doc.headings;
    if hs.is_empty() {
        push(
            out,
            Section::Seo,
            HEADINGS,
            warning(
                "seo.headings.hierarchy",
                None,
                "No headings",
                "The page has no headings, so its structure is invisible to screen readers and search engines.",
                "Structure the content with one <h1> and <h2>/<h3> sections.",
            ),
        );
        return;
    }
    let mut problems: Vec<String> = Vec::new();
    let mut prev = 0u8;
    for (level, text) in hs {
        if prev > 0 && *level > prev + 1 {
            problems.push(format!("h{prev} is followed by h{level} (\"{text}\")"));
        }
        if text.trim().is_empty() {
            problems.push(format!("an empty h{level}"));
        }
        prev = *level;
    }
    if hs[0].0 != 1 {
        problems.insert(0, format!("the first heading is h{}, not h1", hs[0].0));
    }
    let f = if problems.is_empty() {
        good(
            "seo.headings.hierarchy",
            None,
            "Heading levels are in order",
            format!("{} headings, no level skipped.", hs.len()),
        )
    } else {
        warning(
            "seo.headings.hierarchy",
            None,
            "Heading levels skip or are empty",
            format!("Heading structure problems: {}.", list(&problems, 4)),
            "Use headings in order (h1, then h2, then h3) without skipping levels, and never leave one empty.",
        )
    };
    push(out, Section::Seo, HEADINGS, f);
}

/// Lighthouse's `canonical` audit, plus the hreflang consistency it checks.
fn canonical(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
    let id = "seo.canonical";
    let audit = Some("canonical");
    let page_url = ctx.page.final_url();
    let raw: Vec<&String> = ctx.doc.canonicals.iter().collect();
    if raw.is_empty() {
        push(
            out,
            Section::Seo,
            INDEXING,
            warning(
                id,
                audit,
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
        push(
            out,
            Section::Seo,
            INDEXING,
            issue(
                id,
                audit,
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
        push(
            out,
            Section::Seo,
            INDEXING,
            warning(
                id,
                audit,
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

fn indexable(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
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

/// A language tag as hreflang and `lang` accept: `xx`, `xxx`, with optional script and region.
pub fn valid_language_tag(tag: &str) -> bool {
    let tag = tag.trim();
    if tag.eq_ignore_ascii_case("x-default") {
        return true;
    }
    let parts: Vec<&str> = tag.split('-').collect();
    let lang = parts[0];
    if !(2..=3).contains(&lang.len()) || !lang.chars().all(|c| c.is_ascii_alphabetic()) {
        return false;
    }
    let mut rest = parts[1..].iter().peekable();
    if let Some(s) = rest.peek()
        && s.len() == 4
        && s.chars().all(|c| c.is_ascii_alphabetic())
    {
        rest.next();
    }
    if let Some(r) = rest.next() {
        let region_ok = (r.len() == 2
            && r.chars().all(|c| c.is_ascii_alphabetic())
            && !r.eq_ignore_ascii_case("uk"))
            || (r.len() == 3 && r.chars().all(|c| c.is_ascii_digit()));
        if !region_ok {
            return false;
        }
    }
    // Variants and extensions are allowed but must be 1-8 alphanumerics.
    rest.all(|p| (1..=8).contains(&p.len()) && p.chars().all(|c| c.is_ascii_alphanumeric()))
}

fn hreflang(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
    let links = &ctx.doc.hreflangs;
    if links.is_empty() {
        return;
    }
    let mut problems = Vec::new();
    for (lang, href) in links {
        if !valid_language_tag(lang) {
            problems.push(format!("\"{lang}\" is not a valid language code"));
        }
        if Url::parse(href).is_err() {
            problems.push(format!("\"{href}\" is not an absolute URL"));
        }
    }
    let f = if problems.is_empty() {
        good(
            "seo.hreflang",
            Some("hreflang"),
            "hreflang links are valid",
            format!(
                "{} alternates, all with valid codes and absolute URLs.",
                links.len()
            ),
        )
    } else {
        issue(
            "seo.hreflang",
            Some("hreflang"),
            "Invalid hreflang links",
            format!("Problems: {}.", list(&problems, 4)),
            "Use ISO 639-1 language codes (optionally with an ISO 3166 region, e.g. en-GB) and absolute URLs in every hreflang link.",
        )
    };
    push(out, Section::Seo, INTL, f);
    if links
        .iter()
        .any(|(l, _)| l.eq_ignore_ascii_case("x-default"))
    {
        push(
            out,
            Section::Seo,
            INTL,
            good(
                "seo.hreflang.x-default",
                None,
                "x-default alternate is set",
                "Visitors whose language matches no version get the x-default page.",
            ),
        );
    } else {
        push(
            out,
            Section::Seo,
            INTL,
            warning(
                "seo.hreflang.x-default",
                None,
                "No x-default alternate",
                "The hreflang set has no x-default entry for visitors whose language matches none of the versions.",
                "Add <link rel=\"alternate\" hreflang=\"x-default\" href=\"…\"> pointing at the language chooser or the main version.",
            ),
        );
    }
}

fn html_lang(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
    let f = match ctx.doc.html_lang.as_deref() {
        None | Some("") => issue(
            "a11y.html-lang",
            Some("html-has-lang"),
            "The page does not declare its language",
            "<html> has no lang attribute, so screen readers may read it with the wrong voice and search engines must guess the language.",
            "Add lang to the html element, for example <html lang=\"en\">.",
        ),
        Some(l) if !valid_language_tag(l) || l.eq_ignore_ascii_case("x-default") => issue(
            "a11y.html-lang",
            Some("html-lang-valid"),
            "The page's language code is invalid",
            format!("<html lang=\"{l}\"> is not a valid language code."),
            "Use a valid BCP 47 code, for example \"en\" or \"de-AT\".",
        ),
        Some(l) => good(
            "a11y.html-lang",
            Some("html-has-lang"),
            "The page declares its language",
            format!("<html lang=\"{l}\">."),
        ),
    };
    push(out, Section::Design, MOBILE, f);
}

/// Lighthouse `viewport`: a meta viewport with `width` or `initial-scale`.
fn viewport(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
    let f = match ctx.doc.viewport.as_deref() {
        None => issue(
            "design.viewport",
            Some("viewport"),
            "No viewport meta tag",
            "Without <meta name=\"viewport\">, phones render the page at desktop width and shrink it; Google indexes the mobile version.",
            "Add <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">.",
        ),
        Some(c) => {
            let lower = c.to_ascii_lowercase();
            if !(lower.contains("width") || lower.contains("initial-scale")) {
                issue(
                    "design.viewport",
                    Some("viewport"),
                    "Viewport tag lacks width or initial-scale",
                    format!("The viewport is \"{c}\"."),
                    "Use content=\"width=device-width, initial-scale=1\".",
                )
            } else if lower.contains("user-scalable=no")
                || lower.contains("maximum-scale=1") && !lower.contains("maximum-scale=1.")
            {
                warning(
                    "design.viewport",
                    Some("viewport"),
                    "Zooming is disabled",
                    format!(
                        "The viewport \"{c}\" stops visitors from zooming, which hurts people with low vision."
                    ),
                    "Remove user-scalable=no and maximum-scale=1 from the viewport.",
                )
            } else {
                good(
                    "design.viewport",
                    Some("viewport"),
                    "Page is set up for mobile",
                    format!("The viewport is \"{c}\"."),
                )
            }
        }
    };
    push(out, Section::Design, MOBILE, f);
}

fn open_graph(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
    let og = &ctx.doc.open_graph;
    let missing: Vec<String> = [
        "og:title",
        "og:description",
        "og:image",
        "og:url",
        "og:type",
    ]
    .iter()
    .filter(|k| og.get(**k).is_none_or(|v| v.is_empty()))
    .map(|k| (*k).to_owned())
    .collect();
    let f = if missing.is_empty() {
        good(
            "seo.open-graph",
            None,
            "Open Graph tags are complete",
            "og:title, og:description, og:image, og:url and og:type are set, so shared links show a rich preview.",
        )
    } else if missing.len() == 5 {
        warning(
            "seo.open-graph",
            None,
            "No Open Graph tags",
            "Links to this page shared on social networks and chat apps get no title, description or image preview.",
            "Add og:title, og:description, og:image (1200x630), og:url and og:type meta tags.",
        )
    } else {
        warning(
            "seo.open-graph",
            None,
            "Open Graph tags are incomplete",
            format!("Missing: {}.", missing.join(", ")),
            "Add the missing Open Graph tags so shared links show a complete preview.",
        )
    };
    push(out, Section::Seo, SOCIAL, f);
    if let Some(img) = og.get("og:image")
        && Url::parse(img).is_err()
    {
        push(
            out,
            Section::Seo,
            SOCIAL,
            warning(
                "seo.open-graph.image-url",
                None,
                "og:image is not an absolute URL",
                format!("og:image is \"{img}\"; most platforms need an absolute URL."),
                "Write og:image as a full https:// address.",
            ),
        );
    }
    let tw = &ctx.doc.twitter;
    let f = if tw.contains_key("twitter:card") {
        good(
            "seo.twitter-card",
            None,
            "Twitter card is set",
            format!(
                "twitter:card is \"{}\".",
                tw.get("twitter:card").map(String::as_str).unwrap_or("")
            ),
        )
    } else {
        warning(
            "seo.twitter-card",
            None,
            "No Twitter card",
            "Without twitter:card, X/Twitter shows links to this page as plain text even when Open Graph tags exist.",
            "Add <meta name=\"twitter:card\" content=\"summary_large_image\">.",
        )
    };
    push(out, Section::Seo, SOCIAL, f);
}

/// Required properties of common schema.org types (Google's rich-result requirements).
fn required_properties(ty: &str) -> &'static [&'static str] {
    match ty {
        "Organization" => &["name", "url"],
        "WebSite" => &["name", "url"],
        "Article" | "NewsArticle" | "BlogPosting" => &["headline", "author", "datePublished"],
        "Product" => &["name", "offers"],
        "BreadcrumbList" => &["itemListElement"],
        "FAQPage" => &["mainEntity"],
        "LocalBusiness" | "Restaurant" | "Store" => &["name", "address"],
        "Event" => &["name", "startDate", "location"],
        "Recipe" => &["name", "image"],
        "Person" => &["name"],
        _ => &[],
    }
}

fn json_ld_items(v: &serde_json::Value, out: &mut Vec<serde_json::Value>) {
    match v {
        serde_json::Value::Array(a) => a.iter().for_each(|x| json_ld_items(x, out)),
        serde_json::Value::Object(o) => {
            if let Some(g) = o.get("@graph") {
                json_ld_items(g, out);
            } else {
                out.push(v.clone());
            }
        }
        _ => {}
    }
}

fn structured_data(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
    if ctx.doc.json_ld.is_empty() && !ctx.doc.microdata_types.is_empty() {
        push(
            out,
            Section::Seo,
            SOCIAL,
            good(
                "seo.structured-data",
                Some("structured-data"),
                "Structured data found (microdata)",
                format!(
                    "Microdata or RDFa types: {}. JSON-LD is easier to maintain and validate.",
                    ctx.doc.microdata_types.join(", ")
                ),
            ),
        );
        return;
    }
    if ctx.doc.json_ld.is_empty() {
        push(
            out,
            Section::Seo,
            SOCIAL,
            warning(
                "seo.structured-data",
                Some("structured-data"),
                "No structured data",
                "The page has no JSON-LD structured data, so it cannot earn rich results (stars, FAQs, breadcrumbs, logos).",
                "Add JSON-LD for the page's type: Organization and WebSite on the home page, Article, Product, FAQPage or BreadcrumbList where they fit.",
            ),
        );
        return;
    }
    let mut errors = Vec::new();
    let mut types = Vec::new();
    let mut missing = Vec::new();
    for (i, block) in ctx.doc.json_ld.iter().enumerate() {
        match serde_json::from_str::<serde_json::Value>(block) {
            Err(e) => errors.push(format!("block {} does not parse ({e})", i + 1)),
            Ok(v) => {
                let mut items = Vec::new();
                json_ld_items(&v, &mut items);
                for item in items {
                    let ty = match item.get("@type") {
                        Some(serde_json::Value::String(s)) => s.clone(),
                        Some(serde_json::Value::Array(a)) => {
                            a.first().and_then(|x| x.as_str()).unwrap_or("").to_owned()
                        }
                        _ => {
                            errors.push(format!("block {} has an item without @type", i + 1));
                            continue;
                        }
                    };
                    for p in required_properties(&ty) {
                        if item.get(*p).is_none_or(|x| x.is_null()) {
                            missing.push(format!("{ty} lacks \"{p}\""));
                        }
                    }
                    types.push(ty);
                }
            }
        }
    }
    let f = if !errors.is_empty() {
        issue(
            "seo.structured-data",
            Some("structured-data"),
            "Structured data has errors",
            format!("{}.", list(&errors, 3)),
            "Fix the JSON-LD so it parses and every item has an @type; test it with a rich-results validator.",
        )
    } else if !missing.is_empty() {
        warning(
            "seo.structured-data",
            Some("structured-data"),
            "Structured data lacks required properties",
            format!(
                "Types found: {}. Missing: {}.",
                types.join(", "),
                list(&missing, 4)
            ),
            "Add the required properties, or the items cannot produce rich results.",
        )
    } else {
        good(
            "seo.structured-data",
            Some("structured-data"),
            "Structured data is valid",
            format!("JSON-LD types: {}.", types.join(", ")),
        )
    };
    push(out, Section::Seo, SOCIAL, f);
}

/// Lighthouse `image-alt` (axe): every image needs alt, unless declared decorative or named
/// otherwise. An empty alt passes (decorative) unless the image is a link's only content.
fn image_alt(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
    let imgs = &ctx.doc.images;
    if imgs.is_empty() {
        return;
    }
    let missing: Vec<String> = imgs
        .iter()
        .filter(|i| i.alt.is_none() && !i.decorative && !i.has_other_name)
        .map(|i| super::short_url(&i.src))
        .collect();
    let f = if missing.is_empty() {
        good(
            "seo.image-alt",
            Some("image-alt"),
            "Images have alt attributes",
            format!(
                "All {} images have an alt attribute or are marked decorative.",
                imgs.len()
            ),
        )
    } else {
        issue(
            "seo.image-alt",
            Some("image-alt"),
            "Images without alt text",
            format!(
                "{} of {} images have no alt attribute: {}.",
                missing.len(),
                imgs.len(),
                list(&missing, 4)
            ),
            "Describe each meaningful image in its alt attribute; give purely decorative images alt=\"\".",
        )
    };
    push(out, Section::Seo, IMAGES, f);
    let empty_links: Vec<String> = imgs
        .iter()
        .filter(|i| i.alt.as_deref() == Some("") && i.sole_link_content && !i.has_other_name)
        .map(|i| super::short_url(&i.src))
        .collect();
    if !empty_links.is_empty() {
        push(
            out,
            Section::Seo,
            IMAGES,
            warning(
                "seo.image-alt.empty",
                None,
                "Linked images with empty alt",
                format!(
                    "These images are the only content of a link but have alt=\"\", so the link has no name: {}.",
                    list(&empty_links, 4)
                ),
                "Describe where the link goes in the image's alt text.",
            ),
        );
    }
    let long: Vec<String> = imgs
        .iter()
        .filter(|i| i.alt.as_deref().is_some_and(|a| chars(a) > alt_max()))
        .map(|i| super::short_url(&i.src))
        .collect();
    let f = if long.is_empty() {
        good(
            "seo.image-alt.length",
            None,
            "Alt texts are concise",
            format!("No alt text is longer than {} characters.", alt_max()),
        )
    } else {
        warning(
            "seo.image-alt.length",
            None,
            "Alt texts are too long",
            format!(
                "{} images have alt text over {} characters, which screen readers cut: {}.",
                long.len(),
                alt_max(),
                list(&long, 4)
            ),
            "Keep alt text under 125 characters; put longer descriptions in the page text or a caption.",
        )
    };
    push(out, Section::Seo, IMAGES, f);
}

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

fn link_text(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
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
fn crawlable_anchors(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
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

fn internal_links(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
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

fn url_hygiene(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
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

fn favicon(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
    let declared = !ctx.doc.icons.is_empty();
    let fallback = ctx
        .site
        .favicon_ico
        .is_some_and(|s| (200..300).contains(&s));
    let f = if declared {
        good(
            "design.favicon",
            None,
            "Favicon is declared",
            format!("Icon: {}.", ctx.doc.icons[0]),
        )
    } else if fallback {
        good(
            "design.favicon",
            None,
            "Favicon found",
            "No icon link, but /favicon.ico exists and browsers use it.",
        )
    } else {
        finding_warning_favicon()
    };
    push(out, Section::Design, "Branding", f);
}

fn finding_warning_favicon() -> domain::report::Finding {
    let mut f = warning(
        "design.favicon",
        None,
        "No favicon",
        "The page declares no icon and /favicon.ico does not exist; browser tabs, bookmarks and some search results show a blank icon.",
        "Add <link rel=\"icon\" href=\"/favicon.svg\"> (and a /favicon.ico for old browsers).",
    );
    f.kind = FindingType::Warning;
    f
}
