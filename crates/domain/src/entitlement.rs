//! What a report shows, and to whom (docs/PRODUCT.md §6.3, §6.4, §9.2).
//!
//! A paid report shows everything it holds to whoever holds its link. An unpaid (free) report
//! reaches its readers — as JSON and as PDF — without the Pro-only content: the AI analysis and
//! suggested texts of the meta tag insights, the Open Graph and content suggestions, the
//! Premium Optimization Suite, the solutions of Pro-only diagnostics
//! ([`crate::performance::is_pro_only`]) and the professional sections. The server applies
//! [`viewable`] before anything leaves it, so editing `paid=true` into a free report's address
//! reveals nothing: the address only chooses presentation.
//!
//! The PDF carries the Sitelens watermark unless the report is a paid premium (white-label)
//! one ([`watermarked`]): a free report counts as a basic one ([`pdf_tier`]).

use crate::report::{AnalysisReport, ReportType};

/// The report as its readers may see it: a paid report whole; an unpaid one without the
/// Pro-only content (see [`redact_unpaid`]).
pub fn viewable(mut report: AnalysisReport) -> AnalysisReport {
    if !report.paid {
        redact_unpaid(&mut report);
    }
    report
}

/// Removes the Pro-only content from a report, keeping what a free reader sees: the current
/// title and description stay (they are the page's own text); their AI analysis and suggested
/// replacements, the Open Graph and content suggestions, the Premium Optimization Suite, the
/// professional sections and the solutions of Pro-only diagnostics go. A Pro-only diagnostic
/// keeps its title, measured value and saving, and its `proOnly` flag tells the reader a
/// solution exists in the paid report.
pub fn redact_unpaid(report: &mut AnalysisReport) {
    let perf = &mut report.performance_analysis;
    if let Some(meta) = perf.meta_tag_suggestions.as_mut() {
        for s in [&mut meta.title, &mut meta.description] {
            s.analysis.clear();
            s.suggested.clear();
        }
        meta.og_tags.analysis.clear();
        meta.og_tags.suggestions.clear();
    }
    perf.content_optimizations = None;
    perf.premium_optimizations = None;
    for d in perf.diagnostics.iter_mut().filter(|d| d.pro_only) {
        d.solution.clear();
    }
    report.professional = None;
}

/// The tier the report's PDF is presented as: its report type when it is paid; basic when it
/// is not (a free report is a basic one, whatever depth it was run at).
pub fn pdf_tier(report: &AnalysisReport) -> ReportType {
    if report.paid {
        report.report_type
    } else {
        ReportType::Basic
    }
}

/// Whether the report's PDF carries the Sitelens watermark: every report but a paid premium
/// (white-label) one.
pub fn watermarked(report: &AnalysisReport) -> bool {
    pdf_tier(report).watermarked()
}

/// The watermark drawn across every page of the report's PDF, `None` for a white-label one.
pub fn watermark(report: &AnalysisReport) -> Option<&'static str> {
    pdf_tier(report).watermark()
}

/// The line at the foot of every page of the report's PDF: the analysed address, then the
/// watermark when the report carries one.
pub fn pdf_footer(report: &AnalysisReport) -> String {
    crate::tier::footer_text(&report.url, watermarked(report))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tier::WATERMARK;

    /// A stored report of `report_type`, `paid` or not.
    fn report(report_type: ReportType, paid: bool) -> AnalysisReport {
        let text = include_str!("../tests/stored/premium-report-before-typed-sections.json");
        let mut report: AnalysisReport = serde_json::from_str(text).expect("a report");
        report.report_type = report_type;
        report.paid = paid;
        report
    }

    #[test]
    fn only_a_paid_premium_report_goes_without_the_watermark() {
        // (type, paid, tier shown, watermark)
        let cases = [
            (ReportType::Basic, false, ReportType::Basic, Some(WATERMARK)),
            (
                ReportType::Standard,
                false,
                ReportType::Basic,
                Some(WATERMARK),
            ),
            (
                ReportType::Premium,
                false,
                ReportType::Basic,
                Some(WATERMARK),
            ),
            (ReportType::Basic, true, ReportType::Basic, Some(WATERMARK)),
            (
                ReportType::Standard,
                true,
                ReportType::Standard,
                Some(WATERMARK),
            ),
            (ReportType::Premium, true, ReportType::Premium, None),
        ];
        for (t, paid, tier, mark) in cases {
            let r = report(t, paid);
            assert_eq!(pdf_tier(&r), tier, "{t} paid={paid}");
            assert_eq!(watermark(&r), mark, "{t} paid={paid}");
            assert_eq!(watermarked(&r), mark.is_some(), "{t} paid={paid}");
            assert_eq!(pdf_footer(&r).contains(WATERMARK), mark.is_some());
        }
    }
}
