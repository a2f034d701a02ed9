//! The SSRF guard: which addresses Sitelens may connect to, and a resolver that enforces it.
//!
//! Every request goes through [`GuardedResolver`], which resolves a host name, drops refused
//! addresses and hands reqwest only the addresses that passed. reqwest then connects to exactly
//! those addresses, so a DNS answer that changes between check and connect (DNS rebinding) cannot
//! reach a private address. Hosts written as IP literals never reach a resolver, so
//! [`check_url`] refuses them before a request is made. The `url` crate parses hosts the WHATWG
//! way, so numeric tricks such as `http://2130706433/` and `http://0x7f.1/` arrive here already
//! turned into `127.0.0.1`.

use std::future::Future;
use std::io;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;

use url::{Host, Url};

/// A refused target: the host as written, the address it came to, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("refused to connect to {host}: {addr} is {reason}")]
pub struct Refused {
    /// Host name or literal of the URL.
    pub host: String,
    /// The address that was refused.
    pub addr: IpAddr,
    /// What kind of address it is, for example "a loopback address".
    pub reason: &'static str,
}

/// Why an address may not be fetched, or `None` when it is a public unicast address.
pub fn forbidden_reason(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => v4_reason(v4),
        IpAddr::V6(v6) => v6_reason(v6),
    }
}

fn v4_reason(ip: Ipv4Addr) -> Option<&'static str> {
    let [a, b, c, _] = ip.octets();
    let reason = match (a, b, c) {
        (0, _, _) => "an unspecified (this-network) address",
        (127, _, _) => "a loopback address",
        (10, _, _) => "a private address",
        (172, 16..=31, _) => "a private address",
        (192, 168, _) => "a private address",
        (169, 254, _) => "a link-local address (cloud metadata lives here)",
        (100, 64..=127, _) => "a carrier-grade NAT address",
        (192, 0, 0) => "an IETF protocol assignment address",
        (192, 0, 2) | (198, 51, 100) | (203, 0, 113) => "a documentation address",
        (198, 18..=19, _) => "a benchmarking address",
        (224..=239, _, _) => "a multicast address",
        (240..=255, _, _) => "a reserved or broadcast address",
        _ => return None,
    };
    Some(reason)
}

fn v6_reason(ip: Ipv6Addr) -> Option<&'static str> {
    if ip.is_unspecified() {
        return Some("an unspecified address");
    }
    if ip.is_loopback() {
        return Some("a loopback address");
    }
    // Forms that embed an IPv4 address are judged by the address they embed.
    if let Some(v4) = embedded_v4(ip) {
        return v4_reason(v4).or(None);
    }
    let seg = ip.segments();
    let reason = match seg[0] {
        s if s & 0xfe00 == 0xfc00 => "a unique-local (private) address",
        s if s & 0xffc0 == 0xfe80 => "a link-local address",
        s if s & 0xffc0 == 0xfec0 => "a site-local address",
        s if s & 0xff00 == 0xff00 => "a multicast address",
        0x2001 if seg[1] == 0x0db8 => "a documentation address",
        // Teredo hides an IPv4 client address; nothing public needs it.
        0x2001 if seg[1] == 0 => "a Teredo (IPv4-translated) address",
        0x0064 if seg[1] == 0xff9b && seg[2] == 1 => "a local-use IPv4/IPv6 translation address",
        0x0100 if seg[1..4] == [0, 0, 0] => "a discard-only address",
        _ => return None,
    };
    Some(reason)
}

/// The IPv4 address inside an IPv4-mapped (`::ffff:a.b.c.d`), IPv4-compatible (`::a.b.c.d`),
/// NAT64 (`64:ff9b::a.b.c.d`) or 6to4 (`2002:aabb:ccdd::`) address.
fn embedded_v4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    let seg = ip.segments();
    let o = ip.octets();
    let tail = Ipv4Addr::new(o[12], o[13], o[14], o[15]);
    if seg[..5] == [0, 0, 0, 0, 0] && (seg[5] == 0xffff || seg[5] == 0) {
        return Some(tail);
    }
    if seg[..6] == [0x0064, 0xff9b, 0, 0, 0, 0] {
        return Some(tail);
    }
    if seg[0] == 0x2002 {
        return Some(Ipv4Addr::new(o[2], o[3], o[4], o[5]));
    }
    None
}

