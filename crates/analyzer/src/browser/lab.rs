//! One measurement run in one tab: the page loads once, emulating Lighthouse's phone and traced,
//! and is measured; then the same tab shows the loaded page on the desktop screen for the desktop
//! screenshot and design facts.
//!
//! A second load on a desktop screen would cost as much processor time as the first and add
//! nothing Lighthouse's mobile test reads: the desktop figures are the same traced load
//! simulated on the desktop preset, as Lighthouse also derives both presets from one model.
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
//!   FCP, the time a script inserted it (a MutationObserver installed once the parser is done:
//!   one present while it parses slows the parser down; what the parser inserted counts from
//!   FCP), for images the time it finished loading, and for content under a screen-covering
//!   overlay present at the load (a preloader) the time the overlay's opacity fell below 0.1.
//!   Visual completeness at time `t` is the painted share of that area, and Speed Index =
//!   ∫(1 − completeness) dt, which equals the area-weighted mean paint time. Lighthouse derives
//!   completeness from screencast frames' colour histograms; on pages that paint in steps both
//!   give the same staircase.
//! - **Load time**: `loadEventEnd` of the navigation entry.
//! - **Page size**: bytes on the wire (`Network.loadingFinished` `encodedDataLength`, headers
//!   included) and decoded body bytes (`Network.dataReceived`), over every request but `data:`.
//! - **Render-blocking resources**: resource timing's `renderBlockingStatus`.
//! - **Images**: natural against displayed size (the page runs at device pixel ratio 1), the
//!   transferred bytes, and whether width and height are reserved; savings are estimated at
//!   0.15 bytes per displayed pixel for raster formats other than WebP and AVIF (a WebP at
//!   quality 80 of a photograph), else the bytes beyond the displayed size.
//!
//! The load itself is not throttled: these are the observed figures of this machine's
//! connection. The scored figures come from simulating the traced load on Lighthouse's mobile
//! and desktop presets ([`crate::simulation`]).
//!
//! [`BrowserSettings::quiet_window`]: super::BrowserSettings::quiet_window

use std::sync::{Arc, Mutex};
use std::time::Instant;

use chromiumoxide::Page;
use chromiumoxide::cdp::browser_protocol::audits::EnableParams as AuditsEnable;
use chromiumoxide::cdp::browser_protocol::emulation::{
    SetDeviceMetricsOverrideParams, SetTouchEmulationEnabledParams, SetUserAgentOverrideParams,
};
use chromiumoxide::cdp::browser_protocol::network;
use chromiumoxide::cdp::browser_protocol::page::{
    AddScriptToEvaluateOnNewDocumentParams, CaptureScreenshotFormat, CaptureScreenshotParams,
};
use chromiumoxide::cdp::browser_protocol::performance::DisableParams as PerformanceDisable;
use chromiumoxide::cdp::js_protocol::{debugger, profiler};

use super::metrics::{Collected, LabMetrics, compute};
use super::proxy::RequestGuard;
use super::record::{NetState, PageLog, record};
use super::trace;
use super::{BrowserError, BrowserSettings, Device, a11y, design};

const LAB_INIT: &str = include_str!("../../assets/lab-init.js");
const LAB_COLLECT: &str = include_str!("../../assets/lab-collect.js");

/// The mobile User-Agent (Lighthouse's emulated phone), with Sitelens's product token.
const MOBILE_UA: &str = "Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36";
/// The desktop User-Agent.
const DESKTOP_UA: &str = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";

/// The loaded page shown on the desktop screen (1280x800, no touch), without a second load.
#[derive(Debug, Clone, Default)]
pub struct DesktopView {
    /// First-viewport PNG at 1280x800.
    pub screenshot: Option<Vec<u8>>,
    /// Design facts at desktop width.
    pub design: Option<design::DesignProbe>,
    /// Whether the page settled after the switch (responsive images it then asked for loaded).
    pub settled: bool,
}

/// Everything one measurement run produced.
#[derive(Debug, Clone)]
pub struct DeviceRun {
    /// Lab metrics of the load (as a phone).
    pub metrics: LabMetrics,
    /// Page facts for best practices.
    pub collected: Collected,
    /// First-viewport PNG at the phone screenshot size (375x667).
    pub screenshot: Option<Vec<u8>>,
    /// Design facts on the phone.
    pub design: Option<design::DesignProbe>,
    /// The same page on the desktop screen.
    pub desktop: DesktopView,
    /// axe-core results (Lighthouse's rules, on the phone layout).
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
    /// The load as the simulation reads it, when this run was traced.
    pub observed: Option<Result<crate::simulation::ObservedLoad, String>>,
}

