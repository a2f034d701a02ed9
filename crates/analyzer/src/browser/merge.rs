//! Fold a [`BrowserReport`] into an [`AnalysisReport`] built from the HTTP side.
//!
//! What changes:
//! - `performanceAnalysis`: the headline lab figures (the load simulated on Lighthouse's mobile
//!   preset, or as observed when it could not be simulated), the load time, page size (bytes on
//!   the wire) and request count replace the spec's fallback values and leave `estimated`;
//!   `mobileScore` is the load's Lighthouse-style mobile score; the rings get that score, the
//!   axe-core accessibility score and the
//!   best-practices score (SEO stays as the HTTP side computed it); diagnostics are regenerated
//!   from the measured figures (`domain::performance::generate_diagnostics`) plus the browser's
//!   own (render-blocking, images, TBT, CLS, weight, third parties); paid reports get the
//!   Premium Optimization Suite.
//! - `designAnalysis`: the Typography, Visual Appeal, Navigation and Mobile Friendliness groups
//!   and an Accessibility group (findings carry Lighthouse audit ids); groups with the same
//!   title are merged, findings with an id already present are skipped.
//! - `technicalAnalysis`: a Best Practices group.
//! - `scores`: design from all design findings, performance = the headline lab score, overall
//!   recomputed with `domain::score::overall_score`.
//! - `actionItems`: non-good browser findings are added (issue high, audited warning medium,
//!   other warnings low) and re-sorted by `domain`.
//! - `websiteColors`, `websiteFonts`, `screenshots`.

use domain::performance::{MeasuredMetrics, fill_fallbacks, generate_diagnostics};
use domain::report::{
    ActionItem, AnalysisReport, Finding, FindingType, LabRun, LighthouseResult, Priority,
    Screenshots, SectionGroup,
};

use crate::simulation::Estimates;
use domain::score::{findings_score, group_status, overall_score};

use super::diagnostics;
use super::metrics::LabMetrics;
use super::{BlobStore, BrowserReport, premium};

/// Diagnostic ids the browser measures and therefore replaces.
const REPLACED_DIAGNOSTICS: &[&str] = &[
    "perf.fcp",
    "perf.lcp",
    "perf.tbt",
    "perf.cls",
    "perf.render-blocking",
    "perf.images",
    "perf.unsized-images",
    "perf.third-party",
    "perf.total-byte-weight",
];

/// The measured metrics of one load, in the shape `domain` fills and diagnoses.
pub fn measured(
    m: &LabMetrics,
    accessibility: Option<u32>,
    best_practices: Option<u32>,
) -> MeasuredMetrics {
    MeasuredMetrics {
        accessibility_score: accessibility.map(f64::from),
        best_practices_score: best_practices.map(f64::from),
        first_contentful_paint: m.first_contentful_paint,
        largest_contentful_paint: m.largest_contentful_paint,
        cumulative_layout_shift: Some(m.cumulative_layout_shift),
        total_blocking_time: Some(m.total_blocking_time),
        speed_index: m.speed_index,
        estimated_load_time: m.load_time,
        page_size: Some(m.transferred_bytes),
        request_count: Some(f64::from(m.request_count)),
    }
}

fn merge_group(groups: &mut Vec<SectionGroup>, incoming: SectionGroup) {
    let existing_ids: Vec<String> = groups
        .iter()
        .flat_map(|g| g.findings.iter().map(|f| f.id.clone()))
        .collect();
    let fresh: Vec<Finding> = incoming
        .findings
        .into_iter()
        .filter(|f| !existing_ids.contains(&f.id))
        .collect();
    if fresh.is_empty() {
        return;
    }
    match groups.iter_mut().find(|g| g.title == incoming.title) {
        Some(g) => {
            g.findings.extend(fresh);
            g.status = group_status(&g.findings);
        }
        None => groups.push(SectionGroup {
            title: incoming.title,
            status: group_status(&fresh),
            findings: fresh,
        }),
    }
}

