//! Safe fetching: the guarded client, redirects followed by hand, decompression and body caps.

use std::io::Read;
use std::sync::{Arc, Once};
use std::time::{Duration, Instant};

use reqwest::header::{self, HeaderMap, HeaderValue};
use url::Url;

use crate::config::AnalyzerConfig;
use crate::guard::{self, GuardError, GuardedResolver, SystemResolver};

/// Why a fetch could not give a response. Each message names the cause a person can act on.
#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    /// The address does not parse.
    #[error("invalid address: {0}")]
    InvalidUrl(String),
    /// Only http and https are fetched.
    #[error("unsupported scheme {0:?}: only http and https addresses can be analysed")]
    UnsupportedScheme(String),
    /// The SSRF guard refused the target or a redirect hop.
    #[error(
        "{0} (private and loopback targets are refused unless SITELENS_ALLOW_PRIVATE_TARGETS=true)"
    )]
    Refused(#[from] guard::Refused),
    /// The host name does not resolve.
    #[error("{0}")]
    Unresolvable(#[from] guard::Unresolvable),
    /// Nothing answered.
    #[error("could not connect to {url}: {detail}")]
    Unreachable {
        /// The address.
        url: String,
        /// Transport detail.
        detail: String,
    },
    /// The request took longer than the per-request limit.
    #[error("{url} did not answer within {seconds} s")]
    Timeout {
        /// The address.
        url: String,
        /// The limit.
        seconds: u64,
    },
    /// More than the allowed number of redirects.
    #[error("too many redirects (more than {max}) starting at {url}")]
    TooManyRedirects {
        /// The first address.
        url: String,
        /// The limit.
        max: usize,
    },
    /// A redirect led back to an address already visited.
    #[error("redirect loop: {url} redirects back to itself")]
    RedirectLoop {
        /// The repeated address.
        url: String,
    },
    /// A redirect without a usable Location header.
    #[error("{url} answered {status} with an invalid or missing Location header")]
    BadRedirect {
        /// The redirecting address.
        url: String,
        /// Its status.
        status: u16,
    },
}

/// One redirect hop, recorded for the report.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Hop {
    /// The address requested.
    pub url: String,
    /// Its status (3xx).
    pub status: u16,
}

/// A response, after any redirects, with the body decoded.
#[derive(Debug, Clone)]
pub struct Fetched {
    /// The address first requested.
    pub requested: Url,
    /// The address that answered last.
    pub final_url: Url,
    /// The final status.
    pub status: u16,
    /// Final response headers (Content-Encoding kept as sent).
    pub headers: HeaderMap,
    /// Decoded body, at most the configured cap.
    pub body: Vec<u8>,
    /// Bytes received on the wire for the final response body (compressed size).
    pub transfer_bytes: u64,
    /// True when the body was cut at the cap.
    pub truncated: bool,
    /// Redirect hops before the final response.
    pub hops: Vec<Hop>,
    /// Time to the final response's headers, including redirects.
    pub ttfb: Duration,
    /// Total time including the body.
    pub elapsed: Duration,
}

impl Fetched {
    /// A header as text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The MIME type without parameters, lower-case.
    pub fn mime(&self) -> String {
        self.header("content-type")
            .unwrap_or("")
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase()
    }

    /// Whether the body is HTML (by Content-Type, or sniffed when none is sent).
    pub fn is_html(&self) -> bool {
        let mime = self.mime();
        if mime.is_empty() {
            let head = String::from_utf8_lossy(&self.body[..self.body.len().min(512)])
                .to_ascii_lowercase();
            return head.contains("<html") || head.contains("<!doctype html");
        }
        mime == "text/html" || mime == "application/xhtml+xml"
    }

