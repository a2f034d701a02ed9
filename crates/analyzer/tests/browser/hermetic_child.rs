//! `sitelens-hermetic-child`: the process the hermetic-browser tests (`hermetic.rs`) start and
//! then kill or trace, so that their assertions run in the test and the browser in a process of
//! its own. Cargo builds it before the integration tests and hands them its path
//! (`CARGO_BIN_EXE_sitelens-hermetic-child`). It is not part of the product.
//!
//! - `hold`: start a measuring browser, print `BROWSER <pid>`, then wait to be killed.
//! - `measure URL`: measure a loopback page, print `MEASURED <whether FCP was measured>`, exit.

use std::net::{IpAddr, Ipv4Addr};
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
        _ => Err("usage: sitelens-hermetic-child hold | measure URL".to_owned()),
    }
}
