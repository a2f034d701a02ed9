//! The browser's only way out: a local forward proxy per browser context that applies the SSRF
//! policy where the connection is made.
//!
//! Every browser context a measurement uses is created with `proxyServer` naming its own
//! [`ContextProxy`] on 127.0.0.1 and the bypass list `<-loopback>` (so not even loopback goes
//! around it). Chromium then sends everything the page, its frames, its workers and its
//! WebSockets open through that proxy, without resolving any name itself: plain http requests
//! arrive as absolute-form requests, https and WebSockets as `CONNECT` tunnels.
//!
//! For each, [`RequestGuard`] decides with the same [`Policy`] and resolver as the HTTP
//! fetcher ([`crate::guard::check_url`] for IP literals, [`GuardedResolver::resolve_checked`]
//! for names, where one refused address refuses the name), and the proxy connects to an
//! address it checked. No second lookup happens, so DNS rebinding has no gap to use.
//!
//! A refused request gets a 403 from the proxy and is recorded as a [`RefusedRequest`]; an
//! unreachable one gets a 502. Both carry the [`PROXY_HEADER`] header, so the lab can tell the
//! proxy's answers from the site's: they are not counted as the page's requests, and a main
//! document answered by the proxy fails the measurement. Chromium fails a refused tunnel with
//! `ERR_TUNNEL_CONNECTION_FAILED`; its record names `host:port`, and the lab adds the full
//! address when Chromium reports the failed request.
//!
//! Compared with pausing every request over the DevTools protocol (`Fetch`), nothing waits for a
//! round trip through this process, and traffic that protocol cannot pause (workers,
//! WebSockets, WebRTC over TCP) passes the same guard.

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::client::conn::http1::SendRequest;
use hyper::header::{HOST, HeaderMap, HeaderName, HeaderValue};
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use serde::{Deserialize, Serialize};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use url::{Host, Url};

use crate::guard::{GuardError, GuardedResolver, HostResolver, Policy, SystemResolver};

/// Header on every answer the proxy gives itself: `refused; <reason>` or
/// `unreachable; <reason>`.
pub const PROXY_HEADER: &str = "x-sitelens-proxy";

/// How long the proxy waits for a TCP connection to one address. A server that answers at all
/// completes a handshake in well under a second; one that does not must not hold the page's
/// load (and the analysis) for long: its request fails and is reported.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(4);

/// Hop-by-hop headers (RFC 9110 §7.6.1) and the proxy's own: never forwarded.
const HOP_BY_HOP: &[&str] = &[
    "connection",
    "proxy-connection",
    "keep-alive",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
];

/// A request the guard did not let Chromium send.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RefusedRequest {
    /// The address the page asked for; for a refused tunnel (https, WebSockets) the
    /// `host:port` it was for, and the full address too once Chromium reports the request.
    pub url: String,
    /// Why it was refused.
    pub reason: String,
}

/// Why the browser may not connect to a host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Denial {
    /// The SSRF policy refuses it (private, loopback, link-local, ...): our refusal.
    Refused(String),
    /// The name does not resolve: the site's problem, answered as unreachable like any
    /// unanswered host, so the page sees a failed request as a browser without the proxy would.
    Unresolvable(String),
}

impl Denial {
    /// The reason, for a person.
    pub fn reason(&self) -> &str {
        match self {
            Self::Refused(r) | Self::Unresolvable(r) => r,
        }
    }
}

type Verdict = Result<Vec<IpAddr>, Denial>;

/// The SSRF decision for browser requests, with a per-measurement cache of host verdicts.
#[derive(Clone)]
pub struct RequestGuard {
    policy: Policy,
    resolver: GuardedResolver,
    verdicts: Arc<Mutex<HashMap<String, Verdict>>>,
    refused: Arc<Mutex<Vec<RefusedRequest>>>,
}

impl std::fmt::Debug for RequestGuard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RequestGuard")
            .field("policy", &self.policy)
            .finish()
    }
}

impl RequestGuard {
    /// A guard with `policy`, resolving names through `resolver` (the system's when `None`).
    pub fn new(policy: Policy, resolver: Option<Arc<dyn HostResolver>>) -> Self {
        let inner = resolver.unwrap_or_else(|| Arc::new(SystemResolver));
        Self {
            resolver: GuardedResolver::new(inner, policy.clone()),
            policy,
            verdicts: Arc::new(Mutex::new(HashMap::new())),
            refused: Arc::new(Mutex::new(Vec::new())),
        }
    }

