//! Title, meta description and viewport: the head tags a result snippet and a phone read first.

use super::{META, MOBILE, Section, push};
use domain::snippet::{LengthVerdict, SnippetField, length_check, length_range};

use crate::checks::{PageCtx, Tagged, good, issue, warning};

/// Good title length in characters, from `domain`'s good ranges (docs/PRODUCT.md §9.7).
pub fn title_range() -> (usize, usize) {
    let (lo, hi) = length_range(SnippetField::Title);
    (lo as usize, hi as usize)
}

/// Good meta description length in characters, from `domain`'s good ranges (docs/PRODUCT.md §9.7).
pub fn description_range() -> (usize, usize) {
    let (lo, hi) = length_range(SnippetField::Description);
    (lo as usize, hi as usize)
}

pub(super) fn title(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
    let t = ctx.doc.titles.first().map(String::as_str).unwrap_or("");
    let (lo, hi) = title_range();
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
                &format!(
                    "Add a unique <title> of {lo}-{hi} characters that names the page's topic and the brand."
                ),
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
    let check = length_check(SnippetField::Title, t);
    let (n, lo, hi) = (check.chars, check.min, check.max);
    let f = if check.verdict == LengthVerdict::Good {
        good(
            "seo.title.length",
            None,
            "Title length is good",
            format!("The title has {n} characters (good: {lo}-{hi})."),
        )
    } else if check.verdict == LengthVerdict::Short {
        warning(
            "seo.title.length",
            None,
            "Title is too short",
            format!(
                "The title has {n} characters; {lo}-{hi} uses the space search results give it."
            ),
            &format!(
                "Lengthen the title with the page's main keyword and a benefit, to {lo}-{hi} characters."
            ),
        )
    } else {
        warning(
            "seo.title.length",
            None,
            "Title is too long",
            format!("The title has {n} characters; search results cut titles after about {hi}."),
            &format!(
                "Shorten the title to at most {hi} characters, keeping the main keyword first."
            ),
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

pub(super) fn description(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
    let d = ctx
        .doc
        .meta_descriptions
        .first()
        .map(String::as_str)
        .unwrap_or("");
    let (lo, hi) = description_range();
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
                &format!(
                    "Add <meta name=\"description\" content=\"…\"> with a {lo}-{hi} character summary that invites the click."
                ),
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
    let check = length_check(SnippetField::Description, d);
    let (n, lo, hi) = (check.chars, check.min, check.max);
    let f = if check.verdict == LengthVerdict::Good {
        good(
            "seo.description.length",
            None,
            "Meta description length is good",
            format!("The description has {n} characters (good: {lo}-{hi})."),
        )
    } else if check.verdict == LengthVerdict::Short {
        warning(
            "seo.description.length",
            None,
            "Meta description is too short",
            format!("The description has {n} characters; {lo}-{hi} fills the snippet."),
            &format!(
                "Expand the description to {lo}-{hi} characters: what the page offers and why to click."
            ),
        )
    } else {
        warning(
            "seo.description.length",
            None,
            "Meta description is too long",
            format!("The description has {n} characters; snippets are cut after about {hi}."),
            &format!(
                "Shorten the description to at most {hi} characters, most important words first."
            ),
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

/// Whether a viewport meta tag's content lays the page out for phones, as Lighthouse 12.8.2
/// decides it (its `viewport` and `font-size` audits): a valid `width`, or an `initial-scale`,
/// and never an initial scale below 1. Properties are `key=value`, separated by commas,
/// semicolons or spaces.
pub fn mobile_optimized(content: Option<&str>) -> bool {
    let Some(content) = content else {
        return false;
    };
    let mut width = false;
    let mut scale: Option<f64> = None;
    for part in content.split([',', ';']) {
        let Some((key, value)) = part.split_once('=') else {
            continue;
        };
        let value = value.trim().to_ascii_lowercase();
        match key.trim().to_ascii_lowercase().as_str() {
            "width" => {
                width = value == "device-width"
                    || value == "device-height"
                    || value.parse::<f64>().is_ok_and(|w| w > 0.0);
            }
            "initial-scale" => scale = value.parse::<f64>().ok().filter(|s| s.is_finite()),
            _ => {}
        }
    }
    if scale.is_some_and(|s| s < 1.0) {
        return false;
    }
    width || scale.is_some_and(|s| s != 0.0)
}

/// Lighthouse `viewport`: a meta viewport that is [`mobile_optimized`]. Disabled zooming is our
/// own warning (Lighthouse passes it here; its accessibility audit `meta-viewport` judges it).
pub(super) fn viewport(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
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
            if !mobile_optimized(Some(c)) {
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
                    None,
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