    /// The body as text (lossy UTF-8).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// The guarded HTTP client. Cheap to clone.
#[derive(Clone)]
pub struct Fetcher {
    client: reqwest::Client,
    config: Arc<AnalyzerConfig>,
}

static CRYPTO: Once = Once::new();

/// Body limit marker for [`Fetcher::get_page`]: full body for HTML, none for other types.
const PAGE_ONLY: usize = usize::MAX - 1;

/// Install ring as the process-wide rustls provider, once (docs/TOOLCHAIN.md §1.2: two
/// providers make rustls panic). An already installed provider is kept.
fn install_crypto_provider() {
    CRYPTO.call_once(|| {
        let _already_installed = rustls::crypto::ring::default_provider().install_default();
    });
}

impl Fetcher {
    /// Build a fetcher from the configuration.
    pub fn new(config: Arc<AnalyzerConfig>) -> Result<Self, FetchError> {
        install_crypto_provider();
        let inner = config
            .resolver
            .clone()
            .unwrap_or_else(|| Arc::new(SystemResolver));
        let resolver = GuardedResolver::new(inner, config.policy());
        let mut default_headers = HeaderMap::new();
        default_headers.insert(
            header::ACCEPT,
            HeaderValue::from_static("text/html,application/xhtml+xml,*/*;q=0.8"),
        );
        default_headers.insert(
            header::ACCEPT_ENCODING,
            HeaderValue::from_static("gzip, br"),
        );
        let client = reqwest::Client::builder()
            .user_agent(config.user_agent.clone())
            .default_headers(default_headers)
            .redirect(reqwest::redirect::Policy::none())
            // A proxy would connect on our behalf to addresses the guard never saw.
            .no_proxy()
            .dns_resolver(Arc::new(resolver))
            .connect_timeout(config.request_timeout.min(Duration::from_secs(10)))
            .timeout(config.request_timeout)
            .pool_max_idle_per_host(config.per_host_concurrency.max(1))
            .build()
            .map_err(|e| FetchError::Unreachable {
                url: String::new(),
                detail: format!("could not build the HTTP client: {e}"),
            })?;
        Ok(Self { client, config })
    }

    /// The configuration in use.
    pub fn config(&self) -> &AnalyzerConfig {
        &self.config
    }

    /// GET `url`, following redirects by hand (each hop checked by the guard).
    pub async fn get(&self, url: &Url) -> Result<Fetched, FetchError> {
        self.request(url, reqwest::Method::GET, usize::MAX).await
    }

    /// GET `url` reading at most `limit` body bytes (enough for size and header checks).
    pub async fn get_limited(&self, url: &Url, limit: usize) -> Result<Fetched, FetchError> {
        self.request(url, reqwest::Method::GET, limit).await
    }

    /// GET a page for the crawl: the body of a response that declares a type other than HTML
    /// (a PDF, an image) is not downloaded; its status and headers are enough.
    pub async fn get_page(&self, url: &Url) -> Result<Fetched, FetchError> {
        self.request(url, reqwest::Method::GET, PAGE_ONLY).await
    }

    /// HEAD `url`, following redirects.
    pub async fn head(&self, url: &Url) -> Result<Fetched, FetchError> {
        self.request(url, reqwest::Method::HEAD, 0).await
    }

