//! The one configuration of the `sitelens` binary, read once at start-up for `serve`, `worker`,
//! `migrate` and `analyze` alike. The libraries never read the environment: they take the
//! settings built here ([`Config::analyzer_config`], [`Config::browser_settings`],
//! [`Config::llm_config`]).
//!
//! Every variable, its default and its meaning are in `.env.example` and in the README's
//! table; a test checks both against [`VARIABLES`]. A value is read from the environment, else
//! from `./.env` when that file exists, else the default; surrounding spaces are ignored and an
//! empty value means the default. A bad value is a start-up error naming the variable.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::time::Duration;

use analyzer::AnalyzerConfig;
use analyzer::browser::BrowserSettings;
use analyzer::llm::LlmConfig;

/// Every variable with its default, as `.env.example` lists them.
pub const VARIABLES: [(&str, &str); 33] = [
    (
        "SITELENS_DATABASE_URL",
        "sqlite://data/sitelens.sqlite?mode=rwc",
    ),
    ("SITELENS_BIND", "127.0.0.1:8080"),
    ("SITELENS_PUBLIC_URL", ""),
    ("SITELENS_WEB_DIR", "web/dist"),
    ("SITELENS_DATA_DIR", "data"),
    ("SITELENS_BLOB_URL", ""),
    ("SITELENS_BLOB_ENDPOINT", ""),
    ("SITELENS_BLOB_REGION", "us-east-1"),
    ("SITELENS_BLOB_ACCESS_KEY_ID", ""),
    ("SITELENS_BLOB_SECRET_ACCESS_KEY", ""),
    ("SITELENS_WORKERS", "2"),
    ("SITELENS_HEARTBEAT_TIMEOUT_SECS", "60"),
    ("SITELENS_TRUSTED_PROXIES", ""),
    ("SITELENS_ALLOW_PRIVATE_TARGETS", "false"),
    ("SITELENS_CHROMIUM", "/usr/bin/chromium"),
    ("SITELENS_LLM_URL", ""),
    ("SITELENS_LLM_MODEL", "gpt-4o-mini"),
    ("SITELENS_LLM_API_KEY", ""),
    ("SITELENS_ACCOUNTS_URL", ""),
    ("SITELENS_SMTP_URL", ""),
    ("SITELENS_MAIL_FROM", "Sitelens <no-reply@sitelens.invalid>"),
    ("SITELENS_SALES_EMAIL", ""),
    ("SITELENS_MAIL_ATTACHMENT_MAX_KB", "5120"),
    ("SITELENS_OIDC_ISSUER", ""),
    ("SITELENS_OIDC_CLIENT_ID", ""),
    ("SITELENS_OIDC_CLIENT_SECRET", ""),
    ("SITELENS_OIDC_NAME", ""),
    ("SITELENS_STRIPE_SECRET_KEY", ""),
    ("SITELENS_STRIPE_WEBHOOK_SECRET", ""),
    ("SITELENS_STRIPE_API_BASE", "https://api.stripe.com"),
    ("SITELENS_REFERRAL_SALT", ""),
    ("SITELENS_DNS_RESOLVER", ""),
    ("RUST_LOG", "info,sqlx=warn,sea_orm=warn"),
];

/// The spellings a boolean variable accepts, any case: true, false and their usual synonyms.
pub const BOOLEANS: &str = "true or false (also 1/0, yes/no, on/off)";

/// Why the configuration could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{name}: {message}")]
pub struct ConfigError {
    /// The variable (or `.env` for the file itself).
    pub name: &'static str,
    /// What is wrong with it.
    pub message: String,
}

/// A trusted proxy: an address or a CIDR block such as `10.0.0.0/8`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IpBlock {
    addr: IpAddr,
    prefix: u8,
}

impl IpBlock {
    /// Parses `addr` or `addr/prefix`.
    pub fn parse(text: &str) -> Option<Self> {
        let (addr, prefix) = match text.split_once('/') {
            Some((a, p)) => (a.parse::<IpAddr>().ok()?, Some(p.parse::<u8>().ok()?)),
            None => (text.parse::<IpAddr>().ok()?, None),
        };
        let max = if addr.is_ipv4() { 32 } else { 128 };
        let prefix = prefix.unwrap_or(max);
        (prefix <= max).then_some(Self { addr, prefix })
    }

    /// Whether `ip` lies in this block.
    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = match ip {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map(IpAddr::V4).unwrap_or(ip),
            v4 => v4,
        };
        match (self.addr, ip) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = u32::MAX
                    .checked_shl(32 - u32::from(self.prefix))
                    .unwrap_or(0);
                u32::from(net) & mask == u32::from(ip) & mask
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.prefix))
                    .unwrap_or(0);
                u128::from(net) & mask == u128::from(ip) & mask
            }
            _ => false,
        }
    }
}

/// The browser the analyses measure in (`SITELENS_CHROMIUM`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Chromium {
    /// `off`: HTTP-only analyses, browser figures estimated.
    Off,
    /// The Chromium binary. When it does not exist, analyses run over HTTP only and `/readyz`
    /// says `missing`.
    Path(PathBuf),
}

/// A secret setting: compared and cloned like a string, never printed by `Debug`.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(pub String);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(..)")
    }
}

