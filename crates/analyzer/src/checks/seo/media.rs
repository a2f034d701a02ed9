//! Images' alternative text and the favicon.

use domain::report::FindingType;

use super::{IMAGES, Section, push};
use crate::checks::{PageCtx, Tagged, chars, good, issue, list, warning};

/// Longest useful alt text (docs/PRODUCT.md §9.7): 125 characters.
pub fn alt_max() -> usize {
    crate::checks::good_range("altText").1
}

/// Lighthouse `image-alt` (axe): every image needs alt, unless declared decorative or named
/// otherwise. An empty alt passes (decorative) unless the image is a link's only content.
pub(super) fn image_alt(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
    let imgs = &ctx.doc.images;
    if imgs.is_empty() {
        return;
    }
    let missing: Vec<String> = imgs
        .iter()
        .filter(|i| i.alt.is_none() && !i.decorative && !i.has_other_name)
        .map(|i| crate::checks::short_url(&i.src))
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
        .map(|i| crate::checks::short_url(&i.src))
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
        .map(|i| crate::checks::short_url(&i.src))
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

pub(super) fn favicon(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
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
