//! `sitelens-hermetic-child`: the process the hermetic-browser tests (`hermetic.rs`) start and
//! then kill or trace, so that their assertions run in the test and the browser in a process of
//! its own. Cargo builds it before the integration tests and hands them its path
//! (`CARGO_BIN_EXE_sitelens-hermetic-child`). It is not part of the product.
//!
//! - `hold`: start a measuring browser, print `BROWSER <pid>`, then wait to be killed.
//! - `measure URL`: measure a loopback page, print `MEASURED <whether FCP was measured>`, exit.
//! - `online`: serve a page on loopback that reports `navigator.onLine`, measure it, print
//!   `ONLINE <what the page saw>`, exit.

use std::net::{IpAddr, Ipv4Addr};
use std::time::Duration;

use analyzer::browser::proxy::RequestGuard;
use analyzer::browser::{BrowserPool, BrowserSettings};
use analyzer::guard::Policy;

#[path = "../support/server.rs"]
mod server;

/// A page that asks for `/seen?<navigator.onLine>`: the server's record of that request is what
/// the page believed.
const ONLINE_PAGE: &str = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
    <title>Online?</title></head><body><p>Is this page online?</p>\
    <script>new Image().src = '/seen?' + navigator.onLine;</script></body></html>";

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
            let site = server::TestServer::start(|_| {
                server::Site::new().route("/", server::Reply::html(ONLINE_PAGE))
            })
            .await;
            let url = site.url("/");
            let pool = pool();
            let measured = pool.measure(&url).await;
            pool.shutdown().await;
            measured.map_err(|e| format!("measuring {url} failed: {e}"))?;
            let seen = site
                .hits()
                .iter()
                .find_map(|h| h.strip_prefix("GET /seen?").map(str::to_owned));
            println!("ONLINE {}", seen.as_deref().unwrap_or("unreported"));
            Ok(())
        }
        _ => Err("usage: sitelens-hermetic-child hold | measure URL | online".to_owned()),
    }
}
