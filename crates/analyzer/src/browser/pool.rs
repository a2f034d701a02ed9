//! The Chromium pool: one browser process shared by every analysis, a bounded number of tabs,
//! a relaunch when the process dies, and time limits on every step.
//!
//! Each measurement opens its own browser context (separate cookies, storage and service
//! workers) and its own tab, and closes both afterwards, so concurrent analyses never see each
//! other's state. Every context sends its traffic through its own guarding proxy
//! ([`ContextProxy`]). Chromium gets its own `--user-data-dir` per launch, removed when the
//! process is replaced or the pool is dropped.
//!
//! Tabs for the next measurement (each in a fresh context with its proxy, prepared for the phone
//! and with axe-core compiled) are opened when a measurement's tab closes, so that work never
//! competes with a measurement for the processor.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use chromiumoxide::cdp::browser_protocol::browser::BrowserContextId;
use chromiumoxide::cdp::browser_protocol::target::{
    CreateBrowserContextParams, CreateTargetParams,
};
use chromiumoxide::handler::HandlerConfig;
use chromiumoxide::{Browser, Page};
use futures::StreamExt;
use tokio::sync::{Mutex, Notify, OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinHandle;

use super::proxy::{ContextProxy, RequestGuard};
use super::{BrowserError, BrowserReport, BrowserSettings, Device, PhaseTimings, lab, launch};

static LAUNCHES: AtomicU64 = AtomicU64::new(0);

/// One running Chromium.
struct Instance {
    browser: Browser,
    /// The browser process (killed when dropped; it also dies with ours: see [`launch`]).
    child: std::sync::Mutex<tokio::process::Child>,
    alive: Arc<AtomicBool>,
    handler: JoinHandle<()>,
    dir: PathBuf,
    /// Blank tabs, each in its own fresh browser context with its proxy, opened ahead of need:
    /// creating a context and a tab costs a few hundred milliseconds that no measurement
    /// should wait for.
    spares: std::sync::Mutex<Vec<Spare>>,
    /// Spares being opened right now.
    refilling: AtomicUsize,
    /// Tabs being closed and spares being opened: work in the background.
    background: AtomicUsize,
    /// Woken when the background work ends.
    idle: Notify,
    /// The pool's load locks: preparing a spare tab (compiling axe-core) is processor-heavy
    /// work that never runs while a load is timed.
    locks: Arc<lab::LoadLocks>,
}

/// A prepared blank tab waiting for a measurement.
struct Spare {
    page: Page,
    /// Its own context, or `None` for the tab Chromium opened at launch (the default context).
    context: Option<BrowserContextId>,
    proxy: ContextProxy,
    /// Prepared for the phone with axe-core compiled ([`lab::prepare`]); the launch's tab is not.
    prepared: bool,
}

/// Counts one piece of background work while alive.
struct Busy(Arc<Instance>);

impl Busy {
    fn new(instance: &Arc<Instance>) -> Self {
        instance.background.fetch_add(1, Ordering::AcqRel);
        Self(instance.clone())
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        if self.0.background.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.0.idle.notify_waiters();
        }
    }
}

impl Instance {
    /// A blank tab in a new browser context, whose traffic goes through `proxy` when given.
    async fn blank_tab(
        &self,
        proxy: Option<&ContextProxy>,
    ) -> Result<(Page, BrowserContextId), BrowserError> {
        let params = match proxy {
            // `<-loopback>` takes loopback addresses off the implicit bypass list.
            Some(p) => CreateBrowserContextParams::builder()
                .proxy_server(p.server())
                .proxy_bypass_list("<-loopback>")
                .build(),
            None => CreateBrowserContextParams::default(),
        };
        let context = self.browser.create_browser_context(params).await?;
        let params = CreateTargetParams::builder()
            .url("about:blank")
            .browser_context_id(context.clone())
            .build()
            .map_err(BrowserError::Protocol)?;
        match self.browser.new_page(params).await {
            Ok(page) => Ok((page, context)),
            Err(e) => {
                let _ = self.browser.dispose_browser_context(context).await;
                Err(e.into())
            }
        }
    }

    fn take_spare(&self) -> Option<Spare> {
        self.spares.lock().ok()?.pop()
    }