    /// The guard an [`crate::AnalyzerConfig`] asks for.
    pub fn from_config(config: &crate::AnalyzerConfig) -> Self {
        Self::new(config.policy(), config.resolver.clone())
    }

    /// A guard with the same policy and resolver and fresh records (one per measurement).
    pub fn fresh(&self) -> Self {
        Self {
            policy: self.policy.clone(),
            resolver: self.resolver.clone(),
            verdicts: Arc::new(Mutex::new(HashMap::new())),
            refused: Arc::new(Mutex::new(Vec::new())),
        }
    }

    /// Whether the browser may request `url`. `data:`, `blob:` and `about:` never reach the
    /// network and pass; every other scheme but http(s) is refused.
    pub async fn decide(&self, url: &str) -> Result<(), String> {
        let parsed = Url::parse(url).map_err(|e| format!("not a valid address: {e}"))?;
        match parsed.scheme() {
            "data" | "blob" | "about" => return Ok(()),
            "http" | "https" => {}
            other => return Err(format!("the {other}: scheme is not allowed")),
        }
        let host = parsed
            .host_str()
            .ok_or_else(|| format!("{url} has no host"))?;
        self.addresses(host)
            .await
            .map(|_| ())
            .map_err(|d| d.reason().to_owned())
    }

    /// The addresses the browser may connect to for `host` (a name, an IPv4 literal or a
    /// bracketed IPv6 literal): all of its addresses, or why none may be used.
    pub async fn addresses(&self, host: &str) -> Verdict {
        let parsed = Host::parse(host)
            .map_err(|e| Denial::Refused(format!("not a valid host {host}: {e}")))?;
        let name = match parsed {
            Host::Ipv4(ip) => {
                return self
                    .policy
                    .check(host, IpAddr::V4(ip))
                    .map(|()| vec![IpAddr::V4(ip)])
                    .map_err(|e| Denial::Refused(e.to_string()));
            }
            Host::Ipv6(ip) => {
                return self
                    .policy
                    .check(host, IpAddr::V6(ip))
                    .map(|()| vec![IpAddr::V6(ip)])
                    .map_err(|e| Denial::Refused(e.to_string()));
            }
            Host::Domain(d) => d.to_ascii_lowercase(),
        };
        if let Some(v) = self
            .verdicts
            .lock()
            .ok()
            .and_then(|m| m.get(&name).cloned())
        {
            return v;
        }
        let verdict = match self.resolver.resolve_checked(&name).await {
            Ok(addrs) => Ok(addrs.iter().map(SocketAddr::ip).collect()),
            Err(GuardError::Refused(r)) => Err(Denial::Refused(r.to_string())),
            Err(GuardError::Unresolvable(u)) => Err(Denial::Unresolvable(u.to_string())),
        };
        if let Ok(mut m) = self.verdicts.lock() {
            m.insert(name, verdict.clone());
        }
        verdict
    }

    /// Record a refusal.
    pub fn record(&self, url: &str, reason: String) {
        if let Ok(mut r) = self.refused.lock()
            && !r.iter().any(|x| x.url == url)
        {
            r.push(RefusedRequest {
                url: url.to_owned(),
                reason,
            });
        }
    }

    /// Why `url` was refused: its own record, or its origin's (a refused tunnel).
    pub fn refusal(&self, url: &str) -> Option<String> {
        let origin = Url::parse(url).ok().map(|u| tunnel_record(&u));
        let refused = self.refused.lock().ok()?;
        refused
            .iter()
            .find(|r| r.url == url)
            .or_else(|| {
                origin
                    .as_ref()
                    .and_then(|o| refused.iter().find(|r| &r.url == o))
            })
            .map(|r| r.reason.clone())
    }

    /// Every refusal so far.
    pub fn refused(&self) -> Vec<RefusedRequest> {
        self.refused.lock().map(|r| r.clone()).unwrap_or_default()
    }
}

/// How a refused tunnel is recorded: `host:port`, all the proxy sees of it.
fn tunnel_record(url: &Url) -> String {
    let host = url.host_str().unwrap_or_default();
    format!("{host}:{}", url.port_or_known_default().unwrap_or(443))
}

