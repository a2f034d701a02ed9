//! The sample report at `/demo`: a real report of the e2e fixture site (`e2e/fixtures/site`, a
//! small bakery website), measured once by our own analyzer with Chromium and checked in under
//! `crates/server/demo/` with its two screenshots, so the page needs no browser at request time.
//!
//! The server test `services::demo` checks the file against the current contract and against
//! what today's analyzer says of the same site, and rewrites it (`UPDATE_DEMO=1`).

use domain::report::AnalysisReport;

/// The report as the analyzer wrote it (only its id and screenshot addresses are ours: see
/// [`SAMPLE_ID`] and [`screenshot`]).
pub const REPORT_JSON: &str = include_str!("../../demo/report.json");

/// The sample's report id. It is no UUID, so it never names a stored report.
pub const SAMPLE_ID: &str = "sample";

/// Where the sample's screenshots are served: `/demo/desktop.png` and `/demo/mobile.png`.
pub const SCREENSHOT_PREFIX: &str = "/demo/";

/// The desktop (1280x800) and mobile (375x667) screenshots Chromium took of the fixture's home.
const SCREENSHOTS: &[(&str, &[u8])] = &[
    ("desktop.png", include_bytes!("../../demo/desktop.png")),
    ("mobile.png", include_bytes!("../../demo/mobile.png")),
];

/// The sample report, parsed (once per call: callers keep it).
pub fn report() -> Result<AnalysisReport, serde_json::Error> {
    serde_json::from_str(REPORT_JSON)
}

/// A screenshot of the sample by file name (`desktop.png`, `mobile.png`).
pub fn screenshot(name: &str) -> Option<&'static [u8]> {
    SCREENSHOTS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, bytes)| *bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_parses_and_names_its_own_screenshots() {
        let r = report().expect("the checked-in sample matches the contract");
        assert_eq!(r.id, SAMPLE_ID);
        for shot in [&r.screenshots.desktop, &r.screenshots.mobile] {
            let name = shot
                .as_deref()
                .and_then(|s| s.strip_prefix(SCREENSHOT_PREFIX))
                .expect("a screenshot served by us");
            assert!(screenshot(name).is_some_and(|b| b.starts_with(b"\x89PNG")));
        }
        assert!(screenshot("other.png").is_none());
    }
}
