//! Simulated throttling: what one unthrottled page load would have taken on a slow phone or a
//! desktop connection, estimated the way Lighthouse's simulated throttling ("Lantern") does.
//!
//! Lighthouse, and PageSpeed Insights with it, do not throttle the load they observe. They record
//! it (network requests from the DevTools protocol, main-thread tasks from a trace), turn it into
//! a dependency graph of requests and tasks, and replay that graph on a modelled connection
//! (TCP slow start, a fixed round-trip time and throughput, six connections per origin) and a
//! slower processor. Each metric is the weighted mean of an optimistic and a pessimistic replay
//! of the part of the graph the metric depends on. The method is described in Lighthouse's
//! documentation (<https://github.com/GoogleChrome/lighthouse/blob/main/docs/throttling.md>);
//! this module is our own implementation of it, with the same constants, so that our figures
//! agree with theirs on the same page.
//!
//! - [`graph`] builds the dependency graph from the observed requests and tasks.
//! - [`network`] estimates each origin's round trip and server response time from the observed
//!   timings.
//! - [`simulator`] replays a graph on a [`Throttling`] preset.
//! - [`metrics`] derives FCP, LCP, Speed Index, TTI and TBT, and the savings of deferring
//!   render-blocking resources or sending fewer bytes.
//!
//! Everything here is pure computation over an [`ObservedLoad`]; the browser lab fills one in.

pub mod graph;
pub mod metrics;
pub mod network;
pub mod simulator;

use domain::throttling::Throttling;
use serde::{Deserialize, Serialize};

pub use metrics::{Estimates, RenderBlockingSaving, estimate};

/// Why a load could not be simulated. The lab then reports its observed figures only.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SimulationError {
    /// The requested or the main document's request is missing from the records.
    #[error("the page's document request was not recorded")]
    NoDocument,
    /// The trace holds no task of the page's main thread.
    #[error("the trace holds no main-thread task")]
    NoTasks,
    /// The page never painted, so no paint can be simulated.
    #[error("the page did not paint")]
    NoPaint,
    /// The graph turned out cyclic or could not be replayed.
    #[error("the dependency graph could not be simulated: {0}")]
    Graph(String),
}

/// What started a request (`Network.Initiator`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Initiator {
    /// `parser`, `script`, `preload`, `other`, ...
    pub kind: String,
    /// The initiating document or script, when given.
    pub url: Option<String>,
    /// Addresses of the scripts on the initiating call stack (async parents included).
    pub stack_urls: Vec<String>,
}

/// Connection timing of a response (`Network.ResourceTiming`), offsets in ms from
/// `request_time`; -1 when a phase did not happen.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Timing {
    /// When the network stack started the request, seconds on the monotonic clock.
    pub request_time: f64,
    /// DNS lookup start.
    pub dns_start: f64,
    /// DNS lookup end.
    pub dns_end: f64,
    /// Connection start.
    pub connect_start: f64,
    /// Connection end (TLS included).
    pub connect_end: f64,
    /// TLS handshake start.
    pub ssl_start: f64,
    /// TLS handshake end.
    pub ssl_end: f64,
    /// Request sending start.
    pub send_start: f64,
    /// Request sending end.
    pub send_end: f64,
    /// Response headers received.
    pub receive_headers_end: f64,
}

impl Default for Timing {
    fn default() -> Self {
        Self {
            request_time: -1.0,
            dns_start: -1.0,
            dns_end: -1.0,
            connect_start: -1.0,
            connect_end: -1.0,
            ssl_start: -1.0,
            ssl_end: -1.0,
            send_start: -1.0,
            send_end: -1.0,
            receive_headers_end: -1.0,
        }
    }
}

/// One network request of the observed load. Times are in milliseconds on the browser's
/// monotonic clock (the clock of trace events, which count microseconds).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Request {
    /// DevTools request id; redirect hops get a suffix so each is unique.
    pub id: String,
    /// Address.
    pub url: String,
    /// `http/1.1`, `h2`, `h3`, `data`, ... (empty when no response came).
    pub protocol: String,
    /// DevTools resource type (`Document`, `Stylesheet`, `Script`, `Image`, ...).
    pub resource_type: String,
    /// MIME type of the response.
    pub mime_type: String,
    /// Loading priority (`VeryHigh`, `High`, `Medium`, `Low`, `VeryLow`), the last one set.
    pub priority: String,
    /// What started it.
    pub initiator: Initiator,
    /// Frame that made it.
    pub frame_id: Option<String>,
    /// Document the request belongs to.
    pub document_url: String,
    /// When the renderer asked for it.
    pub renderer_start_ms: f64,
    /// When the network stack started it.
    pub network_request_ms: f64,
    /// When the response headers arrived.
    pub response_headers_end_ms: f64,
    /// When it finished or failed.
    pub network_end_ms: f64,
    /// Bytes on the wire.
    pub transfer_size: f64,
    /// Decoded bytes.
    pub resource_size: f64,
    /// HTTP status (0 when none came).
    pub status: u16,
    /// Finished or failed.
    pub finished: bool,
    /// Failed (no response, or cancelled).
    pub failed: bool,
    /// Served from the disk cache.
    pub from_disk_cache: bool,
    /// Served from the memory cache.
    pub from_memory_cache: bool,
    /// Connection id of the response.
    pub connection_id: String,
    /// The response came over an already open connection.
    pub connection_reused: bool,
    /// Connection timing of the response.
    pub timing: Option<Timing>,
    /// The hop this request was redirected from (index into the load's requests).
    pub redirect_source: Option<usize>,
    /// Started by `<link rel=preload>`.
    pub is_link_preload: bool,
    /// The render-blocking state Chromium gave it (`blocking`, `in_body_parser_blocking`,
    /// `non_blocking`, ...), from the trace.
    pub render_blocking: Option<String>,
}

