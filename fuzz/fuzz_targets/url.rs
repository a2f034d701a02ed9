//! Any text as the address a person types and as a link on a page: validated, resolved and
//! normalised the way the crawl does it.

#![no_main]

use analyzer::crawl::{normalized, path_and_query, same_site};
use analyzer::{Analyzer, authority, checks};
use libfuzzer_sys::fuzz_target;
use url::Url;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let base = Url::parse("https://www.bücher.example/straße/").expect("constant URL");
    if let Ok(start) = Analyzer::validate(&text) {
        let _ = same_site(&start, &base);
        let _ = path_and_query(&start);
    }
    if let Ok(link) = base.join(text.trim()) {
        let n = normalized(&link);
        assert!(n.fragment().is_none());
        assert_eq!(normalized(&n), n);
        assert!(same_site(&base, &n) == same_site(&n, &base));
        let pq = path_and_query(&n);
        if n.scheme() == "http" || n.scheme() == "https" {
            assert!(pq.starts_with('/'), "{pq}");
        }
        let _ = checks::short_url(n.as_str());
        if let Some(host) = authority::host_of(n.as_str()) {
            let twin = authority::www_twin(&host);
            assert!(twin.len() == host.len() + 4 || host.len() == twin.len() + 4);
        }
    }
    let _ = checks::short_url(&text);
});
