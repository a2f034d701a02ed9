//! Advice: meta tag, Open Graph, content and heading suggestions.
//!
//! [`Advisor`] is the seam: the default [`RuleBasedAdvisor`] derives every suggestion
//! deterministically from the page's own text. The language-model advisor ([`crate::llm`], used
//! when an OpenAI-compatible endpoint is configured) implements the same trait and falls back to
//! this one on any failure (docs/ARCHITECTURE.md §5, docs/PRODUCT.md §10.3).

use std::collections::BTreeMap;

use domain::report::{
    ContentAdvice, ContentOptimizations, HeadingAdvice, MetaSuggestion, MetaTagSuggestions,
    OgTagSuggestions,
};
use futures::future::BoxFuture;

use crate::checks::content::{THIN_WORDS, top_keywords};
use crate::checks::seo::{description_range, title_range};
use crate::page::PageDoc;

/// What an advisor sees of one page: owned, so any advisor (local or remote) can take it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageSummary {
    /// The page's address.
    pub url: String,
    /// The site's display name (og:site_name, else derived from the host).
    pub site_name: String,
    /// Current title.
    pub title: String,
    /// Current meta description.
    pub description: String,
    /// Headings (level, text).
    pub headings: Vec<(u8, String)>,
    /// Visible text (capped).
    pub text: String,
    /// Word count of the visible text.
    pub word_count: usize,
    /// Open Graph tags present.
    pub open_graph: BTreeMap<String, String>,
    /// First image with an absolute address, for og:image.
    pub first_image: Option<String>,
    /// Canonical URL if declared.
    pub canonical: Option<String>,
}

impl PageSummary {
    /// Summarise a parsed page.
    pub fn from_doc(url: &url::Url, doc: &PageDoc) -> Self {
        // The site's name from its host ("www.acme-furniture.com" gives "Acme-furniture");
        // an IP address names nothing.
        let host = match url.host() {
            Some(url::Host::Domain(d)) => d.trim_start_matches("www."),
            _ => "",
        };
        let derived = host.split('.').next().unwrap_or(host);
        let mut name_chars = derived.chars();
        let derived_name = match name_chars.next() {
            Some(c) => c.to_uppercase().collect::<String>() + name_chars.as_str(),
            None => String::new(),
        };
        Self {
            url: url.to_string(),
            site_name: doc
                .open_graph
                .get("og:site_name")
                .cloned()
                .unwrap_or(derived_name),
            title: doc.titles.first().cloned().unwrap_or_default(),
            description: doc.meta_descriptions.first().cloned().unwrap_or_default(),
            headings: doc.headings.clone(),
            text: doc.text.chars().take(20_000).collect(),
            word_count: doc.word_count,
            open_graph: doc.open_graph.clone(),
            first_image: doc
                .images
                .iter()
                .map(|i| i.src.clone())
                .find(|s| s.starts_with("http")),
            canonical: doc.canonicals.first().cloned(),
        }
    }
}

/// Advice for one page.
#[derive(Debug, Clone, PartialEq)]
pub struct Advice {
    /// Title, description and Open Graph suggestions.
    pub meta_tags: MetaTagSuggestions,
    /// Content and heading suggestions.
    pub content: ContentOptimizations,
}

/// Produces advice for a page.
pub trait Advisor: Send + Sync {
    /// Advice for `page`. Must not fail: an advisor that cannot answer falls back to rules.
    fn advise<'a>(&'a self, page: &'a PageSummary) -> BoxFuture<'a, Advice>;
}

/// Deterministic advice derived from the page's own text.
#[derive(Debug, Clone, Copy, Default)]
pub struct RuleBasedAdvisor;

impl Advisor for RuleBasedAdvisor {
    fn advise<'a>(&'a self, page: &'a PageSummary) -> BoxFuture<'a, Advice> {
        Box::pin(async move { advise_by_rules(page) })
    }
}

fn title_case(word: &str) -> String {
    let mut c = word.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// Cut `s` to at most `max` characters at a word boundary.
fn cut_words(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_owned();
    }
    let mut out = String::new();
    for w in s.split_whitespace() {
        let next = if out.is_empty() {
            w.to_owned()
        } else {
            format!("{out} {w}")
        };
        if next.chars().count() > max {
            break;
        }
        out = next;
    }
    out.trim_end_matches([',', ';', ':', '-', '–']).to_owned()
}

fn h1(page: &PageSummary) -> Option<&str> {
    page.headings
        .iter()
        .find(|(l, t)| *l == 1 && !t.trim().is_empty())
        .map(|(_, t)| t.as_str())
}

