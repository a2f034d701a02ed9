//! Paid report start-up (`just bench`): how long after a signed-in buyer's paid
//! `POST /api/analyze` the analysis is under way, and how long after an upgrade's payment is
//! confirmed (Stripe's signed `checkout.session.completed` reaching our webhook, which grants,
//! spends and queues the report in one transaction) its analysis reports its first progress.
//! A real server with its in-process worker on loopback, SQLite and (when reachable)
//! PostgreSQL, a standard report of a fixture page on 127.0.0.1, one after another. Prints p50
//! and p99 of: the answer to the POST or the webhook, the first event of the progress stream
//! (the stored state), and the first progress a worker reported (the analysis has started).

mod common;
#[path = "common/webhook.rs"]
mod webhook;
use common::percentile;

use std::time::{Duration, Instant};

use axum::Router;
use axum::response::Html;
use axum::routing::get;
use domain::credits::Credits;
use server::{Config, Roles};
use test_support::TestDb;

/// Paid analyses per engine.
const ROUNDS: usize = 40;
/// Our public origin in this configuration.
const ORIGIN: &str = "http://127.0.0.1";
/// The webhook's signing secret.
const SECRET: &str = "whsec_bench";

/// The shared bench configuration, with private targets allowed (the fixture page is on
/// 127.0.0.1) and Stripe taking payments (its API is never called: the bench records the
/// upgrade checkouts itself and delivers their signed completion events).
fn config(url: String, dir: &std::path::Path) -> Config {
    Config {
        allow_private_targets: true,
        stripe: Some(server::config::Stripe {
            secret_key: server::config::Secret("sk_test_bench".to_owned()),
            webhook_secret: server::config::Secret(SECRET.to_owned()),
            api_base: "http://127.0.0.1:9".to_owned(),
        }),
        ..common::config(url, dir)
    }
}

