//! `sitelens-hermetic-child`: the process the hermetic-browser tests (`hermetic.rs`) start and
//! then kill or trace, so that their assertions run in the test and the browser in a process of
//! its own. Cargo builds it before the integration tests and hands them its path
//! (`CARGO_BIN_EXE_sitelens-hermetic-child`). It is not part of the product.
//!
//! - `hold`: start a measuring browser, print `BROWSER <pid>`, then wait to be killed.
//! - `measure URL`: measure a loopback page, print `MEASURED <whether FCP was measured>`, exit.
//! - `online`: serve a page on loopback that reports `navigator.onLine`, measure it, print
//!   `ONLINE <what the page saw>`, exit.

use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, TcpListener};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use analyzer::browser::proxy::RequestGuard;
use analyzer::browser::{BrowserPool, BrowserSettings};
use analyzer::guard::Policy;

fn pool() -> BrowserPool {
    // Only 127.0.0.1 is exempt, as in the tests: the guard stays on for every other address.
    let guard = RequestGuard::new(
        Policy {
            allow_private: false,
            exempt: vec![IpAddr::V4(Ipv4Addr::LOCALHOST)],
        },
        None,
    );
    BrowserPool::new(BrowserSettings::default(), guard)
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["hold"] => {
            let pool = pool();
            pool.warm()
                .await
                .map_err(|e| format!("launch failed: {e}"))?;
            let pid = pool.browser_pid().await.unwrap_or_default();
            println!("BROWSER {pid}");
            tokio::time::sleep(Duration::from_secs(120)).await;
            Ok(())
        }
        ["measure", url] => {
            let pool = pool();
            let report = pool
                .measure(url)
                .await
                .map_err(|e| format!("measuring {url} failed: {e}"))?;
            println!(
                "MEASURED {}",
                report.mobile.first_contentful_paint.is_some()
            );
            pool.shutdown().await;
            Ok(())
        }
        ["online"] => {
            let (url, seen) = serve_online_probe().map_err(|e| format!("serving: {e}"))?;
            let pool = pool();
            let measured = pool.measure(&url).await;
            pool.shutdown().await;
            measured.map_err(|e| format!("measuring {url} failed: {e}"))?;
            let seen = seen.lock().map(|s| s.clone()).unwrap_or_default();
            println!("ONLINE {}", seen.as_deref().unwrap_or("unreported"));
            Ok(())
        }
        _ => Err("usage: sitelens-hermetic-child hold | measure URL | online".to_owned()),
    }
}

/// Serve, on 127.0.0.1, a page whose script asks for `/seen?<navigator.onLine>`; returns its
/// address and what the page reported.
fn serve_online_probe() -> std::io::Result<(String, Arc<Mutex<Option<String>>>)> {
    const PAGE: &str = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
        <title>Online?</title></head><body><p>Is this page online?</p>\
        <script>new Image().src = '/seen?' + navigator.onLine;</script></body></html>";
    let listener = TcpListener::bind("127.0.0.1:0")?;
    let url = format!("http://{}/", listener.local_addr()?);
    let seen = Arc::new(Mutex::new(None));
    let record = seen.clone();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            let mut head = Vec::new();
            let mut byte = [0u8; 1];
            while !head.ends_with(b"\r\n\r\n") && stream.read(&mut byte).is_ok_and(|n| n == 1) {
                head.push(byte[0]);
            }
            let head = String::from_utf8_lossy(&head);
            let target = head.split(' ').nth(1).unwrap_or("/");
            let body = match target.split_once("/seen?") {
                Some((_, value)) => {
                    if let Ok(mut r) = record.lock() {
                        *r = Some(value.to_owned());
                    }
                    ""
                }
                None => PAGE,
            };
            let kind = if body.is_empty() {
                "image/gif"
            } else {
                "text/html; charset=utf-8"
            };
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    Ok((url, seen))
}
