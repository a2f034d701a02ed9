//! The Chromium pool: one browser process shared by every analysis, a bounded number of tabs,
//! a relaunch when the process dies, and time limits on every step.
//!
//! Each device run opens its own browser context (separate cookies, storage and service
//! workers) and its own tab, and closes both afterwards, so concurrent analyses never see each
//! other's state. Chromium gets its own `--user-data-dir` per launch, removed when the process
//! is replaced or the pool is dropped.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use chromiumoxide::cdp::browser_protocol::browser::BrowserContextId;
use chromiumoxide::cdp::browser_protocol::target::{
    CreateBrowserContextParams, CreateTargetParams,
};
use chromiumoxide::{Browser, BrowserConfig, Page};
use futures::StreamExt;
use tokio::sync::{Mutex, OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinHandle;

use super::intercept::RequestGuard;
use super::{BrowserError, BrowserReport, BrowserSettings, Device, PhaseTimings, lab};

/// Chromium flags that work as root in a container (TOOLCHAIN.md), plus quiet defaults.
const FLAGS: &[&str] = &[
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-dev-shm-usage",
    "--disable-extensions",
    "--disable-default-apps",
    "--mute-audio",
    "--hide-scrollbars",
    "--font-render-hinting=none",
    // Tabs measured side by side and spare tabs are all "in the background": without these,
    // Chromium lowers their priority and throttles their timers, and loads take seconds.
    "--disable-background-timer-throttling",
    "--disable-backgrounding-occluded-windows",
    "--disable-renderer-backgrounding",
    "--disable-ipc-flooding-protection",
    "--disable-hang-monitor",
    "--disable-breakpad",
    "--metrics-recording-only",
    "--password-store=basic",
    "--use-mock-keychain",
    // A measured page loads in the renderer its prepared blank tab already runs, instead of
    // waiting for a new process (hundreds of milliseconds on a busy machine). Site isolation
    // protects a person's logged-in sites from each other; a measuring browser holds none,
    // and every measurement has its own browser context and its own guard.
    "--disable-site-isolation-trials",
    // WebRTC could otherwise reach local addresses around the request interception.
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--disable-features=IsolateOrigins,site-per-process,ProactivelySwapBrowsingInstance,Translate,MediaRouter,OptimizationHints",
];

static LAUNCHES: AtomicU64 = AtomicU64::new(0);

/// One running Chromium.
struct Instance {
    browser: Browser,
    alive: Arc<AtomicBool>,
    handler: JoinHandle<()>,
    dir: PathBuf,
    /// Blank tabs, each in its own fresh browser context, opened ahead of need: creating a
    /// context and a tab costs a few hundred milliseconds that no measurement should wait for.
    spares: std::sync::Mutex<Vec<(Device, Page, BrowserContextId)>>,
    /// Spares being opened right now, desktop and mobile.
    refilling: [AtomicUsize; 2],
}

impl Instance {
    /// A blank tab in a new browser context.
    async fn blank_tab(&self) -> Result<(Page, BrowserContextId), BrowserError> {
        let context = self
            .browser
            .create_browser_context(CreateBrowserContextParams::default())
            .await?;
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

    fn take_spare(&self, device: Device) -> Option<(Page, BrowserContextId)> {
        let mut spares = self.spares.lock().ok()?;
        let i = spares.iter().position(|(d, _, _)| *d == device)?;
        let (_, page, context) = spares.swap_remove(i);
        Some((page, context))
    }

    /// Open spares for `device` in the background until `target` are ready. Spares are
    /// prepared for their device ([`lab::prepare`]), so a measurement starts with navigation.
    fn refill(self: &Arc<Self>, device: Device, target: usize) {
        let slot = &self.refilling[usize::from(device == Device::Mobile)];
        let ready = self
            .spares
            .lock()
            .map(|s| s.iter().filter(|(d, _, _)| *d == device).count())
            .unwrap_or(target);
        let missing = target.saturating_sub(ready + slot.load(Ordering::Acquire));
        for _ in 0..missing {
            slot.fetch_add(1, Ordering::AcqRel);
            let this = self.clone();
            tokio::spawn(async move {
                let opened = async {
                    let (page, context) = this.blank_tab().await?;
                    match lab::prepare(&page, device).await {
                        Ok(()) => Ok((page, context)),
                        Err(e) => {
                            let _ = page.close().await;
                            let _ = this.browser.dispose_browser_context(context).await;
                            Err(e)
                        }
                    }
                }
                .await;
                this.refilling[usize::from(device == Device::Mobile)]
                    .fetch_sub(1, Ordering::AcqRel);
                match opened {
                    Ok((page, context)) => {
                        if let Ok(mut s) = this.spares.lock() {
                            s.push((device, page, context));
                        }
                    }
                    Err(e) => tracing::debug!(error = %e, "could not open a spare tab"),
                }
            });
        }
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        self.handler.abort();
        // The process is killed on drop (kill_on_drop); its profile folder goes with it.
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A shared Chromium with bounded tabs. Cheap to share behind an `Arc`; create one per process.
pub struct BrowserPool {
    settings: BrowserSettings,
    guard: RequestGuard,
    tabs: Arc<Semaphore>,
    current: Mutex<Option<Arc<Instance>>>,
    launches: AtomicU64,
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
        }
    }

    /// A pool configured from the environment (`SITELENS_CHROMIUM`) with the analyzer's SSRF
    /// policy and resolver.
    pub fn from_config(config: &crate::AnalyzerConfig) -> Self {
        Self::new(
            BrowserSettings::from_env(),
            RequestGuard::from_config(config),
        )
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

    /// Start Chromium now rather than on the first measurement.
    pub async fn warm(&self) -> Result<(), BrowserError> {
        self.instance().await.map(|_| ())
    }

    /// The running browser, launching (or relaunching after a crash) when needed.
    async fn instance(&self) -> Result<Arc<Instance>, BrowserError> {
        let Some(path) = self.settings.chromium.clone() else {
            return Err(BrowserError::Disabled);
        };
        let mut current = self.current.lock().await;
        if let Some(i) = current.as_ref() {
            if i.alive.load(Ordering::Acquire) {
                return Ok(i.clone());
            }
            tracing::warn!("chromium died; starting a new one");
        }
        *current = None;
        let n = LAUNCHES.fetch_add(1, Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("sitelens-chromium-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|e| BrowserError::Launch(e.to_string()))?;
        let config = BrowserConfig::builder()
            .chrome_executable(&path)
            .new_headless_mode()
            .no_sandbox()
            .disable_default_args()
            .args(FLAGS.iter().copied())
            .user_data_dir(&dir)
            .disable_cache()
            .viewport(None)
            .launch_timeout(self.settings.launch_timeout)
            .request_timeout(self.settings.page_timeout)
            .build()
            .map_err(BrowserError::Launch)?;
        let launched = tokio::time::timeout(self.settings.launch_timeout, Browser::launch(config))
            .await
            .map_err(|_| BrowserError::Timeout {
                what: "its launch",
                seconds: self.settings.launch_timeout.as_secs(),
            })?
            .map_err(|e| BrowserError::Launch(e.to_string()));
        let (browser, mut handler) = match launched {
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
            alive,
            handler,
            dir,
            spares: std::sync::Mutex::new(Vec::new()),
            refilling: [AtomicUsize::new(0), AtomicUsize::new(0)],
        });
        instance.refill(Device::Desktop, self.settings.spare_tabs);
        instance.refill(Device::Mobile, self.settings.spare_tabs);
        *current = Some(instance.clone());
        Ok(instance)
    }

    /// Stop the browser (a later measurement starts a new one).
    pub async fn shutdown(&self) {
        let taken = self.current.lock().await.take();
        if let Some(i) = taken
            && let Ok(mut i) = Arc::try_unwrap(i)
        {
            let _ = i.browser.close().await;
            let _ = i.browser.wait().await;
        }
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

    /// A tab in a fresh browser context for `device` (a prepared spare when one is ready),
    /// waiting for a free slot. `device` `None` gives an unprepared tab (bare navigation).
    async fn open_tab(
        &self,
        instance: &Arc<Instance>,
        device: Option<Device>,
    ) -> Result<Tab, BrowserError> {
        let permit = self
            .tabs
            .clone()
            .acquire_owned()
            .await
            .map_err(|e| BrowserError::Protocol(e.to_string()))?;
        let spare = device.and_then(|d| {
            let spare = instance.take_spare(d);
            instance.refill(d, self.settings.spare_tabs);
            spare
        });
        let prepared = spare.is_some();
        let (page, context) = match spare {
            Some(tab) => tab,
            None => instance.blank_tab().await?,
        };
        Ok(Tab {
            page,
            context,
            prepared,
            _permit: permit,
        })
    }

    /// Close the tab and dispose of its context in the background; the tab slot is freed when
    /// that is done.
    fn close_tab(instance: &Arc<Instance>, tab: Tab) {
        let instance = instance.clone();
        tokio::spawn(async move {
            let Tab {
                page,
                context,
                _permit,
                ..
            } = tab;
            let _ = tokio::time::timeout(Duration::from_secs(5), async {
                let _ = page.close().await;
                let _ = instance.browser.dispose_browser_context(context).await;
            })
            .await;
        });
    }

    /// One device run in its own tab, with the page time limit; the tab is always closed.
    async fn run_device(
        &self,
        instance: &Arc<Instance>,
        device: Device,
        url: &str,
        guard: &RequestGuard,
    ) -> Result<(lab::DeviceRun, f64), BrowserError> {
        let queued = Instant::now();
        let tab = self.open_tab(instance, Some(device)).await?;
        let queue_ms = queued.elapsed().as_secs_f64() * 1000.0;
        let limit = self.settings.page_timeout;
        let result = tokio::time::timeout(
            limit,
            lab::run(&tab.page, device, url, guard, &self.settings, tab.prepared),
        )
        .await
        .unwrap_or(Err(BrowserError::Timeout {
            what: "loading and measuring the page",
            seconds: limit.as_secs(),
        }));
        Self::close_tab(instance, tab);
        result.map(|r| (r, queue_ms))
    }

    /// A bare navigation in a fresh tab of the warm browser: open, load, close. Benchmarks
    /// compare [`Self::measure`] against it.
    pub async fn bare_navigation(&self, url: &str) -> Result<Duration, BrowserError> {
        let instance = self.instance().await?;
        let start = Instant::now();
        let tab = self.open_tab(&instance, None).await?;
        let r = tab.page.goto(url).await.map(|_| ());
        Self::close_tab(&instance, tab);
        r?;
        Ok(start.elapsed())
    }

    /// Measure `url` in the browser: desktop and mobile loads at once, screenshots, design,
    /// accessibility and best practices. Retries once on a fresh browser when Chromium died
    /// during the measurement.
    pub async fn measure(&self, url: &str) -> Result<BrowserReport, BrowserError> {
        match self.measure_once(url).await {
            Err(BrowserError::Disabled) => Err(BrowserError::Disabled),
            Err(BrowserError::Refused(r)) => Err(BrowserError::Refused(r)),
            Err(e) if !self.browser_alive().await => {
                tracing::warn!(error = %e, "chromium died during a measurement; retrying once");
                self.measure_once(url).await
            }
            other => other,
        }
    }

    async fn browser_alive(&self) -> bool {
        self.current.lock().await.as_ref().is_some_and(|i| {
            // The flag follows the DevTools connection; the process table answers at once.
            let alive = i.alive.load(Ordering::Acquire) && i.browser_pid().is_some();
            if !alive {
                i.alive.store(false, Ordering::Release);
            }
            alive
        })
    }

    async fn measure_once(&self, url: &str) -> Result<BrowserReport, BrowserError> {
        let started = Instant::now();
        let guard = self.guard.fresh();
        guard.decide(url).await.map_err(BrowserError::Refused)?;
        let instance = self.instance().await?;
        let (desktop, mobile) = tokio::join!(
            self.run_device(&instance, Device::Desktop, url, &guard),
            self.run_device(&instance, Device::Mobile, url, &guard),
        );
        if !instance.alive.load(Ordering::Acquire) {
            // Leave the dead instance to be replaced on the next call.
            tracing::warn!("chromium exited during the measurement");
        }
        let (desktop, dq) = desktop?;
        let (mobile, mq) = mobile?;
        let timings = PhaseTimings {
            queue_ms: dq.max(mq),
            desktop_ms: desktop.elapsed_ms,
            mobile_ms: mobile.elapsed_ms,
            axe_ms: desktop.axe_ms.max(mobile.axe_ms),
            desktop_steps: desktop
                .steps
                .iter()
                .map(|(k, v)| ((*k).to_owned(), *v))
                .collect(),
            mobile_steps: mobile
                .steps
                .iter()
                .map(|(k, v)| ((*k).to_owned(), *v))
                .collect(),
            total_ms: started.elapsed().as_secs_f64() * 1000.0,
        };
        Ok(super::assemble(
            url,
            desktop,
            mobile,
            guard.refused(),
            timings,
        ))
    }
}

impl Instance {
    fn browser_pid(&self) -> Option<u32> {
        // The child handle is private to chromiumoxide; its id is reachable through
        // `get_mut_child`, which needs `&mut`. The profile folder names the process instead.
        let cmdline_match = format!("--user-data-dir={}", self.dir.display());
        let entries = std::fs::read_dir("/proc").ok()?;
        for e in entries.flatten() {
            let name = e.file_name();
            let Some(pid) = name.to_str().and_then(|s| s.parse::<u32>().ok()) else {
                continue;
            };
            if let Ok(cmd) = std::fs::read(e.path().join("cmdline")) {
                let cmd = String::from_utf8_lossy(&cmd);
                let is_browser = !cmd.contains("--type=");
                if is_browser && cmd.contains(&cmdline_match) {
                    return Some(pid);
                }
            }
        }
        None
    }
}

/// A tab and its browser context, holding one of the pool's tab slots.
struct Tab {
    page: Page,
    context: BrowserContextId,
    /// Prepared for its device by [`lab::prepare`].
    prepared: bool,
    _permit: OwnedSemaphorePermit,
}
