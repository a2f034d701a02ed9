//! A cap on element nesting before the HTML parser sees a page.
//!
//! html5ever checks the stack of open elements on every tag, so a document nested tens of
//! thousands of levels deep takes time that grows with the square of its depth: 20,000 nested
//! `<div>`s took about 20 s, 100,000 took minutes, and parsing cannot be interrupted. Browsers
//! do not build such trees either: Chromium's parser stops nesting at 512 levels and attaches
//! deeper elements as siblings at that depth. [`cap_nesting`] does the same to the markup, in one
//! pass: an element beyond the cap is closed at once (its end tag is left out) and what it held
//! follows it, so every element, link and word is still there, in a flatter tree.

use std::borrow::Cow;

/// Chromium's maximum tree depth of parsed HTML (`kMaximumHTMLParserDOMTreeDepth`).
pub const MAX_DEPTH: usize = 512;

/// Elements that never have content: their start tags do not nest.
const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
    "track", "wbr",
];

/// Elements whose content is text up to their own end tag: a `<` inside starts no tag.
const RAW_TEXT: &[&str] = &[
    "script",
    "style",
    "textarea",
    "title",
    "xmp",
    "iframe",
    "noembed",
    "noframes",
    "plaintext",
];

/// Start tags that close an open `<p>` (the HTML parser's rule for block-level elements).
const CLOSES_P: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "details",
    "dialog",
    "div",
    "dl",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hgroup",
    "hr",
    "main",
    "menu",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "table",
    "ul",
];

/// How far down the stack of open elements a tag looks for the element it closes: past that,
/// an end tag is a stray one (the parser ignores those) and a start tag closes nothing.
const LOOK_DOWN: usize = 64;

/// One open element: its name, and whether its tags are kept.
struct Open {
    name: String,
    kept: bool,
}

/// The open elements, as the HTML parser would hold them (its common implied end tags applied).
#[derive(Default)]
struct Stack {
    open: Vec<Open>,
    kept: usize,
}

impl Stack {
    /// The position of the nearest open `name` within reach, stopping at any of `boundary`.
    fn find(&self, names: &[&str], boundary: &[&str]) -> Option<usize> {
        for (i, o) in self.open.iter().enumerate().rev().take(LOOK_DOWN) {
            if names.contains(&o.name.as_str()) {
                return Some(i);
            }
            if boundary.contains(&o.name.as_str()) {
                return None;
            }
        }
        None
    }

    fn pop_to(&mut self, at: usize) -> Option<Open> {
        let mut last = None;
        while self.open.len() > at {
            let o = self.open.pop()?;
            if o.kept {
                self.kept -= 1;
            }
            last = Some(o);
        }
        last
    }

    /// Close what a start tag `name` closes implicitly (an open `p`, list item, cell, row or
    /// option).
    fn implied_ends(&mut self, name: &str) {
        let closed = match name {
            "li" => self.find(&["li"], &["ul", "ol"]),
            "dd" | "dt" => self.find(&["dd", "dt"], &["dl"]),
            "td" | "th" => self.find(&["td", "th"], &["tr", "table"]),
            "tr" => self.find(&["tr"], &["table"]),
            "tbody" | "thead" | "tfoot" => self.find(&["tbody", "thead", "tfoot"], &["table"]),
            "option" => self.find(&["option"], &["select", "datalist"]),
            "optgroup" => self.find(&["optgroup", "option"], &["select"]),
            _ if CLOSES_P.contains(&name) => self.find(&["p"], &["button", "table"]),
            _ => None,
        };
        if let Some(at) = closed {
            self.pop_to(at);
        }
    }
}