/// Sign-in through an OpenID Connect provider (`SITELENS_OIDC_*`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OidcSettings {
    /// `SITELENS_OIDC_ISSUER`: the provider's issuer address; its discovery document is
    /// `{issuer}/.well-known/openid-configuration`. HTTPS, or HTTP on a loopback address.
    pub issuer: String,
    /// `SITELENS_OIDC_CLIENT_ID`: our client id at the provider.
    pub client_id: String,
    /// `SITELENS_OIDC_CLIENT_SECRET`: our client secret; empty for a public client (PKCE only).
    pub client_secret: Option<Secret>,
    /// `SITELENS_OIDC_NAME`: the provider's name on the "Sign in with …" button; empty means
    /// the issuer's host.
    pub name: String,
}

/// Reads `SITELENS_OIDC_*`: `None` when no issuer is set (and then nothing else may be).
fn parse_oidc(get: impl Fn(&'static str) -> String) -> Result<Option<OidcSettings>, ConfigError> {
    const ISSUER: &str = "SITELENS_OIDC_ISSUER";
    let issuer = get(ISSUER);
    let client_id = get("SITELENS_OIDC_CLIENT_ID");
    let secret = get("SITELENS_OIDC_CLIENT_SECRET");
    let name = get("SITELENS_OIDC_NAME");
    if issuer.is_empty() {
        for (var, value) in [
            ("SITELENS_OIDC_CLIENT_ID", &client_id),
            ("SITELENS_OIDC_CLIENT_SECRET", &secret),
            ("SITELENS_OIDC_NAME", &name),
        ] {
            if !value.is_empty() {
                return Err(error(
                    var,
                    format!("only used with {ISSUER}, which is empty"),
                ));
            }
        }
        return Ok(None);
    }
    let parsed = url::Url::parse(&issuer).map_err(|e| error(ISSUER, format!("not a URL ({e})")))?;
    let loopback = match parsed.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        Some(url::Host::Domain(d)) => d == "localhost",
        None => false,
    };
    // OpenID Connect Discovery §2: the issuer is an https URL without query or fragment; plain
    // HTTP is accepted on loopback only, for a provider on the same machine.
    if !(parsed.scheme() == "https" || parsed.scheme() == "http" && loopback)
        || parsed.query().is_some()
        || parsed.fragment().is_some()
    {
        return Err(error(
            ISSUER,
            format!(
                "expected an https:// address without query (http:// on loopback only), got {issuer:?}"
            ),
        ));
    }
    if client_id.is_empty() {
        return Err(error(
            "SITELENS_OIDC_CLIENT_ID",
            format!("required with {ISSUER}"),
        ));
    }
    let name = if name.is_empty() {
        parsed.host_str().unwrap_or_default().to_owned()
    } else {
        name
    };
    Ok(Some(OidcSettings {
        issuer: issuer.trim_end_matches('/').to_owned(),
        client_id,
        client_secret: Some(secret).filter(|s| !s.is_empty()).map(Secret),
        name,
    }))
}

/// Where blobs (screenshots) are kept: `SITELENS_BLOB_*` (docs/ARCHITECTURE.md §6).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BlobStorage {
    /// `SITELENS_BLOB_URL` empty: the `blobs` folder in `SITELENS_DATA_DIR`. Several machines
    /// can only share it as a network folder.
    Local,
    /// `SITELENS_BLOB_URL=s3://bucket/prefix`: S3 or an S3-compatible service, shared by every
    /// node.
    S3(S3Storage),
}

/// An S3-compatible bucket (`SITELENS_BLOB_*`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct S3Storage {
    /// The bucket, from `SITELENS_BLOB_URL`.
    pub bucket: String,
    /// The key prefix inside the bucket (no leading or trailing `/`; empty for none).
    pub prefix: String,
    /// `SITELENS_BLOB_ENDPOINT`: the S3 API address of an S3-compatible service (MinIO,
    /// Cloudflare R2, Ceph, ...); `None` for Amazon S3 itself.
    pub endpoint: Option<String>,
    /// `SITELENS_BLOB_REGION`.
    pub region: String,
    /// `SITELENS_BLOB_ACCESS_KEY_ID` and `SITELENS_BLOB_SECRET_ACCESS_KEY`; `None` means the
    /// machine's own role (the EC2 instance metadata service).
    pub credentials: Option<(String, Secret)>,
}

impl BlobStorage {
    /// How `/readyz` and the logs name it: `local` or `s3://bucket/prefix`.
    pub fn describe(&self) -> String {
        match self {
            BlobStorage::Local => "local".to_owned(),
            BlobStorage::S3(s3) if s3.prefix.is_empty() => format!("s3://{}", s3.bucket),
            BlobStorage::S3(s3) => format!("s3://{}/{}", s3.bucket, s3.prefix),
        }
    }
}

