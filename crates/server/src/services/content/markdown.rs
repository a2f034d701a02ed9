//! One content file: its front matter (`key: value` lines between `---` fences) and its
//! markdown body, rendered with pulldown-cmark after the figure markers are resolved.

use pulldown_cmark::{CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd, html};

use super::ContentError;
use super::figures::figure;

/// The front matter of a content file. Lists are written `[a, b]`.
#[derive(Debug, Default, Clone)]
pub struct FrontMatter {
    pub title: String,
    pub description: String,
    pub date: Option<chrono::NaiveDate>,
    pub updated: Option<chrono::NaiveDate>,
    pub author: Option<String>,
    pub category: Option<String>,
    pub tags: Vec<String>,
    pub related: Vec<String>,
    /// Listing order inside a section (guides, tutorials, knowledge-base categories).
    pub order: Option<u32>,
}

/// A rendered body: its HTML, its questions and answers, its plain text (for search).
#[derive(Debug, Default, Clone)]
pub struct Body {
    pub html: String,
    pub faq: Vec<(String, String)>,
    pub text: String,
}

fn list(value: &str) -> Vec<String> {
    value
        .trim()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

fn date(file: &str, value: &str) -> Result<chrono::NaiveDate, ContentError> {
    chrono::NaiveDate::parse_from_str(value, "%Y-%m-%d")
        .map_err(|_| ContentError::new(file, format!("bad date {value:?} (want YYYY-MM-DD)")))
}

/// Splits `text` into its front matter and its markdown body.
pub fn split(file: &str, text: &str) -> Result<(FrontMatter, String), ContentError> {
    let rest = text
        .strip_prefix("---\n")
        .ok_or_else(|| ContentError::new(file, "no front matter (a first line `---`)"))?;
    let end = rest
        .find("\n---\n")
        .ok_or_else(|| ContentError::new(file, "front matter is not closed by `---`"))?;
    let mut fm = FrontMatter::default();
    for line in rest[..end].lines().filter(|l| !l.trim().is_empty()) {
        let (key, value) = line
            .split_once(':')
            .ok_or_else(|| ContentError::new(file, format!("front matter line {line:?}")))?;
        let value = value.trim();
        // A value may be quoted (as YAML allows), for one that holds a colon.
        let value = value
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .unwrap_or(value);
        match key.trim() {
            "title" => fm.title = value.to_owned(),
            "description" => fm.description = value.to_owned(),
            "date" => fm.date = Some(date(file, value)?),
            "updated" => fm.updated = Some(date(file, value)?),
            "author" => fm.author = Some(value.to_owned()),
            "category" => fm.category = Some(value.to_owned()),
            "tags" => fm.tags = list(value),
            "related" => fm.related = list(value),
            "order" => {
                fm.order = Some(
                    value
                        .parse()
                        .map_err(|_| ContentError::new(file, format!("bad order {value:?}")))?,
                );
            }
            other => return Err(ContentError::new(file, format!("unknown key {other:?}"))),
        }
    }
    if fm.title.is_empty() || fm.description.is_empty() {
        return Err(ContentError::new(
            file,
            "title and description are required",
        ));
    }
    Ok((fm, rest[end + "\n---\n".len()..].to_owned()))
}

/// Replaces every `{{name}}` with the figure `domain` gives for it.
pub fn resolve_figures(file: &str, text: &str) -> Result<String, ContentError> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let end = after
            .find("}}")
            .ok_or_else(|| ContentError::new(file, "a `{{` marker is not closed"))?;
        let name = after[..end].trim();
        let value = figure(name)
            .ok_or_else(|| ContentError::new(file, format!("unknown figure {{{{{name}}}}}")))?;
        out.push_str(&value);
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    Ok(out)
}

/// A heading's anchor: lower-case words joined by hyphens.
pub fn slug(text: &str) -> String {
    let mut s = String::new();
    for c in text.chars() {
        if c.is_alphanumeric() {
            s.extend(c.to_lowercase());
        } else if !s.ends_with('-') && !s.is_empty() {
            s.push('-');
        }
    }
    s.trim_end_matches('-').to_owned()
}

