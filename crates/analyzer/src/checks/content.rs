//! Content checks: thin pages, duplicates across pages, near-duplicates, and top keywords.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::{Section, Tagged, good, issue, list, short_url, warning};
use crate::crawl::SiteData;

const CONTENT: &str = "Content";

/// Fewer words than this is thin content.
pub const THIN_WORDS: usize = 300;
/// Jaccard similarity of word shingles above which two pages are near-duplicates.
pub const NEAR_DUPLICATE: f64 = 0.9;

fn push(out: &mut Vec<Tagged>, f: domain::report::Finding) {
    out.push(Tagged {
        section: Section::Seo,
        group: CONTENT,
        finding: f,
    });
}

/// Words too common to be keywords (English, German, French, Spanish).
const STOP_WORDS: &[&str] = &[
    "the", "and", "for", "are", "but", "not", "you", "your", "with", "this", "that", "from",
    "have", "has", "was", "were", "will", "can", "our", "all", "any", "its", "it's", "into",
    "more", "most", "than", "then", "them", "they", "their", "there", "what", "when", "where",
    "which", "who", "why", "how", "about", "also", "just", "only", "other", "some", "such", "very",
    "been", "being", "would", "could", "should", "each", "these", "those", "a", "an", "of", "to",
    "in", "on", "is", "it", "as", "at", "by", "or", "be", "we", "us", "if", "so", "no", "do", "my",
    "me", "up", "out", "one", "der", "die", "das", "und", "ist", "mit", "für", "den", "dem", "ein",
    "eine", "nicht", "sie", "wir", "auf", "auch", "les", "des", "une", "est", "pour", "dans",
    "qui", "que", "sur", "pas", "avec", "los", "las", "por", "para", "con", "una", "del", "que",
    "más",
];

/// The page's top keywords: (word, count), most frequent first.
pub fn top_keywords(text: &str, n: usize) -> Vec<(String, usize)> {
    let mut counts: HashMap<String, usize> = HashMap::new();
    for w in text.split(|c: char| !c.is_alphanumeric() && c != '\'' && c != '-') {
        let w = w
            .trim_matches(|c: char| c == '\'' || c == '-')
            .to_lowercase();
        if w.chars().count() < 3
            || w.chars().all(|c| c.is_ascii_digit())
            || STOP_WORDS.contains(&w.as_str())
        {
            continue;
        }
        *counts.entry(w).or_default() += 1;
    }
    let mut v: Vec<(String, usize)> = counts.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    v.truncate(n);
    v
}

fn shingles(text: &str) -> HashSet<u64> {
    use std::hash::{Hash, Hasher};
    let words: Vec<String> = text.split_whitespace().map(str::to_lowercase).collect();
    words
        .windows(5)
        .map(|w| {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            w.hash(&mut h);
            h.finish()
        })
        .collect()
}

/// Run the content checks.
pub fn run(site: &SiteData, out: &mut Vec<Tagged>) {
    let pages: Vec<(&str, &crate::page::PageDoc)> = site
        .pages
        .iter()
        .filter(|p| p.status().is_some_and(|s| s < 400))
        .filter_map(|p| p.doc.as_ref().map(|d| (p.final_url().as_str(), d)))
        .collect();
    if pages.is_empty() {
        return;
    }

    let thin: Vec<String> = pages
        .iter()
        .filter(|(_, d)| d.word_count < THIN_WORDS)
        .map(|(u, d)| format!("{} ({} words)", short_url(u), d.word_count))
        .collect();
    let start_words = pages[0].1.word_count;
    let f = if thin.is_empty() {
        good(
            "content.word-count",
            None,
            "Pages have substantial text",
            format!(
                "The start page has {start_words} words; every analysed page has at least {THIN_WORDS}."
            ),
        )
    } else {
        warning(
            "content.word-count",
            None,
            "Thin content",
            format!(
                "{} of {} pages have under {THIN_WORDS} words of text: {}.",
                thin.len(),
                pages.len(),
                list(&thin, 5)
            ),
            "Expand thin pages with useful, original text that answers what visitors search for, or merge them.",
        )
    };
    push(out, f);

    if pages.len() > 1 {
        duplicates(
            &pages,
            "title",
            |d| d.titles.first().cloned(),
            "content.duplicate-titles",
            out,
        );
        duplicates(
            &pages,
            "meta description",
            |d| d.meta_descriptions.first().cloned(),
            "content.duplicate-descriptions",
            out,
        );
        duplicates(
            &pages,
            "H1",
            |d| {
                d.headings
                    .iter()
                    .find(|(l, _)| *l == 1)
                    .map(|(_, t)| t.clone())
            },
            "content.duplicate-h1",
            out,
        );
        near_duplicates(&pages, out);
    }

    // Keywords of the start page and whether they appear where they count.
    let (_, doc) = pages[0];
    let kws = top_keywords(&doc.text, 5);
    if kws.is_empty() {
        return;
    }
    let title = doc
        .titles
        .first()
        .cloned()
        .unwrap_or_default()
        .to_lowercase();
    let desc = doc
        .meta_descriptions
        .first()
        .cloned()
        .unwrap_or_default()
        .to_lowercase();
    let h1 = doc
        .headings
        .iter()
        .find(|(l, _)| *l == 1)
        .map(|(_, t)| t.to_lowercase())
        .unwrap_or_default();
    let top = &kws[0].0;
    let places: Vec<&str> = [("title", &title), ("meta description", &desc), ("H1", &h1)]
        .iter()
        .filter(|(_, t)| !t.contains(top.as_str()))
        .map(|(n, _)| *n)
        .collect();
    let kw_list: Vec<String> = kws.iter().map(|(w, c)| format!("{w} ({c})")).collect();
    let f = if places.is_empty() {
        good(
            "content.keywords",
            None,
            "Main keyword is used where it counts",
            format!(
                "Top keywords: {}. \"{top}\" appears in the title, meta description and H1.",
                kw_list.join(", ")
            ),
        )
    } else {
        warning(
            "content.keywords",
            None,
            "Main keyword is missing from key places",
            format!(
                "Top keywords: {}. The most frequent, \"{top}\", is not in the {}.",
                kw_list.join(", "),
                places.join(", ")
            ),
            "Use the page's main topic word in the title, the meta description and the H1, if it is the term people search for.",
        )
    };
    push(out, f);
}