/// `html` with the elements nested deeper than `max` levels flattened (see the module
/// documentation); borrowed unchanged when no element is that deep, as on every real page.
pub fn cap_nesting(html: &str, max: usize) -> Cow<'_, str> {
    let bytes = html.as_bytes();
    let mut out: Option<String> = None;
    // Copied into `out` up to here when a tag is left out.
    let mut copied = 0;
    let mut stack = Stack::default();
    let mut i = 0;
    while let Some(lt) = memchr(b'<', bytes, i) {
        i = lt + 1;
        let rest = &bytes[i..];
        if rest.starts_with(b"!--") {
            // A comment runs to `-->` (or to the end).
            i = find(bytes, b"-->", i + 3).map_or(bytes.len(), |e| e + 3);
            continue;
        }
        if rest.first() == Some(&b'!') || rest.first() == Some(&b'?') {
            // A doctype, CDATA section or processing instruction: to the next `>`.
            i = memchr(b'>', bytes, i).map_or(bytes.len(), |e| e + 1);
            continue;
        }
        let closing = rest.first() == Some(&b'/');
        let name_start = if closing { i + 1 } else { i };
        let name_end = bytes[name_start..]
            .iter()
            .position(|b| !b.is_ascii_alphanumeric() && *b != b'-' && *b != b':')
            .map_or(bytes.len(), |p| name_start + p);
        if name_end == name_start || !bytes[name_start].is_ascii_alphabetic() {
            // Not a tag: a lone `<` in text.
            continue;
        }
        let name = html[name_start..name_end].to_ascii_lowercase();
        let Some(tag_end) = tag_end(bytes, name_end) else {
            break;
        };
        let self_closing = bytes[tag_end - 1] == b'/';
        let next = tag_end + 1;
        let mut leave_out = false;
        if closing {
            let open = stack.find(&[name.as_str()], &[]);
            if let Some(at) = open {
                // The end tag of an element left out is left out too.
                leave_out = stack.pop_to(at).is_some_and(|o| !o.kept);
            }
        } else if !VOID.contains(&name.as_str()) && !self_closing {
            stack.implied_ends(&name);
            // Raw-text elements hold only text: they never deepen the tree further.
            let kept = stack.kept < max || RAW_TEXT.contains(&name.as_str());
            if kept {
                stack.kept += 1;
            } else {
                // Past the cap the element stays, empty, and what it held follows it as its
                // siblings: the tree Chromium builds.
                let o = out.get_or_insert_with(|| String::with_capacity(html.len()));
                o.push_str(&html[copied..next]);
                o.push_str("</");
                o.push_str(&name);
                o.push('>');
                copied = next;
            }
            stack.open.push(Open {
                name: name.clone(),
                kept,
            });
        }
        if leave_out {
            let o = out.get_or_insert_with(|| String::with_capacity(html.len()));
            o.push_str(&html[copied..lt]);
            copied = next;
        }
        i = next;
        if !closing && RAW_TEXT.contains(&name.as_str()) {
            // Skip the text to the element's end tag, which the loop then reads as a tag.
            let mut from = i;
            loop {
                match memchr(b'<', bytes, from) {
                    Some(p)
                        if bytes.get(p + 1) == Some(&b'/')
                            && bytes
                                .get(p + 2..p + 2 + name.len())
                                .is_some_and(|n| n.eq_ignore_ascii_case(name.as_bytes())) =>
                    {
                        i = p;
                        break;
                    }
                    Some(p) => from = p + 1,
                    None => {
                        i = bytes.len();
                        break;
                    }
                }
            }
        }
    }
    match out {
        None => Cow::Borrowed(html),
        Some(mut o) => {
            o.push_str(&html[copied..]);
            Cow::Owned(o)
        }
    }
}

/// Where the tag whose name ends at `from` ends (its `>`), attribute values in quotes skipped.
fn tag_end(bytes: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    let mut quote: Option<u8> = None;
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if b == b'"' || b == b'\'' => quote = Some(b),
            None if b == b'>' => return Some(i),
            None => {}
        }
        i += 1;
    }
    None
}

fn memchr(needle: u8, haystack: &[u8], from: usize) -> Option<usize> {
    haystack
        .get(from..)?
        .iter()
        .position(|b| *b == needle)
        .map(|p| from + p)
}

fn find(haystack: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    haystack
        .get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| from + p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(n: usize) -> String {
        format!("{}text{}", "<div>".repeat(n), "</div>".repeat(n))
    }

    #[test]
    fn real_pages_pass_unchanged() {
        let page = "<!doctype html><html><head><title>a < b</title><script>if (a<b) x='</div>'</script>\
                    <style>p>a{}</style></head><body><!-- <div> --><p class='a>b'>Hi<br><img src=x>\
                    <input/> 1 < 2</p></body></html>";
        assert!(matches!(cap_nesting(page, MAX_DEPTH), Cow::Borrowed(_)));
        assert!(matches!(
            cap_nesting(&nested(512), MAX_DEPTH),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn deeper_elements_are_flattened_and_their_text_kept() {
        let five = nested(5);
        assert_eq!(
            cap_nesting(&five, 3),
            "<div><div><div><div></div><div></div>text</div></div></div>"
        );
        // Void and self-closing elements never nest; links, text and siblings survive.
        let html =
            "<div><div><span>a<br>b<img src=x></span><span><a href=/x>c</a></span></div></div>";
        assert_eq!(
            cap_nesting(html, 3),
            "<div><div><span>a<br>b<img src=x></span><span><a href=/x></a>c</span></div></div>"
        );
        // Raw text holds no tags: a `<div>` inside a script is text.
        let html = "<div><div><script>'<div><div><div>'</script></div></div>";
        assert!(matches!(cap_nesting(html, 3), Cow::Borrowed(_)));
    }

    #[test]
    fn end_tags_the_parser_implies_keep_long_lists_flat() {
        // 2,000 list items, paragraphs and rows without end tags are not 2,000 levels deep.
        let items = "<li>item".repeat(2000);
        let paras = "<p>para".repeat(2000);
        let rows = "<tr><td>a<td>b".repeat(2000);
        let html = format!("<ul>{items}</ul><div>{paras}</div><table>{rows}</table>");
        assert!(matches!(cap_nesting(&html, 8), Cow::Borrowed(_)));
        // Stray end tags close nothing.
        assert!(matches!(
            cap_nesting("<div></span></p></div>", 1),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn a_very_deep_page_parses_quickly_after_the_cap() {
        // 100,000 levels: the scan is linear and the capped page is what a browser would build.
        let html = nested(100_000);
        let capped = cap_nesting(&html, MAX_DEPTH);
        assert_eq!(capped.matches("<div>").count(), 100_000);
        assert_eq!(capped.matches("<div></div>").count(), 100_000 - MAX_DEPTH);
        assert!(capped.contains("text"));
    }
}
