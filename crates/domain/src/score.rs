//! Scores: colour bands, section and overall scores, and Lighthouse-style metric scoring.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::report::{Finding, FindingType, SectionStatus};

/// Colour band of a score (docs/PRODUCT.md §4.10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum Band {
    /// Badge: 80 and above. Ring: 90 and above.
    Green,
    /// Badge: 60 to 79.
    Yellow,
    /// Ring: 50 to 89.
    Amber,
    /// Badge: below 60. Ring: below 50.
    Red,
}

/// Score badge colour: 80 and above green, 60 to 79 yellow, below 60 red (docs/PRODUCT.md §4.10).
pub fn badge_band(score: f64) -> Band {
    if score >= 80.0 {
        Band::Green
    } else if score >= 60.0 {
        Band::Yellow
    } else {
        Band::Red
    }
}

/// Score ring colour: 90 and above green, 50 to 89 amber, below 50 red (docs/PRODUCT.md §4.10).
pub fn ring_band(score: f64) -> Band {
    if score >= 90.0 {
        Band::Green
    } else if score >= 50.0 {
        Band::Amber
    } else {
        Band::Red
    }
}

/// Weights of the overall score, in percent.
///
/// SEO and technical structure decide whether a site can be found at all, so together they carry
/// a little over half; performance is a ranking signal and the first thing visitors feel; design
/// and UX matter but are the least objectively measurable, so they weigh least.
pub const OVERALL_WEIGHTS: OverallWeights = OverallWeights {
    seo: 30,
    technical: 25,
    performance: 25,
    design: 20,
};

/// The weights of [`overall_score`], in percent, summing to 100.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct OverallWeights {
    /// SEO weight.
    pub seo: u32,
    /// Technical weight.
    pub technical: u32,
    /// Performance weight.
    pub performance: u32,
    /// Design weight.
    pub design: u32,
}

/// The overall score: the weighted mean of the four section scores ([`OVERALL_WEIGHTS`]),
/// each clamped to 0-100 first, rounded half up to an integer.
pub fn overall_score(seo: u32, design: u32, technical: u32, performance: u32) -> u32 {
    let w = OVERALL_WEIGHTS;
    let sum = seo.min(100) * w.seo
        + design.min(100) * w.design
        + technical.min(100) * w.technical
        + performance.min(100) * w.performance;
    // The weights sum to 100, so sum / 100 is the mean; + 50 rounds half up.
    (sum + 50) / 100
}

/// Score of a group of findings, 0-100: good counts 1, warning 0.5, issue 0; rounded half up.
/// An empty list scores 100 (nothing was found wrong), which callers should only use when the
/// checks really ran.
pub fn findings_score(findings: &[Finding]) -> u32 {
    if findings.is_empty() {
        return 100;
    }
    let halves: usize = findings
        .iter()
        .map(|f| match f.kind {
            FindingType::Good => 2,
            FindingType::Warning => 1,
            FindingType::Issue => 0,
        })
        .sum();
    let max = findings.len() * 2;
    // Round half up: (halves * 100 + max / 2) / max.
    ((halves * 100 + max / 2) / max) as u32
}

/// Status of a group: critical if any issue, needs-improvement if any warning, else good.
pub fn group_status(findings: &[Finding]) -> SectionStatus {
    if findings.iter().any(|f| f.kind == FindingType::Issue) {
        SectionStatus::Critical
    } else if findings.iter().any(|f| f.kind == FindingType::Warning) {
        SectionStatus::NeedsImprovement
    } else {
        SectionStatus::Good
    }
}

/// Device the lab metrics were measured on; Lighthouse uses different control points for each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum FormFactor {
    /// Mobile emulation (Lighthouse's default).
    Mobile,
    /// Desktop.
    Desktop,
}

/// A lab metric that feeds the performance score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub enum LabMetric {
    /// First Contentful Paint, ms.
    FirstContentfulPaint,
    /// Speed Index, ms.
    SpeedIndex,
    /// Largest Contentful Paint, ms.
    LargestContentfulPaint,
    /// Total Blocking Time, ms.
    TotalBlockingTime,
    /// Cumulative Layout Shift.
    CumulativeLayoutShift,
}

/// Control points of a log-normal scoring curve: `p10` scores 0.9 and `median` scores 0.5.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Curve {
    /// Value that scores 0.9.
    pub p10: f64,
    /// Value that scores 0.5.
    pub median: f64,
    /// Weight in the performance score, percent.
    pub weight: u32,
}

/// Lighthouse 10+ control points and weights
/// (<https://developer.chrome.com/docs/lighthouse/performance/performance-scoring>).
pub fn curve(metric: LabMetric, form: FormFactor) -> Curve {
    use FormFactor::*;
    use LabMetric::*;
    let (p10, median, weight) = match (metric, form) {
        (FirstContentfulPaint, Mobile) => (1800.0, 3000.0, 10),
        (FirstContentfulPaint, Desktop) => (934.0, 1600.0, 10),
        (SpeedIndex, Mobile) => (3387.0, 5800.0, 10),
        (SpeedIndex, Desktop) => (1311.0, 2300.0, 10),
        (LargestContentfulPaint, Mobile) => (2500.0, 4000.0, 25),
        (LargestContentfulPaint, Desktop) => (1200.0, 2400.0, 25),
        (TotalBlockingTime, Mobile) => (200.0, 600.0, 30),
        (TotalBlockingTime, Desktop) => (150.0, 350.0, 30),
        (CumulativeLayoutShift, _) => (0.1, 0.25, 25),
    };
    Curve {
        p10,
        median,
        weight,
    }
}