/// Which targets the guard lets through.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Policy {
    /// Allow loopback, private, link-local and CGNAT addresses.
    pub allow_private: bool,
    /// Exact addresses allowed whatever their range (tests allow 127.0.0.1 alone this way, so
    /// the guard stays on for every other address).
    pub exempt: Vec<IpAddr>,
}

impl Policy {
    /// Whether `ip` (reached through `host`) may be fetched.
    pub fn check(&self, host: &str, ip: IpAddr) -> Result<(), Refused> {
        if self.exempt.contains(&ip) {
            return Ok(());
        }
        check_ip(host, ip, self.allow_private)
    }
}

/// Whether `ip` may be fetched. With private targets allowed, only unspecified and multicast
/// addresses stay refused: nothing legitimate serves a page there.
pub fn check_ip(host: &str, ip: IpAddr, allow_private: bool) -> Result<(), Refused> {
    let Some(reason) = forbidden_reason(ip) else {
        return Ok(());
    };
    let always = reason.contains("unspecified") || reason.contains("multicast");
    if allow_private && !always {
        return Ok(());
    }
    Err(Refused {
        host: host.to_owned(),
        addr: ip,
        reason,
    })
}

/// Check a URL before any request: the scheme must be http(s) and an IP-literal host must be
/// allowed. Host names are checked when they are resolved.
pub fn check_url(url: &Url, policy: &Policy) -> Result<(), crate::FetchError> {
    match url.scheme() {
        "http" | "https" => {}
        other => return Err(crate::FetchError::UnsupportedScheme(other.to_owned())),
    }
    match url.host() {
        Some(Host::Ipv4(ip)) => policy.check(&ip.to_string(), IpAddr::V4(ip))?,
        Some(Host::Ipv6(ip)) => policy.check(&format!("[{ip}]"), IpAddr::V6(ip))?,
        Some(Host::Domain(_)) => {}
        None => return Err(crate::FetchError::InvalidUrl(url.to_string())),
    }
    Ok(())
}

/// A boxed future of resolved socket addresses.
pub type ResolveFuture = Pin<Box<dyn Future<Output = io::Result<Vec<SocketAddr>>> + Send>>;

/// Name resolution, pluggable so tests can map names to addresses without DNS.
pub trait HostResolver: Send + Sync {
    /// Resolve `host` to socket addresses with the given port.
    fn resolve(&self, host: &str, port: u16) -> ResolveFuture;
}

/// The operating system's resolver (getaddrinfo through tokio), given at most
/// [`RESOLVE_TIMEOUT`]: a name server that does not answer costs a bounded wait, and the name
/// counts as unresolvable.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemResolver;

/// How long a name may take to resolve.
pub const RESOLVE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

impl HostResolver for SystemResolver {
    fn resolve(&self, host: &str, port: u16) -> ResolveFuture {
        let target = format!("{host}:{port}");
        Box::pin(async move {
            match tokio::time::timeout(RESOLVE_TIMEOUT, tokio::net::lookup_host(target)).await {
                Ok(found) => Ok(found?.collect()),
                Err(_) => Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!(
                        "no answer from the name server within {} s",
                        RESOLVE_TIMEOUT.as_secs()
                    ),
                )),
            }
        })
    }
}

/// A fixed table of names, for tests and benchmarks: every name resolves to its addresses.
#[derive(Debug, Clone, Default)]
pub struct StaticResolver {
    entries: Vec<(String, Vec<IpAddr>)>,
}

impl StaticResolver {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// Map `host` to `addrs`.
    pub fn with(mut self, host: &str, addrs: &[IpAddr]) -> Self {
        self.entries
            .push((host.to_ascii_lowercase(), addrs.to_vec()));
        self
    }
}