/// Reads `SITELENS_BLOB_URL` and the settings that only mean something with it.
fn parse_blob_storage(get: impl Fn(&'static str) -> String) -> Result<BlobStorage, ConfigError> {
    const URL: &str = "SITELENS_BLOB_URL";
    let url = get(URL);
    let endpoint = get("SITELENS_BLOB_ENDPOINT");
    let key_id = get("SITELENS_BLOB_ACCESS_KEY_ID");
    let secret = get("SITELENS_BLOB_SECRET_ACCESS_KEY");
    if url.is_empty() {
        // A setting that would be ignored is a mistake: say so rather than store blobs locally
        // while the operator believes they go to a bucket.
        for (name, value) in [
            ("SITELENS_BLOB_ENDPOINT", &endpoint),
            ("SITELENS_BLOB_ACCESS_KEY_ID", &key_id),
            ("SITELENS_BLOB_SECRET_ACCESS_KEY", &secret),
        ] {
            if !value.is_empty() {
                return Err(error(
                    name,
                    format!("only used with an s3:// {URL}, which is empty"),
                ));
            }
        }
        return Ok(BlobStorage::Local);
    }
    let parsed = url::Url::parse(&url).map_err(|e| error(URL, format!("not a URL ({e})")))?;
    let bucket = parsed.host_str().unwrap_or_default().to_owned();
    if parsed.scheme() != "s3" || bucket.is_empty() {
        return Err(error(
            URL,
            format!(
                "expected s3://bucket or s3://bucket/prefix (empty for the local folder), got {url:?}"
            ),
        ));
    }
    if parsed.query().is_some() || parsed.fragment().is_some() || !parsed.username().is_empty() {
        return Err(error(
            URL,
            "expected s3://bucket/prefix only: credentials go in SITELENS_BLOB_ACCESS_KEY_ID and SITELENS_BLOB_SECRET_ACCESS_KEY",
        ));
    }
    let endpoint = match endpoint {
        e if e.is_empty() => None,
        e => Some(parse_http_url("SITELENS_BLOB_ENDPOINT", &e)?),
    };
    let credentials = match (key_id.is_empty(), secret.is_empty()) {
        (true, true) => None,
        (false, false) => Some((key_id, Secret(secret))),
        (true, false) => {
            return Err(error(
                "SITELENS_BLOB_ACCESS_KEY_ID",
                "empty while SITELENS_BLOB_SECRET_ACCESS_KEY is set: give both or neither",
            ));
        }
        (false, true) => {
            return Err(error(
                "SITELENS_BLOB_SECRET_ACCESS_KEY",
                "empty while SITELENS_BLOB_ACCESS_KEY_ID is set: give both or neither",
            ));
        }
    };
    Ok(BlobStorage::S3(S3Storage {
        bucket,
        prefix: parsed.path().trim_matches('/').to_owned(),
        endpoint,
        region: get("SITELENS_BLOB_REGION"),
        credentials,
    }))
}

/// Stripe's settings (`SITELENS_STRIPE_*`): both secrets or neither.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stripe {
    /// `SITELENS_STRIPE_SECRET_KEY`: the API key (`sk_live_…` or `sk_test_…`).
    pub secret_key: Secret,
    /// `SITELENS_STRIPE_WEBHOOK_SECRET`: the endpoint's signing secret (`whsec_…`).
    pub webhook_secret: Secret,
    /// `SITELENS_STRIPE_API_BASE`: Stripe's API address (a local emulator in tests).
    pub api_base: String,
}

/// Reads `SITELENS_STRIPE_*`: both secrets give Stripe, neither gives test payments, one alone
/// is a mistake (payments would silently be test payments).
fn parse_stripe(get: impl Fn(&'static str) -> String) -> Result<Option<Stripe>, ConfigError> {
    const KEY: &str = "SITELENS_STRIPE_SECRET_KEY";
    const HOOK: &str = "SITELENS_STRIPE_WEBHOOK_SECRET";
    let (key, hook) = (get(KEY), get(HOOK));
    match (key.is_empty(), hook.is_empty()) {
        (true, true) => Ok(None),
        (false, false) if !key.bytes().all(|b| b.is_ascii_graphic()) => Err(error(
            KEY,
            "has spaces or characters an API key does not have".to_owned(),
        )),
        (false, false) => Ok(Some(Stripe {
            secret_key: Secret(key),
            webhook_secret: Secret(hook),
            api_base: parse_http_url("SITELENS_STRIPE_API_BASE", &get("SITELENS_STRIPE_API_BASE"))?,
        })),
        (true, false) => Err(error(
            KEY,
            format!("empty while {HOOK} is set: give both (Stripe) or neither (test payments)"),
        )),
        (false, true) => Err(error(
            HOOK,
            format!("empty while {KEY} is set: give both (Stripe) or neither (test payments)"),
        )),
    }
}

/// The optional language-model advisor (`SITELENS_LLM_*`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Llm {
    /// `SITELENS_LLM_URL`: the OpenAI-compatible API base or chat-completions address.
    pub url: String,
    /// `SITELENS_LLM_MODEL`.
    pub model: String,
    /// `SITELENS_LLM_API_KEY`, sent as a bearer token.
    pub api_key: Option<String>,
}

