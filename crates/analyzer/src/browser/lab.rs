//! One device run and the lab metrics it yields.
//!
//! # How each figure is measured
//!
//! - **FCP**: the `first-contentful-paint` paint entry.
//! - **LCP**: the last `largest-contentful-paint` candidate before the metrics are read.
//! - **CLS**: layout shifts (Sitelens sends no input, so none is excluded), grouped into session windows (gap under 1 s,
//!   window at most 5 s); the largest window's sum, as Chrome and Lighthouse define it.
//! - **TBT**: long tasks (over 50 ms) after FCP, each clipped at FCP; the sum of their time
//!   beyond 50 ms.
//! - **TTI**: the later of FCP, DOMContentLoaded and the end of the last long task. Lighthouse
//!   looks for a 5 s quiet window; we observe until the network has been quiet for
//!   [`BrowserSettings::quiet_window`], so a task after that window is not seen.
//! - **Speed Index** (paint progression): every visible piece of content in the first viewport
//!   (text, images, media, backgrounds) counts with its visible area, painted at the later of
//!   FCP, the time it entered the document (a MutationObserver installed before any page
//!   script) and, for images, the time it finished loading. Visual completeness at time `t` is
//!   the painted share of that area, and Speed Index = ∫(1 − completeness) dt, which equals the
//!   area-weighted mean paint time. Lighthouse derives completeness from screencast frames'
//!   colour histograms; on pages that paint in steps both give the same staircase.
//! - **Load time**: `loadEventEnd` of the navigation entry.
//! - **Page size**: bytes on the wire (`Network.loadingFinished` `encodedDataLength`, headers
//!   included) and decoded body bytes (`Network.dataReceived`), over every request but `data:`.
//! - **Render-blocking resources**: resource timing's `renderBlockingStatus`.
//! - **Images**: natural against displayed size (the page runs at device pixel ratio 1), the
//!   transferred bytes, and whether width and height are reserved; savings are estimated at
//!   0.15 bytes per displayed pixel for raster formats other than WebP and AVIF (a WebP at
//!   quality 80 of a photograph), else the bytes beyond the displayed size.
//!
//! Loads are not throttled: figures are what this machine measures, scored on Lighthouse's
//! desktop and mobile curves.
//!
//! [`BrowserSettings::quiet_window`]: super::BrowserSettings::quiet_window

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use chromiumoxide::Page;
use chromiumoxide::cdp::browser_protocol::audits::{
    EnableParams as AuditsEnable, EventIssueAdded, InspectorIssueCode,
};
use chromiumoxide::cdp::browser_protocol::emulation::{
    SetDeviceMetricsOverrideParams, SetTouchEmulationEnabledParams, SetUserAgentOverrideParams,
};
use chromiumoxide::cdp::browser_protocol::log::{EventEntryAdded, LogEntryLevel};
use chromiumoxide::cdp::browser_protocol::network::{
    EventDataReceived, EventLoadingFailed, EventLoadingFinished, EventRequestWillBeSent,
    EventResponseReceived,
};
use chromiumoxide::cdp::browser_protocol::page::{
    AddScriptToEvaluateOnNewDocumentParams, CaptureScreenshotFormat, CaptureScreenshotParams,
};
use chromiumoxide::cdp::js_protocol::runtime::{
    ConsoleApiCalledType, EventConsoleApiCalled, EventExceptionThrown,
};
use domain::performance::is_pro_only;
use domain::report::{Diagnostic, DiagnosticDetail, DiagnosticType};
use futures::StreamExt;
use serde::{Deserialize, Serialize};

use super::proxy::{PROXY_HEADER, RequestGuard};
use super::{BrowserError, BrowserSettings, Device, a11y, design};

const LAB_INIT: &str = include_str!("../../assets/lab-init.js");
const LAB_COLLECT: &str = include_str!("../../assets/lab-collect.js");

/// The mobile User-Agent (Lighthouse's emulated phone), with Sitelens's product token.
const MOBILE_UA: &str = "Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36";
/// The desktop User-Agent.
const DESKTOP_UA: &str = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";

/// Bytes per pixel of a well-compressed WebP, the target of the image savings estimate.
pub const TARGET_BYTES_PER_PIXEL: f64 = 0.15;
/// Savings under this many bytes are not reported (Lighthouse's threshold).
pub const IGNORE_SAVINGS_BYTES: f64 = 4096.0;

/// Bytes and requests of one resource type.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TypeBreakdown {
    /// Resource type as DevTools names it (Document, Script, Stylesheet, Image, Font, ...).
    pub resource_type: String,
    /// Requests.
    pub requests: u32,
    /// Bytes on the wire.
    pub transferred_bytes: f64,
    /// Decoded bytes.
    pub decoded_bytes: f64,
}

/// One resource.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceInfo {
    /// Address.
    pub url: String,
    /// Resource type.
    pub resource_type: String,
    /// MIME type of the response.
    pub mime_type: String,
    /// Bytes on the wire.
    pub transferred_bytes: f64,
    /// Decoded bytes.
    pub decoded_bytes: f64,
    /// Whether it is on another site than the page.
    pub third_party: bool,
    /// When it finished, ms after navigation start (render-blocking resources).
    pub end_ms: f64,
}

