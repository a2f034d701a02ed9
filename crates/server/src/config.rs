//! Typed configuration, read once from the environment (every variable is listed with its
//! default in `.env.example`).

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

/// Why the configuration could not be read.
#[derive(Debug, thiserror::Error)]
#[error("{name}: {message}")]
pub struct ConfigError {
    /// The variable.
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

/// The server's configuration.
#[derive(Debug, Clone)]
pub struct Config {
    /// `SITELENS_DATABASE_URL`: SQLite (default `sqlite://data/sitelens.sqlite?mode=rwc`) or
    /// `postgres://...`.
    pub database_url: String,
    /// `SITELENS_BIND`: listen address (default `127.0.0.1:8080`).
    pub bind: SocketAddr,
    /// `SITELENS_WEB_DIR`: the built web app (default `web/dist`).
    pub web_dir: PathBuf,
    /// `SITELENS_DATA_DIR`: blobs such as screenshots (default `data`).
    pub data_dir: PathBuf,
    /// `SITELENS_WORKERS`: concurrent analyses per worker process (default 2).
    pub workers: usize,
    /// `SITELENS_TRUSTED_PROXIES`: comma-separated addresses or CIDR blocks whose
    /// `X-Forwarded-For` is believed (default none).
    pub trusted_proxies: Vec<IpBlock>,
    /// `SITELENS_ALLOW_PRIVATE_TARGETS`: allow analysing private and loopback addresses
    /// (default false; for local use and tests).
    pub allow_private_targets: bool,
    /// `SITELENS_CHROMIUM`: browser path, or `off` (default `/usr/bin/chromium`).
    pub chromium: String,
    /// `SITELENS_PUBLIC_URL`: the site's public address, for canonical links and share links
    /// (default: empty, meaning `http://{the bound address}`, filled in by [`crate::start`]).
    pub public_url: String,
    /// `SITELENS_HEARTBEAT_TIMEOUT_SECS`: a running job whose worker is silent this long is
    /// recovered (default 60).
    pub heartbeat_timeout: Duration,
}

fn var(name: &str) -> Option<String> {
    std::env::var(name)
        .ok()
        .map(|v| v.trim().to_owned())
        .filter(|v| !v.is_empty())
}

fn parse_bool(name: &'static str, value: Option<String>) -> Result<bool, ConfigError> {
    match value.as_deref().map(str::to_ascii_lowercase).as_deref() {
        None | Some("false" | "0" | "no" | "off") => Ok(false),
        Some("true" | "1" | "yes" | "on") => Ok(true),
        Some(other) => Err(ConfigError {
            name,
            message: format!("expected true or false, got {other:?}"),
        }),
    }
}

impl Config {
    /// Reads the configuration from the environment.
    pub fn from_env() -> Result<Self, ConfigError> {
        let bind: SocketAddr = var("SITELENS_BIND")
            .unwrap_or_else(|| "127.0.0.1:8080".to_owned())
            .parse()
            .map_err(|e| ConfigError {
                name: "SITELENS_BIND",
                message: format!("not an address:port ({e})"),
            })?;
        let workers = match var("SITELENS_WORKERS") {
            None => 2,
            Some(v) => v
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=64).contains(n))
                .ok_or(ConfigError {
                    name: "SITELENS_WORKERS",
                    message: format!("expected a number from 1 to 64, got {v:?}"),
                })?,
        };
        let trusted_proxies = match var("SITELENS_TRUSTED_PROXIES") {
            None => Vec::new(),
            Some(list) => list
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| {
                    IpBlock::parse(s).ok_or_else(|| ConfigError {
                        name: "SITELENS_TRUSTED_PROXIES",
                        message: format!("{s:?} is not an address or CIDR block"),
                    })
                })
                .collect::<Result<_, _>>()?,
        };
        let heartbeat_timeout = match var("SITELENS_HEARTBEAT_TIMEOUT_SECS") {
            None => Duration::from_secs(60),
            Some(v) => Duration::from_secs(v.parse::<u64>().ok().filter(|s| *s >= 5).ok_or(
                ConfigError {
                    name: "SITELENS_HEARTBEAT_TIMEOUT_SECS",
                    message: format!("expected whole seconds, at least 5, got {v:?}"),
                },
            )?),
        };
        // Empty means "the address we listen on", filled in once the port is bound.
        let public_url = var("SITELENS_PUBLIC_URL")
            .unwrap_or_default()
            .trim_end_matches('/')
            .to_owned();
        if !public_url.is_empty() {
            url::Url::parse(&public_url).map_err(|e| ConfigError {
                name: "SITELENS_PUBLIC_URL",
                message: format!("not a URL ({e})"),
            })?;
        }
        Ok(Self {
            database_url: var("SITELENS_DATABASE_URL")
                .unwrap_or_else(|| "sqlite://data/sitelens.sqlite?mode=rwc".to_owned()),
            bind,
            web_dir: var("SITELENS_WEB_DIR")
                .unwrap_or_else(|| "web/dist".to_owned())
                .into(),
            data_dir: var("SITELENS_DATA_DIR")
                .unwrap_or_else(|| "data".to_owned())
                .into(),
            workers,
            trusted_proxies,
            allow_private_targets: parse_bool(
                "SITELENS_ALLOW_PRIVATE_TARGETS",
                var("SITELENS_ALLOW_PRIVATE_TARGETS"),
            )?,
            chromium: var("SITELENS_CHROMIUM").unwrap_or_else(|| "/usr/bin/chromium".to_owned()),
            public_url,
            heartbeat_timeout,
        })
    }

    /// Where blobs (screenshots) are kept: `blobs` in the data folder.
    pub fn blob_dir(&self) -> PathBuf {
        self.data_dir.join("blobs")
    }

    /// Whether the public address is HTTPS (then HSTS is sent).
    pub fn is_https(&self) -> bool {
        self.public_url.starts_with("https://")
    }

    /// The browser status for `/readyz`: `off`, `available` or `missing`.
    pub fn browser_status(&self) -> &'static str {
        if self.chromium.eq_ignore_ascii_case("off") {
            "off"
        } else if std::path::Path::new(&self.chromium).exists() {
            "available"
        } else {
            "missing"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
