//! Recording what one load did: every request as the DevTools protocol reports it (with the
//! timing the simulation needs), console errors and DevTools issues.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use chromiumoxide::Page;
use chromiumoxide::cdp::browser_protocol::audits::{EventIssueAdded, InspectorIssueCode};
use chromiumoxide::cdp::browser_protocol::log::{EventEntryAdded, LogEntryLevel};
use chromiumoxide::cdp::browser_protocol::network::{
    EventDataReceived, EventLoadingFailed, EventLoadingFinished, EventRequestWillBeSent,
    EventResourceChangedPriority, EventResponseReceived, RenderBlockingBehavior, Response,
};
use chromiumoxide::cdp::browser_protocol::target::EventAttachedToTarget;
use chromiumoxide::cdp::js_protocol::runtime::{
    ConsoleApiCalledType, EventConsoleApiCalled, EventExceptionThrown,
};
use futures::StreamExt;
use serde::Serialize;

use super::BrowserError;
use super::proxy::{PROXY_HEADER, RequestGuard};

/// One request as the network saw it.
#[derive(Debug, Clone, Default)]
pub(crate) struct NetRequest {
    /// `requestWillBeSent` was seen. Each event type arrives on its own channel, so a request's
    /// later events may be handled first: they fill a placeholder that this event completes.
    pub(crate) started: bool,
    pub(crate) url: String,
    pub(crate) resource_type: String,
    pub(crate) mime_type: String,
    /// Bytes on the wire (headers included).
    pub(crate) transferred: f64,
    /// Decoded body bytes.
    pub(crate) decoded: f64,
    pub(crate) done: bool,
    pub(crate) failed: bool,
    /// Answered by the guarding proxy (refused or unreachable), not by the site.
    pub(crate) proxy_answer: bool,
    /// Its host did not resolve or did not answer (the proxy said so, or the tunnel to it
    /// failed).
    pub(crate) unanswered: bool,
    /// A `data:` address: no network, left out of the page's weight.
    pub(crate) data_url: bool,
    /// A worker's script: the page asked for it, the worker's own session receives the
    /// response. Neither in flight for the page nor one of its requests.
    pub(crate) worker: bool,
    /// A response (or redirect) arrived in this session.
    pub(crate) responded: bool,
    /// The load's time limit ran out while it still waited for its answer: no longer awaited,
    /// and counted as unanswered.
    pub(crate) given_up: bool,
    /// What the simulation needs: the request as Lighthouse's network records hold it.
    pub(crate) sim: SimRequest,
}

/// The fields of a request that only the simulation reads.
#[derive(Debug, Clone, Default)]
pub(crate) struct SimRequest {
    pub(crate) id: String,
    pub(crate) protocol: String,
    pub(crate) priority: String,
    pub(crate) initiator: crate::simulation::Initiator,
    pub(crate) frame_id: Option<String>,
    pub(crate) document_url: String,
    pub(crate) renderer_start_ms: f64,
    pub(crate) network_request_ms: f64,
    pub(crate) response_headers_end_ms: f64,
    pub(crate) network_end_ms: f64,
    pub(crate) response_ms: Option<f64>,
    pub(crate) status: u16,
    pub(crate) from_disk_cache: bool,
    pub(crate) connection_id: String,
    pub(crate) connection_reused: bool,
    pub(crate) timing: Option<crate::simulation::Timing>,
    pub(crate) redirect_source: Option<usize>,
    pub(crate) is_link_preload: bool,
    pub(crate) render_blocking: Option<String>,
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

