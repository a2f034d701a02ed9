//! Any text as stylesheets: the colours and fonts a report without a browser shows.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    // Split in two at a character boundary so the reader sees several stylesheets.
    let mid = text
        .char_indices()
        .map(|(i, _)| i)
        .find(|&i| i >= text.len() / 2)
        .unwrap_or(text.len());
    let (a, b) = text.split_at(mid);
    let (colors, fonts) = analyzer::styles::palette(&[a, b, &text], 8, 4);
    assert!(colors.len() <= 8 && fonts.len() <= 4);
    for c in &colors {
        assert!(c.len() == 7 && c.starts_with('#'), "{c:?}");
    }
});
