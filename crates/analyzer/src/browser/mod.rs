//! The browser side of the analyzer: lab metrics, screenshots, design & UX, accessibility and
//! best practices measured in Debian's Chromium through the DevTools protocol (`chromiumoxide`).
//!
//! - [`BrowserPool`] owns one Chromium process (restarted when it dies), hands out a bounded
//!   number of tabs and sends every request a page makes through a guarding proxy that applies
//!   the SSRF policy ([`proxy`]).
//! - [`BrowserPool::measure`] loads the page once as Lighthouse's phone (412x823), traced, and
//!   then shows it on a 1280x800 desktop screen without loading it again, and returns a
//!   [`BrowserReport`]: lab metrics ([`lab`]) and the load simulated on Lighthouse's presets
//!   ([`crate::simulation`]), PNG screenshots (375x667 and 1280x800), colours, fonts and design
//!   groups ([`design`]), axe-core accessibility findings with Lighthouse's audit ids and
//!   weights ([`a11y`]), best-practice findings ([`practices`]).
//! - [`merge::merge_into`] folds a [`BrowserReport`] into an [`AnalysisReport`]: measured
//!   figures replace the spec's fallbacks and leave `estimated`.
//! - [`premium::premium_optimizations`] derives the Premium Optimization Suite data.
//!
//! Without Chromium (`SITELENS_CHROMIUM=off`, or no binary) the pool reports
//! [`BrowserError::Disabled`] and the report keeps its estimated figures, marked as such.
//!
//! [`AnalysisReport`]: domain::report::AnalysisReport

pub mod a11y;
pub mod artifacts;
pub mod blob;
pub mod design;
pub mod diagnostics;
pub mod lab;
pub mod launch;
pub mod merge;
pub mod metrics;
pub mod pool;
pub mod practices;
pub mod premium;
pub mod proxy;
pub mod record;
pub mod trace;

use std::path::PathBuf;
use std::time::Duration;

use domain::report::{Finding, SectionGroup};
use serde::{Deserialize, Serialize};

pub use blob::{BlobStore, LocalBlobStore};
pub use merge::merge_into;
pub use metrics::LabMetrics;
pub use pool::{BrowserPool, PoolState};
pub use proxy::RefusedRequest;

/// Where Debian installs Chromium.
pub const DEFAULT_CHROMIUM: &str = "/usr/bin/chromium";

/// How the browser side runs.
#[derive(Debug, Clone)]
pub struct BrowserSettings {
    /// The Chromium binary; `None` disables the browser (`SITELENS_CHROMIUM=off`).
    pub chromium: Option<PathBuf>,
    /// Most tabs open at once across all analyses; further measurements wait for a free tab.
    pub max_tabs: usize,
    /// Tabs kept open and prepared ahead of need (each in its own fresh context).
    pub spare_tabs: usize,
    /// Time limit of launching Chromium.
    pub launch_timeout: Duration,
    /// Time limit of one measurement run (load, settle, collect, screenshots, axe-core, the
    /// desktop view).
    pub page_timeout: Duration,
    /// How long to wait for the load event; a page still loading then (a resource that never
    /// finishes) is measured as it stands, without a load time.
    pub load_timeout: Duration,
    /// After the load event, how long the network must stay quiet before the metrics are read
    /// (default 100 ms). Late work (an image inserted by a timer, a layout shift) within this
    /// window is measured; work started by the page's first paint or by a long task is waited
    /// for as well (see `lab::settle`). Lighthouse waits a full second of quiet; this window
    /// is what keeps a measurement within a few bare navigations.
    pub quiet_window: Duration,
    /// Upper bound of the wait for a quiet network after the load event.
    pub max_settle: Duration,
    /// Run axe-core (accessibility) on the loaded page.
    pub accessibility: bool,
    /// Take the phone and desktop screenshots. A caller that keeps none (the command line
    /// without `--screenshots`) turns them off: the report is otherwise the same, as no
    /// figure is read from the pictures.
    pub screenshots: bool,
    /// Measure the first page in the tab Chromium opens at launch, whose traffic goes through a
    /// guarding proxy given on its command line, instead of a new context and tab: a one-shot
    /// run (the command line) starts measuring sooner, as that tab's renderer starts with the
    /// browser. Later measurements use their own contexts as usual.
    pub startup_tab: bool,
}

