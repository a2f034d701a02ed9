//! Public API benchmark (`just bench`): `GET /api/v1/analyses/{id}` with key checking, the
//! per-key rate limit (counted in the database) and the usage record on, from N keep-alive
//! clients on loopback sharing one key, on SQLite and (when reachable) PostgreSQL. Prints
//! requests per second and p50/p99 latency twice: with the key's limit raised out of reach (every
//! answer a 200: the whole path, handler and usage record included), and with the default limit
//! of 100 a minute (after the first hundred, every answer the 429 refusal).

use std::time::Duration;

use domain::credits::Credits;
use server::Roles;
use server::services::api_keys::create_key;
use test_support::TestDb;

// `percentile` is for the benches that time single calls; this one prints the load figures.
#[allow(dead_code)]
mod common;
#[path = "common/hammer.rs"]
mod hammer;

/// Clients calling at once, each on its own keep-alive connection.
const CLIENTS: usize = 16;
/// How long each load runs.
const DURATION: Duration = Duration::from_secs(5);

async fn bench_engine(label: &str, db: &TestDb) {
    let running = server::start(
        common::config(db.url.clone(), db.dir()),
        Roles {
            web: true,
            worker: false,
        },
    )
    .await
    .expect("start");
    let addr = running.addr.expect("addr");
    let store_db = running.db.clone();
    let user = store::users::create_user(
        &store_db,
        &store::users::NewUser {
            email: "bench@example.com".into(),
            ..Default::default()
        },
    )
    .await
    .expect("user");
    store::credits::grant_credits(&store_db, user.id, Credits::whole(1), "admin", None)
        .await
        .expect("credits");
    let key = create_key(&store_db, &user, "bench").await.expect("key");
    // No worker: the analysis stays queued, so every GET reads the same row.
    let http = reqwest::Client::new();
    let created = http
        .post(format!("http://{addr}/api/v1/analyses"))
        .bearer_auth(&key.secret)
        .header("content-type", "application/json")
        .body(r#"{"url": "https://bench.example/", "reportType": "basic"}"#)
        .send()
        .await
        .expect("submit");
    assert_eq!(created.status(), 201, "submission");
    let body: serde_json::Value =
        serde_json::from_slice(&created.bytes().await.expect("body")).expect("json");
    let id = body["id"].as_str().expect("id").to_owned();
    let request = format!(
        "GET /api/v1/analyses/{id} HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer {}\r\n\r\n",
        key.secret
    );

    store::users::set_api_rate_limit(&store_db, user.id, domain::api::MAX_RATE_LIMIT_PER_MINUTE)
        .await
        .expect("limit");
    hammer::load(
        &format!("{label}: GET /api/v1/analyses/{{id}} (200s)"),
        addr,
        request.clone(),
        CLIENTS,
        DURATION,
    )
    .await;
    store::users::set_api_rate_limit(
        &store_db,
        user.id,
        domain::api::DEFAULT_RATE_LIMIT_PER_MINUTE,
    )
    .await
    .expect("limit");
    hammer::load(
        &format!("{label}: GET /api/v1/analyses/{{id}} (limit 100)"),
        addr,
        request,
        CLIENTS,
        DURATION,
    )
    .await;
    running.shutdown().await;
}

fn main() {
    common::on_each_engine(bench_engine);
}