type ProxyBody = BoxBody<Bytes, hyper::Error>;

/// The origin connection a proxy connection last used, with the `host:port` it goes to.
type Upstream = tokio::sync::Mutex<Option<(String, SendRequest<Incoming>)>>;

/// The forward proxy of one browser context. It serves until dropped; dropping it closes every
/// connection and tunnel it holds.
pub struct ContextProxy {
    addr: SocketAddr,
    guard: Arc<RwLock<Option<RequestGuard>>>,
    _stop: watch::Sender<()>,
}

impl std::fmt::Debug for ContextProxy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ContextProxy")
            .field("addr", &self.addr)
            .finish()
    }
}

impl ContextProxy {
    /// Listen on an ephemeral port of 127.0.0.1. Until a guard is assigned, every request is
    /// refused.
    pub async fn start(guard: Option<RequestGuard>) -> std::io::Result<Self> {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await?;
        let addr = listener.local_addr()?;
        let slot = Arc::new(RwLock::new(guard));
        let (stop, stopped) = watch::channel(());
        let guard = slot.clone();
        tokio::spawn(until_stopped(stopped.clone(), async move {
            loop {
                match listener.accept().await {
                    Ok((stream, _)) => {
                        let _ = stream.set_nodelay(true);
                        tokio::spawn(until_stopped(
                            stopped.clone(),
                            serve(stream, guard.clone(), stopped.clone()),
                        ));
                    }
                    Err(e) => {
                        tracing::debug!(error = %e, "proxy accept failed");
                        tokio::time::sleep(Duration::from_millis(10)).await;
                    }
                }
            }
        }));
        Ok(Self {
            addr,
            guard: slot,
            _stop: stop,
        })
    }

    /// The `proxyServer` value for a browser context.
    pub fn server(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Decide this context's requests with `guard` from now on.
    pub fn assign(&self, guard: RequestGuard) {
        if let Ok(mut g) = self.guard.write() {
            *g = Some(guard);
        }
    }
}

/// Run `work` until it ends or the proxy is dropped.
async fn until_stopped(mut stopped: watch::Receiver<()>, work: impl Future<Output = ()>) {
    tokio::select! {
        () = work => {}
        _ = stopped.changed() => {}
    }
}

/// One connection from Chromium: HTTP/1.1 requests in sequence, any of which may be a
/// `CONNECT` that turns the connection into a tunnel.
async fn serve(
    stream: TcpStream,
    slot: Arc<RwLock<Option<RequestGuard>>>,
    stopped: watch::Receiver<()>,
) {
    // The origin connection of the last plain-http request, reused while Chromium keeps asking
    // the same host over this connection (requests on one connection come one at a time).
    let upstream: Arc<Upstream> = Arc::default();
    let service = service_fn(move |req: Request<Incoming>| {
        let guard = slot.read().ok().and_then(|g| g.clone());
        let upstream = upstream.clone();
        let stopped = stopped.clone();
        async move {
            let Some(guard) = guard else {
                return Ok::<_, Infallible>(own_answer(
                    StatusCode::FORBIDDEN,
                    "refused",
                    "no measurement is running in this browser context",
                ));
            };
            if req.method() == Method::CONNECT {
                Ok(tunnel(req, &guard, stopped).await)
            } else {
                Ok(forward(req, &guard, &upstream).await)
            }
        }
    });
    if let Err(e) = hyper::server::conn::http1::Builder::new()
        .preserve_header_case(true)
        .serve_connection(TokioIo::new(stream), service)
        .with_upgrades()
        .await
    {
        tracing::debug!(error = %e, "proxy connection ended");
    }
}

/// An answer of the proxy itself, marked with [`PROXY_HEADER`].
fn own_answer(status: StatusCode, kind: &str, reason: &str) -> Response<ProxyBody> {
    let mut response = Response::new(
        Full::new(Bytes::from(format!("Sitelens: {reason}\n")))
            .map_err(|never| match never {})
            .boxed(),
    );
    *response.status_mut() = status;
    let value: String = format!("{kind}; {reason}")
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() || c == ' ' {
                c
            } else {
                '?'
            }
        })
        .collect();
    if let Ok(v) = HeaderValue::from_str(&value) {
        response.headers_mut().insert(PROXY_HEADER, v);
    }
    response.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