impl HostResolver for StaticResolver {
    fn resolve(&self, host: &str, port: u16) -> ResolveFuture {
        let host = host.to_ascii_lowercase();
        let found = self
            .entries
            .iter()
            .find(|(h, _)| *h == host)
            .map(|(_, a)| a.iter().map(|ip| SocketAddr::new(*ip, port)).collect());
        Box::pin(async move {
            found.ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "name not found"))
        })
    }
}

/// The error a guarded resolution gives when the name does not resolve at all.
#[derive(Debug, thiserror::Error)]
#[error("could not resolve {host}: {detail}")]
pub struct Unresolvable {
    /// The host name.
    pub host: String,
    /// Resolver detail.
    pub detail: String,
}

/// reqwest's resolver hook: resolves through a [`HostResolver`] and keeps only allowed addresses.
#[derive(Clone)]
pub struct GuardedResolver {
    inner: Arc<dyn HostResolver>,
    policy: Policy,
}

impl GuardedResolver {
    /// Wrap `inner` with the guard.
    pub fn new(inner: Arc<dyn HostResolver>, policy: Policy) -> Self {
        Self { inner, policy }
    }

    /// Resolve and filter. Refuses the whole name when any address is refused: a name that
    /// points at both a public and a private address is exactly what a rebinding attack uses.
    pub async fn resolve_checked(&self, host: &str) -> Result<Vec<SocketAddr>, GuardError> {
        let addrs = self.inner.resolve(host, 0).await.map_err(|e| {
            GuardError::Unresolvable(Unresolvable {
                host: host.to_owned(),
                detail: e.to_string(),
            })
        })?;
        if addrs.is_empty() {
            return Err(GuardError::Unresolvable(Unresolvable {
                host: host.to_owned(),
                detail: "no addresses".to_owned(),
            }));
        }
        for a in &addrs {
            self.policy
                .check(host, a.ip())
                .map_err(GuardError::Refused)?;
        }
        Ok(addrs)
    }
}

/// What a guarded resolution can fail with; found again in reqwest's error chain.
#[derive(Debug, thiserror::Error)]
pub enum GuardError {
    /// The address is not allowed.
    #[error(transparent)]
    Refused(#[from] Refused),
    /// The name did not resolve.
    #[error(transparent)]
    Unresolvable(Unresolvable),
}

impl reqwest::dns::Resolve for GuardedResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let this = self.clone();
        let host = name.as_str().to_owned();
        Box::pin(async move {
            let addrs = this.resolve_checked(&host).await?;
            let iter: reqwest::dns::Addrs = Box::new(addrs.into_iter());
            Ok(iter)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(s: &str) -> bool {
        forbidden_reason(s.parse().unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED))).is_some()
    }

    #[test]
    fn private_and_special_ranges_are_refused() {
        for s in [
            "127.0.0.1",
            "127.255.0.9",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "100.127.255.254",
            "0.0.0.0",
            "224.0.0.1",
            "255.255.255.255",
            "::",
            "::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "::127.0.0.1",
            "64:ff9b::a00:1",
            "2002:7f00:1::",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "ff02::1",
        ] {
            assert!(refused(s), "{s} should be refused");
        }
    }

    #[test]
    fn public_addresses_pass() {
        for s in [
            "93.184.216.34",
            "1.1.1.1",
            "172.32.0.1",
            "100.128.0.1",
            "2606:4700::1111",
            "::ffff:93.184.216.34",
        ] {
            assert!(!refused(s), "{s} should pass");
        }
    }

    #[test]
    fn allowing_private_keeps_unspecified_refused() {
        let lo: IpAddr = Ipv4Addr::LOCALHOST.into();
        assert!(check_ip("x", lo, true).is_ok());
        assert!(check_ip("x", lo, false).is_err());
        assert!(check_ip("x", Ipv4Addr::UNSPECIFIED.into(), true).is_err());
    }
}
