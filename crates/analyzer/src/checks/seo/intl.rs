//! Language: hreflang alternates and the page's declared language.

use url::Url;

use super::{INTL, MOBILE, Section, push};
use crate::checks::{PageCtx, Tagged, good, issue, list, warning};

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

pub(super) fn hreflang(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
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

pub(super) fn html_lang(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
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
