//! The timers, retry counts, limits and fixed values of docs/PRODUCT.md §4 and §9, typed, so the
//! web app and the server read one definition and no number is written twice.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A progress step of an analysis and the percentage at which it starts (docs/PRODUCT.md §2.5).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Step {
    /// Step name, shown on its tile.
    pub name: String,
    /// Progress percentage that reaches this step.
    pub threshold: u32,
}

/// The six analysis steps in order.
pub fn steps() -> Vec<Step> {
    [
        ("URL Validation", 10),
        ("Content Extraction", 20),
        ("Screenshot Capture", 35),
        ("Performance Analysis", 55),
        ("SEO Analysis", 75),
        ("Generating Report", 95),
    ]
    .into_iter()
    .map(|(name, threshold)| Step {
        name: name.to_owned(),
        threshold,
    })
    .collect()
}

/// The step a progress percentage is in: the last step whose threshold it has reached, if any.
pub fn step_for_progress(progress: u32) -> Option<Step> {
    steps().into_iter().rev().find(|s| progress >= s.threshold)
}

/// Every timer and retry count of the product (docs/PRODUCT.md §4, §9.6). Durations are
/// milliseconds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Timings {
    /// Automatic retries of a failed analyze request.
    pub analysis_retries: u32,
    /// Pause between those retries.
    pub analysis_retry_delay_ms: u32,
    /// Reconnect attempts of the progress stream.
    pub progress_reconnects: u32,
    /// First reconnect delay; doubles each attempt.
    pub progress_reconnect_initial_ms: u32,
    /// Reconnect delay cap.
    pub progress_reconnect_max_ms: u32,
    /// Silence after which simulated progress starts.
    pub fallback_start_ms: u32,
    /// Simulated progress percentages.
    pub fallback_steps: Vec<u32>,
    /// Shortest pause between simulated steps.
    pub fallback_step_min_ms: u32,
    /// Longest pause between simulated steps.
    pub fallback_step_max_ms: u32,
    /// Pause after the last simulated step before completing.
    pub fallback_complete_ms: u32,
    /// Hard timeout that forces completion.
    pub hard_timeout_ms: u32,
    /// Wait after completion before opening the results.
    pub completion_wait_ms: u32,
    /// Delay before a missing `url` returns home.
    pub missing_url_redirect_ms: u32,
    /// How long "Link Copied" stays.
    pub link_copied_ms: u32,
    /// Rotation of "Did you know?" facts.
    pub facts_rotate_ms: u32,
    /// Refresh of the analyses counter.
    pub stats_refresh_ms: u32,
    /// Abort of the results request.
    pub results_timeout_ms: u32,
    /// How long the optimisation success banner stays.
    pub fix_notice_ms: u32,
    /// How long the meta change success note stays.
    pub meta_notice_ms: u32,
    /// Local wait of the proposal request.
    pub proposal_wait_ms: u32,
    /// Tooltip delay.
    pub tooltip_delay_ms: u32,
    /// Tooltip skip delay.
    pub tooltip_skip_delay_ms: u32,
    /// Tooltip offset, px.
    pub tooltip_offset_px: u32,
    /// Query data freshness.
    pub query_stale_ms: u32,
    /// Query retries (never on 4xx).
    pub query_retries: u32,
}

/// The product's timings.
pub fn timings() -> Timings {
    Timings {
        analysis_retries: 3,
        analysis_retry_delay_ms: 3_000,
        progress_reconnects: 5,
        progress_reconnect_initial_ms: 1_000,
        progress_reconnect_max_ms: 10_000,
        fallback_start_ms: 5_000,
        fallback_steps: vec![15, 30, 45, 60, 75, 90, 100],
        fallback_step_min_ms: 6_000,
        fallback_step_max_ms: 9_000,
        fallback_complete_ms: 2_000,
        hard_timeout_ms: 120_000,
        completion_wait_ms: 1_000,
        missing_url_redirect_ms: 1_000,
        link_copied_ms: 3_000,
        facts_rotate_ms: 4_000,
        stats_refresh_ms: 30_000,
        results_timeout_ms: 30_000,
        fix_notice_ms: 5_000,
        meta_notice_ms: 3_000,
        proposal_wait_ms: 1_000,
        tooltip_delay_ms: 700,
        tooltip_skip_delay_ms: 300,
        tooltip_offset_px: 4,
        query_stale_ms: 300_000,
        query_retries: 2,
    }
}