/// Prepare a blank tab for `device`: viewport, touch and (unthrottled) network emulation,
/// User-Agent, the lab instrumentation script, axe-core's loader for its isolated world (run at
/// once on the blank page, so the renderer compiles axe-core now rather than after the load) and
/// the Audits domain (deprecations) and the script instrumentation of the load
/// ([`watch_scripts`]). The commands are independent and sent together. The pool does this
/// ahead of need for spare tabs.
pub async fn prepare(page: &Page, device: Device, warm_axe: bool) -> Result<(), BrowserError> {
    let screen = device.screen();
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
    tokio::try_join!(
        page.execute(SetDeviceMetricsOverrideParams::new(
            i64::from(screen.width),
            i64::from(screen.height),
            screen.device_scale_factor,
            mobile,
        )),
        page.execute(touch),
        page.execute(SetUserAgentOverrideParams::new(ua)),
        page.execute(AddScriptToEvaluateOnNewDocumentParams::new(LAB_INIT)),
        page.execute(AuditsEnable::default()),
        page.execute(PerformanceDisable::default()),
        // Network emulation on, throttling nothing, as Lighthouse clears its throttling before
        // a simulated run. In a network with only loopback (a sandboxed server, the benchmark's
        // namespace) Chromium otherwise believes it is offline: the page sees
        // `navigator.onLine` false and web fonts are requested at the lowest priority, not the
        // highest, which changes both the load and the graph the simulation replays.
        page.execute(no_network_throttling()),
        watch_scripts(page),
    )?;
    if warm_axe {
        // Compile axe-core on the blank page now: the measured page then loads it from V8's
        // cache of compiled scripts, and nothing is added to the measured documents.
        a11y::warm_up(page)
            .await
            .map_err(|e| BrowserError::Protocol(format!("axe-core warm-up: {e}")))?;
    }
    Ok(())
}

/// Put the page's JavaScript engine in the state Lighthouse's measured load runs it in: the
/// debugger on with async call stacks 8 deep (Lighthouse's request initiators) and function
/// coverage counted (its JavaScript usage). That state slows script compilation and evaluation,
/// so the parser's time budget ends its task between the external scripts and a long inline
/// script as it does in Lighthouse's load; without it one task often ran both. Which task a
/// long script lands in decides whether the simulation puts it before the first paint or
/// counts it as blocking time (aria-practices' treeview: 1.4 s FCP and 2-3 s TBT, or 4 s FCP
/// and 0.2 s TBT). Pauses are skipped, so a `debugger` statement never stops the load.
async fn watch_scripts(page: &Page) -> Result<(), chromiumoxide::error::CdpError> {
    page.execute(debugger::EnableParams::default()).await?;
    page.execute(debugger::SetSkipAllPausesParams::new(true))
        .await?;
    page.execute(debugger::SetAsyncCallStackDepthParams::new(8))
        .await?;
    page.execute(profiler::EnableParams::default()).await?;
    page.execute(
        profiler::StartPreciseCoverageParams::builder()
            .detailed(false)
            .build(),
    )
    .await?;
    Ok(())
}

/// End [`watch_scripts`]' instrumentation once the load is over, as Lighthouse does before it
/// inspects the page: axe-core and our own probes then run at full speed (about 15 % faster on
/// a long page).
async fn unwatch_scripts(page: &Page) {
    let _ = page
        .execute(profiler::StopPreciseCoverageParams::default())
        .await;
    let _ = page.execute(profiler::DisableParams::default()).await;
    let _ = page.execute(debugger::DisableParams::default()).await;
}

/// Network emulation that throttles nothing (latency and throughput 0 mean none). The command
/// is deprecated in the protocol in favour of per-rule conditions, but it is the one Lighthouse
/// 12.8.2 sends, and what it switches on in Chromium is what we reproduce.
#[allow(deprecated)]
fn no_network_throttling() -> network::EmulateNetworkConditionsParams {
    network::EmulateNetworkConditionsParams::new(false, 0.0, 0.0, 0.0)
}