/// Suggest a title within the good title range (docs/PRODUCT.md §9.7): the main heading (or
/// current title) and the site name, widened with the top keywords when short.
pub fn suggest_title(page: &PageSummary) -> String {
    let (lo, hi) = title_range();
    let keywords = top_keywords(&page.text, 3);
    let topic = h1(page)
        .map(str::to_owned)
        .or_else(|| (!page.title.trim().is_empty()).then(|| page.title.clone()))
        .unwrap_or_else(|| {
            keywords
                .iter()
                .map(|(w, _)| title_case(w))
                .collect::<Vec<_>>()
                .join(" ")
        });
    let topic = cut_words(topic.trim(), hi);
    let with_name = if page.site_name.is_empty()
        || topic
            .to_lowercase()
            .contains(&page.site_name.to_lowercase())
    {
        topic.clone()
    } else {
        format!("{topic} | {}", page.site_name)
    };
    let mut t = if with_name.chars().count() <= hi {
        with_name
    } else {
        topic
    };
    if t.chars().count() < lo {
        // Widen a short title with the page's most frequent topic word it lacks.
        if let Some(extra) = keywords
            .iter()
            .map(|(w, _)| title_case(w))
            .find(|w| !t.to_lowercase().contains(&w.to_lowercase()))
        {
            t = cut_words(&format!("{t} – {extra}"), hi);
        }
    }
    t
}

/// Suggest a description within the good description range (docs/PRODUCT.md §9.7) from the
/// page's first sentences.
pub fn suggest_description(page: &PageSummary) -> String {
    let (lo, hi) = description_range();
    let mut out = String::new();
    for sentence in page.text.split_inclusive(['.', '!', '?']) {
        let s = sentence.trim();
        if s.split_whitespace().count() < 4 {
            continue;
        }
        let next = if out.is_empty() {
            s.to_owned()
        } else {
            format!("{out} {s}")
        };
        if next.chars().count() > hi {
            if out.chars().count() < lo {
                out = cut_words(&next, hi - 1);
                out.push('.');
            }
            break;
        }
        out = next;
        if out.chars().count() >= lo {
            break;
        }
    }
    if out.chars().count() < lo {
        let topic = h1(page).unwrap_or(&page.title).trim().to_owned();
        let kws: Vec<String> = top_keywords(&page.text, 4)
            .into_iter()
            .map(|(w, _)| w)
            .collect();
        let filler = format!(
            "{}{}Learn about {} from {}.",
            out,
            if out.is_empty() {
                String::new()
            } else {
                " ".to_owned()
            },
            if kws.is_empty() {
                topic.to_lowercase()
            } else {
                kws.join(", ")
            },
            if page.site_name.is_empty() {
                "us".to_owned()
            } else {
                page.site_name.clone()
            }
        );
        out = cut_words(&filler, hi);
    }
    out
}