impl Request {
    /// The address's scheme, lower-case (`https`, `data`, ...).
    pub fn scheme(&self) -> &str {
        self.url.split_once(':').map_or("", |(s, _)| s)
    }

    /// `scheme://host[:port]`, or `null` for addresses without an origin.
    pub fn origin(&self) -> String {
        url::Url::parse(&self.url)
            .map(|u| u.origin().ascii_serialization())
            .unwrap_or_else(|_| "null".to_owned())
    }

    /// The host name (what DNS resolves).
    pub fn host(&self) -> String {
        url::Url::parse(&self.url)
            .ok()
            .and_then(|u| u.host_str().map(str::to_owned))
            .unwrap_or_default()
    }

    /// Whether the address needs no network (`data:`, `blob:`, ...).
    pub fn is_non_network(&self) -> bool {
        const SCHEMES: &[&str] = &[
            "blob",
            "data",
            "intent",
            "file",
            "filesystem",
            "chrome-extension",
        ];
        SCHEMES.contains(&self.protocol.as_str()) || SCHEMES.contains(&self.scheme())
    }
}

/// What a trace event tells about a main-thread task's work.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TraceEvent {
    /// Event name (`RunTask`, `ParseHTML`, `EvaluateScript`, `Layout`, `Paint`, ...).
    pub name: String,
    /// Start, microseconds on the monotonic clock.
    pub ts: f64,
    /// Duration in microseconds, for complete events.
    pub dur: Option<f64>,
    /// Processor time of the event's thread during it, in microseconds (`tdur`), when the trace
    /// has it. A task's wall-clock duration also counts the time its thread waited for a
    /// processor that other work held; its processor time is what it takes on a quiet machine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tdur: Option<f64>,
    /// `args.data.url` (or `beginData.url`).
    pub url: Option<String>,
    /// The frame the event belongs to.
    pub frame: Option<String>,
    /// `args.data.requestId` of `ResourceSendRequest`.
    pub request_id: Option<String>,
    /// `args.data.timerId` of timer events.
    pub timer_id: Option<i64>,
    /// `args.data.readyState` of `XHRReadyStateChange`.
    pub ready_state: Option<i64>,
    /// `args.data.styleSheetUrl` of `ParseAuthorStyleSheet`.
    pub style_sheet_url: Option<String>,
    /// Script addresses of the event's stack trace.
    pub stack_urls: Vec<String>,
}

/// One observed page load, as the simulation needs it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ObservedLoad {
    /// Every request, in the order they started (redirect hops as separate entries).
    pub requests: Vec<Request>,
    /// Every event of the page's main thread, ordered by start.
    pub main_thread: Vec<TraceEvent>,
    /// The address navigated to.
    pub requested_url: String,
    /// The address of the document finally shown.
    pub main_document_url: String,
    /// First Contentful Paint, microseconds on the monotonic clock.
    pub fcp_ts: Option<f64>,
    /// Largest Contentful Paint, microseconds on the monotonic clock.
    pub lcp_ts: Option<f64>,
    /// First Paint (render-blocking requests are those that finished before it).
    pub first_paint_ts: Option<f64>,
    /// Speed Index as observed on the unthrottled load, ms.
    pub observed_speed_index: Option<f64>,
}

/// Simulate `load` on `throttling` (see the module documentation).
pub fn simulate(
    load: &ObservedLoad,
    throttling: &Throttling,
) -> Result<Estimates, SimulationError> {
    let graph = graph::Graph::build(load)?;
    let analysis = network::analyze(&load.requests);
    let sim = simulator::Simulator::new(throttling, &analysis);
    metrics::estimate(load, &graph, &sim)
}

/// FCP and LCP saved on `throttling` (ms, rounded to 10) if the requests at these addresses sent
/// `wasted_bytes` fewer bytes: Lighthouse's estimate for byte-efficiency opportunities such as
/// image compression. When the LCP element is one of those images, the LCP saving is at least
/// the time its wasted bytes take at the preset's throughput.
pub fn byte_savings(
    load: &ObservedLoad,
    throttling: &Throttling,
    wasted_bytes: &std::collections::HashMap<String, f64>,
    lcp_url: Option<&str>,
) -> Result<(f64, f64), SimulationError> {
    let fcp_ts = load.fcp_ts.ok_or(SimulationError::NoPaint)?;
    let graph = graph::Graph::build(load)?;
    let analysis = network::analyze(&load.requests);
    let sim = simulator::Simulator::new(throttling, &analysis);
    let mut ctx = metrics::Context::new(&graph, &sim);
    ctx.prepare_paint_graphs(fcp_ts, load.lcp_ts.unwrap_or(fcp_ts))?;
    let (fcp, lcp) = ctx.byte_savings(wasted_bytes)?;
    let lcp_image = lcp_url
        .and_then(|u| wasted_bytes.get(u))
        .map_or(0.0, |b| sim.wasted_ms(*b));
    Ok((fcp, lcp.max(lcp_image)))
}