/// What keeps concurrent measurements in one browser from disturbing each other's timed load.
#[derive(Debug, Default)]
pub struct LoadLocks {
    /// Held from the start of a traced load until its trace is collected: Chromium traces one
    /// page at a time.
    pub trace: tokio::sync::Mutex<()>,
    /// Held for writing while a load is timed (navigation to settled), for reading by the
    /// processor-heavy work of other measurements (their inspection, axe-core, screenshots,
    /// the spare tabs' preparation): a timed load never shares the processor with them, so
    /// its tasks, and the blocking time simulated from them, are its own.
    pub quiet: tokio::sync::RwLock<()>,
}

/// Load `url` in `page` as a phone and measure everything, then show it on the desktop screen.
/// `prepared` says whether [`prepare`] already ran on this tab. With `locks` the load is traced
/// and timed alone ([`LoadLocks`]).
/// `loaded` is told when the load has settled and its trace is stopped (the HTTP side then
/// starts its own requests to the site), with the requests the load gave up on.
pub async fn run(
    page: &Page,
    url: &str,
    guard: &RequestGuard,
    settings: &BrowserSettings,
    prepared: bool,
    locks: Option<&LoadLocks>,
    loaded: Option<crate::LoadEnded>,
) -> Result<DeviceRun, BrowserError> {
    let device = Device::Mobile;
    let started = Instant::now();
    let mut steps: Vec<(&'static str, f64)> = Vec::new();
    let mut mark = Instant::now();
    let mut step = |name: &'static str| {
        steps.push((name, mark.elapsed().as_secs_f64() * 1000.0));
        mark = Instant::now();
    };
    // The tab's preparation, the recorders and the trace's start are independent round trips
    // to the browser: they are sent together.
    let prepared_tab = async {
        if !prepared {
            // A tab opened for this measurement compiles axe-core after the load instead:
            // before it, the compilation would only delay the load.
            prepare(page, device, false).await?;
        }
        Ok::<_, BrowserError>(())
    };
    let traced = async {
        let held = match locks {
            Some(l) => Some(l.trace.lock().await),
            None => None,
        };
        let alone = match locks {
            Some(l) => Some(l.quiet.write().await),
            None => None,
        };
        let recording = match held {
            Some(_) => match trace::start(page).await {
                Ok(r) => Some(r),
                Err(e) => {
                    tracing::warn!(error = %e, "could not start the trace; the load is not simulated");
                    None
                }
            },
            None => None,
        };
        (held, alone, recording)
    };
    let (ready, recorders, (held, alone, recording)) =
        tokio::join!(prepared_tab, record(page, guard), traced);
    let (net, log) = match ready.and(recorders) {
        Ok(r) => r,
        Err(e) => {
            // Chromium traces one page at a time: a trace left running would refuse the next.
            if let Some(r) = recording {
                let _ = r.stop(page).await;
            }
            return Err(e);
        }
    };

    step("setup");
    // Requests still unanswered when the load's time limit ran out: no longer waited for.
    let mut given_up: Vec<String> = Vec::new();
    let mut timed_out = false;
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
            timed_out = true;
            given_up = net
                .lock()
                .map(|mut s| s.give_up_waiting())
                .unwrap_or_default();
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
    // After the whole time limit, what still loads is not waited for a second time: an image
    // that never arrives would hold the settling to its own limit.
    let settled =
        !timed_out && settle(page, &net, settings.quiet_window, settings.max_settle).await;
    step("settle");
    drop(alone);

    // A clock sync marker sets where the load ends in the trace, so that what follows (the
    // instrumentation's end, the inspection's own tasks) is left out of it. The instrumentation
    // ends before the inspection starts: its commands run on the page's main thread, where they
    // would wait for axe-core, and axe-core runs slower under it.
    let marked = match &recording {
        Some(r) => Some(r.mark_load_end(page).await.map_err(|e| e.to_string())),
        None => None,
    };
    unwatch_scripts(page).await;
    // The trace is collected (browser-side work) while the page is inspected.
    let stop = async {
        let t = Instant::now();
        let events = match (recording, marked) {
            (Some(r), Some(Ok(()))) => Some(r.stop(page).await.map_err(|e| e.to_string())),
            (Some(r), Some(Err(e))) => {
                let _ = r.stop(page).await;
                Some(Err(e))
            }
            _ => None,
        };
        drop(held);
        if let Some(tx) = loaded {
            let _ = tx.send(given_up);
        }
        (events, t.elapsed().as_secs_f64() * 1000.0)
    };
    let inspect_all = async {
        let _shared = match locks {
            Some(l) => Some(l.quiet.read().await),
            None => None,
        };
        let t = Instant::now();
        let raw: String = page
            .evaluate_function(LAB_COLLECT)
            .await?
            .into_value()
            .map_err(|e| BrowserError::Protocol(e.to_string()))?;
        let collected: Collected =
            serde_json::from_str(&raw).map_err(|e| BrowserError::Protocol(e.to_string()))?;
        let collect_ms = t.elapsed().as_secs_f64() * 1000.0;
        let (shot, inspected) = inspect_and_shoot(page, device, settings).await;
        // The load's records as it left them: what the desktop view asks for (responsive
        // images) is not part of the load.
        let records = net
            .lock()
            .map(|s| {
                (
                    s.requests.clone(),
                    s.document_headers.clone(),
                    s.documents.clone(),
                    s.simulation_requests(),
                )
            })
            .unwrap_or_default();
        let t = Instant::now();
        let desktop = desktop_view(page, &net, settings).await;
        let desktop_ms = t.elapsed().as_secs_f64() * 1000.0;
        Ok::<_, BrowserError>((
            collected, collect_ms, shot, inspected, records, desktop, desktop_ms,
        ))
    };
    let ((trace_events, trace_ms), inspected) = tokio::join!(stop, inspect_all);
    let (
        collected,
        collect_ms,
        (screenshot, shot_ms),
        (design, design_ms, axe),
        (requests, document_headers, documents, sim_requests),
        desktop,
        desktop_ms,
    ) = inspected?;
    step("trace+collect+screenshot+design+axe+desktop");
    steps.push(("(trace)", trace_ms));
    steps.push(("(collect)", collect_ms));
    steps.push(("(screenshot)", shot_ms));
    steps.push(("(design)", design_ms));
    steps.push(("(desktop view)", desktop_ms));
    let mut axe_ms = 0.0;
    if let Some(Ok(a)) = &axe {
        axe_ms = a.inject_ms + a.run_ms;
        steps.push(("(axe-inject)", a.inject_ms));
        steps.push(("(axe-run)", a.run_ms));
    }

    let page_url = if collected.final_url.is_empty() {
        url.to_owned()
    } else {
        collected.final_url.clone()
    };
    let mut metrics = compute(&collected, &requests, &page_url);
    metrics.settled = settled;
    let observed = match trace_events {
        Some(Ok(events)) => {
            let frame = page
                .mainframe()
                .await
                .ok()
                .flatten()
                .map(|f| f.inner().clone())
                .unwrap_or_default();
            let main = trace::main_thread(&events, &frame);
            // The traced load's CLS is read from the trace, as Lighthouse reads it.
            let origin = sim_requests
                .first()
                .map_or(0.0, |r| r.renderer_start_ms * 1000.0);
            let observed: Vec<(f64, f64)> = collected
                .layout_shifts()
                .into_iter()
                .map(|(t, v)| (origin + t * 1000.0, v))
                .collect();
            metrics.cumulative_layout_shift = main.cumulative_layout_shift(origin, &observed);
            // A largest paint the page reported after the trace's end (an image whose paint came
            // as the load was declared settled) still ends the LCP graph: the simulation must
            // replay everything that paint waited for.
            let page_lcp = metrics
                .largest_contentful_paint
                .map(|t| origin + t * 1000.0);
            let lcp_ts = match (main.lcp, page_lcp) {
                (Some(traced), Some(page)) => Some(traced.max(page)),
                (traced, page) => traced.or(page),
            };
            Some(Ok(crate::simulation::ObservedLoad {
                requests: sim_requests,
                main_thread: main.events,
                requested_url: documents.first().cloned().unwrap_or_else(|| url.to_owned()),
                main_document_url: documents
                    .last()
                    .cloned()
                    .unwrap_or_else(|| page_url.clone()),
                fcp_ts: main.fcp,
                lcp_ts,
                first_paint_ts: main.first_paint,
                observed_speed_index: metrics.speed_index,
            }))
        }
        Some(Err(e)) => Some(Err(e)),
        None => None,
    };
    let log = log.lock().map(|l| l.clone()).unwrap_or_default();
    Ok(DeviceRun {
        metrics,
        collected,
        screenshot,
        design,
        desktop,
        axe,
        log,
        document_headers,
        axe_ms,
        elapsed_ms: started.elapsed().as_secs_f64() * 1000.0,
        steps,
        observed,
    })
}