    /// Open spares in the background until `target` are ready. Spares are prepared for the
    /// phone with axe-core compiled ([`lab::prepare`]), so a measurement starts with navigation.
    fn refill(self: &Arc<Self>, target: usize) {
        let slot = &self.refilling;
        let ready = self.spares.lock().map(|s| s.len()).unwrap_or(target);
        let missing = target.saturating_sub(ready + slot.load(Ordering::Acquire));
        for _ in 0..missing {
            slot.fetch_add(1, Ordering::AcqRel);
            let this = self.clone();
            let busy = Busy::new(self);
            tokio::spawn(async move {
                let opened = async {
                    let proxy = ContextProxy::start(None)
                        .await
                        .map_err(|e| BrowserError::Launch(format!("proxy: {e}")))?;
                    let (page, context) = this.blank_tab(Some(&proxy)).await?;
                    let prepared = {
                        let _shared = this.locks.quiet.read().await;
                        lab::prepare(&page, Device::Mobile, true).await
                    };
                    match prepared {
                        Ok(()) => Ok(Spare {
                            page,
                            context: Some(context),
                            proxy,
                            prepared: true,
                        }),
                        Err(e) => {
                            let _ = page.close().await;
                            let _ = this.browser.dispose_browser_context(context).await;
                            Err(e)
                        }
                    }
                }
                .await;
                this.refilling.fetch_sub(1, Ordering::AcqRel);
                match opened {
                    Ok(spare) => {
                        if let Ok(mut s) = this.spares.lock() {
                            s.push(spare);
                        }
                    }
                    Err(e) => tracing::debug!(error = %e, "could not open a spare tab"),
                }
                drop(busy);
            });
        }
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        self.handler.abort();
        // Kill the process and give it a moment to go, so its profile folder can be removed
        // without the browser writing into it again.
        if let Ok(child) = self.child.get_mut() {
            let _ = child.start_kill();
            for _ in 0..100 {
                if !matches!(child.try_wait(), Ok(None)) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        }
        for _ in 0..PROFILE_REMOVAL_TRIES {
            if profile_removed(&self.dir) {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// How often a profile folder's removal is tried before it is left to the next start's sweep.
const PROFILE_REMOVAL_TRIES: usize = 50;

/// Tries once to remove a stopped browser's profile folder; whether it is gone. Chromium's helper
/// processes can outlive the browser process by a moment and write a file while the folder is
/// being removed ("directory not empty"), so callers try again for a short while.
fn profile_removed(dir: &std::path::Path) -> bool {
    match std::fs::remove_dir_all(dir) {
        Ok(()) => true,
        Err(e) => e.kind() == std::io::ErrorKind::NotFound,
    }
}

/// A shared Chromium with bounded tabs. Cheap to share behind an `Arc`; create one per process.
pub struct BrowserPool {
    settings: BrowserSettings,
    guard: RequestGuard,
    tabs: Arc<Semaphore>,
    current: Mutex<Option<Arc<Instance>>>,
    launches: AtomicU64,
    /// True while Chromium is being started.
    launching: AtomicBool,
    /// Keeps each measurement's timed load alone (see [`lab::LoadLocks`]).
    locks: Arc<lab::LoadLocks>,
}

/// What the pool is doing, for the status page (`/api-status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolState {
    /// Whether Chromium is configured, starting or running.
    pub mode: domain::status::BrowserMode,
    /// Tabs measuring pages now.
    pub tabs_in_use: u32,
    /// Tabs the pool may open at once.
    pub tabs_max: u32,
    /// Prepared blank tabs waiting for a measurement.
    pub spare_tabs: u32,
}

impl std::fmt::Debug for BrowserPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BrowserPool")
            .field("settings", &self.settings)
            .field("free_tabs", &self.tabs.available_permits())
            .finish()
    }
}

impl BrowserPool {
    /// A pool that starts Chromium on first use. `guard` decides every browser request.
    pub fn new(settings: BrowserSettings, guard: RequestGuard) -> Self {
        let tabs = Arc::new(Semaphore::new(settings.max_tabs.max(1)));
        Self {
            settings,
            guard,
            tabs,
            current: Mutex::new(None),
            launches: AtomicU64::new(0),
            launching: AtomicBool::new(false),
            locks: Arc::new(lab::LoadLocks::default()),
        }
    }

    /// What the pool is doing now: off (no browser configured), idle (not started yet, or
    /// stopped), starting or running, with its tabs. Never waits for a launch in progress.
    pub async fn state(&self) -> PoolState {
        use domain::status::BrowserMode;
        let tabs_max = u32::try_from(self.settings.max_tabs.max(1)).unwrap_or(u32::MAX);
        let free = u32::try_from(self.tabs.available_permits()).unwrap_or(u32::MAX);
        let mut state = PoolState {
            mode: BrowserMode::Idle,
            tabs_in_use: tabs_max.saturating_sub(free),
            tabs_max,
            spare_tabs: 0,
        };
        if !self.enabled() {
            state.mode = BrowserMode::Off;
        } else if self.launching.load(Ordering::Acquire) {
            state.mode = BrowserMode::Starting;
        } else if let Some(i) = self.current.lock().await.as_ref()
            && i.alive.load(Ordering::Acquire)
            && i.process_running()
        {
            state.mode = BrowserMode::Running;
            state.spare_tabs = i
                .spares
                .lock()
                .map(|s| u32::try_from(s.len()).unwrap_or(u32::MAX))
                .unwrap_or(0);
        }
        state
    }

    /// A pool with `settings` and the analyzer's SSRF policy and resolver.
    pub fn from_config(settings: BrowserSettings, config: &crate::AnalyzerConfig) -> Self {
        Self::new(settings, RequestGuard::from_config(config))
    }

    /// The settings in force.
    pub fn settings(&self) -> &BrowserSettings {
        &self.settings
    }

    /// Whether a browser is configured at all.
    pub fn enabled(&self) -> bool {
        self.settings.chromium.is_some()
    }

    /// How many times Chromium was started by this pool (restarts included).
    pub fn launches(&self) -> u64 {
        self.launches.load(Ordering::Relaxed)
    }

    /// Start Chromium now rather than on the first measurement, and prepare the tabs for the
    /// first measurement (a server does this at start-up). Without it, the first measurement
    /// opens its own tabs and nothing else competes with its load for the processor.
    pub async fn warm(&self) -> Result<(), BrowserError> {
        let instance = self.instance().await?;
        instance.refill(self.settings.spare_tabs);
        Ok(())
    }

    /// The running browser, launching (or relaunching after a crash) when needed.
    async fn instance(&self) -> Result<Arc<Instance>, BrowserError> {
        let Some(path) = self.settings.chromium.clone() else {
            return Err(BrowserError::Disabled);
        };
        let mut current = self.current.lock().await;
        if let Some(i) = current.as_ref() {
            if i.alive.load(Ordering::Acquire) && i.process_running() {
                return Ok(i.clone());
            }
            tracing::warn!("chromium died; starting a new one");
        }
        *current = None;
        let n = LAUNCHES.fetch_add(1, Ordering::Relaxed);
        if n == 0 {
            // Where profiles go now, and the temporary directory, where they went before.
            let swept = launch::sweep_stale_profiles(&launch::profile_root())
                + launch::sweep_stale_profiles(&std::env::temp_dir());
            if swept > 0 {
                tracing::info!(swept, "removed profile folders left by earlier processes");
            }
        }
        let dir = launch::new_profile(n)?;
        let timeout = self.settings.launch_timeout;
        // The launch's own tab measures first (`startup_tab`): its traffic goes through a proxy
        // named on the command line, for the default context (`<-loopback>` takes loopback
        // addresses off the implicit bypass list, as for every context).
        let startup_proxy = match self.settings.startup_tab {
            true => Some(
                ContextProxy::start(None)
                    .await
                    .map_err(|e| BrowserError::Launch(format!("proxy: {e}")))?,
            ),
            false => None,
        };
        let extra: Vec<String> = startup_proxy
            .iter()
            .flat_map(|p| {
                [
                    format!("--proxy-server={}", p.server()),
                    "--proxy-bypass-list=<-loopback>".to_owned(),
                ]
            })
            .collect();
        self.launching.store(true, Ordering::Release);
        let t0 = Instant::now();
        let started = async {
            let launched = launch::start(&path, &dir, timeout, &extra).await?;
            let listening_ms = t0.elapsed().as_secs_f64() * 1000.0;
            let config = HandlerConfig {
                viewport: None,
                request_timeout: self.settings.page_timeout,
                // The HTTP cache stays on, as in Lighthouse's browser and every visitor's: each
                // measurement has a context of its own, so its cache starts cold. Switched off,
                // every request skipped the cache's work and went out at once, and the load ran
                // ahead of Lighthouse's (web fonts in before the first paint, their shift lost).
                cache_enabled: true,
                ..HandlerConfig::default()
            };
            let connected = tokio::time::timeout(
                timeout,
                Browser::connect_with_config(launched.ws_url.clone(), config),
            )
            .await
            .map_err(|_| BrowserError::Timeout {
                what: "its launch",
                seconds: timeout.as_secs(),
            })?
            .map_err(|e| BrowserError::Launch(e.to_string()))?;
            tracing::debug!(
                listening_ms,
                connected_ms = t0.elapsed().as_secs_f64() * 1000.0,
                "chromium started"
            );
            Ok::<_, BrowserError>((launched.child, connected))
        };
        let started = started.await;
        self.launching.store(false, Ordering::Release);
        let (child, (browser, mut handler)) = match started {
            Ok(x) => x,
            Err(e) => {
                let _ = std::fs::remove_dir_all(&dir);
                return Err(e);
            }
        };
        let alive = Arc::new(AtomicBool::new(true));
        let flag = alive.clone();
        let handler = tokio::spawn(async move {
            // The handler drives the DevTools connection; when it ends the browser is gone.
            while let Some(event) = handler.next().await {
                if let Err(e) = event {
                    if matches!(
                        e,
                        chromiumoxide::error::CdpError::Ws(_)
                            | chromiumoxide::error::CdpError::Io(_)
                    ) {
                        tracing::warn!(error = %e, "chromium connection lost");
                        break;
                    }
                    tracing::debug!(error = %e, "chromium handler");
                }
            }
            flag.store(false, Ordering::Release);
        });
        self.launches.fetch_add(1, Ordering::Relaxed);
        let instance = Arc::new(Instance {
            browser,
            child: std::sync::Mutex::new(child),
            alive,
            handler,
            dir,
            spares: std::sync::Mutex::new(Vec::new()),
            refilling: AtomicUsize::new(0),
            background: AtomicUsize::new(0),
            idle: Notify::new(),
            locks: self.locks.clone(),
        });
        if let Some(proxy) = startup_proxy {
            match startup_page(&instance.browser).await {
                Some(page) => {
                    if let Ok(mut spares) = instance.spares.lock() {
                        spares.push(Spare {
                            page,
                            context: None,
                            proxy,
                            prepared: false,
                        });
                    }
                }
                None => tracing::debug!("the launch's tab did not appear; opening a new one"),
            }
        }
        tracing::debug!(
            ready_ms = t0.elapsed().as_secs_f64() * 1000.0,
            "chromium ready"
        );
        *current = Some(instance.clone());
        Ok(instance)
    }

    /// Wait until the browser is idle: closed tabs are gone and the tabs for the next
    /// measurement are ready (benchmarks start every timed step from this state).
    pub async fn settled(&self) {
        let Some(instance) = self.current.lock().await.clone() else {
            return;
        };
        loop {
            let woken = instance.idle.notified();
            if instance.background.load(Ordering::Acquire) == 0 {
                return;
            }
            woken.await;
        }
    }

    /// Stop the browser (a later measurement starts a new one).
    pub async fn shutdown(&self) {
        let taken = self.current.lock().await.take();
        let Some(i) = taken else {
            return;
        };
        // Tabs being prepared may still hold the instance: kill the process rather than wait
        // for them, then remove its profile folder (the instance's drop finds both done).
        i.alive.store(false, Ordering::Release);
        i.handler.abort();
        if let Ok(mut child) = i.child.lock() {
            let _ = child.start_kill();
        }
        for _ in 0..500 {
            let exited = i
                .child
                .lock()
                .map(|mut c| !matches!(c.try_wait(), Ok(None)))
                .unwrap_or(true);
            if exited {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        for _ in 0..PROFILE_REMOVAL_TRIES {
            if profile_removed(&i.dir) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// The process id of the running browser, if one runs (tests read its command line).
    pub async fn browser_pid(&self) -> Option<u32> {
        self.current
            .lock()
            .await
            .as_ref()
            .and_then(|i| i.browser_pid())
    }

    /// Kill the running browser process, as a crash would (tests use this to prove the pool
    /// recovers).
    pub async fn kill_browser_for_test(&self) {
        let current = self.current.lock().await;
        if let Some(i) = current.as_ref()
            && let Some(pid) = i.browser_pid()
        {
            let _ = std::process::Command::new("kill")
                .arg("-9")
                .arg(pid.to_string())
                .status();
        }
    }

    /// A tab in a fresh browser context for a measurement (a prepared spare when one is ready)
    /// whose traffic `guard` decides, waiting for a free slot. Without a guard: an unprepared
    /// tab that goes straight to the network (bare navigation).
    async fn open_tab(
        &self,
        instance: &Arc<Instance>,
        guard: Option<&RequestGuard>,
    ) -> Result<Tab, BrowserError> {
        let permit = self
            .tabs
            .clone()
            .acquire_owned()
            .await
            .map_err(|e| BrowserError::Protocol(e.to_string()))?;
        let Some(guard) = guard else {
            let (page, context) = instance.blank_tab(None).await?;
            return Ok(Tab {
                page,
                context: Some(context),
                measuring: false,
                prepared: false,
                _proxy: None,
                _permit: permit,
            });
        };
        if let Some(spare) = instance.take_spare() {
            spare.proxy.assign(guard.clone());
            return Ok(Tab {
                page: spare.page,
                context: spare.context,
                measuring: true,
                prepared: spare.prepared,
                _proxy: Some(spare.proxy),
                _permit: permit,
            });
        }
        let proxy = ContextProxy::start(Some(guard.clone()))
            .await
            .map_err(|e| BrowserError::Launch(format!("proxy: {e}")))?;
        let (page, context) = instance.blank_tab(Some(&proxy)).await?;
        Ok(Tab {
            page,
            context: Some(context),
            measuring: true,
            prepared: false,
            _proxy: Some(proxy),
            _permit: permit,
        })
    }

    /// Close the tab and dispose of its context (and proxy) in the background, then open the
    /// spare that replaces it; the tab slot is freed when the tab is closed.
    fn close_tab(&self, instance: &Arc<Instance>, tab: Tab) {
        let instance = instance.clone();
        let busy = Busy::new(&instance);
        let spares = self.settings.spare_tabs;
        tokio::spawn(async move {
            let Tab {
                page,
                context,
                measuring,
                _proxy,
                _permit,
                ..
            } = tab;
            let _ = tokio::time::timeout(Duration::from_secs(5), async {
                let _ = page.close().await;
                if let Some(context) = context {
                    let _ = instance.browser.dispose_browser_context(context).await;
                }
            })
            .await;
            drop((_proxy, _permit));
            if measuring && instance.alive.load(Ordering::Acquire) {
                instance.refill(spares);
            }
            drop(busy);
        });
    }

    /// The measurement run in its own tab, with the page time limit; the tab is always closed.
    async fn run_measurement(
        &self,
        instance: &Arc<Instance>,
        url: &str,
        guard: &RequestGuard,
        loaded: Option<crate::LoadEnded>,
    ) -> Result<(lab::DeviceRun, f64), BrowserError> {
        let queued = Instant::now();
        let tab = self.open_tab(instance, Some(guard)).await?;
        let queue_ms = queued.elapsed().as_secs_f64() * 1000.0;
        let limit = self.settings.page_timeout;
        let result = tokio::time::timeout(
            limit,
            lab::run(
                &tab.page,
                url,
                guard,
                &self.settings,
                tab.prepared,
                Some(&self.locks),
                loaded,
            ),
        )
        .await
        .unwrap_or(Err(BrowserError::Timeout {
            what: "loading and measuring the page",
            seconds: limit.as_secs(),
        }));
        self.close_tab(instance, tab);
        result.map(|r| (r, queue_ms))
    }

    /// A bare navigation in a fresh tab of the warm browser: open, load, close. Benchmarks
    /// compare [`Self::measure`] against it.
    pub async fn bare_navigation(&self, url: &str) -> Result<Duration, BrowserError> {
        let instance = self.instance().await?;
        let start = Instant::now();
        let tab = self.open_tab(&instance, None).await?;
        let r = tab.page.goto(url).await.map(|_| ());
        self.close_tab(&instance, tab);
        r?;
        Ok(start.elapsed())
    }

    /// Measure `url` in the browser: one traced load as a phone, both screenshots, design,
    /// accessibility and best practices. Retries once on a fresh browser when Chromium died
    /// during the measurement.
    pub async fn measure(&self, url: &str) -> Result<BrowserReport, BrowserError> {
        self.measure_telling(url, None).await
    }

    /// [`Self::measure`], telling `loaded` when the timed load has ended (or failed): the HTTP
    /// analysis of the same page waits for it ([`crate::LoadGate`]).
    pub async fn measure_telling(
        &self,
        url: &str,
        loaded: Option<crate::LoadEnded>,
    ) -> Result<BrowserReport, BrowserError> {
        match self.measure_once(url, loaded).await {
            Err(BrowserError::Disabled) => Err(BrowserError::Disabled),
            Err(BrowserError::Refused(r)) => Err(BrowserError::Refused(r)),
            Err(e) if !self.browser_alive().await => {
                tracing::warn!(error = %e, "chromium died during a measurement; retrying once");
                self.measure_once(url, None).await
            }
            other => other,
        }
    }

    async fn browser_alive(&self) -> bool {
        self.current.lock().await.as_ref().is_some_and(|i| {
            // The flag follows the DevTools connection, which may not have noticed yet; the
            // process itself answers at once.
            let alive = i.alive.load(Ordering::Acquire) && i.process_running();
            if !alive {
                i.alive.store(false, Ordering::Release);
            }
            alive
        })
    }

    async fn measure_once(
        &self,
        url: &str,
        loaded: Option<crate::LoadEnded>,
    ) -> Result<BrowserReport, BrowserError> {
        let started = Instant::now();
        let guard = self.guard.fresh();
        guard.decide(url).await.map_err(BrowserError::Refused)?;
        let instance = self.instance().await?;
        let result = self.run_measurement(&instance, url, &guard, loaded).await;
        if !instance.alive.load(Ordering::Acquire) {
            // Leave the dead instance to be replaced on the next call.
            tracing::warn!("chromium exited during the measurement");
        }
        let (run, queue_ms) = result?;
        let timings = PhaseTimings {
            queue_ms,
            run_ms: run.elapsed_ms,
            axe_ms: run.axe_ms,
            steps: run
                .steps
                .iter()
                .map(|(k, v)| ((*k).to_owned(), *v))
                .collect(),
            total_ms: started.elapsed().as_secs_f64() * 1000.0,
        };
        tracing::debug!(?timings, "browser measurement");
        Ok(super::assemble(url, run, guard.refused(), timings))
    }
}

impl Instance {
    fn browser_pid(&self) -> Option<u32> {
        self.child.lock().ok().and_then(|c| c.id())
    }

    /// Whether the Chromium process still runs. A killed process keeps its id until it is
    /// reaped, so ask for its exit status (which reaps it) rather than for its id.
    fn process_running(&self) -> bool {
        self.child
            .lock()
            .map(|mut c| matches!(c.try_wait(), Ok(None)))
            .unwrap_or(false)
    }
}

/// A tab and its browser context, holding one of the pool's tab slots.
struct Tab {
    page: Page,
    /// Its own context, or `None` for the launch's tab (the default context, never disposed).
    context: Option<BrowserContextId>,
    /// Whether it measures (false for a bare navigation).
    measuring: bool,
    /// Prepared for its device by [`lab::prepare`].
    prepared: bool,
    /// The context's proxy, closed with the tab.
    _proxy: Option<ContextProxy>,
    _permit: OwnedSemaphorePermit,
}

/// The blank tab Chromium opened at launch, once the DevTools connection has attached to it
/// (at most half a second).
async fn startup_page(browser: &Browser) -> Option<Page> {
    let deadline = Instant::now() + Duration::from_millis(500);
    loop {
        if let Some(page) = browser
            .pages()
            .await
            .ok()
            .and_then(|p| p.into_iter().next())
        {
            return Some(page);
        }
        if Instant::now() >= deadline {
            return None;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}