    /// Take a response's facts (Lighthouse's network-record rules for its timing).
    fn respond(&mut self, r: &Response, timestamp_s: f64) {
        self.responded = true;
        self.mime_type = r.mime_type.clone();
        let s = &mut self.sim;
        s.protocol = r.protocol.clone().unwrap_or_default();
        s.status = u16::try_from(r.status).unwrap_or(0);
        s.from_disk_cache = r.from_disk_cache.unwrap_or(false);
        s.connection_id = format!("{}", r.connection_id);
        s.connection_reused = r.connection_reused;
        s.response_ms = Some(timestamp_s * 1000.0);
        if self.transferred == 0.0 {
            self.transferred = r.encoded_data_length;
        }
        if let Some(t) = &r.timing {
            s.timing = Some(crate::simulation::Timing {
                request_time: t.request_time,
                dns_start: t.dns_start,
                dns_end: t.dns_end,
                connect_start: t.connect_start,
                connect_end: t.connect_end,
                ssl_start: t.ssl_start,
                ssl_end: t.ssl_end,
                send_start: t.send_start,
                send_end: t.send_end,
                receive_headers_end: t.receive_headers_end,
            });
            if t.request_time != -1.0 && t.receive_headers_end != -1.0 {
                s.network_request_ms = t.request_time * 1000.0;
                let headers =
                    (s.network_request_ms + t.receive_headers_end).min(timestamp_s * 1000.0);
                s.response_headers_end_ms = headers.max(s.network_request_ms);
                s.network_end_ms = s.network_end_ms.max(s.response_headers_end_ms);
            }
        }
    }

    /// The request ended (finished, failed or redirected) at `timestamp_s`.
    fn end(&mut self, timestamp_s: f64) {
        let s = &mut self.sim;
        s.network_end_ms = timestamp_s * 1000.0;
        s.response_headers_end_ms = s.response_headers_end_ms.min(s.network_end_ms);
    }

    /// This request as the simulation reads it. A proxy's own answer (a refused or unreachable
    /// host) is what a browser without the proxy would have seen: a failure without a response.
    pub(crate) fn to_simulation(&self) -> crate::simulation::Request {
        let s = &self.sim;
        let failed = self.failed || self.proxy_answer;
        crate::simulation::Request {
            id: s.id.clone(),
            url: self.url.clone(),
            protocol: if self.proxy_answer {
                String::new()
            } else {
                s.protocol.clone()
            },
            resource_type: self.resource_type.clone(),
            mime_type: self.mime_type.clone(),
            priority: s.priority.clone(),
            initiator: s.initiator.clone(),
            frame_id: s.frame_id.clone(),
            document_url: s.document_url.clone(),
            renderer_start_ms: s.renderer_start_ms,
            network_request_ms: s.network_request_ms,
            response_headers_end_ms: s.response_headers_end_ms,
            network_end_ms: s.network_end_ms,
            transfer_size: if self.proxy_answer {
                0.0
            } else {
                self.transferred
            },
            resource_size: self.decoded,
            status: if self.proxy_answer { 0 } else { s.status },
            finished: self.done,
            failed,
            from_disk_cache: s.from_disk_cache,
            from_memory_cache: false,
            connection_id: s.connection_id.clone(),
            connection_reused: s.connection_reused,
            timing: if self.proxy_answer { None } else { s.timing },
            redirect_source: s.redirect_source,
            is_link_preload: s.is_link_preload,
            render_blocking: s.render_blocking.clone(),
        }
    }
}

/// Lighthouse's names of Chromium's render-blocking behaviours.
fn render_blocking_name(b: &RenderBlockingBehavior) -> &'static str {
    match b {
        RenderBlockingBehavior::Blocking => "blocking",
        RenderBlockingBehavior::InBodyParserBlocking => "in_body_parser_blocking",
        RenderBlockingBehavior::NonBlocking => "non_blocking",
        RenderBlockingBehavior::NonBlockingDynamic => "dynamically_injected_non_blocking",
        RenderBlockingBehavior::PotentiallyBlocking => "potentially_blocking",
    }
}

/// The requests of one load and what the main document answered, as recorded.
#[derive(Debug, Default)]
pub struct NetState {
    pub(crate) requests: Vec<NetRequest>,
    index: HashMap<String, usize>,
    pub(crate) last_activity: Option<Instant>,
    /// Response headers of the main frame's latest document.
    pub(crate) document_headers: Vec<(String, String)>,
    /// Addresses the main frame requested as documents (redirect hops included), in order.
    pub(crate) documents: Vec<String>,
    /// The proxy's own answer to the main frame's latest document (`refused; ...` or
    /// `unreachable; ...`), when the site never answered it.
    pub(crate) document_proxy_answer: Option<String>,
    /// Scripts of the workers the page started.
    worker_urls: Vec<String>,
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