fn run_summary(r: &LabRun) -> LighthouseResult {
    let secs = |v: Option<f64>| {
        v.map_or("not measured".to_owned(), |v| {
            format!("{:.1} s", v / 1000.0)
        })
    };
    LighthouseResult {
        title: format!("Lab, {}", r.conditions.label().to_lowercase()),
        description: format!(
            "score {}; FCP {}, LCP {}, Speed Index {}, TBT {}, CLS {}, TTI {}",
            r.score.map_or("not scored".to_owned(), |s| s.to_string()),
            secs(r.first_contentful_paint),
            secs(r.largest_contentful_paint),
            secs(r.speed_index),
            r.total_blocking_time
                .map_or("not measured".to_owned(), |v| format!("{v:.0} ms")),
            r.cumulative_layout_shift
                .map_or("not measured".to_owned(), |v| format!("{v:.3}")),
            secs(r.time_to_interactive),
        ),
    }
}

/// A finding for requests whose host did not resolve or did not answer: each cost the page a
/// failed request (and, for a host that hangs, up to the proxy's connection limit or the
/// load's time limit).
fn unanswered_finding(urls: &[String]) -> Option<Finding> {
    if urls.is_empty() {
        return None;
    }
    let mut hosts: Vec<String> = urls
        .iter()
        .filter_map(|u| url::Url::parse(u).ok()?.host_str().map(str::to_owned))
        .collect();
    hosts.dedup();
    hosts.sort();
    hosts.dedup();
    Some(crate::checks::warning(
        "perf.unanswered-requests",
        None,
        format!("{} request(s) got no answer", urls.len()),
        format!(
            "The page asks hosts that did not resolve or did not answer in time: {}. Each is a failed request, and a host that hangs holds the page's loading back.",
            hosts.join(", ")
        ),
        "Remove references to services the site no longer uses, or host those files yourself.",
    ))
}

/// Lighthouse's SEO audits that are axe-core rules: Lighthouse takes their verdicts from the
/// accessibility run, which sees the page as it stands (an image a script added included).
const AXE_SEO_AUDITS: [&str; 2] = ["document-title", "image-alt"];

/// Lighthouse's SEO score of the merged report: the HTTP side's verdicts, with those of
/// [`AXE_SEO_AUDITS`] taken from axe-core when it ran (`None`: it did not, and the HTTP side's
/// score stands). An axe-core rule with no verdict was not applicable (no image), as in
/// Lighthouse.
fn seo_score_with_axe(groups: &[&[SectionGroup]], axe: &super::AccessibilityResult) -> Option<u32> {
    // No score: axe-core did not run.
    axe.score?;
    let http = groups
        .iter()
        .flat_map(|g| g.iter())
        .flat_map(|g| &g.findings)
        .filter_map(crate::report::audit_verdict)
        .filter(|(a, _)| !AXE_SEO_AUDITS.contains(a));
    let axe = axe
        .audits
        .iter()
        .filter(|a| AXE_SEO_AUDITS.contains(&a.id.as_str()))
        .map(|a| (a.id.as_str(), a.passed));
    crate::report::lighthouse_seo_score(http.chain(axe))
}

/// Replace the HTTP side's render-blocking finding (read from the markup alone) by the verdict
/// of the simulated mobile load: resources that held the first paint back by 50 ms or more.
fn replace_render_blocking(groups: &mut [SectionGroup], sim: &Estimates) {
    for g in groups.iter_mut() {
        let Some(f) = g
            .findings
            .iter_mut()
            .find(|f| f.audit.as_deref() == Some("render-blocking-resources"))
        else {
            continue;
        };
        if sim.render_blocking.is_empty() {
            f.kind = FindingType::Good;
            f.title = "No render-blocking resources".to_owned();
            f.description = "On a simulated Slow 4G phone no stylesheet or script delays the first paint by 50 ms or more.".to_owned();
            f.solution = None;
        } else {
            let list: Vec<String> = sim
                .render_blocking
                .iter()
                .take(5)
                .map(|r| {
                    format!(
                        "{} ({:.0} ms)",
                        crate::checks::short_url(&r.url),
                        r.wasted_ms
                    )
                })
                .collect();
            f.kind = FindingType::Warning;
            f.title = "Render-blocking resources".to_owned();
            f.description = format!(
                "{} resource(s) delay the first paint on a simulated Slow 4G phone: {}. Deferring them would paint about {:.0} ms sooner.",
                sim.render_blocking.len(),
                list.join(", "),
                sim.render_blocking_savings_ms
            );
            f.solution = Some(
                "Inline the critical CSS, load the rest of the styles without blocking, and give scripts in the head defer or async."
                    .to_owned(),
            );
        }
        g.status = group_status(&g.findings);
    }
}