/// The binary's configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// `SITELENS_DATABASE_URL`: an SQLite file (`sqlite://…`) or `postgres://…`.
    pub database_url: String,
    /// `SITELENS_BIND`: listen address.
    pub bind: SocketAddr,
    /// `SITELENS_PUBLIC_URL`: the site's public address, for canonical and share links; empty
    /// means `http://{the bound address}`, filled in by [`crate::start`]. Never ends with `/`.
    pub public_url: String,
    /// `SITELENS_WEB_DIR`: the built web app.
    pub web_dir: PathBuf,
    /// `SITELENS_DATA_DIR`: the local blob folder (when `SITELENS_BLOB_URL` is empty) and, by
    /// default, the SQLite file.
    pub data_dir: PathBuf,
    /// `SITELENS_BLOB_*`: where screenshots are stored and read.
    pub blob_storage: BlobStorage,
    /// `SITELENS_WORKERS`: concurrent analyses per worker process, 1 to 64.
    pub workers: usize,
    /// `SITELENS_HEARTBEAT_TIMEOUT_SECS`: a running job whose worker is silent this long is
    /// recovered (at least 5 s).
    pub heartbeat_timeout: Duration,
    /// `SITELENS_TRUSTED_PROXIES`: comma-separated addresses or CIDR blocks whose
    /// `X-Forwarded-For` is believed.
    pub trusted_proxies: Vec<IpBlock>,
    /// `SITELENS_ALLOW_PRIVATE_TARGETS`: allow analysing private and loopback addresses (for
    /// local use and tests).
    pub allow_private_targets: bool,
    /// `SITELENS_CHROMIUM`: a path, or `off`.
    pub chromium: Chromium,
    /// `SITELENS_LLM_URL`, `_MODEL`, `_API_KEY`: the advisor, when a URL is set.
    pub llm: Option<Llm>,
    /// `SITELENS_ACCOUNTS_URL`: the base address of the accounts pages (docs/PRODUCT.md §10.1);
    /// empty means `{public URL}/accounts` (see [`Config::accounts_url`]). Never ends with `/`.
    pub accounts_url: String,
    /// `SITELENS_SMTP_URL`: `smtp://user:password@host:port` (or `smtps://`, lettre's syntax);
    /// empty keeps mail in the database outbox only.
    pub smtp_url: Option<Secret>,
    /// `SITELENS_MAIL_FROM`: the sender of account mail.
    pub mail_from: String,
    /// `SITELENS_SALES_EMAIL`: where contact, enterprise, agency and partner messages are
    /// mailed (Reply-To the sender); empty keeps them in the admin area only.
    pub sales_email: Option<String>,
    /// `SITELENS_MAIL_ATTACHMENT_MAX_KB` (in bytes here): the largest report PDF a mail carries
    /// as an attachment; a larger one stays at its link (`domain::report_mail::attaches`).
    pub mail_attachment_max_bytes: u64,
    /// `SITELENS_OIDC_*`: sign-in through an OpenID Connect provider, when an issuer is set.
    pub oidc: Option<OidcSettings>,
    /// `SITELENS_STRIPE_*`: Stripe takes the payments; `None` is the labelled test-payment
    /// mode.
    pub stripe: Option<Stripe>,
    /// `SITELENS_REFERRAL_SALT`: the secret salt of the hashed visitor addresses of referral
    /// clicks (only `SHA-256(salt, address)` is stored); empty: a random salt per process, so a
    /// day's repeated clicks are recognised only by the process that saw the first one.
    pub referral_salt: Option<Secret>,
    /// `SITELENS_DNS_RESOLVER`: the DNS server (`ip:port`, or `ip` for port 53) that custom
    /// domains' TXT records are looked up through; `None`, the default, reads the system's
    /// `/etc/resolv.conf`.
    pub dns_resolver: Option<SocketAddr>,
    /// `RUST_LOG`: the log filter (tracing's `EnvFilter` syntax).
    pub log_filter: String,
    /// This machine's name, for naming workers in the job queue: `HOSTNAME` (set by shells and
    /// container runtimes), else `sitelens`. Not a Sitelens setting, so not in `.env.example`.
    pub node_name: String,
}

fn default_of(name: &str) -> &'static str {
    VARIABLES
        .iter()
        .find(|(n, _)| *n == name)
        .map_or("", |(_, d)| d)
}

fn error(name: &'static str, message: impl Into<String>) -> ConfigError {
    ConfigError {
        name,
        message: message.into(),
    }
}

/// Reads a boolean in one of the [`BOOLEANS`] spellings.
pub fn parse_bool(name: &'static str, value: &str) -> Result<bool, ConfigError> {
    match value.to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "on" => Ok(true),
        "false" | "0" | "no" | "off" => Ok(false),
        _ => Err(error(name, format!("expected {BOOLEANS}, got {value:?}"))),
    }
}

fn parse_chromium(name: &'static str, value: &str) -> Result<Chromium, ConfigError> {
    if value.eq_ignore_ascii_case("off") {
        return Ok(Chromium::Off);
    }
    // A boolean here is a mistake, not a file name: say what the variable takes.
    if parse_bool(name, value).is_ok() || value.eq_ignore_ascii_case("none") {
        return Err(error(
            name,
            format!(
                "expected the path of Chromium, or off to analyse without a browser, got {value:?}"
            ),
        ));
    }
    Ok(Chromium::Path(PathBuf::from(value)))
}

/// A DNS server's address: `ip:port`, `[v6]:port`, or a bare address for port 53; empty is
/// `None` (the system's resolver).
fn parse_resolver(name: &'static str, value: &str) -> Result<Option<SocketAddr>, ConfigError> {
    if value.is_empty() {
        return Ok(None);
    }
    value
        .parse::<SocketAddr>()
        .or_else(|_| value.parse::<IpAddr>().map(|ip| SocketAddr::new(ip, 53)))
        .map(Some)
        .map_err(|_| {
            error(
                name,
                format!("expected a DNS server as ip:port (or an ip for port 53), got {value:?}"),
            )
        })
}

fn parse_http_url(name: &'static str, value: &str) -> Result<String, ConfigError> {
    let url = url::Url::parse(value).map_err(|e| error(name, format!("not a URL ({e})")))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(error(
            name,
            format!("expected an http or https URL, got {value:?}"),
        ));
    }
    Ok(value.trim_end_matches('/').to_owned())
}

impl Config {
    /// Reads the configuration from the environment and `./.env`.
    pub fn from_env() -> Result<Self, ConfigError> {
        let file = read_dotenv(Path::new(".env"))?;
        let mut values = HashMap::new();
        for (name, _) in VARIABLES.iter().copied().chain([("HOSTNAME", "")]) {
            let value = match std::env::var(name) {
                Ok(v) => Some(v),
                Err(std::env::VarError::NotPresent) => file.get(name).cloned(),
                Err(std::env::VarError::NotUnicode(_)) => {
                    return Err(error(name, "the value is not valid UTF-8"));
                }
            };
            if let Some(v) = value {
                values.insert(name.to_owned(), v);
            }
        }
        Self::from_vars(|name| values.get(name).cloned())
    }

