//! The Sitelens server: the HTTP app (docs/PRODUCT.md §7 calls, progress streams, the web app), the
//! analysis worker, and the glue that starts them on one database.
//!
//! [`start`] is what `sitelens serve` and `sitelens worker` run, and what the integration tests
//! run on port 0 with a fresh database.

pub mod app;
pub mod chain;
pub mod config;
pub mod error;
pub mod extract;
pub mod routes;
pub mod services;
pub mod state;

use std::net::SocketAddr;

use analyzer::Analyzer;
use analyzer::browser::BrowserPool;
use tokio::sync::watch;
use tokio::task::JoinHandle;

pub use config::Config;

/// Which parts a process runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Roles {
    /// Serve HTTP.
    pub web: bool,
    /// Run analyses.
    pub worker: bool,
}

/// A started server; dropping it does not stop it, call [`Running::shutdown`].
pub struct Running {
    /// The address HTTP is served on (`None` for a worker-only process).
    pub addr: Option<SocketAddr>,
    /// The database.
    pub db: store::DatabaseConnection,
    stop: watch::Sender<bool>,
    tasks: Vec<JoinHandle<()>>,
}

impl Running {
    /// Stops accepting work, lets running requests and analyses finish, and waits.
    pub async fn shutdown(self) {
        let _ = self.stop.send(true);
        for t in self.tasks {
            let _ = t.await;
        }
    }

    /// Waits until the process is asked to stop (Ctrl-C or SIGTERM), then shuts down.
    pub async fn run_until_signal(self) {
        shutdown_signal().await;
        tracing::info!("shutting down");
        self.shutdown().await;
    }
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}

/// The analyzer as configured for this process, with authority evidence kept in `db`.
pub fn analyzer(config: &Config, db: &store::DatabaseConnection) -> anyhow::Result<Analyzer> {
    let graph = std::sync::Arc::new(services::graph::StoreLinkGraph::new(db.clone()));
    Ok(Analyzer::new(config.analyzer_config())?
        .with_authority(std::sync::Arc::new(analyzer::GraphAuthority::new(graph)))
        // The language-model advisor when SITELENS_LLM_URL is set, the rule-based one otherwise.
        .with_advisor(analyzer::llm::LlmAdvisor::or_rules(config.llm_config())))
}

/// The shared Chromium pool, when `SITELENS_CHROMIUM` names a browser that exists. Every
/// request the browser makes passes the same SSRF policy as the HTTP fetcher.
pub fn browser(config: &Config) -> Option<std::sync::Arc<BrowserPool>> {
    if config.browser_status() != "available" {
        if config.browser_status() == "missing" {
            tracing::warn!(
                chromium = ?config.chromium,
                "Chromium not found: analyses run over HTTP only and browser figures are estimated"
            );
        }
        return None;
    }
    Some(std::sync::Arc::new(BrowserPool::from_config(
        config.browser_settings(),
        &config.analyzer_config(),
    )))
}

/// How often a web node looks for failed mail to send again (`Mailer::retry_failed` decides
/// which messages are due).
const MAIL_RETRY_EVERY: std::time::Duration = std::time::Duration::from_secs(60);

/// Connects (running migrations), then starts the chosen roles.
pub async fn start(config: Config, roles: Roles) -> anyhow::Result<Running> {
    // `store::connect` creates an SQLite file's folder itself; the local blob folder is made
    // here (only when it is the blob store: a node on a bucket keeps no blobs on disk).
    if config.blob_storage == config::BlobStorage::Local {
        tokio::fs::create_dir_all(config.blob_dir()).await?;
    }
    let blobs = services::blobs::Blobs::from_config(&config)?;
    // A bucket that does not answer is logged, not fatal: it may come back, and `/readyz`
    // reports it meanwhile.
    match blobs.check().await {
        Ok(()) => tracing::info!(store = blobs.name(), "blob storage ready"),
        Err(e) => tracing::error!(error = %chain::Chain(&e), "blob storage does not answer"),
    }
    let db = store::connect(&config.database_url).await?;
    let mut config = config;
    // Bind first, so the public address can default to the port really bound.
    let listener = match roles.web {
        true => Some(tokio::net::TcpListener::bind(config.bind).await?),
        false => None,
    };
    let addr = listener.as_ref().map(|l| l.local_addr()).transpose()?;
    if config.public_url.is_empty()
        && let Some(a) = addr
    {
        config.public_url = format!("http://{a}");
    }
    let hub = services::hub::Hub::new(db.clone());
    hub.listen();
    let (stop, stop_rx) = watch::channel(false);
    let mut tasks = Vec::new();

    if roles.worker {
        let browser = browser(&config);
        if let Some(pool) = browser.clone() {
            // Chromium and the tabs for the first analysis are ready before it arrives.
            tokio::spawn(async move {
                if let Err(e) = pool.warm().await {
                    tracing::warn!(error = %e, "could not start the browser ahead of the first analysis");
                }
            });
        }
        let worker = services::worker::Worker {
            db: db.clone(),
            analyzer: analyzer(&config, &db)?,
            browser,
            blobs: blobs.clone(),
            hub: hub.clone(),
            id: services::worker::Worker::new_id(&config.node_name),
            concurrency: config.workers,
            heartbeat_timeout: config.heartbeat_timeout,
            browser_setting: services::status::browser_setting(&config),
            started_at: store::now(),
        };
        // Reported alive before `start` returns, so a status read at once counts it.
        worker.beat(0).await;
        tasks.push(tokio::spawn(worker.run(stop_rx.clone())));
        // Callbacks go out from the processes that finish analyses; deliveries are claimed in
        // the database, so every worker process may run one.
        let deliverer = services::callbacks::Deliverer::new(
            db.clone(),
            &config.public_url,
            config.allow_private_targets,
        )?;
        tasks.push(tokio::spawn(deliverer.run(hub.clone(), stop_rx.clone())));
    }
    // Every process sweeps; the sweep is idempotent (services::maintenance).
    tasks.push(tokio::spawn(services::maintenance::run(
        db.clone(),
        services::maintenance::SWEEP_EVERY,
        stop_rx.clone(),
    )));
    if let Some(listener) = listener {
        let mailer = services::mail::Mailer::new(
            &config.mail_from,
            config.smtp_url.as_ref().map(|s| s.0.as_str()),
        )?
        .with_blobs(blobs.clone());
        if mailer.sends() {
            tasks.push(tokio::spawn(mailer.clone().retry_loop(
                db.clone(),
                MAIL_RETRY_EVERY,
                stop_rx.clone(),
            )));
        }
        tasks.push(tokio::spawn(services::status::sample_loop(
            services::status::StatusSources::new(db.clone(), &config),
            stop_rx.clone(),
        )));
        let router =
            app::router(state::AppState::new(db.clone(), config.clone(), hub, blobs, mailer).await);
        let mut rx = stop_rx.clone();
        tasks.push(tokio::spawn(async move {
            let served = axum::serve(
                listener,
                router.into_make_service_with_connect_info::<SocketAddr>(),
            )
            .with_graceful_shutdown(async move {
                let _ = rx.wait_for(|stop| *stop).await;
            })
            .await;
            if let Err(e) = served {
                tracing::error!(error = %chain::Chain(&e), "HTTP server stopped");
            }
        }));
    }
    Ok(Running {
        addr,
        db,
        stop,
        tasks,
    })
}

/// Sets up logging with `filter` (`RUST_LOG`, checked by [`Config`]).
pub fn init_tracing(filter: &str) {
    let filter = tracing_subscriber::EnvFilter::try_new(filter)
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_target(false)
        .try_init();
}