/// Lighthouse 12.8.2's `total-byte-weight` curve: 2,667 KiB scores 0.9, 4,000 KiB 0.5.
const TOTAL_BYTE_WEIGHT: domain::score::Curve = domain::score::Curve {
    p10: 2667.0 * 1024.0,
    median: 4000.0 * 1024.0,
    weight: 0,
};

/// Whether Lighthouse passes `total-byte-weight` for a load of `bytes` on the wire: its score
/// on the curve, rounded to two places as Lighthouse rounds audit scores, is at least 0.9.
fn byte_weight_passes(bytes: f64) -> bool {
    let score = domain::score::log_normal_score(TOTAL_BYTE_WEIGHT, bytes);
    (score * 100.0).round() / 100.0 >= 0.9
}

/// Replace the HTTP side's page-weight verdict (the HTML and at most the first referenced
/// assets, fetched one by one) by Lighthouse's `total-byte-weight` rule on what the measured
/// load transferred: every request the page made, on the wire.
fn replace_page_weight(groups: &mut [SectionGroup], bytes: f64, requests: u32) {
    for g in groups.iter_mut() {
        let Some(f) = g
            .findings
            .iter_mut()
            .find(|f| f.audit.as_deref() == Some("total-byte-weight"))
        else {
            continue;
        };
        let kib = (bytes / 1024.0).round();
        if byte_weight_passes(bytes) {
            f.kind = FindingType::Good;
            f.title = "Page weight is reasonable".to_owned();
            f.description = format!(
                "The page transferred {kib:.0} KiB in {requests} requests (good: at most about 2,700 KiB)."
            );
            f.solution = None;
        } else {
            f.kind = FindingType::Warning;
            f.title = "Page is heavy".to_owned();
            f.description = format!(
                "The page transferred {kib:.0} KiB in {requests} requests; above about 2,700 KiB it loads slowly on mobile connections."
            );
            f.solution = Some(
                "Compress and resize images, serve WebP/AVIF, and drop unused scripts and styles."
                    .to_owned(),
            );
        }
        g.status = group_status(&g.findings);
    }
}

/// Store both screenshots through `store` as `{report_id}-desktop.png` and
/// `{report_id}-mobile.png` and return their addresses.
pub async fn store_screenshots(
    browser: &BrowserReport,
    store: &dyn BlobStore,
    report_id: &str,
) -> std::io::Result<Screenshots> {
    let mut out = Screenshots::default();
    if let Some(png) = &browser.screenshots.desktop {
        out.desktop = Some(
            store
                .put(&format!("{report_id}-desktop.png"), "image/png", png)
                .await?,
        );
    }
    if let Some(png) = &browser.screenshots.mobile {
        out.mobile = Some(
            store
                .put(&format!("{report_id}-mobile.png"), "image/png", png)
                .await?,
        );
    }
    Ok(out)
}

