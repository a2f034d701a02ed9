//! Any text as a sitemap document.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(doc) = analyzer::sitemap::parse(&text) {
        for loc in &doc.locs {
            assert!(loc.starts_with("http://") || loc.starts_with("https://"), "{loc}");
        }
    }
});