/// Complementary error function, with fractional error below 1.2e-7 everywhere
/// (Chebyshev fit from Numerical Recipes, 2nd ed., §6.2). Lighthouse itself uses a coarser
/// approximation; after rounding to two decimals the two agree.
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let ans = t * poly.exp();
    if x >= 0.0 { ans } else { 2.0 - ans }
}

/// erfc⁻¹(0.2): the standardised distance of the 10th percentile from the median.
const INVERSE_ERFC_ONE_FIFTH: f64 = 0.906_243_645_835_689_1;

/// Log-normal score of `value` on `curve`, in 0..=1, unrounded.
///
/// The score is the share of a log-normal distribution above `value`: 0.5 at the median and 0.9
/// at p10. As Lighthouse does, the result is kept inside the band its value belongs to (at or
/// below p10: at least 0.9; up to the median: 0.5 to just under 0.9; above: under 0.5), so
/// rounding never moves a metric into another band. Values at or below zero score 1.
pub fn log_normal_score(curve: Curve, value: f64) -> f64 {
    if !value.is_finite() {
        return if value < 0.0 { 1.0 } else { 0.0 };
    }
    if value <= 0.0 {
        return 1.0;
    }
    let x_log_ratio = (value / curve.median).ln();
    let p10_log_ratio = -(curve.p10 / curve.median).ln();
    let standardized = x_log_ratio * INVERSE_ERFC_ONE_FIFTH / p10_log_ratio;
    let raw = erfc(standardized) / 2.0;
    if value <= curve.p10 {
        raw.clamp(0.9, 1.0)
    } else if value <= curve.median {
        raw.clamp(0.5, 0.899_999_999_999_999_9)
    } else {
        raw.clamp(0.0, 0.499_999_999_999_999_94)
    }
}

/// Score of one metric, 0..=1, rounded to two decimals as Lighthouse reports audit scores.
pub fn metric_score(metric: LabMetric, form: FormFactor, value: f64) -> f64 {
    (log_normal_score(curve(metric, form), value) * 100.0).round() / 100.0
}

/// Lab metric values for the performance score. A missing metric is left out and the remaining
/// weights are re-normalised, as Lighthouse does.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct LabValues {
    /// FCP, ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub first_contentful_paint: Option<f64>,
    /// Speed Index, ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub speed_index: Option<f64>,
    /// LCP, ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub largest_contentful_paint: Option<f64>,
    /// TBT, ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub total_blocking_time: Option<f64>,
    /// CLS.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub cumulative_layout_shift: Option<f64>,
}

/// The Lighthouse-style performance score, 0-100: the weighted mean of the rounded metric
/// scores (FCP 10, SI 10, LCP 25, TBT 30, CLS 25), rounded to an integer. `None` when no metric
/// is present.
pub fn performance_score(values: &LabValues, form: FormFactor) -> Option<u32> {
    use LabMetric::*;
    let pairs = [
        (FirstContentfulPaint, values.first_contentful_paint),
        (SpeedIndex, values.speed_index),
        (LargestContentfulPaint, values.largest_contentful_paint),
        (TotalBlockingTime, values.total_blocking_time),
        (CumulativeLayoutShift, values.cumulative_layout_shift),
    ];
    let mut weighted = 0.0;
    let mut total_weight = 0.0;
    for (metric, value) in pairs {
        if let Some(v) = value {
            let w = f64::from(curve(metric, form).weight);
            weighted += metric_score(metric, form, v) * w;
            total_weight += w;
        }
    }
    if total_weight == 0.0 {
        return None;
    }
    Some((weighted / total_weight * 100.0).round() as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_points_score_as_published() {
        for form in [FormFactor::Mobile, FormFactor::Desktop] {
            for metric in [
                LabMetric::FirstContentfulPaint,
                LabMetric::SpeedIndex,
                LabMetric::LargestContentfulPaint,
                LabMetric::TotalBlockingTime,
                LabMetric::CumulativeLayoutShift,
            ] {
                let c = curve(metric, form);
                assert_eq!(
                    metric_score(metric, form, c.p10),
                    0.9,
                    "{metric:?} {form:?}"
                );
                assert_eq!(
                    metric_score(metric, form, c.median),
                    0.5,
                    "{metric:?} {form:?}"
                );
            }
        }
    }

    #[test]
    fn erfc_matches_known_values() {
        // Reference values from tables of the error function.
        for (x, want) in [
            (0.0, 1.0),
            (0.5, 0.479_500_122),
            (1.0, 0.157_299_207),
            (2.0, 0.004_677_735),
            (-1.0, 1.842_700_793),
        ] {
            assert!((erfc(x) - want).abs() < 1e-7, "erfc({x})");
        }
    }

    #[test]
    fn weights_sum_to_one_hundred() {
        let w = OVERALL_WEIGHTS;
        assert_eq!(w.seo + w.design + w.technical + w.performance, 100);
    }
}