/// Whether the page looks finished from inside, checked after its next two frames and the task
/// after them (work a page schedules for its next frame has started by then, and the frame
/// after a late change has been laid out, so its layout shift is on record in the trace;
/// 100 ms at most, should frames not come): the first contentful paint has happened (pages
/// without content never paint: they settle at `max_settle`), no long task ended in the last
/// 150 ms (a page busy with a chain of long tasks is not done: the trace must hold them all,
/// as their blocking time counts), and no image the page holds is still loading (one a script
/// just inserted may not have reached the network yet; of the images left to load lazily, those
/// on the first screen are waited for: Chromium loads them once it has laid the page out, and
/// one of them may well be the largest paint). Loaded images on the first screen are decoded
/// first (250 ms at most): a large image's decoding can outlast its load by a frame or more, and
/// its paint, often the largest, comes only then. A screen-covering overlay present at the load
/// (a preloader a script fades out after it) must have gone, for at most 2 s after the load
/// (`lab-init.js`): until then the content under it is not visible, and axe-core, taking it for
/// an open modal dialog, leaves `aria-hidden-focus` undecided where Lighthouse, which runs it
/// a second or more after the load, fails it.
const LOOKS_DONE: &str = "new Promise((resolve) => {
  const onScreen = (i) => {
    const r = i.getBoundingClientRect();
    if (!r.width && !r.height && !r.top && !r.left) return false; // not rendered (display: none)
    return r.top < innerHeight && r.bottom >= 0 && r.left < innerWidth && r.right >= 0;
  };
  const check = () => {
    const s = window.__sitelens;
    if (s && s.flush) s.flush();
    const last = s && s.longtasks.length ? s.longtasks[s.longtasks.length - 1] : null;
    const cpuQuiet = !last || performance.now() - (last.t + last.d) > 150;
    resolve(cpuQuiet
      && (!s || s.paints['first-contentful-paint'] !== undefined || !document.body || !document.body.innerText.trim())
      && !Array.prototype.some.call(document.images, (i) => !i.complete && (i.loading !== 'lazy' || onScreen(i)))
      && !(s && s.overlayPending && s.overlayPending()));
  };
  const shown = Array.prototype.filter.call(document.images, (i) => i.complete && i.naturalWidth > 0 && onScreen(i));
  const decoded = Promise.race([
    Promise.all(shown.map((i) => i.decode().catch(() => {}))),
    new Promise((r) => setTimeout(r, 250)),
  ]);
  decoded.then(() => {
    const fallback = setTimeout(check, 100);
    requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => { clearTimeout(fallback); check(); }, 0)));
  });
})";

