//! A tiny HTTP/1.1 server for fixture websites, bound to 127.0.0.1 on an ephemeral port.
//!
//! It is bound before the test continues (no sleeps), answers from a fixed route table, keeps
//! connections alive, and records every request so tests can assert what was fetched.
//! Shared by the analyzer tests, its benchmarks and the CLI test (through `#[path]`).

#![allow(dead_code)]

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// One canned response.
#[derive(Clone, Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn html(body: impl Into<String>) -> Self {
        Self {
            status: 200,
            headers: vec![("Content-Type".into(), "text/html; charset=utf-8".into())],
            body: body.into().into_bytes(),
        }
    }

    pub fn text(content_type: &str, body: impl Into<String>) -> Self {
        Self {
            status: 200,
            headers: vec![("Content-Type".into(), content_type.into())],
            body: body.into().into_bytes(),
        }
    }

    pub fn redirect(status: u16, location: &str) -> Self {
        Self {
            status,
            headers: vec![("Location".into(), location.into())],
            body: Vec::new(),
        }
    }

    /// A route that accepts the request and never answers.
    pub fn silent() -> Self {
        Self {
            status: 0,
            headers: Vec::new(),
            body: Vec::new(),
        }
    }

    pub fn status(mut self, status: u16) -> Self {
        self.status = status;
        self
    }

    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// Answer only after `ms` milliseconds (a slow server or resource). The delay travels as a
    /// header the test server reads and never sends.
    pub fn delayed(self, ms: u64) -> Self {
        self.header(DELAY_HEADER, &ms.to_string())
    }
}

/// See [`Reply::delayed`].
const DELAY_HEADER: &str = "x-test-delay-ms";

/// The route table: path (with query) to reply. Unknown paths answer 404.
#[derive(Clone, Debug, Default)]
pub struct Site {
    pub routes: HashMap<String, Reply>,
}

impl Site {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn route(mut self, path: &str, reply: Reply) -> Self {
        self.routes.insert(path.to_owned(), reply);
        self
    }

    pub fn add(&mut self, path: &str, reply: Reply) {
        self.routes.insert(path.to_owned(), reply);
    }
}

/// A running fixture server.
pub struct TestServer {
    pub addr: SocketAddr,
    pub base: String,
    hits: Arc<Mutex<Vec<String>>>,
}

impl TestServer {
    /// Bind 127.0.0.1:0, build the site with its base URL (`http://127.0.0.1:PORT`), serve it.
    pub async fn start(build: impl FnOnce(&str) -> Site) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind 127.0.0.1");
        let addr = listener.local_addr().expect("local addr");
        let base = format!("http://{addr}");
        let site = Arc::new(build(&base));
        let hits = Arc::new(Mutex::new(Vec::new()));
        let h = hits.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let site = site.clone();
                let hits = h.clone();
                tokio::spawn(async move {
                    let _ = serve_connection(stream, &site, &hits).await;
                });
            }
        });
        Self { addr, base, hits }
    }

    /// `base` + `path`.
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base, path)
    }

    /// Every request so far, as "METHOD /path".
    pub fn hits(&self) -> Vec<String> {
        self.hits.lock().map(|h| h.clone()).unwrap_or_default()
    }

    /// How many GET requests reached `path`.
    pub fn gets(&self, path: &str) -> usize {
        let want = format!("GET {path}");
        self.hits().iter().filter(|h| **h == want).count()
    }
}

async fn serve_connection(
    mut stream: TcpStream,
    site: &Site,
    hits: &Mutex<Vec<String>>,
) -> std::io::Result<()> {
    stream.set_nodelay(true)?;
    let mut buf: Vec<u8> = Vec::with_capacity(4096);
    loop {
        // Read one request head (GET and HEAD carry no body).
        let end = loop {
            if let Some(pos) = find(&buf, b"\r\n\r\n") {
                break pos + 4;
            }
            let mut chunk = [0u8; 4096];
            let n = stream.read(&mut chunk).await?;
            if n == 0 {
                return Ok(());
            }
            buf.extend_from_slice(&chunk[..n]);
            if buf.len() > 64 * 1024 {
                return Ok(());
            }
        };
        let head = String::from_utf8_lossy(&buf[..end]).into_owned();
        buf.drain(..end);
        let mut parts = head.lines().next().unwrap_or("").split_whitespace();
        let method = parts.next().unwrap_or("GET").to_owned();
        let target = parts.next().unwrap_or("/").to_owned();
        let close = head.to_ascii_lowercase().contains("connection: close");
        if let Ok(mut h) = hits.lock() {
            h.push(format!("{method} {target}"));
        }
        let reply = site.routes.get(&target).cloned().unwrap_or_else(|| {
            Reply::html(
                "<!doctype html><html><head><title>Not found</title></head><body>404</body></html>",
            )
            .status(404)
        });
        if reply.status == 0 {
            // A silent route: hold the connection, never answer, until the client gives up.
            let mut sink = [0u8; 512];
            while stream.read(&mut sink).await? > 0 {}
            return Ok(());
        }
        if let Some(ms) = reply
            .headers
            .iter()
            .find(|(k, _)| k == DELAY_HEADER)
            .and_then(|(_, v)| v.parse::<u64>().ok())
        {
            tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
        }
        let mut out = format!("HTTP/1.1 {} {}\r\n", reply.status, reason(reply.status));
        for (k, v) in reply.headers.iter().filter(|(k, _)| k != DELAY_HEADER) {
            out.push_str(&format!("{k}: {v}\r\n"));
        }
        out.push_str(&format!("Content-Length: {}\r\n\r\n", reply.body.len()));
        // One write per response: head and body in two writes meet Nagle's algorithm and
        // delayed ACKs, costing 40 ms a request.
        let mut bytes = out.into_bytes();
        if method != "HEAD" {
            bytes.extend_from_slice(&reply.body);
        }
        stream.write_all(&bytes).await?;
        if close {
            return Ok(());
        }
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        301 => "Moved Permanently",
        302 => "Found",
        307 => "Temporary Redirect",
        308 => "Permanent Redirect",
        404 => "Not Found",
        410 => "Gone",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Status",
    }
}

/// Read a fixture file from `tests/fixtures/`, with `{{base}}` replaced by the server's base URL.
pub fn fixture(name: &str, base: &str) -> String {
    let path = format!("{}/{name}", fixtures_dir());
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("fixture {path}: {e}"));
    text.replace("{{base}}", base)
}

/// The fixtures folder of the analyzer crate (works from the server crate too).
pub fn fixtures_dir() -> String {
    let here = env!("CARGO_MANIFEST_DIR");
    if here.ends_with("analyzer") {
        format!("{here}/tests/fixtures")
    } else {
        format!("{here}/../analyzer/tests/fixtures")
    }
}
