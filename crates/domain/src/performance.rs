//! Performance rules: the "good ranges", fallback values for missing metrics, and the
//! diagnostics generated from metrics (docs/PRODUCT.md §9.7, §9.8, §9.9).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::report::{Diagnostic, DiagnosticType};

/// A "good range" of docs/PRODUCT.md §9.7: a value is good when it lies within `min`..`max`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct GoodRange {
    /// Machine id, for example `fcp`.
    pub id: String,
    /// Human label.
    pub label: String,
    /// Unit of `min` and `max`: `ms`, `bytes`, `characters`, `count`, `score` or `unitless`.
    pub unit: String,
    /// Inclusive lower bound, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub min: Option<f64>,
    /// Upper bound, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub max: Option<f64>,
    /// Whether `max` itself is good ("30-60 characters") or not ("under 1.8 s").
    pub max_inclusive: bool,
    /// The range as the spec words it.
    pub text: String,
}

fn range(
    id: &str,
    label: &str,
    unit: &str,
    min: Option<f64>,
    max: Option<f64>,
    max_inclusive: bool,
    text: &str,
) -> GoodRange {
    GoodRange {
        id: id.into(),
        label: label.into(),
        unit: unit.into(),
        min,
        max,
        max_inclusive,
        text: text.into(),
    }
}

/// The good ranges of docs/PRODUCT.md §9.7.
pub fn good_ranges() -> Vec<GoodRange> {
    vec![
        range(
            "fcp",
            "First Contentful Paint",
            "ms",
            None,
            Some(1800.0),
            false,
            "under 1.8 s",
        ),
        range(
            "lcp",
            "Largest Contentful Paint",
            "ms",
            None,
            Some(2500.0),
            false,
            "under 2.5 s",
        ),
        range(
            "cls",
            "Cumulative Layout Shift",
            "unitless",
            None,
            Some(0.1),
            false,
            "under 0.1",
        ),
        range(
            "tbt",
            "Total Blocking Time",
            "ms",
            None,
            Some(200.0),
            false,
            "under 200 ms",
        ),
        range(
            "speedIndex",
            "Speed Index",
            "ms",
            None,
            Some(3400.0),
            false,
            "under 3.4 s",
        ),
        range(
            "tti",
            "Time to Interactive",
            "ms",
            None,
            Some(3800.0),
            false,
            "under 3.8 s",
        ),
        range(
            "score",
            "Score",
            "score",
            Some(90.0),
            Some(100.0),
            true,
            "90-100",
        ),
        range(
            "title",
            "Title length",
            "characters",
            Some(30.0),
            Some(60.0),
            true,
            "30-60 characters",
        ),
        range(
            "description",
            "Meta description length",
            "characters",
            Some(120.0),
            Some(160.0),
            true,
            "120-160 characters",
        ),
        range(
            "h1",
            "H1 headings",
            "count",
            Some(1.0),
            Some(1.0),
            true,
            "one H1",
        ),
        range(
            "internalLinks",
            "Internal links",
            "count",
            Some(3.0),
            Some(5.0),
            true,
            "3-5 internal links",
        ),
        range(
            "altText",
            "Alt text length",
            "characters",
            Some(50.0),
            Some(125.0),
            true,
            "50-125 characters",
        ),
        range(
            "pageSize",
            "Page size",
            "bytes",
            None,
            Some(3_000_000.0),
            false,
            "under 3 MB",
        ),
        range(
            "requests",
            "Requests",
            "count",
            None,
            Some(50.0),
            false,
            "under 50 requests",
        ),
    ]
}

/// Whether `value` is inside the good range with id `id`. `None` for an unknown id.
pub fn in_good_range(id: &str, value: f64) -> Option<bool> {
    let r = good_ranges().into_iter().find(|r| r.id == id)?;
    let above_min = r.min.is_none_or(|min| value >= min);
    let below_max = r.max.is_none_or(|max| {
        if r.max_inclusive {
            value <= max
        } else {
            value < max
        }
    });
    Some(above_min && below_max)
}