/// Merge `browser` into `report` (see the module documentation). `screenshots` are the stored
/// addresses ([`store_screenshots`]); `premium` adds the Premium Optimization Suite.
pub fn merge_into(
    report: &mut AnalysisReport,
    browser: &BrowserReport,
    screenshots: Screenshots,
    premium: bool,
) {
    // The headline is Lighthouse's mobile test: the mobile load, simulated on a Slow 4G phone
    // (or as observed, when it could not be simulated).
    let load = &browser.mobile;
    let runs = browser.lab_runs();
    let head = runs.first().cloned();
    let a11y = browser.accessibility.score;
    let bp = browser.best_practices.score;
    let m = MeasuredMetrics {
        accessibility_score: a11y.map(f64::from),
        best_practices_score: bp.map(f64::from),
        first_contentful_paint: head.as_ref().and_then(|h| h.first_contentful_paint),
        largest_contentful_paint: head.as_ref().and_then(|h| h.largest_contentful_paint),
        cumulative_layout_shift: head.as_ref().and_then(|h| h.cumulative_layout_shift),
        total_blocking_time: head.as_ref().and_then(|h| h.total_blocking_time),
        speed_index: head.as_ref().and_then(|h| h.speed_index),
        estimated_load_time: load.load_time,
        page_size: Some(load.transferred_bytes),
        request_count: Some(f64::from(load.request_count)),
    };
    let filled = fill_fallbacks(&m);
    let headline_score = head.as_ref().and_then(|h| h.score);

    // Groups first: the scores below read them.
    for g in browser.design_groups.iter().cloned() {
        merge_group(&mut report.design_analysis, g);
    }
    if !browser.accessibility.findings.is_empty() {
        merge_group(
            &mut report.design_analysis,
            SectionGroup {
                title: "Accessibility".to_owned(),
                status: group_status(&browser.accessibility.findings),
                findings: browser.accessibility.findings.clone(),
            },
        );
    }
    if !browser.best_practices.findings.is_empty() {
        merge_group(
            &mut report.technical_analysis,
            SectionGroup {
                title: "Best Practices".to_owned(),
                status: group_status(&browser.best_practices.findings),
                findings: browser.best_practices.findings.clone(),
            },
        );
    }
    if let Some(sim) = &browser.simulated {
        replace_render_blocking(&mut report.technical_analysis, &sim.mobile);
    }
    replace_page_weight(
        &mut report.technical_analysis,
        load.transferred_bytes,
        load.request_count,
    );
    if let Some(f) = unanswered_finding(&load.unanswered) {
        merge_group(
            &mut report.technical_analysis,
            SectionGroup {
                title: "Page Weight & Loading".to_owned(),
                status: group_status(std::slice::from_ref(&f)),
                findings: vec![f],
            },
        );
    }

    let seo = seo_score_with_axe(
        &[
            &report.seo_analysis,
            &report.design_analysis,
            &report.technical_analysis,
        ],
        &browser.accessibility,
    );
    {
        let pm = &mut report.performance_analysis;
        pm.first_contentful_paint = filled.first_contentful_paint;
        pm.largest_contentful_paint = filled.largest_contentful_paint;
        pm.cumulative_layout_shift = filled.cumulative_layout_shift;
        pm.total_blocking_time = filled.total_blocking_time;
        pm.speed_index = filled.speed_index;
        pm.estimated_load_time = filled.estimated_load_time;
        let tti = head.as_ref().and_then(|h| h.time_to_interactive);
        pm.time_to_interactive = tti.unwrap_or(filled.estimated_load_time);
        pm.page_size = filled.page_size;
        pm.request_count = filled.request_count.round() as u32;
        pm.accessibility_score = filled.accessibility_score.round() as u32;
        pm.best_practices_score = filled.best_practices_score.round() as u32;
        pm.scores.accessibility = pm.accessibility_score;
        if let Some(s) = seo {
            pm.seo_score = s;
            pm.scores.seo = s;
        }
        pm.scores.best_practices = pm.best_practices_score;
        if let Some(s) = headline_score {
            pm.scores.performance = s;
        }
        if let Some(s) = browser.mobile_score {
            pm.mobile_score = s;
        }
        let mut estimated = filled.estimated.clone();
        if tti.is_none() {
            estimated.push("timeToInteractive".to_owned());
        }
        pm.estimated = estimated;

        // Diagnostics read the figures as shown: the headline's, on the mobile load's resources.
        let mut shown = load.clone();
        shown.total_blocking_time = filled.total_blocking_time;
        shown.cumulative_layout_shift = filled.cumulative_layout_shift;
        pm.diagnostics
            .retain(|x| !REPLACED_DIAGNOSTICS.contains(&x.id.as_str()));
        pm.diagnostics.extend(generate_diagnostics(&m));
        pm.diagnostics
            .extend(diagnostics::diagnostics(&shown, browser.simulated.as_ref()));

        pm.lighthouse_results
            .retain(|r| !r.title.starts_with("Lab"));
        pm.lighthouse_results.extend(runs.iter().map(run_summary));
        for a in browser
            .accessibility
            .audits
            .iter()
            .chain(&browser.best_practices.audits)
        {
            if !a.passed {
                pm.lighthouse_results.push(LighthouseResult {
                    title: format!("Lab: {} failed", a.id),
                    description: format!("Lighthouse weight {}", a.weight),
                });
            }
        }
        pm.lab_runs = runs;
    }
    if premium {
        let suite = premium::premium_optimizations(browser, report);
        report.performance_analysis.premium_optimizations = Some(suite);
    }

    let design_findings: Vec<Finding> = report
        .design_analysis
        .iter()
        .flat_map(|g| g.findings.iter().cloned())
        .collect();
    report.scores.design = findings_score(&design_findings);
    if let Some(s) = headline_score {
        report.scores.performance = s;
    }
    report.scores.overall = overall_score(
        report.scores.seo,
        report.scores.design,
        report.scores.technical,
        report.scores.performance,
    );

    let browser_findings = browser
        .design_groups
        .iter()
        .flat_map(|g| g.findings.iter())
        .chain(&browser.accessibility.findings)
        .chain(&browser.best_practices.findings);
    for f in browser_findings {
        if f.kind == FindingType::Good || report.action_items.iter().any(|a| a.title == f.title) {
            continue;
        }
        let priority = match (f.kind, f.audit.is_some()) {
            (FindingType::Issue, _) => Priority::High,
            (_, true) => Priority::Medium,
            _ => Priority::Low,
        };
        report.action_items.push(ActionItem {
            priority,
            title: f.title.clone(),
            description: match &f.solution {
                Some(s) => format!("{} {s}", f.description),
                None => f.description.clone(),
            },
            impact: if f.id.starts_with("a11y.") {
                "Usable by every visitor, including those with disabilities".to_owned()
            } else if f.id.starts_with("bp.") {
                "A more trustworthy, future-proof site".to_owned()
            } else {
                "A better experience on every device, for every visitor".to_owned()
            },
        });
    }
    domain::advice::sort_action_items(&mut report.action_items);

    report.website_colors = browser.colors.clone();
    report.website_fonts = browser.fonts.clone();
    report.screenshots = screenshots;
}