/// An image worth changing.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ImageFinding {
    /// Address.
    pub url: String,
    /// Natural size.
    pub natural: (u32, u32),
    /// Displayed size, CSS px.
    pub displayed: (u32, u32),
    /// Bytes on the wire.
    pub transferred_bytes: f64,
    /// Estimated bytes saved by resizing to the displayed size and a modern format.
    pub wasted_bytes: f64,
    /// Width and height are not reserved (attributes or CSS), so it shifts the layout.
    pub no_dimensions: bool,
    /// Served larger than displayed.
    pub oversized: bool,
    /// JPEG, PNG, BMP or TIFF rather than WebP/AVIF.
    pub legacy_format: bool,
    /// Displayed with a different aspect ratio than its natural one (distorted).
    pub distorted: bool,
    /// Displayed larger than its natural size (blurry).
    pub upscaled: bool,
}

/// Third-party weight.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ThirdParty {
    /// Requests to other sites.
    pub requests: u32,
    /// Their bytes on the wire.
    pub transferred_bytes: f64,
    /// Share of all transferred bytes, 0-1.
    pub byte_share: f64,
    /// Other sites contacted.
    pub hosts: Vec<String>,
}

/// Lab metrics of one load. Times in ms from navigation start, sizes in bytes.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LabMetrics {
    /// First Contentful Paint.
    pub first_contentful_paint: Option<f64>,
    /// Largest Contentful Paint.
    pub largest_contentful_paint: Option<f64>,
    /// The LCP element's tag and address (images).
    pub lcp_element: Option<String>,
    /// Cumulative Layout Shift.
    pub cumulative_layout_shift: f64,
    /// Total Blocking Time.
    pub total_blocking_time: f64,
    /// Long tasks seen (start, duration).
    pub long_tasks: Vec<(f64, f64)>,
    /// Speed Index (paint progression, see the module documentation).
    pub speed_index: Option<f64>,
    /// Time to Interactive (see the module documentation).
    pub time_to_interactive: Option<f64>,
    /// Time to first byte of the document.
    pub time_to_first_byte: Option<f64>,
    /// DOMContentLoaded end.
    pub dom_content_loaded: Option<f64>,
    /// Load event end.
    pub load_time: Option<f64>,
    /// Bytes on the wire.
    pub transferred_bytes: f64,
    /// Decoded bytes.
    pub decoded_bytes: f64,
    /// Requests (`data:` excluded; refused ones excluded).
    pub request_count: u32,
    /// Per resource type, largest first.
    pub by_type: Vec<TypeBreakdown>,
    /// The ten largest resources.
    pub largest: Vec<ResourceInfo>,
    /// Render-blocking resources.
    pub render_blocking: Vec<ResourceInfo>,
    /// Images with something to fix.
    pub images: Vec<ImageFinding>,
    /// Third-party weight.
    pub third_party: ThirdParty,
}

impl LabMetrics {
    /// The values the performance score uses.
    pub fn lab_values(&self) -> domain::score::LabValues {
        domain::score::LabValues {
            first_contentful_paint: self.first_contentful_paint,
            speed_index: self.speed_index,
            largest_contentful_paint: self.largest_contentful_paint,
            total_blocking_time: Some(self.total_blocking_time),
            cumulative_layout_shift: Some(self.cumulative_layout_shift),
        }
    }

    /// Bytes the image changes would save.
    pub fn image_savings(&self) -> f64 {
        self.images
            .iter()
            .map(|i| i.wasted_bytes)
            .fold(0.0, |a, b| a + b)
    }
}

/// What the page script recorded (lab-collect.js).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Collected {
    paints: BTreeMap<String, f64>,
    lcp: Vec<LcpEntry>,
    shifts: Vec<Shift>,
    longtasks: Vec<LongTask>,
    speed_index: Option<f64>,
    nav: NavTiming,
    resources: Vec<ResourceTiming>,
    /// The page's images.
    pub images: Vec<ImageProbe>,
    /// `document.doctype.name`.
    pub doctype: Option<String>,
    /// `document.compatMode`.
    pub compat_mode: String,
    /// `document.characterSet`.
    pub character_set: String,
    /// Index of the charset meta among the head's children, -1 when absent.
    pub meta_charset_index: i64,
    /// The viewport meta content, when present.
    pub viewport: Option<String>,
    /// `window.isSecureContext` (https, or localhost as Lighthouse treats it).
    pub secure_context: bool,
    /// `location.protocol`.
    pub protocol: String,
    /// The page asked for the position while loading.
    pub geolocation_on_start: bool,
    /// The page asked to show notifications while loading.
    pub notification_on_start: bool,
    /// Inputs that cancel a paste.
    pub paste_prevented: u32,
    /// `location.href`.
    pub final_url: String,
    /// `document.title`.
    pub title: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
struct LcpEntry {
    t: f64,
    url: String,
    tag: String,
}

#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(default)]
struct Shift {
    t: f64,
    v: f64,
    /// Chromium's `hadRecentInput`. Sitelens never sends input, yet Chromium sets the flag after
    /// emulation and tab changes (crbug.com/1094974, crbug.com/1302667; Lighthouse works around
    /// it too), so every shift counts and the flag is only kept for the record.
    #[allow(dead_code)]
    input: bool,
}