    async fn request(
        &self,
        start: &Url,
        method: reqwest::Method,
        limit: usize,
    ) -> Result<Fetched, FetchError> {
        let begun = Instant::now();
        let mut url = start.clone();
        let mut hops: Vec<Hop> = Vec::new();
        let mut seen: Vec<Url> = vec![strip_fragment(start)];
        let policy = self.config.policy();
        loop {
            guard::check_url(&url, &policy)?;
            let response = self
                .client
                .request(method.clone(), url.clone())
                .send()
                .await
                .map_err(|e| self.classify(&url, e))?;
            let status = response.status().as_u16();
            if (300..400).contains(&status) && status != 304 {
                let next = response
                    .headers()
                    .get(header::LOCATION)
                    .and_then(|v| v.to_str().ok())
                    .and_then(|loc| url.join(loc.trim()).ok())
                    .ok_or_else(|| FetchError::BadRedirect {
                        url: url.to_string(),
                        status,
                    })?;
                hops.push(Hop {
                    url: url.to_string(),
                    status,
                });
                let key = strip_fragment(&next);
                if seen.contains(&key) {
                    return Err(FetchError::RedirectLoop {
                        url: next.to_string(),
                    });
                }
                if hops.len() > self.config.max_redirects {
                    return Err(FetchError::TooManyRedirects {
                        url: start.to_string(),
                        max: self.config.max_redirects,
                    });
                }
                seen.push(key);
                url = next;
                continue;
            }
            let ttfb = begun.elapsed();
            let headers = response.headers().clone();
            let declared = headers
                .get(header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .map(|v| {
                    v.split(';')
                        .next()
                        .unwrap_or("")
                        .trim()
                        .to_ascii_lowercase()
                });
            let limit = match (limit, declared.as_deref()) {
                (PAGE_ONLY, Some(m)) if m != "text/html" && m != "application/xhtml+xml" => 0,
                (PAGE_ONLY, _) => usize::MAX,
                (l, _) => l,
            };
            let cap = self.config.max_body_bytes.min(limit);
            let (raw, transfer_bytes, cut) = read_capped(response, cap)
                .await
                .map_err(|e| self.classify(&url, e))?;
            let encoding = headers
                .get(header::CONTENT_ENCODING)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase();
            let (body, decode_cut) = if cut {
                // A cut compressed stream cannot be decoded reliably; keep what decodes.
                decode(&encoding, &raw, cap)
            } else {
                decode(&encoding, &raw, self.config.max_body_bytes)
            };
            return Ok(Fetched {
                requested: start.clone(),
                final_url: url,
                status,
                headers,
                body,
                transfer_bytes,
                truncated: (cut && limit == usize::MAX) || decode_cut,
                hops,
                ttfb,
                elapsed: begun.elapsed(),
            });
        }
    }

    /// Turn a reqwest error into the cause a person can act on, finding the guard's own error
    /// in the chain when the resolver refused the host.
    fn classify(&self, url: &Url, error: reqwest::Error) -> FetchError {
        let mut source: Option<&(dyn std::error::Error + 'static)> = Some(&error);
        while let Some(e) = source {
            if let Some(g) = e.downcast_ref::<GuardError>() {
                return match g {
                    GuardError::Refused(r) => FetchError::Refused(r.clone()),
                    GuardError::Unresolvable(u) => FetchError::Unresolvable(guard::Unresolvable {
                        host: u.host.clone(),
                        detail: u.detail.clone(),
                    }),
                };
            }
            source = e.source();
        }
        if error.is_timeout() {
            return FetchError::Timeout {
                url: url.to_string(),
                seconds: self.config.request_timeout.as_secs().max(1),
            };
        }
        let mut detail = error.to_string();
        let mut source = std::error::Error::source(&error);
        while let Some(e) = source {
            detail = format!("{detail}: {e}");
            source = e.source();
        }
        FetchError::Unreachable {
            url: url.to_string(),
            detail,
        }
    }
}

fn strip_fragment(url: &Url) -> Url {
    let mut u = url.clone();
    u.set_fragment(None);
    u
}

/// Read at most `cap` bytes of the body; returns (bytes, bytes received, cut).
async fn read_capped(
    mut response: reqwest::Response,
    cap: usize,
) -> Result<(Vec<u8>, u64, bool), reqwest::Error> {
    let mut body = Vec::new();
    let mut received: u64 = 0;
    if cap == 0 {
        return Ok((body, 0, false));
    }
    while let Some(chunk) = response.chunk().await? {
        received += chunk.len() as u64;
        let room = cap.saturating_sub(body.len());
        if chunk.len() > room {
            body.extend_from_slice(&chunk[..room]);
            return Ok((body, received, true));
        }
        body.extend_from_slice(&chunk);
    }
    Ok((body, received, false))
}

/// Decode a gzip/deflate/brotli body, producing at most `cap` bytes (a decompression bomb stops
/// there). Returns (bytes, cut). Unknown or broken encodings give the raw bytes.
fn decode(encoding: &str, raw: &[u8], cap: usize) -> (Vec<u8>, bool) {
    let limit = cap as u64 + 1;
    let mut out = Vec::new();
    let result = match encoding {
        "gzip" | "x-gzip" => flate2::read::MultiGzDecoder::new(raw)
            .take(limit)
            .read_to_end(&mut out),
        "deflate" => flate2::read::ZlibDecoder::new(raw)
            .take(limit)
            .read_to_end(&mut out),
        "br" => brotli_decompressor::Decompressor::new(raw, 4096)
            .take(limit)
            .read_to_end(&mut out),
        _ => return (raw.to_vec(), false),
    };
    if result.is_err() && out.is_empty() {
        return (raw.to_vec(), false);
    }
    if out.len() > cap {
        out.truncate(cap);
        return (out, true);
    }
    (out, false)
}
