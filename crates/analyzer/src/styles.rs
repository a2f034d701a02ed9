//! Colours and fonts as the site's CSS declares them (inline styles and the start page's
//! stylesheets), for reports made without a browser. A browser measurement replaces them with
//! computed values.

use std::collections::HashMap;

/// Generic families and keywords that name no actual font.
const GENERIC_FONTS: &[&str] = &[
    "serif",
    "sans-serif",
    "monospace",
    "cursive",
    "fantasy",
    "system-ui",
    "ui-sans-serif",
    "ui-serif",
    "ui-monospace",
    "ui-rounded",
    "emoji",
    "math",
    "inherit",
    "initial",
    "unset",
    "revert",
    "-apple-system",
    "blinkmacsystemfont",
];

/// Normalise a hex colour to lower-case `#rrggbb`; `None` when it is not one.
fn hex(raw: &str) -> Option<String> {
    let h = raw.strip_prefix('#')?;
    if !h.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let full = match h.len() {
        3 | 4 => h.chars().take(3).flat_map(|c| [c, c]).collect::<String>(),
        6 | 8 => h[..6].to_owned(),
        _ => return None,
    };
    Some(format!("#{}", full.to_ascii_lowercase()))
}

/// `rgb(r, g, b)` / `rgba(...)` / `rgb(r g b / a)` as `#rrggbb`.
fn rgb(args: &str) -> Option<String> {
    let nums: Vec<u8> = args
        .split([',', ' ', '/'])
        .filter(|p| !p.trim().is_empty())
        .take(3)
        .map(|p| {
            p.trim()
                .parse::<f64>()
                .ok()
                .map(|v| v.clamp(0.0, 255.0).round() as u8)
        })
        .collect::<Option<Vec<u8>>>()?;
    (nums.len() == 3).then(|| format!("#{:02x}{:02x}{:02x}", nums[0], nums[1], nums[2]))
}

/// The longest `rgb(...)` argument list read, in bytes (`rgba(255, 255, 255, 0.125)` is 21).
const MAX_RGB_ARGS: usize = 64;

/// Offset from `from` of the ASCII byte `b` within the next `window` bytes. An ASCII byte never
/// occurs inside a multi-byte character, so the offset is a character boundary.
fn ascii_within(bytes: &[u8], from: usize, window: usize, b: u8) -> Option<usize> {
    let end = bytes.len().min(from.saturating_add(window));
    bytes.get(from..end)?.iter().position(|&x| x == b)
}

