//! Load benchmark (`just bench`): the end-to-end time of one basic analysis through the API,
//! then a keep-alive HTTP/1.1 load generator on loopback against `GET /api/results/{id}` and
//! `GET /api/stats`, on SQLite and (when reachable) PostgreSQL. Prints requests per second and
//! p50/p99 latency. Every loop is bounded in time and stays on 127.0.0.1.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use axum::Router;
use axum::response::Html;
use axum::routing::get;
use server::config::Chromium;
use server::{Config, Roles};
use test_support::{Engine, TestDb};

#[path = "common/hammer.rs"]
mod hammer;

const CONNECTIONS: usize = 32;
const DURATION: Duration = Duration::from_secs(5);

async fn fixture() -> std::net::SocketAddr {
    let page = Html(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>Benchmark fixture page for Sitelens load tests</title><meta name=\"description\" content=\"A small page used to measure how fast Sitelens analyses a site and serves its report under load on loopback.\"></head><body><h1>Fixture</h1><p>Some text for the content checks.</p></body></html>",
    );
    let app = Router::new().route("/", get(move || async move { page }));
    let l = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = l.local_addr().expect("addr");
    tokio::spawn(async move {
        let _ = axum::serve(l, app).await;
    });
    addr
}

/// `GET path` from [`CONNECTIONS`] connections for [`DURATION`].
async fn load(label: &str, addr: std::net::SocketAddr, path: &str) {
    let request = format!("GET {path} HTTP/1.1\r\nHost: bench\r\n\r\n");
    hammer::load(label, addr, request, CONNECTIONS, DURATION).await;
}

async fn bench_engine(engine: &str, url: String, dir: PathBuf) {
    let config = Config {
        database_url: url,
        bind: "127.0.0.1:0".parse().expect("addr"),
        web_dir: dir.join("web"),
        data_dir: dir.join("data"),
        blob_storage: server::config::BlobStorage::Local,
        workers: 2,
        trusted_proxies: Vec::new(),
        allow_private_targets: true,
        chromium: Chromium::Off,
        public_url: "http://127.0.0.1".to_owned(),
        heartbeat_timeout: Duration::from_secs(60),
        llm: None,
        accounts_url: String::new(),
        smtp_url: None,
        mail_from: "Sitelens <no-reply@sitelens.test>".to_owned(),
        sales_email: None,
        mail_attachment_max_bytes: domain::report_mail::ATTACHMENT_MAX_BYTES,
        oidc: None,
        stripe: None,
        referral_salt: None,
        dns_resolver: None,
        log_filter: "info".to_owned(),
        node_name: "test".to_owned(),
    };
    let running = server::start(
        config,
        Roles {
            web: true,
            worker: true,
        },
    )
    .await
    .expect("start");
    let addr = running.addr.expect("addr");
    let site = fixture().await;
    let _ = rustls::crypto::ring::default_provider().install_default();
    let http = reqwest::Client::new();

    let t0 = Instant::now();
    let res = http
        .post(format!("http://{addr}/api/analyze"))
        .header("content-type", "application/json")
        .body(serde_json::json!({"url": format!("http://{site}/")}).to_string())
        .send()
        .await
        .expect("analyze")
        .bytes()
        .await
        .expect("body");
    let res: serde_json::Value = serde_json::from_slice(&res).expect("json");
    let id = res["analysisId"].as_str().expect("analysisId").to_owned();
    let mut stream = http
        .get(format!("http://{addr}/api/analysis-progress/{id}"))
        .send()
        .await
        .expect("stream");
    let mut text = String::new();
    while let Ok(Some(chunk)) = stream.chunk().await {
        text.push_str(&String::from_utf8_lossy(&chunk));
        if text.contains("\"type\":\"complete\"") || text.contains("\"type\":\"error\"") {
            break;
        }
    }
    let result_id = text
        .split("\"resultId\":\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .expect("complete event with a result id")
        .to_owned();
    println!(
        "{engine}: one basic analysis through the API (no browser): {:.0} ms",
        t0.elapsed().as_secs_f64() * 1000.0
    );

    load(
        &format!("{engine}: GET /api/results/{{id}}"),
        addr,
        &format!("/api/results/{result_id}"),
    )
    .await;
    load(&format!("{engine}: GET /api/stats"), addr, "/api/stats").await;
    running.shutdown().await;
}

fn main() {
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
            bench_engine(label, db.url.clone(), db.dir().to_owned()).await;
            db.drop_db().await;
        }
    });
}