/// A PNG of the first viewport, `size` pixels wide and high (CSS pixels of the screenshot at
/// device pixel ratio 1), of the page as laid out on `screen`: when the two differ (the phone's
/// screenshot size is not the emulated phone's screen), the top of the screen with the
/// screenshot's proportions is scaled to `size`, so the picture shows the layout that was
/// measured. `Page.captureScreenshot` directly, without chromiumoxide's activation of the tab:
/// bringing one tab to the front disturbs the other device's load.
async fn screenshot(
    page: &Page,
    screen: domain::throttling::Screen,
    size: (u32, u32),
) -> Result<Vec<u8>, BrowserError> {
    use base64::Engine;
    use chromiumoxide::cdp::browser_protocol::page::Viewport;
    let (width, height) = (f64::from(size.0), f64::from(size.1));
    let css_width = f64::from(screen.width);
    // Output pixels = CSS pixels x scale x device pixel ratio.
    let clip = Viewport {
        x: 0.0,
        y: 0.0,
        width: css_width,
        height: css_width * height / width,
        scale: width / (css_width * screen.device_scale_factor),
    };
    let shot = page
        .execute(
            CaptureScreenshotParams::builder()
                .format(CaptureScreenshotFormat::Png)
                .clip(clip)
                // Faster PNG encoding (less compression): the screenshot is taken while the
                // report waits for it.
                .optimize_for_speed(true)
                .build(),
        )
        .await?;
    base64::engine::general_purpose::STANDARD
        .decode(shot.result.data.as_ref() as &str)
        .map_err(|e| BrowserError::Protocol(e.to_string()))
}