impl Default for BrowserSettings {
    fn default() -> Self {
        Self {
            chromium: Some(PathBuf::from(DEFAULT_CHROMIUM)),
            max_tabs: 4,
            spare_tabs: 1,
            launch_timeout: Duration::from_secs(20),
            page_timeout: Duration::from_secs(30),
            load_timeout: Duration::from_secs(15),
            quiet_window: Duration::from_millis(100),
            max_settle: Duration::from_secs(5),
            accessibility: true,
            screenshots: true,
            startup_tab: false,
        }
    }
}

impl BrowserSettings {
    /// Defaults with this Chromium binary, or without a browser (`None`).
    pub fn new(chromium: Option<PathBuf>) -> Self {
        Self {
            chromium,
            ..Self::default()
        }
    }

    /// Settings that never start a browser.
    pub fn disabled() -> Self {
        Self {
            chromium: None,
            ..Self::default()
        }
    }
}

/// Why the browser could not measure a page. The HTTP report still stands without it.
#[derive(Debug, thiserror::Error)]
pub enum BrowserError {
    /// No browser is configured (`SITELENS_CHROMIUM=off`).
    #[error("the browser is disabled")]
    Disabled,
    /// Chromium could not be started.
    #[error("could not start chromium: {0}")]
    Launch(String),
    /// The page or the browser did not answer in time.
    #[error("the browser did not finish {what} within {seconds} s")]
    Timeout {
        /// What was running.
        what: &'static str,
        /// The limit.
        seconds: u64,
    },
    /// The address was refused by the SSRF guard or is not http(s).
    #[error("refused: {0}")]
    Refused(String),
    /// The page did not load (DNS failure, connection refused, HTTP error page is not an error).
    #[error("the page did not load: {0}")]
    Navigation(String),
    /// The DevTools protocol failed (for example the browser crashed).
    #[error("browser protocol error: {0}")]
    Protocol(String),
}

impl From<chromiumoxide::error::CdpError> for BrowserError {
    fn from(e: chromiumoxide::error::CdpError) -> Self {
        Self::Protocol(e.to_string())
    }
}

/// Which emulation a load used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Device {
    /// 1280x800 at device pixel ratio 1.
    Desktop,
    /// Lighthouse's emulated phone (412x823 at device pixel ratio 1.75), touch, mobile UA; its
    /// screenshot is a literal 375x667 image.
    Mobile,
}

impl Device {
    /// The screen a load is measured on: Lighthouse's emulated phone for mobile (see
    /// [`domain::throttling::MOBILE_SCREEN`]), the screenshot size for desktop.
    pub fn screen(self) -> domain::throttling::Screen {
        match self {
            Device::Desktop => {
                let (width, height) = self.viewport();
                domain::throttling::Screen {
                    width,
                    height,
                    device_scale_factor: 1.0,
                }
            }
            Device::Mobile => domain::throttling::MOBILE_SCREEN,
        }
    }

    /// Screenshot width and height in CSS pixels at device pixel ratio 1 (docs/PRODUCT.md §9.10).
    pub fn viewport(self) -> (u32, u32) {
        let l = domain::constants::limits();
        match self {
            Device::Desktop => (l.desktop_width, l.desktop_height),
            Device::Mobile => (l.mobile_width, l.mobile_height),
        }
    }

    /// The matching form factor of the performance score curves.
    pub fn form_factor(self) -> domain::score::FormFactor {
        match self {
            Device::Desktop => domain::score::FormFactor::Desktop,
            Device::Mobile => domain::score::FormFactor::Mobile,
        }
    }
}

/// One Lighthouse-style audit as measured: pass or fail, with its weight in its category.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AuditOutcome {
    /// Lighthouse audit id, for example `image-alt`.
    pub id: String,
    /// Whether the page passes.
    pub passed: bool,
    /// Weight in the category score.
    pub weight: f64,
}