/// Connect to the first address of `addrs` that answers.
async fn connect(addrs: &[IpAddr], port: u16) -> Result<TcpStream, String> {
    let mut last = "no address".to_owned();
    for ip in addrs {
        match tokio::time::timeout(CONNECT_TIMEOUT, TcpStream::connect((*ip, port))).await {
            Ok(Ok(stream)) => {
                let _ = stream.set_nodelay(true);
                return Ok(stream);
            }
            Ok(Err(e)) => last = format!("{ip}: {e}"),
            Err(_) => last = format!("{ip}: no answer within {} s", CONNECT_TIMEOUT.as_secs()),
        }
    }
    Err(last)
}

/// `CONNECT host:port`: check, connect to a checked address, then relay bytes both ways.
async fn tunnel(
    req: Request<Incoming>,
    guard: &RequestGuard,
    stopped: watch::Receiver<()>,
) -> Response<ProxyBody> {
    let Some(authority) = req.uri().authority().cloned() else {
        return own_answer(StatusCode::BAD_REQUEST, "refused", "CONNECT without host");
    };
    let port = authority.port_u16().unwrap_or(443);
    let record = format!("{}:{port}", authority.host());
    let addrs = match guard.addresses(authority.host()).await {
        Ok(a) => a,
        Err(Denial::Unresolvable(reason)) => {
            return own_answer(StatusCode::BAD_GATEWAY, "unreachable", &reason);
        }
        Err(Denial::Refused(reason)) => {
            tracing::info!(target = %authority, %reason, "browser tunnel refused");
            guard.record(&record, reason.clone());
            return own_answer(StatusCode::FORBIDDEN, "refused", &reason);
        }
    };
    let mut upstream = match connect(&addrs, port).await {
        Ok(s) => s,
        Err(reason) => return own_answer(StatusCode::BAD_GATEWAY, "unreachable", &reason),
    };
    tokio::spawn(until_stopped(stopped, async move {
        match hyper::upgrade::on(req).await {
            Ok(upgraded) => {
                let mut client = TokioIo::new(upgraded);
                let _ = tokio::io::copy_bidirectional(&mut client, &mut upstream).await;
            }
            Err(e) => tracing::debug!(error = %e, "tunnel upgrade failed"),
        }
    }));
    Response::new(
        http_body_util::Empty::new()
            .map_err(|never| match never {})
            .boxed(),
    )
}

/// Remove hop-by-hop headers, including those the `Connection` header names.
fn strip_hop_by_hop(headers: &mut HeaderMap) {
    let named: Vec<HeaderName> = headers
        .get_all(hyper::header::CONNECTION)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|n| HeaderName::from_bytes(n.trim().as_bytes()).ok())
        .collect();
    for name in named {
        headers.remove(name);
    }
    for name in HOP_BY_HOP {
        headers.remove(*name);
    }
}