fn duplicates(
    pages: &[(&str, &crate::page::PageDoc)],
    what: &str,
    get: impl Fn(&crate::page::PageDoc) -> Option<String>,
    id: &str,
    out: &mut Vec<Tagged>,
) {
    let mut by_value: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (u, d) in pages {
        if let Some(v) = get(d).filter(|v| !v.trim().is_empty()) {
            by_value
                .entry(v.trim().to_lowercase())
                .or_default()
                .push(short_url(u));
        }
    }
    let dups: Vec<String> = by_value
        .iter()
        .filter(|(_, us)| us.len() > 1)
        .map(|(v, us)| format!("\"{v}\" on {}", us.join(", ")))
        .collect();
    let f = if dups.is_empty() {
        good(
            id,
            None,
            format!("Each page has its own {what}"),
            format!(
                "No two of the {} analysed pages share a {what}.",
                pages.len()
            ),
        )
    } else {
        issue(
            id,
            None,
            format!("Duplicate {what}s"),
            format!("Pages share the same {what}: {}.", list(&dups, 3)),
            &format!("Give every page a unique {what} that describes its own content."),
        )
    };
    push(out, f);
}

fn near_duplicates(pages: &[(&str, &crate::page::PageDoc)], out: &mut Vec<Tagged>) {
    let sh: Vec<HashSet<u64>> = pages.iter().map(|(_, d)| shingles(&d.text)).collect();
    let mut pairs = Vec::new();
    for i in 0..pages.len() {
        for j in i + 1..pages.len() {
            let inter = sh[i].intersection(&sh[j]).count() as f64;
            let union = (sh[i].len() + sh[j].len()) as f64 - inter;
            if union > 0.0 && sh[i].len() >= 20 && inter / union >= NEAR_DUPLICATE {
                pairs.push(format!(
                    "{} ≈ {} ({:.0}% alike)",
                    short_url(pages[i].0),
                    short_url(pages[j].0),
                    inter / union * 100.0
                ));
            }
        }
    }
    let f = if pairs.is_empty() {
        good(
            "content.near-duplicates",
            None,
            "No near-duplicate pages",
            format!(
                "No two of the {} analysed pages are 90% or more alike.",
                pages.len()
            ),
        )
    } else {
        warning(
            "content.near-duplicates",
            None,
            "Near-duplicate pages",
            format!(
                "These pages have almost the same text: {}.",
                list(&pairs, 3)
            ),
            "Merge near-duplicates, make each page distinct, or point the copies at one canonical URL.",
        )
    };
    push(out, f);
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// Keywords: at most `n`, most frequent first, lower-case words of 3+ characters that
        /// occur in the text.
        #[test]
        fn keywords_come_from_the_text(s in "\\PC{0,200}|((Straße|ÉCOLE|école|日本語|слово|the|a1b) ){0,30}", n in 0usize..8) {
            let k = top_keywords(&s, n);
            proptest::prop_assert!(k.len() <= n);
            proptest::prop_assert!(k.windows(2).all(|w| w[0].1 >= w[1].1));
            let lower = s.to_lowercase();
            for (w, count) in &k {
                proptest::prop_assert!(*count >= 1 && w.chars().count() >= 3);
                proptest::prop_assert_eq!(w.to_lowercase(), w.clone());
                // Lower-casing a word alone can differ from lower-casing it in context (the Greek
                // final sigma), so containment is checked on ASCII text.
                if s.is_ascii() {
                    proptest::prop_assert!(lower.contains(w.as_str()), "{:?}", w);
                }
            }
        }
    }
}