/// Metrics as measured; `None` where a figure could not be measured.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct MeasuredMetrics {
    /// Accessibility score 0-100.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub accessibility_score: Option<f64>,
    /// Best-practices score 0-100.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub best_practices_score: Option<f64>,
    /// FCP, ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub first_contentful_paint: Option<f64>,
    /// LCP, ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub largest_contentful_paint: Option<f64>,
    /// CLS.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub cumulative_layout_shift: Option<f64>,
    /// TBT, ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub total_blocking_time: Option<f64>,
    /// Speed Index, ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub speed_index: Option<f64>,
    /// Load time, ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub estimated_load_time: Option<f64>,
    /// Page weight, bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub page_size: Option<f64>,
    /// Request count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub request_count: Option<f64>,
}

/// Metrics with every gap filled, and the names of the filled (estimated) figures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct FilledMetrics {
    /// Accessibility score.
    pub accessibility_score: f64,
    /// Best-practices score.
    pub best_practices_score: f64,
    /// FCP, ms.
    pub first_contentful_paint: f64,
    /// LCP, ms.
    pub largest_contentful_paint: f64,
    /// CLS.
    pub cumulative_layout_shift: f64,
    /// TBT, ms.
    pub total_blocking_time: f64,
    /// Speed Index, ms.
    pub speed_index: f64,
    /// Load time, ms.
    pub estimated_load_time: f64,
    /// Page weight, bytes.
    pub page_size: f64,
    /// Request count.
    pub request_count: f64,
    /// camelCase names of the figures taken from [`FALLBACKS`], in field order.
    pub estimated: Vec<String>,
}

/// The spec's fallback values when data is missing (docs/PRODUCT.md §9.9); page size is 1.2 MB
/// in decimal megabytes. They are never shown as measured: [`fill_fallbacks`] lists every figure
/// it takes from here.
pub const FALLBACKS: FilledMetrics = FilledMetrics {
    accessibility_score: 90.0,
    best_practices_score: 100.0,
    first_contentful_paint: 1300.0,
    largest_contentful_paint: 1900.0,
    cumulative_layout_shift: 0.005,
    total_blocking_time: 0.0,
    speed_index: 1300.0,
    estimated_load_time: 3500.0,
    page_size: 1_200_000.0,
    request_count: 42.0,
    estimated: Vec::new(),
};

/// Fills every missing (or non-finite) figure from [`FALLBACKS`] and names it in `estimated`.
pub fn fill_fallbacks(m: &MeasuredMetrics) -> FilledMetrics {
    let f = FALLBACKS;
    let mut estimated = Vec::new();
    let mut pick = |name: &str, value: Option<f64>, fallback: f64| match value {
        Some(v) if v.is_finite() && v >= 0.0 => v,
        _ => {
            estimated.push(name.to_owned());
            fallback
        }
    };
    let accessibility_score = pick(
        "accessibilityScore",
        m.accessibility_score,
        f.accessibility_score,
    );
    let best_practices_score = pick(
        "bestPracticesScore",
        m.best_practices_score,
        f.best_practices_score,
    );
    let first_contentful_paint = pick(
        "firstContentfulPaint",
        m.first_contentful_paint,
        f.first_contentful_paint,
    );
    let largest_contentful_paint = pick(
        "largestContentfulPaint",
        m.largest_contentful_paint,
        f.largest_contentful_paint,
    );
    let cumulative_layout_shift = pick(
        "cumulativeLayoutShift",
        m.cumulative_layout_shift,
        f.cumulative_layout_shift,
    );
    let total_blocking_time = pick(
        "totalBlockingTime",
        m.total_blocking_time,
        f.total_blocking_time,
    );
    let speed_index = pick("speedIndex", m.speed_index, f.speed_index);
    let estimated_load_time = pick(
        "estimatedLoadTime",
        m.estimated_load_time,
        f.estimated_load_time,
    );
    let page_size = pick("pageSize", m.page_size, f.page_size);
    let request_count = pick("requestCount", m.request_count, f.request_count);
    FilledMetrics {
        accessibility_score,
        best_practices_score,
        first_contentful_paint,
        largest_contentful_paint,
        cumulative_layout_shift,
        total_blocking_time,
        speed_index,
        estimated_load_time,
        page_size,
        request_count,
        estimated,
    }
}