/// Renders markdown: headings get anchors, a level-3 heading that asks a question (ends with
/// `?`) and the text under it become a question and answer of the page's FAQ.
pub fn render(file: &str, markdown: &str) -> Result<Body, ContentError> {
    let mut options = Options::empty();
    options.insert(Options::ENABLE_TABLES);
    options.insert(Options::ENABLE_STRIKETHROUGH);
    let events: Vec<Event> = Parser::new_ext(markdown, options).collect();
    let mut out: Vec<Event> = Vec::with_capacity(events.len());
    let mut body = Body::default();
    let mut heading: Option<(usize, HeadingLevel, String)> = None;
    let mut answer: Option<(String, String)> = None;
    for event in events {
        match &event {
            Event::Start(Tag::Heading { level, .. }) => {
                if *level == HeadingLevel::H1 {
                    return Err(ContentError::new(
                        file,
                        "a body starts its headings at `##` (the title is the page's h1)",
                    ));
                }
                if let Some(qa) = answer.take() {
                    body.faq.push(qa);
                }
                heading = Some((out.len(), *level, String::new()));
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some((at, level, text)) = heading.take() {
                    if let Event::Start(Tag::Heading { id, .. }) = &mut out[at] {
                        *id = Some(CowStr::from(slug(&text)));
                    }
                    if level == HeadingLevel::H3 && text.trim_end().ends_with('?') {
                        answer = Some((text.trim().to_owned(), String::new()));
                    }
                }
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some((_, _, h)) = heading.as_mut() {
                    h.push_str(t);
                } else if let Some((_, a)) = answer.as_mut() {
                    a.push_str(t);
                }
                body.text.push_str(t);
            }
            Event::SoftBreak | Event::HardBreak => {
                if let Some((_, a)) = answer.as_mut() {
                    a.push(' ');
                }
                body.text.push(' ');
            }
            Event::End(TagEnd::Paragraph | TagEnd::Item) => {
                if let Some((_, a)) = answer.as_mut() {
                    a.push(' ');
                }
                body.text.push(' ');
            }
            Event::Html(_) | Event::InlineHtml(_) => {
                return Err(ContentError::new(
                    file,
                    "raw HTML is not allowed in content (write markdown)",
                ));
            }
            _ => {}
        }
        out.push(event);
    }
    if let Some(qa) = answer.take() {
        body.faq.push(qa);
    }
    for (_, a) in &mut body.faq {
        *a = a.split_whitespace().collect::<Vec<_>>().join(" ");
    }
    html::push_html(&mut body.html, out.into_iter());
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn front_matter_and_body_split() {
        let (fm, body) = split(
            "x.md",
            "---\ntitle: \"API: a title\"\ndescription: What it says\ndate: 2026-10-01\ntags: [a, b c]\n---\n## Hi\n",
        )
        .expect("valid");
        assert_eq!(fm.title, "API: a title");
        assert_eq!(fm.tags, vec!["a", "b c"]);
        assert_eq!(body, "## Hi\n");
        assert!(split("x.md", "---\ntitle: t\n---\n").is_err());
        assert!(split("x.md", "---\ntitle: t\ndescription: d\nbogus: 1\n---\n").is_err());
        assert!(split("x.md", "no front matter").is_err());
    }

    #[test]
    fn figures_resolve_or_fail() {
        assert_eq!(
            resolve_figures("x.md", "SEO weighs {{weight.seo}}%.").expect("known"),
            "SEO weighs 30%."
        );
        assert!(resolve_figures("x.md", "{{weight.bogus}}").is_err());
        assert!(resolve_figures("x.md", "{{weight.seo").is_err());
    }

    #[test]
    fn questions_become_faq_and_headings_get_anchors() {
        let body = render(
            "x.md",
            "## How it works\n\nText.\n\n### Is it free?\n\nYes, three a day.\nReally.\n\n## Next\n\nMore.\n",
        )
        .expect("valid");
        assert!(
            body.html
                .contains("<h2 id=\"how-it-works\">How it works</h2>")
        );
        assert_eq!(
            body.faq,
            vec![(
                "Is it free?".to_owned(),
                "Yes, three a day. Really.".to_owned()
            )]
        );
        assert!(render("x.md", "# Title\n").is_err());
        assert!(render("x.md", "<script>x</script>\n").is_err());
    }
}