/// The most used colours (as `#rrggbb`) and font families in `css`, most frequent first.
pub fn palette(css: &[&str], max_colors: usize, max_fonts: usize) -> (Vec<String>, Vec<String>) {
    let mut colors: HashMap<String, usize> = HashMap::new();
    let mut fonts: HashMap<String, usize> = HashMap::new();
    let mut first_seen: HashMap<String, usize> = HashMap::new();
    let mut order = 0usize;
    for text in css {
        // Colours: #hex anywhere in declarations, rgb()/rgba() calls.
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            // Step over the inner bytes of multi-byte characters: every slice below starts at a
            // character boundary (stylesheets carry text such as `content: "—"`).
            if !text.is_char_boundary(i) {
                i += 1;
                continue;
            }
            if bytes[i] == b'#' {
                let end = text[i + 1..]
                    .find(|c: char| !c.is_ascii_hexdigit())
                    .map_or(text.len(), |e| i + 1 + e);
                // Only in a value: the previous non-space character is ':' ',' '(' or a space run.
                let before = text[..i].trim_end().chars().last();
                if matches!(before, Some(':' | ',' | '(' | ' '))
                    && let Some(c) = hex(&text[i..end])
                {
                    *colors.entry(c.clone()).or_default() += 1;
                    first_seen.entry(c).or_insert_with(|| {
                        order += 1;
                        order
                    });
                }
                i = end.max(i + 1);
                continue;
            }
            // The parentheses are looked for close by: searching the rest of the text for
            // every "rgb" made a large stylesheet take seconds (quadratic time).
            if text[i..].starts_with("rgb")
                && let Some(open) = ascii_within(bytes, i, 5, b'(')
                && let Some(close) = ascii_within(bytes, i + open, MAX_RGB_ARGS, b')')
            {
                if let Some(c) = rgb(&text[i + open + 1..i + open + close]) {
                    *colors.entry(c.clone()).or_default() += 1;
                    first_seen.entry(c).or_insert_with(|| {
                        order += 1;
                        order
                    });
                }
                i += open + close + 1;
                continue;
            }
            i += 1;
        }
        // Fonts: the first named family of each font-family declaration.
        let lower = text.to_ascii_lowercase();
        let mut from = 0;
        while let Some(pos) = lower[from..].find("font-family") {
            let start = from + pos + "font-family".len();
            let Some(colon) = text[start..].find(':') else {
                break;
            };
            let value_start = start + colon + 1;
            let value_end = text[value_start..]
                .find([';', '}', '!'])
                .map_or(text.len(), |e| value_start + e);
            let families = &text[value_start..value_end];
            if let Some(name) = families
                .split(',')
                .map(|f| f.trim().trim_matches(['"', '\'']).trim())
                .find(|f| {
                    !f.is_empty()
                        && !GENERIC_FONTS.contains(&f.to_ascii_lowercase().as_str())
                        && !f.starts_with("var(")
                })
            {
                *fonts.entry(name.to_owned()).or_default() += 1;
                first_seen.entry(format!("font:{name}")).or_insert_with(|| {
                    order += 1;
                    order
                });
            }
            from = value_end.max(start);
        }
    }
    let rank = |m: HashMap<String, usize>, prefix: &str, n: usize| -> Vec<String> {
        let mut v: Vec<(String, usize)> = m.into_iter().collect();
        v.sort_by(|a, b| {
            b.1.cmp(&a.1).then_with(|| {
                let fa = first_seen
                    .get(&format!("{prefix}{}", a.0))
                    .copied()
                    .unwrap_or(usize::MAX);
                let fb = first_seen
                    .get(&format!("{prefix}{}", b.0))
                    .copied()
                    .unwrap_or(usize::MAX);
                fa.cmp(&fb)
            })
        });
        v.into_iter().take(n).map(|(k, _)| k).collect()
    };
    (
        rank(colors, "", max_colors),
        rank(fonts, "font:", max_fonts),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_and_fonts_by_frequency() {
        let css = "body{color:#333;background:#FFFFFF;font-family: \"Inter\", sans-serif}\
                   a{color:#0d6efd} a:hover{color: rgb(13, 110, 253)} h1{color:#333333;font-family:'Playfair Display',serif}\
                   #main{margin:0} .x{font-family: system-ui, Roboto}";
        let (colors, fonts) = palette(&[css, "color: #333"], 6, 4);
        assert_eq!(colors, vec!["#333333", "#0d6efd", "#ffffff"]);
        assert_eq!(fonts, vec!["Inter", "Playfair Display", "Roboto"]);
    }

    #[test]
    fn non_ascii_stylesheets_are_read_without_panicking() {
        // Bootstrap's CSS: an em dash in a comment and in `content`, then colours after them.
        let css = "@charset \"UTF-8\";\n/*! Bootstrap — https://getbootstrap.com */\n\
                   .breadcrumb-item+.breadcrumb-item::before{content:\"—\";color:#6c757d}\n\
                   .ja{font-family:\"ヒラギノ角ゴ Pro\",sans-serif;color:rgb(33,37,41)}\n\
                   .emoji::after{content:\"✓ 🚀\"}#x{background:#FFF}";
        let (colors, fonts) = palette(&[css], 6, 4);
        assert_eq!(colors, vec!["#6c757d", "#212529", "#ffffff"]);
        assert_eq!(fonts, vec!["ヒラギノ角ゴ Pro"]);
    }

    /// "rgb" with no parenthesis after it (Bootstrap's `--bs-primary-rgb: 13,110,253`) once made
    /// each occurrence search the rest of the text: seconds for a large stylesheet.
    #[test]
    fn rgb_without_parentheses_in_a_large_stylesheet() {
        let css = ".c{--bs-primary-rgb:13,110,253;color:#5a3e9b} /* «rgb» — 紫 */\n".repeat(40_000);
        let (colors, _) = palette(&[&css, "rgb(".repeat(100_000).as_str()], 6, 4);
        assert_eq!(colors, vec!["#5a3e9b"]);
    }

    proptest::proptest! {
        /// A colour declared after any text is found, whatever came before it.
        #[test]
        fn a_declared_colour_is_found_after_any_text(css in "\\PC{0,200}") {
            let text = format!("{css}\n.x{{color:#a1b2c3}}\n");
            let (colors, _) = palette(&[text.as_str()], usize::MAX, 4);
            proptest::prop_assert!(colors.contains(&"#a1b2c3".to_owned()), "{:?}", colors);
        }


        #[test]
        fn any_text_is_read_without_panicking(css in "\\PC{0,400}", tail in "[#rgb(), 0-9a-f:;]{0,40}") {
            let text = format!("{css}{tail}{css}");
            let (colors, fonts) = palette(&[text.as_str()], 8, 4);
            proptest::prop_assert!(colors.len() <= 8 && fonts.len() <= 4);
            for c in colors {
                proptest::prop_assert!(c.len() == 7 && c.starts_with('#'));
            }
        }
    }
}