/// Formats milliseconds as seconds with one decimal, for example `3.4 s`.
pub fn format_seconds(ms: f64) -> String {
    format!("{:.1} s", ms / 1000.0)
}

/// A metric the report diagnoses against a warning and an error threshold (docs/PRODUCT.md §9.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub enum DiagnosedMetric {
    /// First Contentful Paint, ms.
    FirstContentfulPaint,
    /// Largest Contentful Paint, ms.
    LargestContentfulPaint,
    /// Total Blocking Time, ms.
    TotalBlockingTime,
    /// Cumulative Layout Shift, unitless.
    CumulativeLayoutShift,
}

/// How a diagnosed metric's values are written.
#[derive(Clone, Copy)]
enum Format {
    /// Milliseconds shown as seconds, `3.4 s`.
    Seconds,
    /// Whole milliseconds, `350 ms`.
    Millis,
    /// Three decimals, `0.180`.
    Unitless,
}

impl Format {
    fn write(self, v: f64) -> String {
        match self {
            Format::Seconds => format_seconds(v),
            Format::Millis => format!("{v:.0} ms"),
            Format::Unitless => format!("{v:.3}"),
        }
    }
}

/// A diagnostic rule: above the metric's good range it warns, above `error` it errs. The good
/// threshold and its wording come from [`good_ranges`], so the two never disagree.
struct Rule {
    id: &'static str,
    /// The [`GoodRange`] whose upper bound is the warning threshold.
    range: &'static str,
    name: &'static str,
    format: Format,
    error: f64,
    /// What was measured, given the formatted value; `None` words it "{name} took {value}".
    measured: Option<fn(&str) -> String>,
    solution_warning: &'static str,
    solution_error: &'static str,
}

impl DiagnosedMetric {
    /// Every diagnosed metric, in the order diagnostics are listed.
    pub const ALL: [DiagnosedMetric; 4] = [
        DiagnosedMetric::FirstContentfulPaint,
        DiagnosedMetric::LargestContentfulPaint,
        DiagnosedMetric::TotalBlockingTime,
        DiagnosedMetric::CumulativeLayoutShift,
    ];

    fn rule(self) -> Rule {
        match self {
            DiagnosedMetric::FirstContentfulPaint => Rule {
                id: "perf.fcp",
                range: "fcp",
                name: "First Contentful Paint",
                format: Format::Seconds,
                error: 3000.0,
                measured: None,
                solution_warning: "Inline the CSS needed above the fold, defer other scripts and styles, and serve text compressed so the first content paints sooner.",
                solution_error: "Cut server response time, remove render-blocking resources from the head, inline critical CSS and preload the main font.",
            },
            DiagnosedMetric::LargestContentfulPaint => Rule {
                id: "perf.lcp",
                range: "lcp",
                name: "Largest Contentful Paint",
                format: Format::Seconds,
                error: 4000.0,
                measured: None,
                solution_warning: "Serve the largest image or text block sooner: compress and resize the hero image, preload it, and avoid lazy-loading it.",
                solution_error: "The main content appears far too late: optimise the hero image (modern format, right size, preload), reduce server time and remove render-blocking resources.",
            },
            DiagnosedMetric::TotalBlockingTime => Rule {
                id: "perf.tbt",
                range: "tbt",
                name: "Total Blocking Time",
                format: Format::Millis,
                error: 600.0,
                measured: Some(|v| {
                    format!("Long tasks blocked the main thread for {v} after the first paint")
                }),
                solution_warning: "Split long JavaScript tasks, defer non-critical scripts and remove unused code.",
                solution_error: "Split long JavaScript tasks, defer non-critical scripts and remove unused code.",
            },
            DiagnosedMetric::CumulativeLayoutShift => Rule {
                id: "perf.cls",
                range: "cls",
                name: "Cumulative Layout Shift",
                format: Format::Unitless,
                error: 0.25,
                measured: Some(|_| "Content moved after it was shown".to_owned()),
                solution_warning: "Reserve space for images, ads and late content (width and height, aspect-ratio).",
                solution_error: "Reserve space for images, ads and late content (width and height, aspect-ratio).",
            },
        }
    }