/// The whole report with the browser: the HTTP analysis and the browser measurement run side
/// by side (the HTTP side's requests after the start page wait for the browser's timed load to
/// end), then the screenshots are stored and the measurement merged (Premium Optimization
/// Suite for standard and premium reports). When the browser fails or is disabled the HTTP
/// report is returned as it is, its estimated figures marked, with the browser's error beside
/// it; only a failure of the HTTP analysis is an error.
pub async fn analyze_with_browser(
    analyzer: &crate::Analyzer,
    pool: &super::BrowserPool,
    blobs: &dyn BlobStore,
    input: &str,
    options: &crate::AnalyzeOptions,
    progress: &(dyn Fn(crate::ProgressUpdate) + Send + Sync),
) -> Result<(AnalysisReport, Option<super::BrowserError>), crate::AnalyzeError> {
    let url = crate::Analyzer::validate(input)?;
    // The HTTP side fetches the start page at once and holds everything else back until the
    // browser's timed load has ended, so its requests never compete with that load.
    let (loaded, gate) = crate::LoadGate::closed();
    let (report, browser) = tokio::join!(
        analyzer.analyze_after_load(input, options, progress, &gate),
        pool.measure_telling(url.as_str(), Some(loaded))
    );
    let mut report = report?;
    match browser {
        Ok(browser) => {
            let shots = match store_screenshots(&browser, blobs, &report.id).await {
                Ok(s) => s,
                Err(e) => {
                    tracing::warn!(error = %e, "could not store the screenshots");
                    Screenshots::default()
                }
            };
            let premium = report.report_type.is_professional();
            merge_into(&mut report, &browser, shots, premium);
            Ok((report, None))
        }
        Err(e) => Ok((report, Some(e))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::report::SectionStatus;

    fn weight_group() -> Vec<SectionGroup> {
        // The HTTP side's verdict: the HTML and its first 60 assets, well under 3 MB.
        vec![SectionGroup {
            title: "Page Weight & Loading".to_owned(),
            status: SectionStatus::Good,
            findings: vec![Finding {
                id: "perf.page-weight".to_owned(),
                kind: FindingType::Good,
                title: "Page weight is reasonable".to_owned(),
                description: "412 KB transferred for the HTML and 60 referenced assets.".to_owned(),
                solution: None,
                audit: Some("total-byte-weight".to_owned()),
            }],
        }]
    }

    #[test]
    fn the_seo_score_takes_axe_cores_verdicts_on_its_rules() {
        use crate::browser::{AccessibilityResult, AuditOutcome};
        let f = |audit: &str, kind: FindingType| Finding {
            id: format!("seo.{audit}"),
            kind,
            title: String::new(),
            description: String::new(),
            solution: None,
            audit: Some(audit.to_owned()),
        };
        // The HTML passes every image; the page's script adds one with `alt=" "`, which
        // axe-core fails, as Lighthouse's SEO score then does: 8.043 of 9.043 (is-crawlable 4.043).
        let seo = vec![SectionGroup {
            title: "Meta Tags".to_owned(),
            status: SectionStatus::Good,
            findings: [
                "is-crawlable",
                "document-title",
                "meta-description",
                "image-alt",
            ]
            .iter()
            .map(|a| f(a, FindingType::Good))
            .chain([f("link-text", FindingType::Warning)])
            .collect(),
        }];
        let outcome = |id: &str, passed: bool| AuditOutcome {
            id: id.to_owned(),
            passed,
            weight: 10.0,
        };
        let axe = AccessibilityResult {
            score: Some(90),
            audits: vec![outcome("image-alt", false), outcome("document-title", true)],
            ..AccessibilityResult::default()
        };
        // is-crawlable, title, description, link text, image alt and hreflang (passed).
        assert_eq!(seo_score_with_axe(&[&seo], &axe), Some(89));
        // axe-core found no image at all: image-alt is not applicable, whatever the HTML says.
        let no_images = AccessibilityResult {
            audits: vec![outcome("document-title", true)],
            ..axe.clone()
        };
        assert_eq!(seo_score_with_axe(&[&seo], &no_images), Some(100));
        // A failed title in axe-core fails the SEO audit too.
        let untitled = AccessibilityResult {
            audits: vec![outcome("image-alt", true), outcome("document-title", false)],
            ..axe.clone()
        };
        assert_eq!(seo_score_with_axe(&[&seo], &untitled), Some(89));
        // Without axe-core's run, the HTTP side's score stands.
        assert_eq!(
            seo_score_with_axe(&[&seo], &AccessibilityResult::default()),
            None
        );
    }

    #[test]
    fn page_weight_follows_lighthouse_on_the_measured_load() {
        // A page of 905 small images (an emoji cheat sheet): the browser saw 2.9 MB, which
        // Lighthouse fails (score about 0.86), though the first 60 assets weighed little.
        let mut groups = weight_group();
        replace_page_weight(&mut groups, 2_900_000.0, 905);
        let f = &groups[0].findings[0];
        assert_eq!(f.kind, FindingType::Warning);
        assert!(
            f.description.contains("2832 KiB in 905 requests"),
            "{}",
            f.description
        );
        assert_eq!(groups[0].status, SectionStatus::NeedsImprovement);
        // Exactly 2,667 KiB scores 0.9: a pass, as are lighter loads.
        let mut groups = weight_group();
        replace_page_weight(&mut groups, 2667.0 * 1024.0, 40);
        assert_eq!(groups[0].findings[0].kind, FindingType::Good);
        assert!(byte_weight_passes(1_000_000.0));
        assert!(!byte_weight_passes(3_000_000.0));
    }
}