/// The rule-based advice.
pub fn advise_by_rules(page: &PageSummary) -> Advice {
    let (tlo, thi) = title_range();
    let (dlo, dhi) = description_range();
    let keywords = top_keywords(&page.text, 5);
    let top = keywords.first().map(|(w, _)| w.clone());

    let title_len = page.title.chars().count();
    let title_has_kw = top
        .as_ref()
        .is_some_and(|k| page.title.to_lowercase().contains(k));
    let title_ok = (tlo..=thi).contains(&title_len) && (title_has_kw || top.is_none());
    let title = MetaSuggestion {
        current: page.title.clone(),
        analysis: if page.title.trim().is_empty() {
            "The page has no title; search results will show an address or a guess instead."
                .to_owned()
        } else if title_ok {
            format!("The title has {title_len} characters and names the main topic; keep it.")
        } else if !(tlo..=thi).contains(&title_len) {
            format!(
                "The title has {title_len} characters; {tlo}-{thi} fills the result headline without being cut."
            )
        } else {
            format!(
                "The title does not mention \"{}\", the page's most frequent topic word.",
                top.clone().unwrap_or_default()
            )
        },
        suggested: if title_ok {
            page.title.clone()
        } else {
            suggest_title(page)
        },
    };

    let desc_len = page.description.chars().count();
    let desc_ok = (dlo..=dhi).contains(&desc_len);
    let description = MetaSuggestion {
        current: page.description.clone(),
        analysis: if page.description.trim().is_empty() {
            "There is no meta description; search engines will pick a snippet from the page, often a poor one.".to_owned()
        } else if desc_ok {
            format!("The description has {desc_len} characters, within {dlo}-{dhi}; keep it.")
        } else {
            format!(
                "The description has {desc_len} characters; {dlo}-{dhi} fills the snippet without being cut."
            )
        },
        suggested: if desc_ok {
            page.description.clone()
        } else {
            suggest_description(page)
        },
    };

    let mut og = BTreeMap::new();
    let want = [
        ("og:title", title.suggested.clone()),
        ("og:description", description.suggested.clone()),
        (
            "og:url",
            page.canonical.clone().unwrap_or_else(|| page.url.clone()),
        ),
        ("og:type", "website".to_owned()),
        ("og:site_name", page.site_name.clone()),
    ];
    for (k, v) in want {
        if !page.open_graph.contains_key(k) && !v.is_empty() {
            og.insert(k.to_owned(), v);
        }
    }
    if !page.open_graph.contains_key("og:image")
        && let Some(img) = &page.first_image
    {
        og.insert("og:image".to_owned(), img.clone());
    }
    let og_tags = OgTagSuggestions {
        analysis: if og.is_empty() {
            "The Open Graph tags are complete.".to_owned()
        } else {
            format!(
                "Missing Open Graph tags: {}. Shared links will lack a proper preview.",
                og.keys().cloned().collect::<Vec<_>>().join(", ")
            )
        },
        suggestions: og,
    };

    let mut suggestions = Vec::new();
    if page.word_count < THIN_WORDS {
        suggestions.push(format!("Expand the text from {} to at least {THIN_WORDS} words: answer the questions visitors arrive with.", page.word_count));
    }
    if let Some(k) = &top {
        if !h1(page).unwrap_or("").to_lowercase().contains(k) {
            suggestions.push(format!(
                "Use \"{k}\" in the main heading if it is the term people search for."
            ));
        }
        if !page.description.to_lowercase().contains(k) {
            suggestions.push(format!("Mention \"{k}\" in the meta description."));
        }
    }
    if page.headings.iter().filter(|(l, _)| *l == 2).count() < 2 && page.word_count > 150 {
        suggestions.push("Break the text into sections with descriptive <h2> headings.".to_owned());
    }
    let content = ContentAdvice {
        analysis: format!(
            "{} words of visible text. Top keywords: {}.",
            page.word_count,
            if keywords.is_empty() {
                "none".to_owned()
            } else {
                keywords
                    .iter()
                    .map(|(w, c)| format!("{w} ({c})"))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        ),
        suggestions,
    };

    let mut heading_map = BTreeMap::new();
    let h1s: Vec<&(u8, String)> = page.headings.iter().filter(|(l, _)| *l == 1).collect();
    if h1s.is_empty() {
        heading_map.insert(
            "(no H1)".to_owned(),
            format!(
                "H1: {}",
                suggest_title(page).split(" | ").next().unwrap_or("")
            ),
        );
    }
    for (_, t) in h1s.iter().skip(1) {
        heading_map.insert(format!("H1: {t}"), format!("H2: {t}"));
    }
    let mut prev = 0u8;
    for (l, t) in &page.headings {
        if t.trim().is_empty() {
            heading_map.insert(
                format!("H{l}: (empty)"),
                format!("H{l}: a descriptive heading, or remove it"),
            );
        } else if prev > 0 && *l > prev + 1 {
            heading_map.insert(format!("H{l}: {t}"), format!("H{}: {t}", prev + 1));
        }
        prev = *l;
    }
    let headings = HeadingAdvice {
        analysis: format!("{} headings, {} H1.", page.headings.len(), h1s.len()),
        suggestions: heading_map,
    };
    Advice {
        meta_tags: MetaTagSuggestions {
            title,
            description,
            og_tags,
        },
        content: ContentOptimizations { content, headings },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(title: &str, text: &str) -> PageSummary {
        PageSummary {
            url: "https://acme.test/".into(),
            site_name: "Acme".into(),
            title: title.into(),
            description: String::new(),
            headings: vec![(1, "Handmade oak furniture".into())],
            text: text.into(),
            word_count: text.split_whitespace().count(),
            open_graph: BTreeMap::new(),
            first_image: None,
            canonical: None,
        }
    }

    #[test]
    fn suggestions_fall_in_the_good_ranges() {
        let text = "We build handmade oak furniture in our workshop. Every table is made to order from local oak. \
                    Our furniture lasts generations and we deliver across the country. Visit the workshop to see the oak.";
        let a = advise_by_rules(&page("Home", text));
        let t = a.meta_tags.title.suggested.chars().count();
        assert!(
            (30..=60).contains(&t),
            "{t}: {}",
            a.meta_tags.title.suggested
        );
        let d = a.meta_tags.description.suggested.chars().count();
        assert!(
            (120..=160).contains(&d),
            "{d}: {}",
            a.meta_tags.description.suggested
        );
        assert!(a.meta_tags.og_tags.suggestions.contains_key("og:title"));
        // Deterministic: the same page gives the same advice.
        assert_eq!(a, advise_by_rules(&page("Home", text)));
    }

    proptest::proptest! {
        /// Cutting at words: at most `max` characters, made of the text's first words.
        #[test]
        fn cut_words_keeps_leading_words(s in "\\PC{0,120}|[a-zé日 ,;–-]{0,80}", max in 0usize..60) {
            let c = cut_words(&s, max);
            proptest::prop_assert!(c.chars().count() <= max);
            if s.chars().count() > max {
                let words: Vec<&str> = s.split_whitespace().collect();
                let kept: Vec<&str> = c.split_whitespace().collect();
                proptest::prop_assert!(kept.len() <= words.len());
                for (i, w) in kept.iter().enumerate() {
                    proptest::prop_assert!(words[i].starts_with(w), "{:?} {:?}", words[i], w);
                }
            } else {
                proptest::prop_assert_eq!(c, s);
            }
        }

        /// Title case changes the first character only.
        #[test]
        fn title_case_changes_the_first_character(s in "\\PC{0,30}") {
            let t = title_case(&s);
            let mut chars = s.chars();
            match chars.next() {
                Some(first) => {
                    let upper: String = first.to_uppercase().collect();
                    proptest::prop_assert_eq!(t, upper + chars.as_str());
                }
                None => proptest::prop_assert_eq!(t, ""),
            }
        }
    }
}
