//! The state every handler can reach; cheap to clone. Extractors take only the part they need
//! through `FromRef` (derived here for every field).

use std::sync::Arc;

use axum::extract::FromRef;
use store::DatabaseConnection;

use crate::config::Config;
use crate::extract::TrustedProxies;
use crate::services::accounts::Links;
use crate::services::billing::PaymentProvider;
use crate::services::blobs::Blobs;
use crate::services::custom_domains::CustomDomains;
use crate::services::hub::Hub;
use crate::services::mail::Mailer;
use crate::services::oidc::Oidc;
use crate::services::pages::WebApp;
use crate::services::reports::ResultCache;
use crate::services::stats::StatsCache;
use crate::services::widget::WidgetScript;

/// Everything a handler needs.
#[derive(Clone, FromRef)]
pub struct AppState {
    /// The database.
    pub db: DatabaseConnection,
    /// Configuration.
    pub config: Arc<Config>,
    /// Progress fan-out.
    pub hub: Hub,
    /// Screenshots and other blobs.
    pub blobs: Blobs,
    /// The built web app.
    pub web: Arc<WebApp>,
    /// Serialised results by id.
    pub results: Arc<ResultCache>,
    /// The home page's counter.
    pub stats: Arc<StatsCache>,
    /// Proxies whose `X-Forwarded-For` is believed.
    pub trusted_proxies: TrustedProxies,
    /// Outgoing mail: the outbox, and SMTP when configured.
    pub mailer: Mailer,
    /// Where the accounts pages live, for mailed links.
    pub links: Arc<Links>,
    /// How session cookies are written and checked.
    pub cookies: Arc<CookiePolicy>,
    /// Sign-in through an OpenID Connect provider, when one is configured.
    pub oidc: Option<Arc<Oidc>>,
    /// Who takes payments: Stripe, or the labelled test-payment mode.
    pub payments: PaymentProvider,
    /// The audit widget's script, from the built web app.
    pub widget: Arc<WidgetScript>,
    /// Custom domains: our own hosts, the DNS resolver and the verified-domain cache.
    pub domains: Arc<CustomDomains>,
}

/// The session cookie's settings and the origin state-changing requests must come from.
#[derive(Debug, Clone)]
pub struct CookiePolicy {
    /// `Secure` is set when the public address is HTTPS.
    pub secure: bool,
    /// The public origin, e.g. `https://sitelens.example`.
    pub origin: String,
}

impl AppState {
    /// The state for `config` on `db`, with the web app loaded from `config.web_dir`.
    pub async fn new(
        db: DatabaseConnection,
        config: Config,
        hub: Hub,
        blobs: Blobs,
        mailer: Mailer,
    ) -> Self {
        let oidc = config.oidc.clone().and_then(|settings| {
            Oidc::new(settings, &config.public_url)
                .inspect_err(|e| tracing::error!(error = %e, "OpenID Connect sign-in is off"))
                .ok()
                .map(Arc::new)
        });
        AppState {
            oidc,
            links: Arc::new(Links {
                accounts_url: config.accounts_url(),
            }),
            cookies: Arc::new(CookiePolicy {
                secure: config.is_https(),
                origin: config.public_origin(),
            }),
            mailer,
            payments: PaymentProvider::from_config(&config),
            domains: Arc::new(CustomDomains::new(&config)),
            web: Arc::new(WebApp::load(&config.web_dir).await),
            widget: Arc::new(WidgetScript::load(&config.web_dir).await),
            trusted_proxies: TrustedProxies(config.trusted_proxies.clone().into()),
            db,
            config: Arc::new(config),
            hub,
            blobs,
            results: Arc::new(ResultCache::default()),
            stats: Arc::new(StatsCache::default()),
        }
    }
}
