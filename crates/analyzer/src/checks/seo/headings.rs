//! The main heading and the order of heading levels.

use super::{HEADINGS, Section, push};
use crate::checks::{PageCtx, Tagged, good, issue, list, warning};

pub(super) fn h1(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
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

pub(super) fn heading_hierarchy(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
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