/// Score of a category, 0-100, as Lighthouse computes it: the weighted mean of binary audit
/// results over the audits that applied. `None` when none applied.
pub fn category_score(audits: &[AuditOutcome]) -> Option<u32> {
    let total: f64 = audits.iter().map(|a| a.weight).sum();
    if total <= 0.0 {
        return None;
    }
    let passed: f64 = audits.iter().filter(|a| a.passed).map(|a| a.weight).sum();
    Some((passed / total * 100.0).round() as u32)
}

/// Accessibility as axe-core found it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AccessibilityResult {
    /// Lighthouse-weighted score, 0-100 (`None` when axe-core did not run).
    pub score: Option<u32>,
    /// One finding per violated rule (issue or warning by impact), and one good finding
    /// summarising the rules that passed.
    pub findings: Vec<Finding>,
    /// Every applicable audit with its verdict and weight.
    pub audits: Vec<AuditOutcome>,
    /// Why axe-core did not run, when it did not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Best practices as the browser saw them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BestPracticesResult {
    /// Lighthouse-weighted score, 0-100.
    pub score: Option<u32>,
    /// Findings with Lighthouse audit ids.
    pub findings: Vec<Finding>,
    /// Every measured audit with its verdict and weight.
    pub audits: Vec<AuditOutcome>,
    /// Console errors (messages), our own refusals excluded.
    pub console_errors: Vec<String>,
    /// Deprecated features the page used (Chromium's deprecation issue types).
    pub deprecations: Vec<String>,
}

/// PNG screenshots of the first viewport.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct ScreenshotImages {
    /// 1280x800 PNG.
    pub desktop: Option<Vec<u8>>,
    /// 375x667 PNG.
    pub mobile: Option<Vec<u8>>,
}

impl std::fmt::Debug for ScreenshotImages {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScreenshotImages")
            .field("desktop_bytes", &self.desktop.as_ref().map(Vec::len))
            .field("mobile_bytes", &self.mobile.as_ref().map(Vec::len))
            .finish()
    }
}

/// Width and height from a PNG's IHDR chunk, or `None` when `bytes` is not a PNG.
pub fn png_dimensions(bytes: &[u8]) -> Option<(u32, u32)> {
    const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    if bytes.len() < 24 || &bytes[..8] != SIGNATURE || &bytes[12..16] != b"IHDR" {
        return None;
    }
    let w = u32::from_be_bytes([bytes[16], bytes[17], bytes[18], bytes[19]]);
    let h = u32::from_be_bytes([bytes[20], bytes[21], bytes[22], bytes[23]]);
    Some((w, h))
}

/// Wall-clock phases of one measurement, for benchmarks and logs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PhaseTimings {
    /// Waiting for a tab (pool saturation, or opening one when no spare was ready).
    pub queue_ms: f64,
    /// The run in its tab, end to end.
    pub run_ms: f64,
    /// axe-core (loading and running it).
    pub axe_ms: f64,
    /// The whole measurement (with Chromium's launch when it was not running yet).
    pub total_ms: f64,
    /// The run's steps (setup, load, settle, then trace, collect, screenshot, design, axe and the
    /// desktop view side by side), ms.
    pub steps: Vec<(String, f64)>,
}

/// Everything the browser measured for one page.
#[derive(Debug, Clone)]
pub struct BrowserReport {
    /// The address requested.
    pub url: String,
    /// The address the load ended on.
    pub final_url: String,
    /// Lab metrics of the load (as a phone).
    pub mobile: LabMetrics,
    /// Lighthouse-style desktop performance score, 0-100: the load simulated on the desktop
    /// preset, with the load's CLS; `None` when the load could not be simulated.
    pub desktop_score: Option<u32>,
    /// Lighthouse-style mobile performance score, 0-100: the simulated mobile figures (the
    /// observed ones when the load could not be simulated) and the mobile load's CLS.
    pub mobile_score: Option<u32>,
    /// The traced load simulated on Lighthouse's mobile and desktop presets.
    pub simulated: Option<Simulated>,
    /// Why the load was not simulated, when it was not.
    pub simulation_error: Option<String>,
    /// The traced load as the simulation read it (benchmarks and debugging).
    pub observed_load: Option<crate::simulation::ObservedLoad>,
    /// Screenshots.
    pub screenshots: ScreenshotImages,
    /// Dominant colours, `#rrggbb`, most used first.
    pub colors: Vec<String>,
    /// Font families in use, most used first.
    pub fonts: Vec<String>,
    /// Design & UX groups: Typography, Visual Appeal, Navigation, Mobile Friendliness.
    pub design_groups: Vec<SectionGroup>,
    /// Names of the main navigation's links (used by the website proposal).
    pub nav_items: Vec<String>,
    /// axe-core results.
    pub accessibility: AccessibilityResult,
    /// Best practices.
    pub best_practices: BestPracticesResult,
    /// Requests the SSRF guard refused.
    pub refused: Vec<RefusedRequest>,
    /// Where the time went.
    pub timings: PhaseTimings,
}

