//! A keep-alive HTTP/1.1 load generator on loopback: each connection sends one request again
//! and again until a deadline, and every answer's latency and status are kept. Included by the
//! benches that load the server (`#[path]`), so the others do not carry it unused.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// One answer: how long it took and its status.
pub type Sample = (Duration, u16);

/// One keep-alive connection sending `request` (a whole HTTP/1.1 request) until `deadline`.
pub async fn hammer(addr: SocketAddr, request: Arc<String>, deadline: Instant) -> Vec<Sample> {
    let Ok(mut stream) = TcpStream::connect(addr).await else {
        return Vec::new();
    };
    let _ = stream.set_nodelay(true);
    let mut buf = vec![0u8; 1 << 20];
    let mut samples = Vec::new();
    while Instant::now() < deadline {
        let start = Instant::now();
        if stream.write_all(request.as_bytes()).await.is_err() {
            break;
        }
        let mut have = 0;
        let (header_end, body_len, status) = loop {
            let Ok(n) = stream.read(&mut buf[have..]).await else {
                return samples;
            };
            if n == 0 {
                return samples;
            }
            have += n;
            let text = String::from_utf8_lossy(&buf[..have]);
            if let Some(end) = text.find("\r\n\r\n") {
                let head = &text[..end];
                let status = head
                    .split_whitespace()
                    .nth(1)
                    .and_then(|s| s.parse().ok())
                    .unwrap_or(0);
                let len = head
                    .lines()
                    .find_map(|l| {
                        l.to_ascii_lowercase()
                            .strip_prefix("content-length:")
                            .map(|v| v.trim().parse::<usize>().unwrap_or(0))
                    })
                    .unwrap_or(0);
                break (end + 4, len, status);
            }
        };
        while have < header_end + body_len {
            let Ok(n) = stream.read(&mut buf[have..]).await else {
                return samples;
            };
            if n == 0 {
                return samples;
            }
            have += n;
        }
        samples.push((start.elapsed(), status));
    }
    samples
}

/// `connections` connections sending `request` to `addr` for `duration`; prints requests per
/// second, p50 and p99 latency and the statuses seen, on one line headed `label`.
pub async fn load(
    label: &str,
    addr: SocketAddr,
    request: String,
    connections: usize,
    duration: Duration,
) {
    let deadline = Instant::now() + duration;
    let request = Arc::new(request);
    let started = Instant::now();
    let tasks: Vec<_> = (0..connections)
        .map(|_| tokio::spawn(hammer(addr, request.clone(), deadline)))
        .collect();
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await.unwrap_or_default());
    }
    let secs = started.elapsed().as_secs_f64();
    let mut statuses = std::collections::BTreeMap::<u16, usize>::new();
    for (_, status) in &all {
        *statuses.entry(*status).or_default() += 1;
    }
    let mut latencies: Vec<Duration> = all.iter().map(|(d, _)| *d).collect();
    latencies.sort();
    let pct = |p: f64| {
        latencies
            .get(((latencies.len() as f64 * p) as usize).min(latencies.len().saturating_sub(1)))
            .copied()
            .unwrap_or_default()
    };
    let statuses: Vec<String> = statuses.iter().map(|(s, n)| format!("{s}: {n}")).collect();
    println!(
        "{label:<48} {:>8.0} req/s  p50 {:>6.2} ms  p99 {:>6.2} ms  ({} requests, {connections} connections; {})",
        all.len() as f64 / secs,
        pct(0.50).as_secs_f64() * 1000.0,
        pct(0.99).as_secs_f64() * 1000.0,
        all.len(),
        statuses.join(", ")
    );
}
