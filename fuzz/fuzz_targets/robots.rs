//! Any text as robots.txt: parsed, then asked about a few paths, ASCII and not.

#![no_main]

use analyzer::robots::Robots;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let robots = Robots::parse(&text);
    let mut paths = vec![
        "/".to_owned(),
        "/robots.txt".to_owned(),
        "/private/x?y=1".to_owned(),
        "/straße/ページ".to_owned(),
    ];
    // Each rule's own pattern, read as a path, must be allowed or blocked without panicking.
    for g in &robots.groups {
        for r in &g.rules {
            paths.push(r.pattern.clone());
        }
    }
    for token in ["sitelens", "googlebot", "*"] {
        for p in &paths {
            let allowed = robots.is_allowed(token, p);
            let rule = robots.blocking_rule(token, p);
            assert_eq!(allowed, rule.is_none() || p == "/robots.txt", "{p:?}");
        }
    }
});