    /// Reads the configuration from `lookup` (a variable's value, if set).
    pub fn from_vars(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let get = |name: &'static str| -> String {
            lookup(name)
                .map(|v| v.trim().to_owned())
                .filter(|v| !v.is_empty())
                .unwrap_or_else(|| default_of(name).to_owned())
        };
        let database_url = get("SITELENS_DATABASE_URL");
        if !["sqlite:", "postgres://", "postgresql://"]
            .iter()
            .any(|scheme| database_url.starts_with(scheme))
        {
            return Err(error(
                "SITELENS_DATABASE_URL",
                format!("expected sqlite://… or postgres://…, got {database_url:?}"),
            ));
        }
        let bind = get("SITELENS_BIND")
            .parse()
            .map_err(|e| error("SITELENS_BIND", format!("not an address:port ({e})")))?;
        let public_url = match get("SITELENS_PUBLIC_URL") {
            url if url.is_empty() => url,
            url => parse_http_url("SITELENS_PUBLIC_URL", &url)?,
        };
        let workers = get("SITELENS_WORKERS");
        let workers = workers
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=64).contains(n))
            .ok_or_else(|| {
                error(
                    "SITELENS_WORKERS",
                    format!("expected a number from 1 to 64, got {workers:?}"),
                )
            })?;
        let heartbeat = get("SITELENS_HEARTBEAT_TIMEOUT_SECS");
        let heartbeat_timeout = heartbeat
            .parse::<u64>()
            .ok()
            .filter(|s| *s >= 5)
            .map(Duration::from_secs)
            .ok_or_else(|| {
                error(
                    "SITELENS_HEARTBEAT_TIMEOUT_SECS",
                    format!("expected whole seconds, at least 5, got {heartbeat:?}"),
                )
            })?;
        let trusted_proxies = get("SITELENS_TRUSTED_PROXIES")
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| {
                IpBlock::parse(s).ok_or_else(|| {
                    error(
                        "SITELENS_TRUSTED_PROXIES",
                        format!("{s:?} is not an address or CIDR block"),
                    )
                })
            })
            .collect::<Result<_, _>>()?;
        let llm = match get("SITELENS_LLM_URL") {
            url if url.is_empty() => None,
            url => Some(Llm {
                url: parse_http_url("SITELENS_LLM_URL", &url)?,
                model: get("SITELENS_LLM_MODEL"),
                api_key: Some(get("SITELENS_LLM_API_KEY")).filter(|k| !k.is_empty()),
            }),
        };
        let accounts_url = match get("SITELENS_ACCOUNTS_URL") {
            url if url.is_empty() => url,
            url => parse_http_url("SITELENS_ACCOUNTS_URL", &url)?,
        };
        let smtp_url = match get("SITELENS_SMTP_URL") {
            url if url.is_empty() => None,
            url => {
                // Checked here so a typo stops the start, not the first sign-up.
                crate::services::mail::Mailer::new("a@b.c", Some(&url)).map_err(|_| {
                    error(
                        "SITELENS_SMTP_URL",
                        "expected smtp://[user:password@]host[:port] or smtps://…",
                    )
                })?;
                Some(Secret(url))
            }
        };
        let mail_from = get("SITELENS_MAIL_FROM");
        crate::services::mail::Mailer::new(&mail_from, None).map_err(|_| {
            error(
                "SITELENS_MAIL_FROM",
                format!(
                    "expected an address such as Sitelens <no-reply@example.com>, got {mail_from:?}"
                ),
            )
        })?;
        let sales_email = match get("SITELENS_SALES_EMAIL").trim() {
            "" => None,
            email if domain::forms::is_valid_email(email) => Some(email.to_owned()),
            email => {
                return Err(error(
                    "SITELENS_SALES_EMAIL",
                    format!("expected an e-mail address such as sales@example.com, got {email:?}"),
                ));
            }
        };
        let dns_resolver = parse_resolver("SITELENS_DNS_RESOLVER", &get("SITELENS_DNS_RESOLVER"))?;
        let attachment_kb = get("SITELENS_MAIL_ATTACHMENT_MAX_KB");
        let mail_attachment_max_bytes = attachment_kb
            .trim()
            .parse::<u64>()
            .ok()
            .filter(|kb| *kb <= 1024 * 1024)
            .map(|kb| kb * 1024)
            .ok_or_else(|| {
                error(
                    "SITELENS_MAIL_ATTACHMENT_MAX_KB",
                    format!("expected whole kilobytes from 0 to 1048576, got {attachment_kb:?}"),
                )
            })?;
        let log_filter = get("RUST_LOG");
        tracing_subscriber::EnvFilter::try_new(&log_filter)
            .map_err(|e| error("RUST_LOG", format!("not a log filter ({e})")))?;
        Ok(Self {
            database_url,
            bind,
            public_url,
            web_dir: get("SITELENS_WEB_DIR").into(),
            data_dir: get("SITELENS_DATA_DIR").into(),
            blob_storage: parse_blob_storage(get)?,
            workers,
            heartbeat_timeout,
            trusted_proxies,
            allow_private_targets: parse_bool(
                "SITELENS_ALLOW_PRIVATE_TARGETS",
                &get("SITELENS_ALLOW_PRIVATE_TARGETS"),
            )?,
            chromium: parse_chromium("SITELENS_CHROMIUM", &get("SITELENS_CHROMIUM"))?,
            llm,
            accounts_url,
            smtp_url,
            mail_from,
            sales_email,
            mail_attachment_max_bytes,
            oidc: parse_oidc(get)?,
            stripe: parse_stripe(get)?,
            referral_salt: Some(get("SITELENS_REFERRAL_SALT"))
                .filter(|s| !s.is_empty())
                .map(Secret),
            dns_resolver,
            log_filter,
            node_name: lookup("HOSTNAME")
                .map(|h| h.trim().to_owned())
                .filter(|h| !h.is_empty())
                .unwrap_or_else(|| "sitelens".to_owned()),
        })
    }

    /// The local blob folder: `blobs` in the data folder (used when `SITELENS_BLOB_URL` is
    /// empty).
    pub fn blob_dir(&self) -> PathBuf {
        self.data_dir.join("blobs")
    }

    /// The accounts pages' base address: `SITELENS_ACCOUNTS_URL`, else `{public URL}/accounts`.
    pub fn accounts_url(&self) -> String {
        if self.accounts_url.is_empty() {
            format!("{}/accounts", self.public_url)
        } else {
            self.accounts_url.clone()
        }
    }

    /// The public origin (`scheme://host[:port]`) that state-changing requests must come from.
    pub fn public_origin(&self) -> String {
        url::Url::parse(&self.public_url)
            .map(|u| u.origin().ascii_serialization())
            .unwrap_or_else(|_| self.public_url.clone())
    }

    /// Whether the public address is HTTPS (then HSTS is sent).
    pub fn is_https(&self) -> bool {
        self.public_url.starts_with("https://")
    }

    /// The browser status for `/readyz`: `off`, `available` or `missing`.
    pub fn browser_status(&self) -> &'static str {
        match &self.chromium {
            Chromium::Off => "off",
            Chromium::Path(path) if path.exists() => "available",
            Chromium::Path(_) => "missing",
        }
    }

    /// The analyzer's settings.
    pub fn analyzer_config(&self) -> AnalyzerConfig {
        AnalyzerConfig::new(self.allow_private_targets)
    }

    /// The browser's settings (no browser when `SITELENS_CHROMIUM=off`).
    pub fn browser_settings(&self) -> BrowserSettings {
        BrowserSettings::new(match &self.chromium {
            Chromium::Off => None,
            Chromium::Path(path) => Some(path.clone()),
        })
    }

    /// The language-model advisor's settings, when `SITELENS_LLM_URL` is set.
    pub fn llm_config(&self) -> Option<LlmConfig> {
        self.llm
            .as_ref()
            .map(|llm| LlmConfig::new(&llm.url, &llm.model, llm.api_key.clone()))
    }
}