/// Delay before progress-stream reconnect `attempt` (1-based): 1 s doubling, capped at 10 s.
pub fn reconnect_delay_ms(attempt: u32) -> u32 {
    let t = timings();
    let doubled = t
        .progress_reconnect_initial_ms
        .saturating_mul(2u32.saturating_pow(attempt.saturating_sub(1)));
    doubled.min(t.progress_reconnect_max_ms)
}

/// Fixed values the screens show or obey (docs/PRODUCT.md §9).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Limits {
    /// Desktop screenshot width.
    pub desktop_width: u32,
    /// Desktop screenshot height.
    pub desktop_height: u32,
    /// Mobile screenshot width.
    pub mobile_width: u32,
    /// Mobile screenshot height.
    pub mobile_height: u32,
    /// Annotation colours, CSS names; the first is the default.
    pub annotation_colors: Vec<String>,
    /// Annotation stroke thickness, px.
    pub stroke_thickness: u32,
    /// Pin radius, px.
    pub pin_radius: u32,
    /// Findings per group in the compact side-by-side design view.
    pub compact_findings_per_group: u32,
    /// Default API rate limit per user.
    pub api_rate_limit: u32,
    /// Default team size.
    pub max_team_members: u32,
    /// Local-storage key of the theme preference.
    pub theme_storage_key: String,
    /// Social proof: reports.
    pub social_proof_reports: u32,
    /// Social proof text: hours.
    pub social_proof_hours: String,
}

/// Annotation colours (docs/PRODUCT.md §9.10); red is the default.
pub const ANNOTATION_COLORS: [&str; 8] = [
    "red", "green", "blue", "yellow", "magenta", "cyan", "white", "black",
];

/// The product's fixed values.
pub fn limits() -> Limits {
    Limits {
        desktop_width: 1280,
        desktop_height: 800,
        mobile_width: 375,
        mobile_height: 667,
        annotation_colors: ANNOTATION_COLORS.iter().map(|c| (*c).to_owned()).collect(),
        stroke_thickness: 2,
        pin_radius: 8,
        compact_findings_per_group: 2,
        api_rate_limit: crate::api::DEFAULT_RATE_LIMIT_PER_MINUTE,
        max_team_members: 1,
        theme_storage_key: "ui-theme".to_owned(),
        social_proof_reports: 131,
        social_proof_hours: "524+".to_owned(),
    }
}

/// Texts and numbers of the spec that screens show, gathered for the web app.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ProductConstants {
    /// Free basic analyses per visitor per day.
    pub free_analyses_per_day: u32,
    /// Credits of the free trial.
    pub trial_credits: crate::credits::Credits,
    /// Days the trial credit is valid.
    pub trial_valid_days: u32,
    /// Price of one credit, cents.
    pub credit_price_cents: u32,
    /// Default affiliate commission, percent.
    pub affiliate_commission_percent: u32,
    /// Hours a report saves.
    pub hours_saved_per_credit: u32,
    /// Performance score below which the WordPress tip may show.
    pub wordpress_tip_below: u32,
    /// Toast title for an empty address at submit.
    pub invalid_url_toast_title: String,
    /// Toast text for an empty address at submit.
    pub invalid_url_toast_text: String,
    /// Message when the trial was already used.
    pub trial_used_message: String,
}

/// The product constants.
pub fn product_constants() -> ProductConstants {
    use crate::{advice, commerce, site_url};
    ProductConstants {
        free_analyses_per_day: commerce::FREE_ANALYSES_PER_DAY,
        trial_credits: commerce::TRIAL_CREDITS,
        trial_valid_days: commerce::TRIAL_VALID_DAYS,
        credit_price_cents: commerce::CREDIT_PRICE_CENTS,
        affiliate_commission_percent: commerce::AFFILIATE_COMMISSION_PERCENT,
        hours_saved_per_credit: commerce::HOURS_SAVED_PER_CREDIT,
        wordpress_tip_below: advice::WORDPRESS_TIP_BELOW,
        invalid_url_toast_title: site_url::INVALID_URL_TOAST_TITLE.to_owned(),
        invalid_url_toast_text: site_url::INVALID_URL_TOAST_TEXT.to_owned(),
        trial_used_message: commerce::TRIAL_USED_MESSAGE.to_owned(),
    }
}