    /// `Network.requestWillBeSent`; `main` says whether it comes from the main frame.
    pub(crate) fn on_request(
        &mut self,
        e: &EventRequestWillBeSent,
        main: bool,
        guard: Option<&RequestGuard>,
    ) {
        if e.r#type.as_ref().map(cdp_name).as_deref() == Some("Document") && main {
            self.documents.push(e.request.url.clone());
        }
        let id = e.request_id.inner().clone();
        match self.index.get(&id).copied() {
            // Later events of this request came first: complete their placeholder.
            Some(i) if !self.requests[i].started => {
                let worker = self.worker_urls.contains(&e.request.url);
                let r = &mut self.requests[i];
                start(r, e);
                r.worker |= worker;
                if let Some(g) = guard
                    && r.failed
                {
                    r.mark_if_refused(g);
                }
            }
            found => {
                let mut next = NetRequest::default();
                start(&mut next, e);
                next.worker = self.worker_urls.contains(&e.request.url);
                // A redirect: the previous hop ended with its redirect response; the id now
                // names the next hop, and the hop keeps a unique id of its own.
                if let (Some(i), Some(r)) = (found, &e.redirect_response) {
                    let at = *e.timestamp.inner();
                    let hop = &mut self.requests[i];
                    hop.respond(r, at);
                    hop.end(at);
                    hop.done = true;
                    hop.transferred = r.encoded_data_length;
                    hop.sim.id = format!("{}:redirect", hop.sim.id);
                    next.sim.redirect_source = Some(i);
                }
                self.requests.push(next);
                let at = self.requests.len() - 1;
                self.index.insert(id, at);
            }
        }
        self.last_activity = Some(Instant::now());
    }

    /// A worker of the page was attached (`Target.attachedToTarget`): its script request is
    /// answered in the worker's session, so the page's records never see it end.
    pub(crate) fn on_worker(&mut self, url: &str) {
        self.worker_urls.push(url.to_owned());
        for r in self.requests.iter_mut().filter(|r| r.url == url) {
            r.worker = true;
        }
    }

    /// `Network.resourceChangedPriority`.
    pub(crate) fn on_priority(&mut self, e: &EventResourceChangedPriority) {
        let i = self.slot(e.request_id.inner());
        self.requests[i].sim.priority = cdp_name(&e.new_priority);
    }

    /// `Network.responseReceived`; `main` says whether it comes from the main frame.
    pub(crate) fn on_response(&mut self, e: &EventResponseReceived, main: bool) {
        let map = e.response.headers.inner().as_object();
        let proxy_answer = map.and_then(|m| {
            m.iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(PROXY_HEADER))
                .map(|(_, v)| v.as_str().unwrap_or("").to_owned())
        });
        let resource_type = cdp_name(&e.r#type);
        let i = self.slot(e.request_id.inner());
        self.requests[i].respond(&e.response, *e.timestamp.inner());
        self.requests[i].proxy_answer = proxy_answer.is_some();
        self.requests[i].unanswered |= proxy_answer
            .as_deref()
            .is_some_and(|a| a.starts_with("unreachable"));
        if resource_type == "Document" && main {
            // Only the main document's headers are kept (best practices read them).
            self.document_headers = map
                .map(|m| {
                    m.iter()
                        .map(|(k, v)| (k.to_ascii_lowercase(), v.as_str().unwrap_or("").to_owned()))
                        .collect()
                })
                .unwrap_or_default();
            self.document_proxy_answer = proxy_answer;
        }
        self.requests[i].resource_type = resource_type;
        self.last_activity = Some(Instant::now());
    }

    /// `Network.dataReceived`.
    pub(crate) fn on_data(&mut self, e: &EventDataReceived) {
        let i = self.slot(e.request_id.inner());
        self.requests[i].decoded += e.data_length as f64;
        self.last_activity = Some(Instant::now());
    }

    /// `Network.loadingFinished`.
    pub(crate) fn on_finished(&mut self, e: &EventLoadingFinished) {
        let i = self.slot(e.request_id.inner());
        let r = &mut self.requests[i];
        if !r.done {
            r.done = true;
            if e.encoded_data_length >= 0.0 {
                r.transferred = e.encoded_data_length;
            }
            r.end(*e.timestamp.inner());
        }
        self.last_activity = Some(Instant::now());
    }

    /// `Network.loadingFailed`.
    pub(crate) fn on_failed(&mut self, e: &EventLoadingFailed, guard: Option<&RequestGuard>) {
        let i = self.slot(e.request_id.inner());
        let r = &mut self.requests[i];
        if !r.done {
            r.done = true;
            r.failed = true;
            // The proxy's answer may already have said so (events arrive on separate channels).
            r.unanswered |= e.error_text.contains("ERR_TUNNEL_CONNECTION_FAILED")
                || e.error_text.contains("ERR_NAME_NOT_RESOLVED");
            r.end(*e.timestamp.inner());
            // Or when its requestWillBeSent is handled, should that come later.
            if let Some(g) = guard {
                r.mark_if_refused(g);
            }
        }
        self.last_activity = Some(Instant::now());
    }

    /// Replay a saved DevTools protocol log (`[{method, params}]`, as Lighthouse saves it)
    /// whose main frame is `main_frame`. Events of other sessions (workers, out-of-process
    /// frames) are left out, as Lighthouse leaves them out of the simulation.
    pub fn from_devtools_log(log: &[serde_json::Value], main_frame: &str) -> Self {
        use serde_json::from_value;
        let mut s = Self::default();
        for entry in log {
            if entry
                .get("targetType")
                .and_then(|t| t.as_str())
                .is_some_and(|t| t != "page")
            {
                continue;
            }
            let Some(params) = entry.get("params").cloned() else {
                continue;
            };
            let main = params.get("frameId").and_then(|f| f.as_str()) == Some(main_frame);
            match entry.get("method").and_then(|m| m.as_str()) {
                Some("Network.requestWillBeSent") => {
                    if let Ok(e) = from_value::<EventRequestWillBeSent>(params) {
                        s.on_request(&e, main, None);
                    }
                }
                Some("Network.resourceChangedPriority") => {
                    if let Ok(e) = from_value::<EventResourceChangedPriority>(params) {
                        s.on_priority(&e);
                    }
                }
                Some("Network.responseReceived") => {
                    if let Ok(e) = from_value::<EventResponseReceived>(params) {
                        s.on_response(&e, main);
                    }
                }
                Some("Network.dataReceived") => {
                    if let Ok(e) = from_value::<EventDataReceived>(params) {
                        s.on_data(&e);
                    }
                }
                Some("Network.loadingFinished") => {
                    if let Ok(e) = from_value::<EventLoadingFinished>(params) {
                        s.on_finished(&e);
                    }
                }
                Some("Network.loadingFailed") => {
                    if let Ok(e) = from_value::<EventLoadingFailed>(params) {
                        s.on_failed(&e, None);
                    }
                }
                _ => {}
            }
        }
        s
    }

    /// Requests started and not finished (nor given up).
    pub(crate) fn inflight(&self) -> usize {
        self.requests
            .iter()
            .filter(|r| r.started && !r.done && !r.worker && !r.given_up)
            .count()
    }

    /// The load's time limit ran out: give up the requests still waiting for an answer (their
    /// host did not answer in all that time) and return their addresses.
    pub(crate) fn give_up_waiting(&mut self) -> Vec<String> {
        self.requests
            .iter_mut()
            .filter(|r| r.started && !r.done && !r.worker && !r.responded && !r.data_url)
            .map(|r| {
                r.given_up = true;
                r.url.clone()
            })
            .collect()
    }

    /// Whether request `r` is one of the page's own, with something to count: answered or
    /// failed in this session. A worker's script, or a request handed to another session whose
    /// attachment was reported late, never is; nor a request still waiting for its answer when
    /// the measurement ends.
    pub(crate) fn is_page_request(r: &NetRequest) -> bool {
        r.started && !r.worker && (r.responded || r.failed)
    }

    /// Every request as the simulation reads it, in the order they started.
    pub fn simulation_requests(&self) -> Vec<crate::simulation::Request> {
        let mut order: Vec<usize> = (0..self.requests.len())
            .filter(|&i| Self::is_page_request(&self.requests[i]))
            .collect();
        order.sort_by(|&a, &b| {
            self.requests[a]
                .sim
                .renderer_start_ms
                .total_cmp(&self.requests[b].sim.renderer_start_ms)
        });
        let position: HashMap<usize, usize> =
            order.iter().enumerate().map(|(p, &i)| (i, p)).collect();
        order
            .iter()
            .map(|&i| {
                let mut r = self.requests[i].to_simulation();
                r.redirect_source = r.redirect_source.and_then(|s| position.get(&s).copied());
                r
            })
            .collect()
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

pub(crate) fn cdp_name<T: Serialize>(t: &T) -> String {
    serde_json::to_value(t)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_else(|| "Other".to_owned())
}

/// Fill `r` from the event that starts it.
fn start(r: &mut NetRequest, e: &EventRequestWillBeSent) {
    r.started = true;
    r.url = e.request.url.clone();
    r.data_url = e.request.url.starts_with("data:");
    if r.resource_type.is_empty() {
        r.resource_type = e
            .r#type
            .as_ref()
            .map(cdp_name)
            .unwrap_or_else(|| "Other".into());
    }
    let at = *e.timestamp.inner() * 1000.0;
    let s = &mut r.sim;
    s.id = e.request_id.inner().clone();
    if s.priority.is_empty() {
        s.priority = cdp_name(&e.request.initial_priority);
    }
    let mut stack_urls = Vec::new();
    let mut stack = e.initiator.stack.as_ref();
    while let Some(st) = stack {
        stack_urls.extend(
            st.call_frames
                .iter()
                .map(|f| f.url.clone())
                .filter(|u| !u.is_empty()),
        );
        stack = st.parent.as_deref();
    }
    let kind = cdp_name(&e.initiator.r#type);
    s.is_link_preload = kind == "preload" || e.request.is_link_preload.unwrap_or(false);
    s.initiator = crate::simulation::Initiator {
        kind,
        url: e.initiator.url.clone(),
        stack_urls,
    };
    s.frame_id = e.frame_id.as_ref().map(|f| f.inner().clone());
    s.document_url = e.document_url.clone();
    s.renderer_start_ms = at;
    s.network_request_ms = at;
    s.response_headers_end_ms = at;
    if s.network_end_ms == 0.0 {
        s.network_end_ms = at;
    }
    s.render_blocking = e
        .render_blocking_behavior
        .as_ref()
        .map(|b| render_blocking_name(b).to_owned());
}

/// Subscribe to network, console and issue events of `page`, recording into shared state.
pub(crate) async fn record(
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
            if let Ok(mut s) = n.lock() {
                let main = is_main(e.frame_id.as_ref());
                s.on_request(&e, main, Some(&g));
            }
        }
    });

    let mut attached = page.event_listener::<EventAttachedToTarget>().await?;
    let n = net.clone();
    tokio::spawn(async move {
        while let Some(e) = attached.next().await {
            if e.target_info.r#type.ends_with("worker")
                && let Ok(mut s) = n.lock()
            {
                s.on_worker(&e.target_info.url);
            }
        }
    });

    let mut priorities = page
        .event_listener::<EventResourceChangedPriority>()
        .await?;
    let n = net.clone();
    tokio::spawn(async move {
        while let Some(e) = priorities.next().await {
            if let Ok(mut s) = n.lock() {
                s.on_priority(&e);
            }
        }
    });

    let mut received = page.event_listener::<EventResponseReceived>().await?;
    let n = net.clone();
    tokio::spawn(async move {
        while let Some(e) = received.next().await {
            if let Ok(mut s) = n.lock() {
                let main = is_main_too(e.frame_id.as_ref());
                s.on_response(&e, main);
            }
        }
    });

    let mut data = page.event_listener::<EventDataReceived>().await?;
    let n = net.clone();
    tokio::spawn(async move {
        while let Some(e) = data.next().await {
            if let Ok(mut s) = n.lock() {
                s.on_data(&e);
            }
        }
    });

    let mut finished = page.event_listener::<EventLoadingFinished>().await?;
    let n = net.clone();
    tokio::spawn(async move {
        while let Some(e) = finished.next().await {
            if let Ok(mut s) = n.lock() {
                s.on_finished(&e);
            }
        }
    });

    let mut failed = page.event_listener::<EventLoadingFailed>().await?;
    let n = net.clone();
    let g = guard.clone();
    tokio::spawn(async move {
        while let Some(e) = failed.next().await {
            if let Ok(mut s) = n.lock() {
                s.on_failed(&e, Some(&g));
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
}