/// Waits until the job has finished, so the next start is measured on an idle worker, as a
/// buyer arriving from checkout finds it.
async fn until_finished(db: &store::DatabaseConnection, id: uuid::Uuid) {
    for _ in 0..600 {
        let job = store::jobs::get_job(db, id).await.expect("job");
        if matches!(
            job.status,
            store::jobs::JobStatus::Complete | store::jobs::JobStatus::Failed
        ) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Upgrades paid through the webhook: for each, the checkout is recorded, its signed
/// completion delivered, and the analysis the payment started followed to its first progress.
/// Returns when the webhook was accepted and when the analysis first progressed, measured from
/// the delivery.
async fn upgrades(
    http: &reqwest::Client,
    base: &str,
    db: &store::DatabaseConnection,
    user: i64,
    site: std::net::SocketAddr,
) -> (Vec<Duration>, Vec<Duration>) {
    let (mut accepted, mut started) = (Vec::new(), Vec::new());
    for n in 0..ROUNDS {
        let checkout = format!("chk_bench_upgrade_{n}");
        store::billing::create_checkout(
            db,
            &store::billing::NewCheckout {
                id: checkout.clone(),
                user_id: user,
                kind: "upgrade".to_owned(),
                package_id: "starter".to_owned(),
                credits: Some(1),
                amount_cents: 500,
                interval: None,
                extra_seats: 0,
                report_type: Some("standard".to_owned()),
                url: Some(format!("http://{site}/?upgrade={n}")),
                mode: "stripe".to_owned(),
            },
        )
        .await
        .expect("checkout");
        let t = webhook::deliver_paid(http, base, SECRET, &checkout, 500).await;
        accepted.push(t.elapsed());
        let id = store::billing::get_checkout(db, &checkout)
            .await
            .expect("read")
            .and_then(|c| c.analysis_id)
            .expect("the payment started the report");
        let (_, begun) = first_events(http, base, &id.to_string(), t).await;
        started.push(begun);
        until_finished(db, id).await;
    }
    (accepted, started)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// A small page on 127.0.0.1 for the analyses.
async fn fixture_site() -> std::net::SocketAddr {
    let page = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Bench fixture page for paid reports</title>\
        <meta name=\"description\" content=\"A page served on loopback so the paid report benchmark measures our own start-up, not the network.\">\
        </head><body><h1>Bench fixture</h1><p>Text.</p><a href=\"/about\">About</a></body></html>";
    let app = Router::new()
        .route("/", get(move || async move { Html(page) }))
        .route("/about", get(move || async move { Html(page) }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    addr
}

/// Reads the progress stream of `id` until the first event, and then until the first event a
/// worker sent (progress above 0); returns when each arrived, measured from `since`.
async fn first_events(
    http: &reqwest::Client,
    base: &str,
    id: &str,
    since: Instant,
) -> (Duration, Duration) {
    let mut res = http
        .get(format!("{base}/api/analysis-progress/{id}"))
        .send()
        .await
        .expect("stream");
    let mut buf = String::new();
    let mut first = None;
    loop {
        let chunk = tokio::time::timeout(Duration::from_secs(60), res.chunk())
            .await
            .expect("the stream stalled")
            .expect("stream read")
            .expect("the stream ended before the analysis started");
        buf.push_str(&String::from_utf8_lossy(&chunk));
        while let Some(end) = buf.find("\n\n") {
            let block: String = buf.drain(..end + 2).collect();
            for line in block.lines() {
                let Some(data) = line.strip_prefix("data:") else {
                    continue;
                };
                let event: serde_json::Value = serde_json::from_str(data.trim()).expect("event");
                let at = since.elapsed();
                if event["type"] == "connected" {
                    continue;
                }
                let first = *first.get_or_insert(at);
                let started = event["type"] == "complete"
                    || event["progress"].as_u64().is_some_and(|p| p > 0);
                if started {
                    return (first, at);
                }
                assert_ne!(event["type"], "error", "the paid analysis failed: {event}");
            }
        }
    }
}

async fn bench_engine(label: &str, db: &TestDb) {
    let running = server::start(
        config(db.url.clone(), db.dir()),
        Roles {
            web: true,
            worker: true,
        },
    )
    .await
    .expect("start");
    let base = format!("http://{}", running.addr.expect("addr"));
    let site = fixture_site().await;
    let http = reqwest::Client::new();
    let res = http
        .post(format!("{base}/api/accounts/sign-up"))
        .header("content-type", "application/json")
        .header("origin", ORIGIN)
        .body(
            serde_json::json!({"firstName": "Bench", "lastName": "Buyer", "email": "buyer@example.com",
                "username": "buyer", "password": "correct horse battery"})
            .to_string(),
        )
        .send()
        .await
        .expect("sign-up");
    assert_eq!(res.status(), 200, "sign-up");
    let cookie = res
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .expect("session cookie")
        .to_owned();
    let account: serde_json::Value =
        serde_json::from_slice(&res.bytes().await.expect("body")).expect("account");
    let csrf = account["account"]["csrfToken"]
        .as_str()
        .expect("csrf")
        .to_owned();
    let user = account["account"]["id"].as_i64().expect("id");
    // The credits a purchase would have granted.
    store::credits::grant_credits(
        &running.db,
        user,
        Credits::whole(ROUNDS as u32),
        "bench",
        None,
    )
    .await
    .expect("grant");

    let (mut answered, mut streamed, mut started) = (Vec::new(), Vec::new(), Vec::new());
    for n in 0..ROUNDS {
        let t = Instant::now();
        let res = http
            .post(format!("{base}/api/analyze"))
            .header("content-type", "application/json")
            .header("cookie", &cookie)
            .header("x-csrf-token", &csrf)
            .header("origin", ORIGIN)
            .header("sec-fetch-site", "same-origin")
            .body(
                serde_json::json!({"url": format!("http://{site}/?round={n}"), "reportType": "standard"})
                    .to_string(),
            )
            .send()
            .await
            .expect("analyze");
        assert_eq!(res.status(), 200, "paid analyze");
        let body: serde_json::Value =
            serde_json::from_slice(&res.bytes().await.expect("body")).expect("answer");
        answered.push(t.elapsed());
        let id = body["analysisId"].as_str().expect("analysis id");
        let (first, begun) = first_events(&http, &base, id, t).await;
        streamed.push(first);
        started.push(begun);
        until_finished(&running.db, id.parse().expect("uuid")).await;
    }
    let (mut accepted, mut upgraded) = upgrades(&http, &base, &running.db, user, site).await;
    for list in [
        &mut answered,
        &mut streamed,
        &mut started,
        &mut accepted,
        &mut upgraded,
    ] {
        list.sort();
    }
    println!(
        "{label}: paid standard report, {ROUNDS} in a row: POST /api/analyze answered p50 {:.1} ms, p99 {:.1} ms; \
         first stream event p50 {:.1} ms, p99 {:.1} ms; first worker progress p50 {:.1} ms, p99 {:.1} ms",
        ms(percentile(&answered, 0.5)),
        ms(percentile(&answered, 0.99)),
        ms(percentile(&streamed, 0.5)),
        ms(percentile(&streamed, 0.99)),
        ms(percentile(&started, 0.5)),
        ms(percentile(&started, 0.99)),
    );
    println!(
        "{label}: upgrade paid through Stripe's webhook, {ROUNDS} in a row: webhook accepted (granted, spent, queued) p50 {:.1} ms, p99 {:.1} ms; \
         first worker progress of its analysis p50 {:.1} ms, p99 {:.1} ms after the payment's confirmation was sent",
        ms(percentile(&accepted, 0.5)),
        ms(percentile(&accepted, 0.99)),
        ms(percentile(&upgraded, 0.5)),
        ms(percentile(&upgraded, 0.99)),
    );
    running.shutdown().await;
}

fn main() {
    common::on_each_engine(bench_engine);
}
