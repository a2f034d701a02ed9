//! Social previews (Open Graph, Twitter card) and structured data.

use url::Url;

use super::{SOCIAL, Section, push};
use crate::checks::{PageCtx, Tagged, good, issue, list, warning};

pub(super) fn open_graph(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
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

/// Our own check: Lighthouse's `structured-data` audit is manual (it never gives a verdict),
/// so these findings carry no Lighthouse audit id.
pub(super) fn structured_data(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
    if ctx.doc.json_ld.is_empty() && !ctx.doc.microdata_types.is_empty() {
        push(
            out,
            Section::Seo,
            SOCIAL,
            good(
                "seo.structured-data",
                None,
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
                None,
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
            None,
            "Structured data has errors",
            format!("{}.", list(&errors, 3)),
            "Fix the JSON-LD so it parses and every item has an @type; test it with a rich-results validator.",
        )
    } else if !missing.is_empty() {
        warning(
            "seo.structured-data",
            None,
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
            None,
            "Structured data is valid",
            format!("JSON-LD types: {}.", types.join(", ")),
        )
    };
    push(out, Section::Seo, SOCIAL, f);
}
