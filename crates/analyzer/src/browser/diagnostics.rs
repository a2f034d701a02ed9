//! Diagnostics from the browser measurements, with resource details.

use domain::performance::{DiagnosedMetric, is_pro_only, metric_diagnostic};
use domain::report::{Diagnostic, DiagnosticDetail, DiagnosticType};

use super::Simulated;
use super::metrics::{ImageFinding, LabMetrics, kb};

#[allow(clippy::too_many_arguments)]
fn diagnostic(
    id: &str,
    kind: DiagnosticType,
    title: String,
    description: String,
    value: String,
    potential: String,
    solution: &str,
    details: Vec<DiagnosticDetail>,
) -> Diagnostic {
    let mut d = Diagnostic {
        id: id.to_owned(),
        kind,
        title,
        description,
        value,
        potential,
        solution: solution.to_owned(),
        details,
        pro_only: false,
    };
    d.pro_only = is_pro_only(&d);
    d
}

/// Diagnostics from the browser measurements, with resource details (url, wastedBytes,
/// totalBytes). FCP and LCP diagnostics come from `domain::performance::generate_diagnostics`;
/// TBT and CLS, which only a browser measures, from `domain::performance::metric_diagnostic`.
/// With a simulation, render-blocking resources and savings are those of the simulated phone.
pub fn diagnostics(m: &LabMetrics, sim: Option<&Simulated>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    // TBT and CLS by domain's rule for every metric with a threshold (docs/PRODUCT.md §9.8).
    for (metric, value) in [
        (DiagnosedMetric::TotalBlockingTime, m.total_blocking_time),
        (
            DiagnosedMetric::CumulativeLayoutShift,
            m.cumulative_layout_shift,
        ),
    ] {
        out.extend(metric_diagnostic(metric, value));
    }
    match sim {
        Some(sim) if !sim.mobile.render_blocking.is_empty() => {
            let e = &sim.mobile;
            out.push(diagnostic(
                "perf.render-blocking",
                DiagnosticType::Warning,
                format!("{} render-blocking resource(s)", e.render_blocking.len()),
                format!(
                    "On a simulated Slow 4G phone these styles and scripts hold the first paint back: {}.",
                    e.render_blocking
                        .iter()
                        .map(|r| format!("{} {:.0} ms", crate::checks::short_url(&r.url), r.wasted_ms))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                format!("{:.0} ms", e.render_blocking.iter().map(|r| r.wasted_ms).fold(0.0, f64::max)),
                format!("{:.0} ms", e.render_blocking_savings_ms),
                "Inline critical CSS, load scripts with defer or async, and preload what the first view needs.",
                e.render_blocking
                    .iter()
                    .map(|r| DiagnosticDetail { url: r.url.clone(), wasted_bytes: 0.0, total_bytes: r.transfer_size })
                    .collect(),
            ));
        }
        Some(_) => {}
        None if !m.render_blocking.is_empty() => {
            let worst = m
                .render_blocking
                .iter()
                .map(|r| r.end_ms)
                .fold(0.0_f64, f64::max);
            let saving = (worst - m.time_to_first_byte.unwrap_or(0.0)).max(0.0);
            out.push(diagnostic(
                "perf.render-blocking",
                DiagnosticType::Warning,
                format!("{} render-blocking resource(s)", m.render_blocking.len()),
                "Styles and scripts in the head delay the first paint until they have loaded.".to_owned(),
                format!("{:.0} ms", worst),
                format!("{:.0} ms", saving),
                "Inline critical CSS, load scripts with defer or async, and preload what the first view needs.",
                m.render_blocking
                    .iter()
                    .map(|r| DiagnosticDetail { url: r.url.clone(), wasted_bytes: 0.0, total_bytes: r.transferred_bytes })
                    .collect(),
            ));
        }
        None => {}
    }
    let savings = m.image_savings();
    if savings > 0.0 {
        out.push(diagnostic(
            "perf.images",
            DiagnosticType::Warning,
            format!("Images could be {} smaller", kb(savings)),
            "Images are served larger than displayed or in an older format.".to_owned(),
            kb(m.images
                .iter()
                .filter(|i| i.wasted_bytes > 0.0)
                .map(|i| i.transferred_bytes)
                .sum()),
            match sim.and_then(|s| s.image_savings) {
                Some((_, lcp)) if lcp > 0.0 => {
                    format!(
                        "{} (LCP about {lcp:.0} ms sooner on a simulated phone)",
                        kb(savings)
                    )
                }
                _ => kb(savings),
            },
            "Resize images to their displayed size and serve WebP or AVIF.",
            m.images
                .iter()
                .filter(|i| i.wasted_bytes > 0.0)
                .map(|i| DiagnosticDetail {
                    url: i.url.clone(),
                    wasted_bytes: i.wasted_bytes,
                    total_bytes: i.transferred_bytes,
                })
                .collect(),
        ));
    }
    let no_dimensions: Vec<&ImageFinding> = m.images.iter().filter(|i| i.no_dimensions).collect();
    if !no_dimensions.is_empty() {
        out.push(diagnostic(
            "perf.no_dimensions-images",
            DiagnosticType::Warning,
            format!(
                "{} image(s) without explicit width and height",
                no_dimensions.len()
            ),
            "The browser cannot reserve their space, so the layout shifts when they load."
                .to_owned(),
            no_dimensions.len().to_string(),
            "layout shift".to_owned(),
            "Give every image width and height attributes (or a CSS aspect-ratio).",
            no_dimensions
                .iter()
                .map(|i| DiagnosticDetail {
                    url: i.url.clone(),
                    wasted_bytes: 0.0,
                    total_bytes: i.transferred_bytes,
                })
                .collect(),
        ));
    }
    if m.third_party.requests > 0 {
        out.push(diagnostic(
            "perf.third-party",
            DiagnosticType::Info,
            format!("Third-party code: {} request(s), {:.0}% of bytes", m.third_party.requests, m.third_party.byte_share * 100.0),
            format!("Other sites contacted: {}.", m.third_party.hosts.join(", ")),
            kb(m.third_party.transferred_bytes),
            kb(m.third_party.transferred_bytes),
            "Remove third-party tags you do not need and load the rest after the page is interactive.",
            Vec::new(),
        ));
    }
    if !m.largest.is_empty() {
        out.push(diagnostic(
            "perf.total-byte-weight",
            if m.transferred_bytes > 3_000_000.0 {
                DiagnosticType::Warning
            } else {
                DiagnosticType::Info
            },
            format!(
                "Page weight {} in {} requests",
                kb(m.transferred_bytes),
                m.request_count
            ),
            "The largest resources the page loads; under 3 MB and 50 requests is good.".to_owned(),
            kb(m.transferred_bytes),
            kb((m.transferred_bytes - 3_000_000.0).max(0.0)),
            "Compress and cache text resources, trim images and drop unused scripts.",
            m.largest
                .iter()
                .take(5)
                .map(|r| DiagnosticDetail {
                    url: r.url.clone(),
                    wasted_bytes: 0.0,
                    total_bytes: r.transferred_bytes,
                })
                .collect(),
        ));
    }
    out
}
