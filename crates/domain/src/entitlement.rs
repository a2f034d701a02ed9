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
//! one ([`watermarked`]).

use crate::report::AnalysisReport;

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

/// Whether the report's PDF carries the Sitelens watermark: every report but a paid premium
/// (white-label) one.
pub fn watermarked(report: &AnalysisReport) -> bool {
    !report.paid || report.report_type.watermarked()
}

/// The line at the foot of every page of the report's PDF: the analysed address, then the
/// watermark when the report carries one.
pub fn pdf_footer(report: &AnalysisReport) -> String {
    crate::tier::footer_text(&report.url, watermarked(report))
}