/// The design facts, axe-core's results and the screenshot (unless screenshots are off) of the
/// loaded page, on the layout that was measured. The screenshot comes last: pages that fade
/// their content in (a preloader over the page until the load, say) have had the most time to
/// finish by then.
#[allow(clippy::type_complexity)]
async fn inspect_and_shoot(
    page: &Page,
    device: Device,
    settings: &BrowserSettings,
) -> (
    (Option<Vec<u8>>, f64),
    (
        Option<design::DesignProbe>,
        f64,
        Option<Result<a11y::AxeResults, String>>,
    ),
) {
    let shot = async {
        if !settings.screenshots {
            return (None, 0.0);
        }
        let t = Instant::now();
        let r = screenshot(page, device.screen(), device.viewport())
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
            Some(a11y::run_axe(page, &a11y::lighthouse_rules()).await)
        } else {
            None
        };
        (design, design_ms, axe)
    };
    let inspected = inspect.await;
    (shot.await, inspected)
}

/// How long the desktop view waits for what the wider layout asks for (larger responsive
/// images, lazy images now on screen) before it is photographed as it stands.
const DESKTOP_SETTLE: std::time::Duration = std::time::Duration::from_secs(1);

/// Show the loaded page on the desktop screen: 1280x800 at device pixel ratio 1, no touch, and
/// the desktop User-Agent for anything it asks for next. Media queries and layout follow the
/// new screen; the page is not loaded again. Once what the new layout asked for has loaded (at
/// most [`DESKTOP_SETTLE`]), the desktop screenshot (unless screenshots are off) is taken while
/// the design facts are read.
async fn desktop_view(
    page: &Page,
    net: &Arc<Mutex<NetState>>,
    settings: &BrowserSettings,
) -> DesktopView {
    let (width, height) = Device::Desktop.viewport();
    let ua = format!("{DESKTOP_UA} {}", crate::config::USER_AGENT);
    let switched = async {
        let no_touch = SetTouchEmulationEnabledParams::builder()
            .enabled(false)
            .build()
            .map_err(BrowserError::Protocol)?;
        tokio::try_join!(
            page.execute(SetDeviceMetricsOverrideParams::new(
                i64::from(width),
                i64::from(height),
                1.0,
                false,
            )),
            page.execute(no_touch),
            page.execute(SetUserAgentOverrideParams::new(ua)),
        )?;
        Ok::<_, BrowserError>(())
    };
    if let Err(e) = switched.await {
        tracing::warn!(error = %e, "could not show the page on the desktop screen");
        return DesktopView::default();
    }
    let settled = settle(page, net, settings.quiet_window, DESKTOP_SETTLE).await;
    let shot = async {
        if !settings.screenshots {
            return None;
        }
        screenshot(page, Device::Desktop.screen(), (width, height))
            .await
            .map_err(|e| tracing::warn!(error = %e, "desktop screenshot failed"))
            .ok()
    };
    let (shot, design) = tokio::join!(shot, design::probe(page));
    DesktopView {
        screenshot: shot,
        design: design
            .map_err(|e| tracing::warn!(error = %e, "desktop design probe failed"))
            .ok(),
        settled,
    }
}

/// How long before the end of the quiet window the page's own check ([`LOOKS_DONE`]) starts: it
/// waits two frames and a task, which would otherwise come after the window.
const CHECK_LEAD: std::time::Duration = std::time::Duration::from_millis(40);

/// Wait until no request has been in flight for `quiet_window` and the page looks done, at most
/// `max`. Returns whether the page settled (false: `max` ran out first).
///
/// The page's check starts [`CHECK_LEAD`] before the quiet window ends, so its frames pass
/// while the network stays quiet; it counts only when no request started or ended while it ran,
/// and the window must then still run out without one.
async fn settle(
    page: &Page,
    net: &Arc<Mutex<NetState>>,
    quiet_window: std::time::Duration,
    max: std::time::Duration,
) -> bool {
    let start = Instant::now();
    let tick = std::time::Duration::from_millis(10);
    let check_from = quiet_window.saturating_sub(CHECK_LEAD);
    let activity = || {
        net.lock()
            .map(|s| (s.inflight(), s.last_activity))
            .unwrap_or((0, None))
    };
    let quiet_for = |last: Option<Instant>| last.map_or(start.elapsed(), |l| l.elapsed());
    loop {
        let (inflight, last) = activity();
        if start.elapsed() >= max {
            return false;
        }
        if inflight == 0 && quiet_for(last) >= check_from {
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
            if activity() != (0, last) {
                continue;
            }
            if !done {
                tokio::time::sleep(tick).await;
                continue;
            }
            // The rest of the window, which must stay quiet too.
            let quiet = quiet_for(last);
            if quiet < quiet_window {
                tokio::time::sleep(quiet_window - quiet).await;
                if activity() != (0, last) {
                    continue;
                }
            }
            return true;
        }
        tokio::time::sleep(tick).await;
    }
}
