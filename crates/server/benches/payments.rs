//! Payment to spendable credits (`just bench`): a buyer's checkout is paid, Stripe's signed
//! `checkout.session.completed` reaches `POST /api/webhooks/stripe` (verified, the grant and its
//! ledger row in one transaction, the event recorded), and the buyer spends a credit at once.
//! Prints p50 and p99 of the webhook (payment confirmed to accepted) and of confirmed to the
//! first successful spend, with 10 payments in flight at once, on SQLite and (when reachable)
//! PostgreSQL.

use std::time::Duration;

use server::{Config, Roles};
use test_support::TestDb;

mod common;
#[path = "common/webhook.rs"]
mod webhook;
use common::percentile;

const SECRET: &str = "whsec_bench";
/// Payments in flight at once.
const CONCURRENT: usize = 10;
/// Payments each buyer makes.
const ROUNDS: usize = 20;

/// The common configuration with Stripe taking payments (its API is never called: the bench
/// delivers webhooks and spends, it starts no checkout).
fn config(url: String, dir: &std::path::Path) -> Config {
    let mut c = common::config(url, dir);
    c.stripe = Some(server::config::Stripe {
        secret_key: server::config::Secret("sk_test_bench".to_owned()),
        webhook_secret: server::config::Secret(SECRET.to_owned()),
        api_base: "http://127.0.0.1:9".to_owned(),
    });
    c
}

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
    let store_db = running.db.clone();
    let base = format!("http://{}", running.addr.expect("addr"));
    let http = reqwest::Client::new();
    let mut buyers = Vec::new();
    for n in 0..CONCURRENT {
        let res = http
            .post(format!("{base}/api/accounts/sign-up"))
            .header("content-type", "application/json")
            .body(
                serde_json::json!({"firstName": "Bench", "lastName": "Buyer", "email": format!("buyer{n}@example.com"),
                    "username": format!("buyer{n}"), "password": "correct horse battery"})
                .to_string(),
            )
            .send()
            .await
            .expect("sign-up");
        let body: serde_json::Value =
            serde_json::from_slice(&res.bytes().await.expect("body")).expect("account");
        buyers.push(body["account"]["id"].as_i64().expect("id"));
    }
    let tasks: Vec<_> = buyers
        .into_iter()
        .map(|user_id| {
            let (http, base, db) = (http.clone(), base.clone(), store_db.clone());
            tokio::spawn(async move {
                let mut accepted = Vec::new();
                let mut spendable = Vec::new();
                for round in 0..ROUNDS {
                    let checkout = format!("chk_bench_{user_id}_{round}");
                    store::billing::create_checkout(
                        &db,
                        &store::billing::NewCheckout {
                            id: checkout.clone(),
                            user_id,
                            kind: "pack".to_owned(),
                            package_id: "credit-1".to_owned(),
                            credits: Some(1),
                            amount_cents: 500,
                            interval: None,
                            extra_seats: 0,
                            report_type: None,
                            url: None,
                            mode: "stripe".to_owned(),
                        },
                    )
                    .await
                    .expect("checkout");
                    let t = webhook::deliver_paid(&http, &base, SECRET, &checkout, 500).await;
                    accepted.push(t.elapsed());
                    let spend = store::credits::spend_credits(
                        &db,
                        store::credits::Payer::own(user_id),
                        domain::credits::Credits::whole(1),
                        Some("bench"),
                    )
                    .await
                    .expect("spend");
                    assert!(
                        matches!(spend, store::credits::Spend::Spent(_)),
                        "the credit is spendable once the webhook is accepted"
                    );
                    spendable.push(t.elapsed());
                }
                (accepted, spendable)
            })
        })
        .collect();
    let (mut accepted, mut spendable) = (Vec::new(), Vec::new());
    for t in tasks {
        let (a, s) = t.await.expect("buyer");
        accepted.extend(a);
        spendable.extend(s);
    }
    accepted.sort();
    spendable.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "{label}: {} payments, {CONCURRENT} at once: webhook accepted p50 {:.1} ms, p99 {:.1} ms; credit spent p50 {:.1} ms, p99 {:.1} ms after the payment's confirmation",
        accepted.len(),
        ms(percentile(&accepted, 0.50)),
        ms(percentile(&accepted, 0.99)),
        ms(percentile(&spendable, 0.50)),
        ms(percentile(&spendable, 0.99)),
    );
    running.shutdown().await;
}

fn main() {
    common::on_each_engine(bench_engine);
}
