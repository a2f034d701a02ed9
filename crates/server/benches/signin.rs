//! Sign-in latency (`just bench`): 20 visitors sign in at once, again and again, against the
//! real server on loopback (Argon2id on blocking threads, a new session each time), on SQLite
//! and (when reachable) PostgreSQL. Prints p50 and p99 of `POST /api/accounts/sign-in`.

use std::time::Instant;

use server::Roles;
use test_support::TestDb;

mod common;
use common::{config, percentile};

/// Visitors signing in at the same time.
const CONCURRENT: usize = 20;
/// Sign-ins each visitor makes.
const ROUNDS: usize = 10;

async fn bench_engine(label: &str, db: &TestDb) {
    let running = server::start(
        config(db.url.clone(), db.dir()),
        Roles {
            web: true,
            worker: false,
        },
    )
    .await
    .expect("start");
    let base = format!("http://{}", running.addr.expect("addr"));
    let http = reqwest::Client::new();
    // One account per visitor, so the per-account throttle is not what is measured.
    for n in 0..CONCURRENT {
        let res = http
            .post(format!("{base}/api/accounts/sign-up"))
            .header("content-type", "application/json")
            .body(
                serde_json::json!({"firstName": "Bench", "lastName": "User", "email": format!("bench{n}@example.com"),
                    "username": format!("bench{n}"), "password": "correct horse battery"})
                .to_string(),
            )
            .send()
            .await
            .expect("sign-up");
        assert_eq!(res.status(), 200, "sign-up");
    }
    let started = Instant::now();
    // Spawned all at once (collected), so the visitors really sign in concurrently.
    let visitors: Vec<_> = (0..CONCURRENT).map(|n| {
        let http = http.clone();
        let base = base.clone();
        tokio::spawn(async move {
            let mut times = Vec::new();
            for _ in 0..ROUNDS {
                let t = Instant::now();
                let res = http
                    .post(format!("{base}/api/accounts/sign-in"))
                    .header("content-type", "application/json")
                    // Only failures are counted by the throttle, so these never trip it.
                    .body(serde_json::json!({"email": format!("bench{n}@example.com"), "password": "correct horse battery"}).to_string())
                    .send()
                    .await
                    .expect("sign-in");
                assert_eq!(res.status(), 200, "sign-in");
                let _ = res.bytes().await;
                times.push(t.elapsed());
            }
            times
        })
    }).collect();
    let mut all = Vec::new();
    for v in visitors {
        all.extend(v.await.expect("visitor"));
    }
    let wall = started.elapsed();
    all.sort();
    println!(
        "{label}: sign-in, {CONCURRENT} concurrent, {} total: p50 {:.0} ms, p99 {:.0} ms, {:.1} sign-ins/s",
        all.len(),
        percentile(&all, 0.50).as_secs_f64() * 1000.0,
        percentile(&all, 0.99).as_secs_f64() * 1000.0,
        all.len() as f64 / wall.as_secs_f64()
    );
    running.shutdown().await;
}

fn main() {
    common::on_each_engine(bench_engine);
}