    /// The measured value of this metric, if it was measured.
    fn of(self, m: &MeasuredMetrics) -> Option<f64> {
        match self {
            DiagnosedMetric::FirstContentfulPaint => m.first_contentful_paint,
            DiagnosedMetric::LargestContentfulPaint => m.largest_contentful_paint,
            DiagnosedMetric::TotalBlockingTime => m.total_blocking_time,
            DiagnosedMetric::CumulativeLayoutShift => m.cumulative_layout_shift,
        }
    }
}

/// The diagnostic for one metric's value (docs/PRODUCT.md §9.8): nothing within the metric's good
/// range, a warning above it, an error above the error threshold; the potential saving is the
/// difference to the good threshold. A value that is not a finite number diagnoses nothing.
pub fn metric_diagnostic(metric: DiagnosedMetric, value: f64) -> Option<Diagnostic> {
    if !value.is_finite() {
        return None;
    }
    let rule = metric.rule();
    let good = good_ranges()
        .into_iter()
        .find(|r| r.id == rule.range)
        .expect("every diagnosed metric has a good range");
    let warning = good
        .max
        .expect("a diagnosed metric's good range has an upper bound");
    let (kind, solution) = if value > rule.error {
        (DiagnosticType::Error, rule.solution_error)
    } else if value > warning {
        (DiagnosticType::Warning, rule.solution_warning)
    } else {
        return None;
    };
    let shown = rule.format.write(value);
    let measured = match rule.measured {
        Some(words) => words(&shown),
        None => format!("{} took {shown}", rule.name),
    };
    let mut d = Diagnostic {
        id: rule.id.to_owned(),
        kind,
        title: format!("{} is {shown}", rule.name),
        description: format!("{measured}; {} is good.", good.text),
        value: shown,
        potential: rule.format.write(value - warning),
        solution: solution.to_owned(),
        details: Vec::new(),
        pro_only: false,
    };
    d.pro_only = is_pro_only(&d);
    Some(d)
}

/// The metrics [`generate_diagnostics`] diagnoses: the page timings every analysis has. TBT and
/// CLS are measured only in a browser run, which diagnoses them with [`metric_diagnostic`] too.
const GENERATED: [DiagnosedMetric; 2] = [
    DiagnosedMetric::FirstContentfulPaint,
    DiagnosedMetric::LargestContentfulPaint,
];

/// Diagnostics generated from measured metrics (docs/PRODUCT.md §9.8): FCP and LCP through
/// [`metric_diagnostic`]. Figures that were not measured generate nothing.
pub fn generate_diagnostics(m: &MeasuredMetrics) -> Vec<Diagnostic> {
    GENERATED
        .into_iter()
        .filter_map(|metric| metric_diagnostic(metric, metric.of(m)?))
        .collect()
}

/// Whether a diagnostic is shown only to paid viewers: any error, or a warning whose solution
/// is longer than 100 characters (docs/PRODUCT.md §9.8).
pub fn is_pro_only(d: &Diagnostic) -> bool {
    match d.kind {
        DiagnosticType::Error => true,
        DiagnosticType::Warning => d.solution.chars().count() > 100,
        DiagnosticType::Info => false,
    }
}
