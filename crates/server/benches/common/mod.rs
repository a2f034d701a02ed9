//! What the server's benchmarks share: a configuration on a benchmark database, and
//! percentiles of measured durations.

use std::time::Duration;

use server::Config;
use server::config::Chromium;

/// A web node on `url` with its data under `dir`: port 0, no browser, test-payment mode.
pub fn config(url: String, dir: &std::path::Path) -> Config {
    Config {
        database_url: url,
        bind: "127.0.0.1:0".parse().expect("addr"),
        web_dir: dir.join("web"),
        data_dir: dir.join("data"),
        blob_storage: server::config::BlobStorage::Local,
        workers: 2,
        trusted_proxies: Vec::new(),
        allow_private_targets: false,
        chromium: Chromium::Off,
        public_url: "http://127.0.0.1".to_owned(),
        heartbeat_timeout: Duration::from_secs(60),
        llm: None,
        accounts_url: String::new(),
        smtp_url: None,
        mail_from: "Sitelens <no-reply@sitelens.test>".to_owned(),
        stripe: None,
        oidc: None,
        log_filter: "warn".to_owned(),
        node_name: "bench".to_owned(),
    }
}

/// The `p` quantile (0 to 1) of sorted durations.
pub fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(i).copied().unwrap_or_default()
}