/// The traced load replayed on both of Lighthouse's presets.
#[derive(Debug, Clone, PartialEq)]
pub struct Simulated {
    /// On the mobile preset (Slow 4G, 4x slower processor).
    pub mobile: crate::simulation::Estimates,
    /// On the desktop preset.
    pub desktop: crate::simulation::Estimates,
    /// FCP and LCP saved on the mobile preset if the images were resized and re-encoded (ms).
    pub image_savings: Option<(f64, f64)>,
}

fn simulated_values(e: &crate::simulation::Estimates, cls: f64) -> domain::score::LabValues {
    domain::score::LabValues {
        first_contentful_paint: Some(e.first_contentful_paint),
        speed_index: Some(e.speed_index),
        largest_contentful_paint: Some(e.largest_contentful_paint),
        total_blocking_time: Some(e.total_blocking_time),
        cumulative_layout_shift: Some(cls),
    }
}

impl BrowserReport {
    /// Every set of lab figures, the headline first: simulated mobile, simulated desktop,
    /// observed mobile (the observed one alone when there is no simulation). The simulated
    /// desktop figures carry the load's CLS: the page was loaded once, as a phone.
    pub fn lab_runs(&self) -> Vec<domain::report::LabRun> {
        use domain::report::{LabConditions, LabRun};
        let observed = |conditions, m: &LabMetrics, device: Device| LabRun {
            conditions,
            score: domain::score::performance_score(&m.lab_values(), device.form_factor()),
            first_contentful_paint: m.first_contentful_paint,
            largest_contentful_paint: m.largest_contentful_paint,
            speed_index: m.speed_index,
            total_blocking_time: Some(m.total_blocking_time),
            time_to_interactive: m.time_to_interactive,
            cumulative_layout_shift: Some(m.cumulative_layout_shift),
        };
        let mut runs = Vec::new();
        if let Some(s) = &self.simulated {
            for (conditions, e, cls, score) in [
                (
                    LabConditions::SimulatedMobile,
                    &s.mobile,
                    self.mobile.cumulative_layout_shift,
                    self.mobile_score,
                ),
                (
                    LabConditions::SimulatedDesktop,
                    &s.desktop,
                    self.mobile.cumulative_layout_shift,
                    self.desktop_score,
                ),
            ] {
                runs.push(LabRun {
                    conditions,
                    score,
                    first_contentful_paint: Some(e.first_contentful_paint),
                    largest_contentful_paint: Some(e.largest_contentful_paint),
                    speed_index: Some(e.speed_index),
                    total_blocking_time: Some(e.total_blocking_time),
                    time_to_interactive: Some(e.time_to_interactive),
                    cumulative_layout_shift: Some(cls),
                });
            }
        }
        runs.push(observed(
            LabConditions::ObservedMobile,
            &self.mobile,
            Device::Mobile,
        ));
        runs
    }
}

