//! What the server's benchmarks share: a run on each database engine, a configuration on a
//! benchmark database, and percentiles of measured durations.

use std::time::Duration;

use server::Config;
use server::config::Chromium;
use test_support::{Engine, TestDb};

/// Runs `bench` on SQLite, then on PostgreSQL when it is reachable, each on a fresh database
/// dropped afterwards.
pub fn on_each_engine(bench: impl AsyncFn(&'static str, &TestDb)) {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        for (engine, label) in [(Engine::Sqlite, "sqlite"), (Engine::Postgres, "postgres")] {
            let Some(db) = TestDb::create(engine).await else {
                println!("{label}: unreachable; skipped");
                continue;
            };
            bench(label, &db).await;
            db.drop_db().await;
        }
    });
}

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
        sales_email: None,
        mail_attachment_max_bytes: domain::report_mail::ATTACHMENT_MAX_BYTES,
        stripe: None,
        referral_salt: None,
        dns_resolver: None,
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
