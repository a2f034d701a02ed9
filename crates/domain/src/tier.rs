//! The report tier rules (docs/PRODUCT.md §9.2): how a report type is stored and named, how many pages
//! it crawls, whether it carries the professional sections, and whether it carries the
//! Sitelens watermark. The store, analyzer, worker, CLI, PDF renderer and web app all ask here.

use crate::report::ReportType;

/// The watermark a watermarked report carries (in the PDF footer).
pub const WATERMARK: &str = "Created with Sitelens";

/// What the sample report at `/demo` says of itself, after its "Sample report." heading: it is a
/// real measurement of a fixture site, not an invented example.
pub const SAMPLE_NOTICE: &str = "Sitelens analysed Harbour Bakery, a small website kept in our repository as a test fixture, with the same analyzer and browser measurement every report uses: the scores, findings, timings and screenshots below were measured, not written by hand.";

impl ReportType {
    /// Every report type, cheapest first.
    pub const ALL: [ReportType; 3] = [ReportType::Basic, ReportType::Standard, ReportType::Premium];

    /// The lowercase name the contract, the database and the CLI use: `basic`, `standard`,
    /// `premium`.
    pub fn as_str(self) -> &'static str {
        match self {
            ReportType::Basic => "basic",
            ReportType::Standard => "standard",
            ReportType::Premium => "premium",
        }
    }

    /// Reads a name written by [`ReportType::as_str`]; `None` for anything else.
    pub fn parse(value: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.as_str() == value)
    }

    /// Pages the report crawls: basic 1, standard 10, premium 20.
    pub fn pages(self) -> u32 {
        match self {
            ReportType::Basic => 1,
            ReportType::Standard => 10,
            ReportType::Premium => 20,
        }
    }

    /// The cheapest report type that crawls `pages` pages; premium beyond its allowance.
    pub fn for_pages(pages: u32) -> Self {
        Self::ALL
            .into_iter()
            .find(|t| pages <= t.pages())
            .unwrap_or(ReportType::Premium)
    }

    /// Whether the report carries the professional sections (backlinks, internal links,
    /// meta tag and header suggestions, robots and sitemap analyses, premium optimizations):
    /// every report but the basic one.
    pub fn is_professional(self) -> bool {
        self != ReportType::Basic
    }

    /// Whether the report carries the Sitelens watermark: basic and standard do, premium is
    /// white-label.
    pub fn watermarked(self) -> bool {
        self != ReportType::Premium
    }

    /// The watermark text of this report type, `None` for a white-label report.
    pub fn watermark(self) -> Option<&'static str> {
        self.watermarked().then_some(WATERMARK)
    }

    /// The line at the foot of every page of the report's PDF: the analysed address, then the
    /// watermark when this report type carries one.
    pub fn footer(self, url: &str) -> String {
        footer_text(url, self.watermarked())
    }
}

/// The PDF footer line for `url`, with the watermark when `watermarked`.
pub fn footer_text(url: &str, watermarked: bool) -> String {
    if watermarked {
        format!("Website analysis of {url} · {WATERMARK}")
    } else {
        format!("Website analysis of {url}")
    }
}

impl std::fmt::Display for ReportType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_match_the_contract() {
        for t in ReportType::ALL {
            assert_eq!(ReportType::parse(t.as_str()), Some(t));
            assert_eq!(
                serde_json::to_value(t).expect("serializes"),
                serde_json::json!(t.as_str())
            );
        }
        assert_eq!(ReportType::parse("Basic"), None);
    }

    #[test]
    fn page_counts_pick_the_cheapest_type_that_covers_them() {
        for t in ReportType::ALL {
            assert_eq!(ReportType::for_pages(t.pages()), t);
        }
        assert_eq!(ReportType::for_pages(0), ReportType::Basic);
        assert_eq!(ReportType::for_pages(2), ReportType::Standard);
        assert_eq!(ReportType::for_pages(11), ReportType::Premium);
        assert_eq!(ReportType::for_pages(500), ReportType::Premium);
    }
}