/// Build the report of one measurement from its run.
pub(crate) fn assemble(
    url: &str,
    run: lab::DeviceRun,
    refused: Vec<RefusedRequest>,
    timings: PhaseTimings,
) -> BrowserReport {
    let observed_load = match &run.observed {
        Some(Ok(load)) => Ok(load.clone()),
        Some(Err(e)) => Err(e.clone()),
        None => Err("the load was not traced".to_owned()),
    };
    let simulation = observed_load
        .as_ref()
        .map_err(Clone::clone)
        .and_then(|load| {
            let simulate =
                |preset| crate::simulation::simulate(load, &preset).map_err(|e| e.to_string());
            let wasted: std::collections::HashMap<String, f64> = run
                .metrics
                .images
                .iter()
                .filter(|i| i.wasted_bytes > 0.0)
                .map(|i| (i.url.clone(), i.wasted_bytes))
                .collect();
            let lcp_url = run
                .metrics
                .lcp_element
                .as_deref()
                .and_then(|e| e.split_once(' ').map(|(_, u)| u));
            let image_savings = (!wasted.is_empty())
                .then(|| {
                    crate::simulation::byte_savings(
                        load,
                        &domain::throttling::MOBILE_SLOW_4G,
                        &wasted,
                        lcp_url,
                    )
                    .ok()
                })
                .flatten();
            Ok(Simulated {
                mobile: simulate(domain::throttling::MOBILE_SLOW_4G)?,
                desktop: simulate(domain::throttling::DESKTOP_DENSE_4G)?,
                image_savings,
            })
        });
    if let Err(e) = &simulation {
        tracing::warn!(error = %e, %url, "the load could not be simulated; observed figures are scored");
    }
    let (simulated, simulation_error) = match simulation {
        Ok(s) => (Some(s), None),
        Err(e) => (None, Some(e)),
    };
    let observed_load = observed_load.ok();
    let cls = run.metrics.cumulative_layout_shift;
    let mobile_values = match &simulated {
        Some(s) => simulated_values(&s.mobile, cls),
        None => run.metrics.lab_values(),
    };
    let mobile_score =
        domain::score::performance_score(&mobile_values, Device::Mobile.form_factor());
    let desktop_score = simulated.as_ref().and_then(|s| {
        domain::score::performance_score(
            &simulated_values(&s.desktop, cls),
            Device::Desktop.form_factor(),
        )
    });
    let accessibility = run.axe.as_ref().map(a11y::assess).unwrap_or_default();
    let axe_ok = run.axe.as_ref().and_then(|r| r.as_ref().ok());
    let best_practices = practices::assess(&run);
    let desktop_design = run.desktop.design.as_ref();
    let probes: Vec<&design::DesignProbe> = desktop_design
        .iter()
        .copied()
        .chain(run.design.iter())
        .collect();
    // The desktop view's facts lead the design groups; the phone's stand in when the view failed.
    let design_groups = match desktop_design.or(run.design.as_ref()) {
        Some(d) => design::groups(
            d,
            run.design.as_ref(),
            &run.metrics,
            axe_ok,
            run.collected.viewport.as_deref(),
        ),
        None => Vec::new(),
    };
    let nav_items = desktop_design
        .or(run.design.as_ref())
        .map(|d| d.nav_items.clone())
        .unwrap_or_default();
    BrowserReport {
        url: url.to_owned(),
        final_url: if run.collected.final_url.is_empty() {
            url.to_owned()
        } else {
            run.collected.final_url.clone()
        },
        desktop_score,
        mobile_score,
        simulated,
        simulation_error,
        observed_load,
        colors: design::palette(&probes),
        fonts: design::fonts(&probes),
        design_groups,
        nav_items,
        accessibility,
        best_practices,
        refused,
        timings,
        screenshots: ScreenshotImages {
            desktop: run.desktop.screenshot,
            mobile: run.screenshot,
        },
        mobile: run.metrics,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_header_is_read() {
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
        png.extend_from_slice(&1280u32.to_be_bytes());
        png.extend_from_slice(&800u32.to_be_bytes());
        assert_eq!(png_dimensions(&png), Some((1280, 800)));
        assert_eq!(png_dimensions(b"GIF89a"), None);
    }

    #[test]
    fn category_score_weighs_audits() {
        let a = |id: &str, passed, weight| AuditOutcome {
            id: id.into(),
            passed,
            weight,
        };
        assert_eq!(category_score(&[]), None);
        assert_eq!(
            category_score(&[a("image-alt", false, 10.0), a("document-title", true, 7.0)]),
            Some(41)
        );
    }
}