/// The variables of a `.env` file, or none when there is no such file.
fn read_dotenv(path: &Path) -> Result<HashMap<String, String>, ConfigError> {
    let unreadable = |e: dotenvy::Error| error(".env", format!("unreadable ({e})"));
    let lines = match dotenvy::from_path_iter(path) {
        Ok(lines) => lines,
        Err(e) if e.not_found() => return Ok(HashMap::new()),
        Err(e) => return Err(unreadable(e)),
    };
    lines.map(|line| line.map_err(unreadable)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(vars: &[(&str, &str)]) -> Result<Config, ConfigError> {
        let vars: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        Config::from_vars(|name| vars.get(name).cloned())
    }

    fn defaults() -> Config {
        with(&[]).expect("the defaults are valid")
    }

    #[test]
    fn the_dns_resolver_is_an_address_or_the_system() {
        assert_eq!(defaults().dns_resolver, None);
        let set = |v: &str| with(&[("SITELENS_DNS_RESOLVER", v)]).map(|c| c.dns_resolver);
        assert_eq!(
            set("127.0.0.1:5353"),
            Ok(Some("127.0.0.1:5353".parse().expect("addr")))
        );
        assert_eq!(
            set("9.9.9.9"),
            Ok(Some("9.9.9.9:53".parse().expect("addr")))
        );
        assert_eq!(set("[::1]:53"), Ok(Some("[::1]:53".parse().expect("addr"))));
        let bad = set("dns.example:53").expect_err("a name is not an address");
        assert_eq!(bad.name, "SITELENS_DNS_RESOLVER");
    }

    #[test]
    fn ip_blocks_match_addresses() {
        let block = IpBlock::parse("10.0.0.0/8").expect("block");
        assert!(block.contains("10.1.2.3".parse().expect("ip")));
        assert!(!block.contains("11.0.0.1".parse().expect("ip")));
        assert!(block.contains("::ffff:10.0.0.1".parse().expect("ip")));
        let one = IpBlock::parse("127.0.0.1").expect("single");
        assert!(one.contains("127.0.0.1".parse().expect("ip")));
        assert!(!one.contains("127.0.0.2".parse().expect("ip")));
        assert!(IpBlock::parse("10.0.0.0/33").is_none());
        assert!(IpBlock::parse("nope").is_none());
    }

    #[test]
    fn the_defaults() {
        let c = defaults();
        assert_eq!(c.database_url, "sqlite://data/sitelens.sqlite?mode=rwc");
        assert_eq!(c.bind, "127.0.0.1:8080".parse().expect("addr"));
        assert_eq!(c.public_url, "");
        assert_eq!(c.workers, 2);
        assert_eq!(c.heartbeat_timeout, Duration::from_secs(60));
        assert!(c.trusted_proxies.is_empty());
        assert!(!c.allow_private_targets);
        assert_eq!(c.chromium, Chromium::Path("/usr/bin/chromium".into()));
        assert_eq!(c.llm, None);
        assert_eq!(c.node_name, "sitelens");
        assert_eq!(c.blob_storage, BlobStorage::Local);
        assert_eq!(c.blob_storage.describe(), "local");
    }

    #[test]
    fn blob_storage_is_the_local_folder_or_a_bucket() {
        let c = with(&[
            ("SITELENS_BLOB_URL", "s3://shots/sitelens/"),
            ("SITELENS_BLOB_ENDPOINT", "http://127.0.0.1:9000/"),
            ("SITELENS_BLOB_REGION", "eu-west-3"),
            ("SITELENS_BLOB_ACCESS_KEY_ID", "AKIDEXAMPLE"),
            ("SITELENS_BLOB_SECRET_ACCESS_KEY", "very-secret"),
        ])
        .expect("s3");
        assert_eq!(
            c.blob_storage,
            BlobStorage::S3(S3Storage {
                bucket: "shots".to_owned(),
                prefix: "sitelens".to_owned(),
                endpoint: Some("http://127.0.0.1:9000".to_owned()),
                region: "eu-west-3".to_owned(),
                credentials: Some(("AKIDEXAMPLE".to_owned(), Secret("very-secret".to_owned()))),
            })
        );
        assert_eq!(c.blob_storage.describe(), "s3://shots/sitelens");
        assert!(
            !format!("{c:?}").contains("very-secret"),
            "the secret never reaches a log"
        );
        // Amazon S3 itself, on the machine's role.
        let aws = with(&[("SITELENS_BLOB_URL", "s3://shots")]).expect("aws");
        let BlobStorage::S3(s3) = &aws.blob_storage else {
            panic!("{aws:?}")
        };
        assert_eq!(
            (s3.prefix.as_str(), &s3.endpoint, &s3.credentials),
            ("", &None, &None)
        );
        assert_eq!(s3.region, "us-east-1");
        assert_eq!(aws.blob_storage.describe(), "s3://shots");
    }

    #[test]
    fn blob_settings_that_would_be_ignored_or_are_half_given_are_errors() {
        let s3 = ("SITELENS_BLOB_URL", "s3://shots");
        for (vars, name) in [
            (
                vec![("SITELENS_BLOB_URL", "http://shots")],
                "SITELENS_BLOB_URL",
            ),
            (vec![("SITELENS_BLOB_URL", "s3://")], "SITELENS_BLOB_URL"),
            (vec![("SITELENS_BLOB_URL", "shots")], "SITELENS_BLOB_URL"),
            (
                vec![("SITELENS_BLOB_URL", "s3://key:secret@shots")],
                "SITELENS_BLOB_URL",
            ),
            (
                vec![("SITELENS_BLOB_URL", "s3://shots?region=x")],
                "SITELENS_BLOB_URL",
            ),
            (
                vec![("SITELENS_BLOB_ENDPOINT", "http://127.0.0.1:9000")],
                "SITELENS_BLOB_ENDPOINT",
            ),
            (
                vec![("SITELENS_BLOB_ACCESS_KEY_ID", "AKID")],
                "SITELENS_BLOB_ACCESS_KEY_ID",
            ),
            (
                vec![s3, ("SITELENS_BLOB_ENDPOINT", "minio:9000")],
                "SITELENS_BLOB_ENDPOINT",
            ),
            (
                vec![s3, ("SITELENS_BLOB_ACCESS_KEY_ID", "AKID")],
                "SITELENS_BLOB_SECRET_ACCESS_KEY",
            ),
            (
                vec![s3, ("SITELENS_BLOB_SECRET_ACCESS_KEY", "x")],
                "SITELENS_BLOB_ACCESS_KEY_ID",
            ),
        ] {
            let e = with(&vars).expect_err(name);
            assert_eq!(e.name, name, "{vars:?}: {e}");
        }
    }

    #[test]
    fn booleans_take_one_set_of_spellings() {
        for (text, value) in [
            ("true", true),
            ("TRUE", true),
            (" 1 ", true),
            ("yes", true),
            ("On", true),
            ("false", false),
            ("0", false),
            ("no", false),
            ("OFF", false),
            ("", false),
        ] {
            let c = with(&[("SITELENS_ALLOW_PRIVATE_TARGETS", text)]).expect(text);
            assert_eq!(c.allow_private_targets, value, "{text:?}");
        }
        for bad in ["maybe", "ture", "2", "y"] {
            let e = with(&[("SITELENS_ALLOW_PRIVATE_TARGETS", bad)]).expect_err(bad);
            assert_eq!(e.name, "SITELENS_ALLOW_PRIVATE_TARGETS");
            assert!(e.to_string().contains(BOOLEANS), "{e}");
        }
    }

    #[test]
    fn chromium_is_a_path_or_off() {
        assert_eq!(
            with(&[("SITELENS_CHROMIUM", "off")]).expect("off").chromium,
            Chromium::Off
        );
        assert_eq!(
            with(&[("SITELENS_CHROMIUM", " OFF ")])
                .expect("off")
                .chromium,
            Chromium::Off
        );
        assert_eq!(
            with(&[("SITELENS_CHROMIUM", "/opt/chrome")])
                .expect("path")
                .chromium,
            Chromium::Path("/opt/chrome".into())
        );
        for word in ["false", "0", "no", "none", "true"] {
            let e = with(&[("SITELENS_CHROMIUM", word)]).expect_err(word);
            assert_eq!(e.name, "SITELENS_CHROMIUM");
            assert!(e.message.contains("or off"), "{e}");
        }
        let off = with(&[("SITELENS_CHROMIUM", "off")]).expect("off");
        assert_eq!(off.browser_settings().chromium, None);
        assert_eq!(off.browser_status(), "off");
        let nowhere = with(&[("SITELENS_CHROMIUM", "/nonexistent/chromium")]).expect("path");
        assert_eq!(nowhere.browser_status(), "missing");
    }

    #[test]
    fn bad_values_name_their_variable() {
        for (name, value) in [
            ("SITELENS_DATABASE_URL", "mysql://localhost/db"),
            ("SITELENS_BIND", "localhost"),
            ("SITELENS_PUBLIC_URL", "example.com"),
            ("SITELENS_PUBLIC_URL", "ftp://example.com"),
            ("SITELENS_WORKERS", "0"),
            ("SITELENS_WORKERS", "lots"),
            ("SITELENS_HEARTBEAT_TIMEOUT_SECS", "1"),
            ("SITELENS_TRUSTED_PROXIES", "10.0.0.0/8, nope"),
            ("SITELENS_LLM_URL", "not a url"),
            ("RUST_LOG", "info,=[bad"),
        ] {
            let e = with(&[(name, value)]).expect_err(value);
            assert_eq!(e.name, name, "{value}: {e}");
            assert!(e.to_string().starts_with(name), "{e}");
        }
    }

    #[test]
    fn the_language_model_is_configured_by_its_url() {
        let c = with(&[
            ("SITELENS_LLM_URL", "https://api.example.com/v1/"),
            ("SITELENS_LLM_API_KEY", "secret"),
        ])
        .expect("llm");
        assert_eq!(
            c.llm,
            Some(Llm {
                url: "https://api.example.com/v1".to_owned(),
                model: "gpt-4o-mini".to_owned(),
                api_key: Some("secret".to_owned()),
            })
        );
        let llm = c.llm_config().expect("settings");
        assert_eq!(llm.endpoint, "https://api.example.com/v1/chat/completions");
        assert!(
            with(&[("SITELENS_LLM_API_KEY", "k")])
                .expect("no url")
                .llm_config()
                .is_none()
        );
    }

    /// `NAME=value` lines of `.env.example`, comments and blank lines skipped.
    #[test]
    fn stripe_takes_both_secrets_and_a_key_without_spaces() {
        let stripe = |key: &str, hook: &str| {
            with(&[
                ("SITELENS_STRIPE_SECRET_KEY", key),
                ("SITELENS_STRIPE_WEBHOOK_SECRET", hook),
            ])
        };
        let on = stripe("sk_test_1", "whsec_1").expect("both secrets");
        assert_eq!(
            on.stripe.map(|s| s.api_base),
            Some("https://api.stripe.com".to_owned())
        );
        assert!(stripe("", "").expect("neither").stripe.is_none());
        assert!(stripe("sk_test_1", "").is_err());
        // A key with a space or a line break inside could not be sent in a header.
        assert!(stripe("sk_test 1", "whsec_1").is_err());
        assert!(stripe("sk_test\n1", "whsec_1").is_err());
    }

    fn env_example() -> Vec<(String, String)> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../.env.example");
        std::fs::read_to_string(path)
            .expect(".env.example")
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(|l| {
                let (k, v) = l.split_once('=').expect("NAME=value");
                (k.to_owned(), v.to_owned())
            })
            .collect()
    }

    #[test]
    fn env_example_lists_every_variable_with_its_default() {
        let example = env_example();
        let names: Vec<&str> = example.iter().map(|(k, _)| k.as_str()).collect();
        let known: Vec<&str> = VARIABLES.iter().map(|(k, _)| *k).collect();
        assert_eq!(
            names, known,
            ".env.example lists the variables in VARIABLES' order"
        );
        for (name, value) in &example {
            assert_eq!(value, default_of(name), "{name} in .env.example");
        }
        let vars: HashMap<String, String> = example.into_iter().collect();
        let from_file = Config::from_vars(|n| vars.get(n).cloned()).expect("the example parses");
        assert_eq!(
            from_file,
            defaults(),
            "the example's values are the defaults"
        );
    }

    #[test]
    fn the_attachment_cap_defaults_to_domains() {
        assert_eq!(
            defaults().mail_attachment_max_bytes,
            domain::report_mail::ATTACHMENT_MAX_BYTES
        );
        let vars = |kb: &'static str| {
            move |n: &str| (n == "SITELENS_MAIL_ATTACHMENT_MAX_KB").then(|| kb.to_owned())
        };
        assert_eq!(
            Config::from_vars(vars("0")).map(|c| c.mail_attachment_max_bytes),
            Ok(0)
        );
        for bad in ["-1", "5 MB", "2000000"] {
            let e = Config::from_vars(vars(bad)).expect_err(bad);
            assert_eq!(e.name, "SITELENS_MAIL_ATTACHMENT_MAX_KB");
        }
    }

    #[test]
    fn readme_table_matches_the_defaults() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md");
        let readme = std::fs::read_to_string(path).expect("README.md");
        let rows: Vec<(String, String)> = readme
            .lines()
            .filter_map(|l| l.strip_prefix("| `"))
            .filter_map(|l| {
                let (name, rest) = l.split_once('`')?;
                let default = rest.trim_start_matches(" |").split(" |").next()?.trim();
                Some((name.to_owned(), default.to_owned()))
            })
            .collect();
        let names: Vec<&str> = rows.iter().map(|(k, _)| k.as_str()).collect();
        let known: Vec<&str> = VARIABLES.iter().map(|(k, _)| *k).collect();
        assert_eq!(
            names, known,
            "the README's table lists every variable in order"
        );
        for (name, shown) in &rows {
            let default = default_of(name);
            let expected = if default.is_empty() {
                "empty".to_owned()
            } else {
                format!("`{default}`")
            };
            assert_eq!(shown, &expected, "{name}'s default in the README");
        }
    }
}