#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(default)]
struct LongTask {
    t: f64,
    d: f64,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct NavTiming {
    response_start: f64,
    dom_content_loaded: f64,
    load: f64,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct ResourceTiming {
    url: String,
    render_blocking: bool,
    end: f64,
}

/// One `<img>` as rendered.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ImageProbe {
    /// `currentSrc`.
    pub url: String,
    /// Natural width.
    pub natural_width: f64,
    /// Natural height.
    pub natural_height: f64,
    /// Displayed width.
    pub width: f64,
    /// Displayed height.
    pub height: f64,
    /// Has a width attribute.
    pub has_width_attr: bool,
    /// Has a height attribute.
    pub has_height_attr: bool,
    /// Sized by CSS (inline width and height, or aspect-ratio).
    pub css_sized: bool,
    /// `object-fit`.
    pub object_fit: String,
    /// Rendered with a size.
    pub visible: bool,
    /// In the first viewport.
    pub in_viewport: bool,
}

/// One request as the network saw it.
#[derive(Debug, Clone, Default)]
struct NetRequest {
    /// `requestWillBeSent` was seen. Each event type arrives on its own channel, so a request's
    /// later events may be handled first: they fill a placeholder that this event completes.
    started: bool,
    url: String,
    resource_type: String,
    mime_type: String,
    transferred: f64,
    decoded: f64,
    done: bool,
    failed: bool,
    /// Answered by the guarding proxy (refused or unreachable), not by the site.
    proxy_answer: bool,
}

impl NetRequest {
    /// A failed request the proxy refused by its tunnel (recorded as `host:port`) is the
    /// proxy's answer, and is recorded under its full address too.
    fn mark_if_refused(&mut self, guard: &RequestGuard) {
        if let Some(reason) = guard.refusal(&self.url) {
            self.proxy_answer = true;
            guard.record(&self.url, reason);
        }
    }
}

#[derive(Debug, Default)]
struct NetState {
    requests: Vec<NetRequest>,
    index: HashMap<String, usize>,
    last_activity: Option<Instant>,
    /// Response headers of the main frame's latest document.
    document_headers: Vec<(String, String)>,
    /// Addresses the main frame requested as documents (redirect hops included), in order.
    documents: Vec<String>,
    /// The proxy's own answer to the main frame's latest document (`refused; ...` or
    /// `unreachable; ...`), when the site never answered it.
    document_proxy_answer: Option<String>,
}

impl NetState {
    /// The current entry of request `id`, a placeholder when its `requestWillBeSent` has not
    /// been handled yet.
    fn slot(&mut self, id: &str) -> usize {
        if let Some(&i) = self.index.get(id) {
            return i;
        }
        self.requests.push(NetRequest::default());
        let i = self.requests.len() - 1;
        self.index.insert(id.to_owned(), i);
        i
    }

