//! Stripe's signed `checkout.session.completed` for a recorded checkout, delivered to our
//! webhook as Stripe delivers it: the moment the payment benches time from. Included by the
//! benches that pay (`#[path]`), so the others do not carry it unused.

use std::time::Instant;

use server::services::signature::sign;

/// Delivers the completion of `checkout`, paid `amount_cents` (its payment intent
/// `pi_{checkout}`), to `base`'s webhook, signed with `secret` now; returns when it was sent,
/// once the server has accepted it.
pub async fn deliver_paid(
    http: &reqwest::Client,
    base: &str,
    secret: &str,
    checkout: &str,
    amount_cents: u32,
) -> Instant {
    let now = chrono::Utc::now().timestamp();
    let event = serde_json::json!({
        "id": format!("evt_{checkout}"), "type": "checkout.session.completed", "created": now,
        "data": {"object": {"id": format!("cs_{checkout}"), "client_reference_id": checkout,
            "payment_intent": format!("pi_{checkout}"), "payment_status": "paid",
            "amount_total": amount_cents}}
    })
    .to_string();
    let signature = sign(event.as_bytes(), secret, now);
    let sent = Instant::now();
    let res = http
        .post(format!("{base}/api/webhooks/stripe"))
        .header("content-type", "application/json")
        .header("stripe-signature", signature)
        .body(event)
        .send()
        .await
        .expect("webhook");
    assert_eq!(res.status(), 200, "webhook");
    let _ = res.bytes().await;
    sent
}