/// A plain-http request in absolute form: check, then send it in origin form to a checked
/// address and stream the answer back.
async fn forward(
    req: Request<Incoming>,
    guard: &RequestGuard,
    upstream: &Upstream,
) -> Response<ProxyBody> {
    let url = req.uri().to_string();
    let (Some("http"), Some(authority)) = (req.uri().scheme_str(), req.uri().authority().cloned())
    else {
        return own_answer(
            StatusCode::BAD_REQUEST,
            "refused",
            "expected an absolute http address",
        );
    };
    let port = authority.port_u16().unwrap_or(80);
    let addrs = match guard.addresses(authority.host()).await {
        Ok(a) => a,
        Err(Denial::Unresolvable(reason)) => {
            return own_answer(StatusCode::BAD_GATEWAY, "unreachable", &reason);
        }
        Err(Denial::Refused(reason)) => {
            tracing::info!(%url, %reason, "browser request refused");
            guard.record(&url, reason.clone());
            return own_answer(StatusCode::FORBIDDEN, "refused", &reason);
        }
    };
    let key = authority.to_string();
    let mut slot = upstream.lock().await;
    let reusable = match slot.take() {
        Some((k, mut sender)) if k == key => sender.ready().await.ok().map(|()| sender),
        _ => None,
    };
    let mut sender = match reusable {
        Some(s) => s,
        None => {
            let stream = match connect(&addrs, port).await {
                Ok(s) => s,
                Err(reason) => {
                    return own_answer(StatusCode::BAD_GATEWAY, "unreachable", &reason);
                }
            };
            match hyper::client::conn::http1::Builder::new()
                .preserve_header_case(true)
                .handshake(TokioIo::new(stream))
                .await
            {
                Ok((sender, connection)) => {
                    tokio::spawn(async move {
                        if let Err(e) = connection.await {
                            tracing::debug!(error = %e, "origin connection ended");
                        }
                    });
                    sender
                }
                Err(e) => {
                    return own_answer(StatusCode::BAD_GATEWAY, "unreachable", &e.to_string());
                }
            }
        }
    };
    let (mut parts, body) = req.into_parts();
    let path = parts
        .uri
        .path_and_query()
        .map_or("/", |p| p.as_str())
        .to_owned();
    parts.uri = match path.parse() {
        Ok(u) => u,
        Err(_) => return own_answer(StatusCode::BAD_REQUEST, "refused", "invalid path"),
    };
    strip_hop_by_hop(&mut parts.headers);
    if !parts.headers.contains_key(HOST)
        && let Ok(v) = HeaderValue::from_str(authority.as_str())
    {
        parts.headers.insert(HOST, v);
    }
    match sender.send_request(Request::from_parts(parts, body)).await {
        Ok(response) => {
            *slot = Some((key, sender));
            let (mut parts, body) = response.into_parts();
            strip_hop_by_hop(&mut parts.headers);
            Response::from_parts(parts, body.boxed())
        }
        Err(e) => own_answer(StatusCode::BAD_GATEWAY, "unreachable", &e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guard::StaticResolver;

    fn guard(allow_private: bool) -> RequestGuard {
        let resolver = StaticResolver::new()
            .with(
                "public.test",
                &["93.184.216.34".parse().unwrap_or(IpAddr::from([0; 4]))],
            )
            .with(
                "internal.test",
                &["10.0.0.7".parse().unwrap_or(IpAddr::from([0; 4]))],
            );
        RequestGuard::new(
            Policy {
                allow_private,
                exempt: Vec::new(),
            },
            Some(Arc::new(resolver)),
        )
    }

    #[tokio::test]
    async fn decides_like_the_fetcher() {
        let g = guard(false);
        assert!(g.decide("http://public.test/a.js").await.is_ok());
        assert!(g.decide("data:image/png;base64,AAAA").await.is_ok());
        assert!(g.decide("http://internal.test/").await.is_err());
        assert!(
            g.decide("http://169.254.169.254/latest/meta-data")
                .await
                .is_err()
        );
        assert!(g.decide("http://[::1]:8080/").await.is_err());
        assert!(g.decide("file:///etc/passwd").await.is_err());
        assert!(g.decide("http://unknown.test/").await.is_err());
        assert_eq!(
            g.addresses("public.test").await,
            Ok(vec![IpAddr::from([93, 184, 216, 34])])
        );
        assert!(g.addresses("[::ffff:10.0.0.1]").await.is_err());
        let open = guard(true);
        assert!(open.decide("http://internal.test/").await.is_ok());
        assert!(open.decide("http://0.0.0.0/").await.is_err());
    }

    #[test]
    fn a_refused_tunnel_covers_its_origin() {
        let g = guard(false);
        g.record("internal.test:443", "private".into());
        g.record("http://10.0.0.1/x.png", "private too".into());
        assert_eq!(
            g.refusal("https://internal.test/app.js?v=1"),
            Some("private".into())
        );
        assert_eq!(
            g.refusal("http://10.0.0.1/x.png"),
            Some("private too".into())
        );
        assert_eq!(g.refusal("https://internal.test:8443/"), None);
        assert_eq!(g.refusal("http://10.0.0.1/y.png"), None);
    }

    #[test]
    fn hop_by_hop_headers_are_not_forwarded() {
        let mut h = HeaderMap::new();
        h.insert(
            "connection",
            HeaderValue::from_static("keep-alive, x-private"),
        );
        h.insert("x-private", HeaderValue::from_static("1"));
        h.insert("proxy-connection", HeaderValue::from_static("keep-alive"));
        h.insert("accept", HeaderValue::from_static("*/*"));
        strip_hop_by_hop(&mut h);
        assert_eq!(h.len(), 1);
        assert!(h.contains_key("accept"));
    }
}