    /// Requests started and not finished.
    fn inflight(&self) -> usize {
        self.requests
            .iter()
            .filter(|r| r.started && !r.done)
            .count()
    }
}

/// Console errors, deprecations and other DevTools issues of one load.
#[derive(Debug, Clone, Default)]
pub struct PageLog {
    /// Console errors, uncaught exceptions and error log entries.
    pub errors: Vec<String>,
    /// Deprecated features used.
    pub deprecations: Vec<String>,
    /// Other DevTools issues, by code (for example `MixedContentIssue`).
    pub issues: Vec<String>,
    /// Subresources loaded over http on an https page.
    pub mixed_content: Vec<String>,
    /// Cookies Chromium flags for the third-party cookie phase-out.
    pub third_party_cookies: u32,
}

/// Everything one device run produced.
#[derive(Debug, Clone)]
pub struct DeviceRun {
    /// Which emulation.
    pub device: Device,
    /// Lab metrics.
    pub metrics: LabMetrics,
    /// Page facts for best practices.
    pub collected: Collected,
    /// First-viewport PNG.
    pub screenshot: Option<Vec<u8>>,
    /// Design facts.
    pub design: Option<design::DesignProbe>,
    /// axe-core results for this load's share of the rules.
    pub axe: Option<Result<a11y::AxeResults, String>>,
    /// Console and DevTools issues.
    pub log: PageLog,
    /// The response headers of the final document.
    pub document_headers: Vec<(String, String)>,
    /// axe-core's time.
    pub axe_ms: f64,
    /// The whole run.
    pub elapsed_ms: f64,
    /// Milliseconds per step: setup, load, settle, collect, screenshot, design, axe.
    pub steps: Vec<(&'static str, f64)>,
}

fn cdp_name<T: Serialize>(t: &T) -> String {
    serde_json::to_value(t)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_else(|| "Other".to_owned())
}

/// Subscribe to network, console and issue events of `page`, recording into shared state.
async fn record(
    page: &Page,
    guard: &RequestGuard,
) -> Result<(Arc<Mutex<NetState>>, Arc<Mutex<PageLog>>), BrowserError> {
    // Documents of the main frame (not of iframes) are the page's own.
    let main_frame = Arc::new(page.mainframe().await?);
    let is_main = move |frame: Option<&chromiumoxide::cdp::browser_protocol::page::FrameId>| {
        main_frame.is_some() && frame == main_frame.as_ref().as_ref()
    };
    let is_main_too = is_main.clone();
    let net = Arc::new(Mutex::new(NetState::default()));
    let log = Arc::new(Mutex::new(PageLog::default()));

    let mut sent = page.event_listener::<EventRequestWillBeSent>().await?;
    let n = net.clone();
    let g = guard.clone();
    tokio::spawn(async move {
        while let Some(e) = sent.next().await {
            if e.request.url.starts_with("data:") {
                continue;
            }
            if let Ok(mut s) = n.lock() {
                if e.r#type.as_ref().map(cdp_name).as_deref() == Some("Document")
                    && is_main(e.frame_id.as_ref())
                {
                    s.documents.push(e.request.url.clone());
                }
                let id = e.request_id.inner().clone();
                let resource_type = e
                    .r#type
                    .as_ref()
                    .map(cdp_name)
                    .unwrap_or_else(|| "Other".into());
                match s.index.get(&id).copied() {
                    // Later events of this request came first: complete their placeholder.
                    Some(i) if !s.requests[i].started => {
                        let r = &mut s.requests[i];
                        r.started = true;
                        r.url = e.request.url.clone();
                        if r.resource_type.is_empty() {
                            r.resource_type = resource_type;
                        }
                        if r.failed {
                            r.mark_if_refused(&g);
                        }
                    }
                    found => {
                        // A redirect: the previous hop is done; its id names the next hop.
                        if let (Some(i), Some(r)) = (found, &e.redirect_response) {
                            s.requests[i].done = true;
                            s.requests[i].transferred = r.encoded_data_length;
                        }
                        s.requests.push(NetRequest {
                            started: true,
                            url: e.request.url.clone(),
                            resource_type,
                            ..NetRequest::default()
                        });
                        let at = s.requests.len() - 1;
                        s.index.insert(id, at);
                    }
                }
                s.last_activity = Some(Instant::now());
            }
        }
    });

    let mut received = page.event_listener::<EventResponseReceived>().await?;
    let n = net.clone();
    tokio::spawn(async move {
        while let Some(e) = received.next().await {
            let map = e.response.headers.inner().as_object();
            let proxy_answer = map.and_then(|m| {
                m.iter()
                    .find(|(k, _)| k.eq_ignore_ascii_case(PROXY_HEADER))
                    .map(|(_, v)| v.as_str().unwrap_or("").to_owned())
            });
            let resource_type = cdp_name(&e.r#type);
            if let Ok(mut s) = n.lock() {
                let i = s.slot(e.request_id.inner());
                s.requests[i].mime_type = e.response.mime_type.clone();
                s.requests[i].proxy_answer = proxy_answer.is_some();
                if resource_type == "Document" && is_main_too(e.frame_id.as_ref()) {
                    // Only the main document's headers are kept (best practices read them).
                    s.document_headers = map
                        .map(|m| {
                            m.iter()
                                .map(|(k, v)| {
                                    (k.to_ascii_lowercase(), v.as_str().unwrap_or("").to_owned())
                                })
                                .collect()
                        })
                        .unwrap_or_default();
                    s.document_proxy_answer = proxy_answer;
                }
                s.requests[i].resource_type = resource_type;
                s.last_activity = Some(Instant::now());
            }
        }
    });

    let mut data = page.event_listener::<EventDataReceived>().await?;
    let n = net.clone();
    tokio::spawn(async move {
        while let Some(e) = data.next().await {
            if let Ok(mut s) = n.lock() {
                let i = s.slot(e.request_id.inner());
                s.requests[i].decoded += e.data_length as f64;
                s.last_activity = Some(Instant::now());
            }
        }
    });

    let mut finished = page.event_listener::<EventLoadingFinished>().await?;
    let n = net.clone();
    tokio::spawn(async move {
        while let Some(e) = finished.next().await {
            if let Ok(mut s) = n.lock() {
                let i = s.slot(e.request_id.inner());
                if !s.requests[i].done {
                    s.requests[i].done = true;
                    s.requests[i].transferred = e.encoded_data_length;
                }
                s.last_activity = Some(Instant::now());
            }
        }
    });

    let mut failed = page.event_listener::<EventLoadingFailed>().await?;
    let n = net.clone();
    let g = guard.clone();
    tokio::spawn(async move {
        while let Some(e) = failed.next().await {
            if let Ok(mut s) = n.lock() {
                let i = s.slot(e.request_id.inner());
                if !s.requests[i].done {
                    s.requests[i].done = true;
                    s.requests[i].failed = true;
                    // Or when its requestWillBeSent is handled, should that come later.
                    s.requests[i].mark_if_refused(&g);
                }
                s.last_activity = Some(Instant::now());
            }
        }
    });

    let mut console = page.event_listener::<EventConsoleApiCalled>().await?;
    let l = log.clone();
    tokio::spawn(async move {
        while let Some(e) = console.next().await {
            if e.r#type != ConsoleApiCalledType::Error {
                continue;
            }
            let text: Vec<String> = e
                .args
                .iter()
                .map(|a| {
                    a.value
                        .as_ref()
                        .map(|v| {
                            v.as_str()
                                .map(str::to_owned)
                                .unwrap_or_else(|| v.to_string())
                        })
                        .or_else(|| a.description.clone())
                        .unwrap_or_default()
                })
                .collect();
            if let Ok(mut l) = l.lock() {
                l.errors.push(text.join(" "));
            }
        }
    });

    let mut exceptions = page.event_listener::<EventExceptionThrown>().await?;
    let l = log.clone();
    tokio::spawn(async move {
        while let Some(e) = exceptions.next().await {
            let d = &e.exception_details;
            let text = d
                .exception
                .as_ref()
                .and_then(|x| x.description.clone())
                .unwrap_or_else(|| d.text.clone());
            if let Ok(mut l) = l.lock() {
                l.errors.push(text.lines().next().unwrap_or("").to_owned());
            }
        }
    });

    let mut entries = page.event_listener::<EventEntryAdded>().await?;
    let l = log.clone();
    let g = guard.clone();
    tokio::spawn(async move {
        while let Some(e) = entries.next().await {
            if e.entry.level != LogEntryLevel::Error {
                continue;
            }
            // Our own refusals are reported apart. A missing favicon counts, as in Lighthouse.
            if e.entry
                .url
                .as_deref()
                .is_some_and(|u| g.refusal(u).is_some())
            {
                continue;
            }
            let text = match &e.entry.url {
                Some(u) => format!("{} ({u})", e.entry.text),
                None => e.entry.text.clone(),
            };
            if let Ok(mut l) = l.lock() {
                l.errors.push(text);
            }
        }
    });

    let mut issues = page.event_listener::<EventIssueAdded>().await?;
    let l = log.clone();
    tokio::spawn(async move {
        while let Some(e) = issues.next().await {
            if let Ok(mut l) = l.lock() {
                match e.issue.code {
                    InspectorIssueCode::DeprecationIssue => {
                        if let Some(d) = &e.issue.details.deprecation_issue_details
                            && !l.deprecations.contains(&d.r#type)
                        {
                            l.deprecations.push(d.r#type.clone());
                        }
                    }
                    InspectorIssueCode::MixedContentIssue => {
                        if let Some(d) = &e.issue.details.mixed_content_issue_details {
                            l.mixed_content.push(d.insecure_url.clone());
                        }
                        l.issues.push("MixedContentIssue".to_owned());
                    }
                    InspectorIssueCode::CookieIssue => {
                        let details = serde_json::to_string(&e.issue.details.cookie_issue_details)
                            .unwrap_or_default();
                        if details.contains("ThirdPartyPhaseout") {
                            l.third_party_cookies += 1;
                        } else {
                            l.issues.push("CookieIssue".to_owned());
                        }
                    }
                    // A stylesheet that failed to load is already a console error; Lighthouse
                    // 12.8's inspector-issues audit passes a page whose only issue it is.
                    InspectorIssueCode::StylesheetLoadingIssue => {}
                    ref other => l.issues.push(cdp_name(other)),
                }
            }
        }
    });
    Ok((net, log))
}

/// Prepare a blank tab for `device`: viewport and touch emulation, User-Agent, the lab
/// instrumentation script, axe-core's loader for its isolated world (run at once on the blank
/// page, so the renderer compiles axe-core now rather than after the load) and the Audits
/// domain (deprecations). The commands are independent and sent together. The pool does this
/// ahead of need for spare tabs.
pub async fn prepare(page: &Page, device: Device) -> Result<(), BrowserError> {
    let (w, h) = device.viewport();
    let mobile = device == Device::Mobile;
    let ua = format!(
        "{} {}",
        if mobile { MOBILE_UA } else { DESKTOP_UA },
        crate::config::USER_AGENT
    );
    let touch = SetTouchEmulationEnabledParams::builder()
        .enabled(mobile)
        .max_touch_points(5)
        .build()
        .map_err(BrowserError::Protocol)?;
    let axe_holder = AddScriptToEvaluateOnNewDocumentParams::builder()
        .source(a11y::source_holder())
        .world_name(a11y::AXE_WORLD)
        .run_immediately(true)
        .build()
        .map_err(BrowserError::Protocol)?;
    tokio::try_join!(
        page.execute(SetDeviceMetricsOverrideParams::new(
            i64::from(w),
            i64::from(h),
            1.0,
            mobile,
        )),
        page.execute(touch),
        page.execute(SetUserAgentOverrideParams::new(ua)),
        page.execute(AddScriptToEvaluateOnNewDocumentParams::new(LAB_INIT)),
        page.execute(axe_holder),
        page.execute(AuditsEnable::default()),
    )?;
    Ok(())
}

/// Load `url` in `page` as `device` and measure everything. `prepared` says whether
/// [`prepare`] already ran on this tab.
pub async fn run(
    page: &Page,
    device: Device,
    url: &str,
    guard: &RequestGuard,
    settings: &BrowserSettings,
    prepared: bool,
) -> Result<DeviceRun, BrowserError> {
    let started = Instant::now();
    let mut steps: Vec<(&'static str, f64)> = Vec::new();
    let mut mark = Instant::now();
    let mut step = |name: &'static str| {
        steps.push((name, mark.elapsed().as_secs_f64() * 1000.0));
        mark = Instant::now();
    };
    if !prepared {
        prepare(page, device).await?;
    }
    let (net, log) = record(page, guard).await?;

    step("setup");
    match tokio::time::timeout(settings.load_timeout, page.goto(url)).await {
        Ok(Ok(_)) => {}
        Ok(Err(e)) => {
            // A refused hop of the document (a tunnel the proxy refused) fails the navigation.
            let documents = net.lock().map(|s| s.documents.clone()).unwrap_or_default();
            if let Some(reason) = std::iter::once(url)
                .chain(documents.iter().map(String::as_str))
                .find_map(|u| guard.refusal(u))
            {
                return Err(BrowserError::Refused(reason));
            }
            return Err(BrowserError::Navigation(e.to_string()));
        }
        Err(_) => {
            // The load event did not fire in time (a resource that never finishes): measure
            // what is there. The page must have committed, or there is nothing to measure.
            tracing::info!(%url, "no load event in time; measuring the page as it stands");
            let committed: bool = page
                .evaluate("location.href !== 'about:blank'")
                .await
                .ok()
                .and_then(|v| v.into_value().ok())
                .unwrap_or(false);
            if !committed {
                return Err(BrowserError::Timeout {
                    what: "loading the page",
                    seconds: settings.load_timeout.as_secs(),
                });
            }
        }
    }
    // A document the proxy answered itself (a refused redirect hop, an unreachable server) is
    // not the site's page.
    let answer = net
        .lock()
        .ok()
        .and_then(|s| s.document_proxy_answer.clone());
    if let Some(answer) = answer {
        let (kind, reason) = answer.split_once("; ").unwrap_or(("", answer.as_str()));
        return Err(if kind == "refused" {
            BrowserError::Refused(reason.to_owned())
        } else {
            BrowserError::Navigation(reason.to_owned())
        });
    }
    step("load");
    settle(page, &net, settings).await;
    step("settle");

    let raw: String = page
        .evaluate_function(LAB_COLLECT)
        .await?
        .into_value()
        .map_err(|e| BrowserError::Protocol(e.to_string()))?;
    let collected: Collected =
        serde_json::from_str(&raw).map_err(|e| BrowserError::Protocol(e.to_string()))?;

    step("collect");
    // The screenshot is taken by the compositor while the page's main thread reads the design
    // facts and runs axe-core, so the two proceed side by side.
    let shot = async {
        let t = Instant::now();
        let r = screenshot(page)
            .await
            .map_err(|e| tracing::warn!(error = %e, "screenshot failed"))
            .ok();
        (r, t.elapsed().as_secs_f64() * 1000.0)
    };
    let inspect = async {
        let t = Instant::now();
        let design = design::probe(page)
            .await
            .map_err(|e| tracing::warn!(error = %e, "design probe failed"))
            .ok();
        let design_ms = t.elapsed().as_secs_f64() * 1000.0;
        let axe = if settings.accessibility {
            Some(a11y::run_axe(page, &a11y::rules_for(device)).await)
        } else {
            None
        };
        (design, design_ms, axe)
    };
    let ((screenshot, shot_ms), (design, design_ms, axe)) = tokio::join!(shot, inspect);
    step("screenshot+design+axe");
    steps.push(("(screenshot)", shot_ms));
    steps.push(("(design)", design_ms));
    let mut axe_ms = 0.0;
    if let Some(Ok(a)) = &axe {
        axe_ms = a.inject_ms + a.run_ms;
        steps.push(("(axe-inject)", a.inject_ms));
        steps.push(("(axe-run)", a.run_ms));
    }

    let (requests, document_headers) = net
        .lock()
        .map(|s| (s.requests.clone(), s.document_headers.clone()))
        .unwrap_or_default();
    let page_url = if collected.final_url.is_empty() {
        url.to_owned()
    } else {
        collected.final_url.clone()
    };
    let metrics = compute(&collected, &requests, &page_url);
    let log = log.lock().map(|l| l.clone()).unwrap_or_default();
    Ok(DeviceRun {
        device,
        metrics,
        collected,
        screenshot,
        design,
        axe,
        log,
        document_headers,
        axe_ms,
        elapsed_ms: started.elapsed().as_secs_f64() * 1000.0,
        steps,
    })
}

/// Whether the page looks finished from inside, checked after its next frame and the task
/// after it (work a page schedules for its next frame has started by then; 100 ms at most,
/// should frames not come): the first contentful paint has happened (pages without content
/// never paint: they settle at `max_settle`), and no image the page holds is still loading
/// (one a script just inserted may not have reached the network yet; images left to load
/// lazily are not waited for).
const LOOKS_DONE: &str = "new Promise((resolve) => {
  const check = () => resolve((!window.__sitelens || window.__sitelens.paints['first-contentful-paint'] !== undefined || !document.body || !document.body.innerText.trim())
    && !Array.prototype.some.call(document.images, (i) => !i.complete && i.loading !== 'lazy'));
  const fallback = setTimeout(check, 100);
  requestAnimationFrame(() => setTimeout(() => { clearTimeout(fallback); check(); }, 0));
})";

/// A PNG of the first viewport. `Page.captureScreenshot` directly, without chromiumoxide's
/// activation of the tab: bringing one tab to the front disturbs the other device's load.
async fn screenshot(page: &Page) -> Result<Vec<u8>, BrowserError> {
    use base64::Engine;
    let shot = page
        .execute(
            CaptureScreenshotParams::builder()
                .format(CaptureScreenshotFormat::Png)
                .build(),
        )
        .await?;
    base64::engine::general_purpose::STANDARD
        .decode(shot.result.data.as_ref() as &str)
        .map_err(|e| BrowserError::Protocol(e.to_string()))
}

/// Wait until no request has been in flight for the quiet window, at most `max_settle`.
async fn settle(page: &Page, net: &Arc<Mutex<NetState>>, settings: &BrowserSettings) {
    let start = Instant::now();
    let tick = std::time::Duration::from_millis(10);
    let activity = || {
        net.lock()
            .map(|s| (s.inflight(), s.last_activity))
            .unwrap_or((0, None))
    };
    loop {
        let (inflight, last) = activity();
        let quiet_since = last.map_or(start.elapsed(), |l| l.elapsed());
        if start.elapsed() >= settings.max_settle {
            return;
        }
        if inflight == 0 && quiet_since >= settings.quiet_window {
            // A round trip through the page's main thread: a long task that ran during the
            // quiet window may have started new requests, which must settle too.
            // The page must also have painted (metrics read before FCP are meaningless) and
            // have no image still loading.
            let done = page
                .evaluate(LOOKS_DONE)
                .await
                .ok()
                .and_then(|v| v.into_value::<bool>().ok())
                .unwrap_or(true);
            let (inflight_after, last_after) = activity();
            if done && inflight_after == 0 && last_after == last {
                return;
            }
            if !done {
                tokio::time::sleep(tick).await;
            }
            continue;
        }
        tokio::time::sleep(tick).await;
    }
}

/// The registrable part of a host, approximated as its last two labels (IP addresses whole).
fn site_of(host: &str) -> String {
    if host.parse::<std::net::IpAddr>().is_ok() || host.starts_with('[') {
        return host.to_owned();
    }
    let labels: Vec<&str> = host.trim_end_matches('.').split('.').collect();
    let n = labels.len();
    if n <= 2 {
        return host.to_owned();
    }
    // Two-letter second-level registries such as co.uk keep three labels.
    let keep = if labels[n - 2].len() <= 3 && labels[n - 1].len() == 2 {
        3
    } else {
        2
    };
    labels[n.saturating_sub(keep)..].join(".")
}

fn host_of(url: &str) -> String {
    url::Url::parse(url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_owned))
        .unwrap_or_default()
}

/// CLS: the largest session window (gaps under 1 s, windows at most 5 s) of shift values.
pub fn cumulative_layout_shift(shifts: &[(f64, f64)]) -> f64 {
    let mut best: f64 = 0.0;
    let mut current = 0.0;
    let mut window_start = f64::NEG_INFINITY;
    let mut last = f64::NEG_INFINITY;
    for &(t, v) in shifts {
        if t - last >= 1000.0 || t - window_start >= 5000.0 {
            current = 0.0;
            window_start = t;
        }
        current += v;
        last = t;
        best = best.max(current);
    }
    best
}

/// TBT: the time beyond 50 ms of every long task after FCP, each clipped at FCP.
pub fn total_blocking_time(fcp: f64, tasks: &[(f64, f64)]) -> f64 {
    tasks
        .iter()
        .map(|&(start, d)| {
            let end = start + d;
            let clipped = (end - start.max(fcp)).max(0.0);
            (clipped - 50.0).max(0.0)
        })
        .fold(0.0, |a, b| a + b)
}

fn compute(c: &Collected, requests: &[NetRequest], page_url: &str) -> LabMetrics {
    let fcp = c.paints.get("first-contentful-paint").copied();
    let lcp_entry = c.lcp.last();
    let shifts: Vec<(f64, f64)> = c.shifts.iter().map(|s| (s.t, s.v)).collect();
    let tasks: Vec<(f64, f64)> = c.longtasks.iter().map(|t| (t.t, t.d)).collect();
    let tbt = fcp.map_or(0.0, |f| total_blocking_time(f, &tasks));
    let last_task_end = tasks.iter().map(|(s, d)| s + d).fold(0.0_f64, f64::max);
    let dcl = (c.nav.dom_content_loaded > 0.0).then_some(c.nav.dom_content_loaded);
    let tti = fcp.map(|f| f.max(dcl.unwrap_or(0.0)).max(last_task_end));
    let speed_index = c.speed_index.map(|si| fcp.map_or(si, |f| si.max(f)));

    let page_site = site_of(&host_of(page_url));
    let counted: Vec<&NetRequest> = requests
        .iter()
        .filter(|r| r.started && !r.proxy_answer && (!r.failed || r.transferred > 0.0))
        .collect();
    let transferred: f64 = counted
        .iter()
        .map(|r| r.transferred)
        .fold(0.0, |a, b| a + b);
    let decoded: f64 = counted.iter().map(|r| r.decoded).fold(0.0, |a, b| a + b);

    let mut types: BTreeMap<String, TypeBreakdown> = BTreeMap::new();
    let mut third = ThirdParty::default();
    let mut resources: Vec<ResourceInfo> = Vec::new();
    for r in &counted {
        let t = types
            .entry(r.resource_type.clone())
            .or_insert_with(|| TypeBreakdown {
                resource_type: r.resource_type.clone(),
                ..TypeBreakdown::default()
            });
        t.requests += 1;
        t.transferred_bytes += r.transferred;
        t.decoded_bytes += r.decoded;
        let host = host_of(&r.url);
        let is_third = !host.is_empty() && site_of(&host) != page_site;
        if is_third {
            third.requests += 1;
            third.transferred_bytes += r.transferred;
            if !third.hosts.contains(&host) {
                third.hosts.push(host);
            }
        }
        resources.push(ResourceInfo {
            url: r.url.clone(),
            resource_type: r.resource_type.clone(),
            mime_type: r.mime_type.clone(),
            transferred_bytes: r.transferred,
            decoded_bytes: r.decoded,
            third_party: is_third,
            end_ms: 0.0,
        });
    }
    third.byte_share = if transferred > 0.0 {
        third.transferred_bytes / transferred
    } else {
        0.0
    };
    let mut by_type: Vec<TypeBreakdown> = types.into_values().collect();
    by_type.sort_by(|a, b| b.transferred_bytes.total_cmp(&a.transferred_bytes));

    let find = |url: &str| resources.iter().find(|r| r.url == url).cloned();
    let render_blocking: Vec<ResourceInfo> = c
        .resources
        .iter()
        .filter(|r| r.render_blocking)
        .map(|r| {
            let mut info = find(&r.url).unwrap_or_else(|| ResourceInfo {
                url: r.url.clone(),
                ..ResourceInfo::default()
            });
            info.end_ms = r.end;
            info
        })
        .collect();

    let mut images = Vec::new();
    for img in &c.images {
        if !img.visible || img.url.is_empty() || img.natural_width <= 0.0 {
            continue;
        }
        let res = find(&img.url);
        let bytes = res.as_ref().map_or(0.0, |r| r.transferred_bytes);
        let mime = res
            .as_ref()
            .map(|r| r.mime_type.clone())
            .unwrap_or_default();
        let natural_px = img.natural_width * img.natural_height;
        let shown_px = (img.width * img.height).max(1.0);
        let legacy = matches!(
            mime.as_str(),
            "image/jpeg" | "image/png" | "image/bmp" | "image/x-ms-bmp" | "image/tiff"
        );
        let oversized = natural_px > shown_px * 1.5 && natural_px - shown_px > 10_000.0;
        let target_px = natural_px.min(shown_px);
        let wasted = if legacy {
            (bytes - target_px * TARGET_BYTES_PER_PIXEL).max(0.0)
        } else if oversized {
            bytes * (1.0 - shown_px / natural_px)
        } else {
            0.0
        };
        let wasted = if wasted >= IGNORE_SAVINGS_BYTES {
            wasted
        } else {
            0.0
        };
        let no_dimensions = !(img.css_sized || (img.has_width_attr && img.has_height_attr));
        let natural_ratio = img.natural_width / img.natural_height.max(1.0);
        let shown_ratio = img.width / img.height.max(1.0);
        let fitted = matches!(img.object_fit.as_str(), "cover" | "contain" | "scale-down");
        let distorted = !fitted
            && img.width > 5.0
            && img.height > 5.0
            && ((shown_ratio - natural_ratio).abs() / natural_ratio) > 0.05;
        let upscaled =
            img.width > img.natural_width * 1.25 || img.height > img.natural_height * 1.25;
        if wasted > 0.0 || no_dimensions || distorted || upscaled {
            images.push(ImageFinding {
                url: img.url.clone(),
                natural: (img.natural_width as u32, img.natural_height as u32),
                displayed: (img.width.round() as u32, img.height.round() as u32),
                transferred_bytes: bytes,
                wasted_bytes: wasted.round(),
                no_dimensions,
                oversized,
                legacy_format: legacy,
                distorted,
                upscaled,
            });
        }
    }

    let mut largest = resources.clone();
    largest.sort_by(|a, b| b.transferred_bytes.total_cmp(&a.transferred_bytes));
    largest.truncate(10);

    LabMetrics {
        first_contentful_paint: fcp,
        largest_contentful_paint: lcp_entry.map(|e| e.t),
        lcp_element: lcp_entry.map(|e| {
            if e.url.is_empty() {
                e.tag.clone()
            } else {
                format!("{} {}", e.tag, e.url)
            }
        }),
        cumulative_layout_shift: cumulative_layout_shift(&shifts),
        total_blocking_time: tbt,
        long_tasks: tasks,
        speed_index,
        time_to_interactive: tti,
        time_to_first_byte: (c.nav.response_start > 0.0).then_some(c.nav.response_start),
        dom_content_loaded: dcl,
        load_time: (c.nav.load > 0.0).then_some(c.nav.load),
        transferred_bytes: transferred,
        decoded_bytes: decoded,
        request_count: counted.len() as u32,
        by_type,
        largest,
        render_blocking,
        images,
        third_party: third,
    }
}

/// Format bytes as the report shows sizes (KB, SPEC.md §9).
pub fn kb(bytes: f64) -> String {
    format!("{:.0} KB", (bytes / 1024.0).round())
}

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
/// totalBytes). FCP and LCP diagnostics come from `domain::performance::generate_diagnostics`.
pub fn diagnostics(m: &LabMetrics) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if m.total_blocking_time > 200.0 {
        let kind = if m.total_blocking_time > 600.0 {
            DiagnosticType::Error
        } else {
            DiagnosticType::Warning
        };
        out.push(diagnostic(
            "perf.tbt",
            kind,
            format!("Total Blocking Time is {:.0} ms", m.total_blocking_time),
            format!("{} long task(s) blocked the main thread after the first paint; under 200 ms is good.", m.long_tasks.len()),
            format!("{:.0} ms", m.total_blocking_time),
            format!("{:.0} ms", m.total_blocking_time - 200.0),
            "Split long JavaScript tasks, defer non-critical scripts and remove unused code.",
            Vec::new(),
        ));
    }
    if m.cumulative_layout_shift > 0.1 {
        let kind = if m.cumulative_layout_shift > 0.25 {
            DiagnosticType::Error
        } else {
            DiagnosticType::Warning
        };
        out.push(diagnostic(
            "perf.cls",
            kind,
            format!(
                "Cumulative Layout Shift is {:.3}",
                m.cumulative_layout_shift
            ),
            "Content moved after it was shown; under 0.1 is good.".to_owned(),
            format!("{:.3}", m.cumulative_layout_shift),
            format!("{:.3}", m.cumulative_layout_shift - 0.1),
            "Reserve space for images, ads and late content (width and height, aspect-ratio).",
            Vec::new(),
        ));
    }
    if !m.render_blocking.is_empty() {
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
            kb(savings),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_whose_end_is_handled_before_its_start_is_not_in_flight() {
        let mut s = NetState::default();
        // loadingFinished handled first: a placeholder, neither in flight nor counted.
        let i = s.slot("7.1");
        s.requests[i].done = true;
        s.requests[i].transferred = 1200.0;
        assert_eq!(s.inflight(), 0);
        // requestWillBeSent then completes the same entry.
        let j = s.slot("7.1");
        assert_eq!(i, j);
        s.requests[j].started = true;
        assert_eq!(s.inflight(), 0);
        // A request started and not finished is in flight.
        let k = s.slot("7.2");
        s.requests[k].started = true;
        assert_eq!(s.inflight(), 1);
        assert_eq!(s.requests.len(), 2);
    }

    #[test]
    fn cls_takes_the_worst_session_window() {
        // Two windows: 0.05 + 0.05 close together, then 0.08 alone two seconds later.
        let shifts = [(100.0, 0.05), (400.0, 0.05), (2500.0, 0.08)];
        assert!((cumulative_layout_shift(&shifts) - 0.10).abs() < 1e-9);
        assert_eq!(cumulative_layout_shift(&[]), 0.0);
    }

    #[test]
    fn tbt_clips_at_fcp() {
        // A 120 ms task straddling FCP at 500 counts only its 100 ms after FCP: 50 ms blocking.
        assert_eq!(total_blocking_time(500.0, &[(480.0, 120.0)]), 50.0);
        assert_eq!(
            total_blocking_time(500.0, &[(600.0, 300.0), (1000.0, 40.0)]),
            250.0
        );
    }

    #[test]
    fn sites_group_subdomains() {
        assert_eq!(site_of("cdn.example.com"), "example.com");
        assert_eq!(site_of("www.shop.co.uk"), "shop.co.uk");
        assert_eq!(site_of("127.0.0.1"), "127.0.0.1");
    }
}
