//! Billing on both engines: the test-payment journey (checkout priced by the server, pay,
//! decline, refund), plans (subscribe, renew, pause, cancel at period end, keep), a price in the
//! address that disagrees, Stripe's webhook (valid, tampered, stale and replayed signatures; one
//! event delivered ten times at once grants once; a refund takes back unspent credits), and the
//! authorization table of every billing route that touches account data.

use std::sync::Arc;

use domain::credits::Credits;
use serde_json::{Value, json};
use server::config::{Secret, Stripe};
use server::services::signature::sign;

use super::accounts::{Browser, Who};
use super::{Case, JSON, case};
use crate::support::{Answer, TestDb, WEB_ONLY, Web, config, each_engine, spawn_app};

/// Malformed billing requests.
pub fn malformed() -> Vec<Case> {
    vec![
        case("POST", "/api/checkout", JSON, "{}", 401),
        case("GET", "/api/billing", None, "", 401),
        case("GET", "/api/checkout/chk_x", None, "", 401),
        case("GET", "/api/checkout/upgrade/zzz", None, "", 401),
        case("POST", "/api/test-payments/chk_x/pay", JSON, "{}", 401),
        case("POST", "/api/billing/subscription", JSON, "{}", 401),
        // Test-payment mode has no Stripe endpoint.
        case("POST", "/api/webhooks/stripe", JSON, "{}", 404),
    ]
}

const WEBHOOK_SECRET: &str = "whsec_sitelens_test";

/// A configuration where Stripe takes payments (its API is never reached by these tests
/// unless `api_base` names a server).
fn stripe_config(db: &TestDb, api_base: &str) -> server::Config {
    let mut c = config(db);
    c.stripe = Some(Stripe {
        secret_key: Secret("sk_test_sitelens".to_owned()),
        webhook_secret: Secret(WEBHOOK_SECRET.to_owned()),
        api_base: api_base.to_owned(),
    });
    c
}

/// A new account signed in on its own browser, and its id.
async fn signed_up<'a>(web: &'a Web, email: &str, username: &str) -> (Browser<'a>, i64) {
    let mut browser = Browser::new(web);
    let answer = browser.sign_up(email, username).await;
    let id = answer.json["account"]["id"]
        .as_i64()
        .unwrap_or_else(|| panic!("signed up: {}", answer.json));
    (browser, id)
}

/// A fresh browser signed in to the account with the address (its old session ended).
async fn signed_in_again<'a>(web: &'a Web, email: &str) -> Browser<'a> {
    let mut browser = Browser::new(web);
    let answer = browser.sign_in(email, super::accounts::PASSWORD).await;
    assert_eq!(answer.status, 200, "{}", answer.json);
    browser
}

async fn credits(b: &mut Browser<'_>) -> i64 {
    let account = b.get("/api/account").await;
    assert_eq!(account.status, 200, "{}", account.json);
    account.json["paidCredits"].as_i64().expect("paid credits")
}

async fn checkout(b: &mut Browser<'_>, query: Value) -> Answer {
    b.post("/api/checkout", query).await
}

fn checkout_id(a: &Answer) -> String {
    a.json["id"].as_str().expect("checkout id").to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_test_payment_grants_its_credits_once_and_a_refund_takes_them_back() {
    each_engine(|db: TestDb| async move {
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let ready = app.get("/readyz").await;
        assert_eq!(ready.json["payments"], "test", "{}", ready.json);
        let mode = app.get("/api/payments/mode").await;
        assert_eq!(mode.json["mode"], "test");
        assert!(
            mode.json["label"]
                .as_str()
                .unwrap_or_default()
                .contains("Test payment")
        );

        let mut buyer = Browser::new(&app.web);
        buyer.sign_up("buyer@example.com", "buyer").await;
        assert_eq!(credits(&mut buyer).await, 0);

        // The Starter Pack: priced by the server, paid on the labelled test page.
        let started = checkout(&mut buyer, json!({"package": "credit-5"})).await;
        assert_eq!(started.status, 200, "{}", started.json);
        assert_eq!(started.json["item"]["amountCents"], 2000);
        assert_eq!(started.json["mode"], "test");
        let id = checkout_id(&started);
        assert_eq!(
            started.json["url"],
            format!("/test-checkout?session={id}"),
            "test payments happen on our own labelled page"
        );
        let open = buyer.get(&format!("/api/checkout/{id}")).await;
        assert_eq!(open.json["status"], "open");
        let paid = buyer
            .post(&format!("/api/test-payments/{id}/pay"), json!({}))
            .await;
        assert_eq!(paid.status, 200, "{}", paid.json);
        assert_eq!(paid.json["status"], "paid");
        assert_eq!(credits(&mut buyer).await, 5);
        // Paying twice neither grants twice nor pretends to.
        let again = buyer
            .post(&format!("/api/test-payments/{id}/pay"), json!({}))
            .await;
        assert_eq!(again.status, 409, "{}", again.json);
        assert_eq!(credits(&mut buyer).await, 5);

        // A custom amount goes to the credit page; a declined card grants nothing and says
        // the spec's text.
        let custom = checkout(
            &mut buyer,
            json!({"type": "credits", "credits": "7", "price": "28"}),
        )
        .await;
        assert_eq!(custom.status, 200, "{}", custom.json);
        let custom_id = checkout_id(&custom);
        assert_eq!(
            custom.json["url"],
            format!("/test-credit-checkout?session={custom_id}")
        );
        let declined = buyer
            .post(
                &format!("/api/test-payments/{custom_id}/decline"),
                json!({}),
            )
            .await;
        assert_eq!(declined.json["status"], "declined");
        assert_eq!(
            declined.json["failureMessage"],
            "Error starting purchase. Please try again."
        );
        assert_eq!(credits(&mut buyer).await, 5);

        // A price in the address that disagrees is refused, and nothing is recorded.
        let cheap = checkout(
            &mut buyer,
            json!({"type": "credits", "credits": "20", "price": "1"}),
        )
        .await;
        assert_eq!(cheap.status, 422, "{}", cheap.json);
        let message = cheap.json["error"].as_str().unwrap_or_default();
        assert!(
            message.contains("($1)")
                && message.contains("($70)")
                && message.contains("Nothing was charged"),
            "{message}"
        );

        // Spend 2 of the 5, then refund the pack: the 3 unspent credits go, the spent stay spent.
        let user_id = buyer.get("/api/account").await.json["id"]
            .as_i64()
            .expect("id");
        store::credits::spend_credits(
            &app.running.db,
            store::credits::Payer::own(user_id),
            Credits::whole(2),
            Some("test spend"),
        )
        .await
        .expect("spend");
        assert_eq!(credits(&mut buyer).await, 3);
        let billing = buyer.get("/api/billing").await;
        let payment = billing.json["purchases"][0]["reference"]
            .as_str()
            .expect("a purchase")
            .to_owned();
        let refund = buyer
            .post("/api/test-payments/refund", json!({"paymentId": payment}))
            .await;
        assert_eq!(refund.status, 200, "{}", refund.json);
        assert_eq!(credits(&mut buyer).await, 0);
        // The refund is applied once, however often it is asked for.
        buyer
            .post("/api/test-payments/refund", json!({"paymentId": payment}))
            .await;
        assert_eq!(credits(&mut buyer).await, 0);
        let ledger = store::credits::credit_history(&app.running.db, user_id, 10)
            .await
            .expect("ledger");
        // Ledger deltas are stored in half credits; `ledger_delta` reads them back as credits.
        let reasons: Vec<(String, (bool, Credits))> = ledger
            .iter()
            .map(|l| (l.reason.clone(), store::credits::ledger_delta(l)))
            .collect();
        assert_eq!(
            reasons,
            vec![
                ("refund".to_owned(), (false, Credits::whole(3))),
                ("spend".to_owned(), (false, Credits::whole(2))),
                ("purchase".to_owned(), (true, Credits::whole(5)))
            ]
        );
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_plan_renews_its_credits_and_can_be_paused_cancelled_and_kept() {
    each_engine(|db: TestDb| async move {
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let mut owner = Browser::new(&app.web);
        owner.sign_up("agency@example.com", "agency").await;
        let started = checkout(
            &mut owner,
            json!({"package": "business-plan", "interval": "yearly", "seats": "1"}),
        )
        .await;
        assert_eq!(started.status, 200, "{}", started.json);
        // A year is ten months of the plan and of the extra seat (docs/PRODUCT.md §9.3).
        assert_eq!(started.json["item"]["amountCents"], 70_000 + 2_000 * 10);
        let id = checkout_id(&started);
        let paid = owner
            .post(&format!("/api/test-payments/{id}/pay"), json!({}))
            .await;
        assert_eq!(paid.json["status"], "paid", "{}", paid.json);
        assert_eq!(credits(&mut owner).await, 20, "the first month's credits");
        let account = owner.get("/api/account").await.json;
        assert_eq!(account["plan"], "business");

        let billing = owner.get("/api/billing").await.json;
        let sub = &billing["subscription"];
        assert_eq!(sub["planId"], "business-plan");
        assert_eq!(sub["interval"], "yearly");
        assert_eq!(sub["status"], "active");
        assert_eq!(sub["seats"], 4, "three seats and one extra");
        assert_eq!(sub["monthlyCredits"], 20);
        let first_end = sub["currentPeriodEnd"].as_str().expect("end").to_owned();

        // Subscribing again to the same plan is refused rather than charged twice.
        let twice = checkout(
            &mut owner,
            json!({"package": "business-plan", "interval": "yearly", "seats": "1"}),
        )
        .await;
        assert_eq!(twice.status, 409, "{}", twice.json);

        // invoice.paid renews: the next period and its credits, once per invoice.
        let renewed = owner.post("/api/test-payments/renewal", json!({})).await;
        assert_eq!(renewed.status, 200, "{}", renewed.json);
        assert_eq!(credits(&mut owner).await, 40);
        assert_ne!(renewed.json["subscription"]["currentPeriodEnd"], first_end);

        for (action, status) in [
            ("pause", "paused"),
            ("resume", "active"),
            ("cancel", "cancel_at_period_end"),
            ("reactivate", "active"),
        ] {
            let a = owner
                .post("/api/billing/subscription", json!({"action": action}))
                .await;
            assert_eq!(a.status, 200, "{action}: {}", a.json);
            assert_eq!(a.json["subscription"]["status"], status, "{action}");
        }
        let wrong = owner
            .post("/api/billing/subscription", json!({"action": "resume"}))
            .await;
        assert_eq!(wrong.status, 409, "an active plan cannot be resumed");
        assert_eq!(
            wrong.json["error"],
            "Only a paused subscription can be resumed."
        );
    })
    .await;
}

/// Delivers `event` to the webhook signed at `timestamp` (with `secret`).
async fn deliver(web: &Web, event: &Value, secret: &str, timestamp: i64) -> Answer {
    let body = event.to_string();
    deliver_raw(web, &body, &sign(body.as_bytes(), secret, timestamp)).await
}

async fn deliver_raw(web: &Web, body: &str, signature: &str) -> Answer {
    let res = web
        .http
        .post(format!("{}/api/webhooks/stripe", web.base))
        .header("content-type", "application/json")
        .header("stripe-signature", signature)
        .body(body.to_owned())
        .send()
        .await
        .expect("delivery");
    let status = res.status().as_u16();
    let json = serde_json::from_slice(&res.bytes().await.expect("body")).unwrap_or(Value::Null);
    Answer {
        status,
        json,
        retry_after: None,
    }
}

/// Delivers every event at once, each signed now, and expects each to be accepted.
async fn deliver_at_once(base: &str, events: Vec<Value>) {
    let web = Arc::new(Web::at(base.to_owned()));
    let deliveries: Vec<_> = events
        .into_iter()
        .map(|event| {
            let web = web.clone();
            tokio::spawn(async move { deliver(&web, &event, WEBHOOK_SECRET, now()).await.status })
        })
        .collect();
    for d in deliveries {
        assert_eq!(d.await.expect("delivery task"), 200);
    }
}

fn now() -> i64 {
    chrono::Utc::now().timestamp()
}

/// A checkout recorded as the server records one before sending the buyer to Stripe.
async fn stripe_checkout(
    db: &store::DatabaseConnection,
    user_id: i64,
    package: &str,
    credits: u32,
    cents: u32,
    kind: &str,
) -> String {
    let id = format!("chk_{}", uuid::Uuid::new_v4().simple());
    store::billing::create_checkout(
        db,
        &store::billing::NewCheckout {
            id: id.clone(),
            user_id,
            kind: kind.to_owned(),
            package_id: package.to_owned(),
            credits: Some(credits),
            amount_cents: cents,
            interval: (kind == "plan").then(|| "monthly".to_owned()),
            extra_seats: 0,
            report_type: None,
            url: None,
            mode: "stripe".to_owned(),
        },
    )
    .await
    .expect("checkout");
    id
}

/// `checkout.session.completed` as Stripe sends it (the fields Stripe documents; the emulator
/// has no Checkout Sessions, so the test signs it with Stripe's scheme).
fn session_completed(event_id: &str, checkout: &str, payment_intent: &str, amount: u32) -> Value {
    json!({
        "id": event_id,
        "object": "event",
        "type": "checkout.session.completed",
        "created": now(),
        "data": {"object": {
            "id": format!("cs_test_{checkout}"),
            "object": "checkout.session",
            "client_reference_id": checkout,
            "payment_intent": payment_intent,
            "payment_status": "paid",
            "amount_total": amount,
            "currency": "usd",
            "mode": "payment",
            "customer": "cus_test_1",
        }}
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn stripe_webhooks_are_verified_and_grant_at_most_once() {
    each_engine(|db: TestDb| async move {
        let app = spawn_app(stripe_config(&db, "http://127.0.0.1:9"), WEB_ONLY).await;
        let ready = app.get("/readyz").await;
        assert_eq!(ready.json["payments"], "stripe");
        let store_db = app.running.db.clone();
        let (mut buyer, user_id) = signed_up(&app.web, "payer@example.com", "payer").await;
        let chk = stripe_checkout(&store_db, user_id, "credit-20", 20, 7000, "pack").await;
        let event = session_completed("evt_1", &chk, "pi_1", 7000);
        let body = event.to_string();

        // No header, a tampered body, the wrong secret and a stale timestamp are all refused
        // and grant nothing.
        let res = app
            .http
            .post(format!("{}/api/webhooks/stripe", app.base))
            .body(body.clone())
            .send()
            .await
            .expect("request");
        assert_eq!(res.status(), 400);
        let good = sign(body.as_bytes(), WEBHOOK_SECRET, now());
        let tampered = body.replace("7000", "7001");
        assert_eq!(deliver_raw(&app.web, &tampered, &good).await.status, 400);
        assert_eq!(deliver(&app.web, &event, "whsec_other", now()).await.status, 400);
        let stale = deliver(&app.web, &event, WEBHOOK_SECRET, now() - 301).await;
        assert_eq!(stale.status, 400, "{}", stale.json);
        assert_eq!(credits(&mut buyer).await, 0);

        // The same event delivered ten times at once grants once.
        deliver_at_once(&app.base, vec![event.clone(); 10]).await;
        assert_eq!(credits(&mut buyer).await, 20);
        // A replay of the accepted delivery, with its own valid signature, is a duplicate.
        let replay = deliver_raw(&app.web, &body, &good).await;
        assert_eq!(replay.status, 200);
        assert_eq!(replay.json["duplicate"], true);
        // A second event for the same payment (Stripe retries under a new delivery) is too.
        deliver(&app.web, &session_completed("evt_2", &chk, "pi_1", 7000), WEBHOOK_SECRET, now()).await;
        assert_eq!(credits(&mut buyer).await, 20);
        let purchases = store::billing::purchases(&store_db, user_id, 10).await.expect("purchases");
        assert_eq!(purchases.len(), 1);

        // A payment of another amount than the checkout's price grants nothing.
        let chk2 = stripe_checkout(&store_db, user_id, "credit-5", 5, 2000, "pack").await;
        deliver(&app.web, &session_completed("evt_3", &chk2, "pi_2", 1), WEBHOOK_SECRET, now()).await;
        assert_eq!(credits(&mut buyer).await, 20);

        // charge.refunded takes back the unspent credits of the refunded payment.
        store::credits::spend_credits(&store_db, store::credits::Payer::own(user_id), Credits::whole(15), None).await.expect("spend");
        let refund = json!({
            "id": "evt_4", "type": "charge.refunded", "created": now(),
            "data": {"object": {"id": "ch_1", "object": "charge", "payment_intent": "pi_1",
                                "amount": 7000, "amount_refunded": 7000, "refunded": true}}
        });
        let r = deliver(&app.web, &refund, WEBHOOK_SECRET, now()).await;
        assert_eq!(r.status, 200, "{}", r.json);
        assert_eq!(credits(&mut buyer).await, 0, "5 unspent credits taken back");
        let applied = store::credits::credit_history(&store_db, user_id, 1).await.expect("ledger");
        assert_eq!(
            (
                applied[0].reason.as_str(),
                store::credits::ledger_delta(&applied[0])
            ),
            ("refund", (false, Credits::whole(5)))
        );

        // A subscription: completed session, then Stripe's invoice.paid, updated and deleted.
        let plan = stripe_checkout(&store_db, user_id, "agency-plan", 100, 30000, "plan").await;
        let mut completed = session_completed("evt_5", &plan, "pi_unused", 30000);
        completed["data"]["object"]["mode"] = json!("subscription");
        completed["data"]["object"]["subscription"] = json!("sub_1");
        completed["data"]["object"]["invoice"] = json!("in_1");
        assert_eq!(deliver(&app.web, &completed, WEBHOOK_SECRET, now()).await.status, 200);
        assert_eq!(credits(&mut buyer).await, 100);
        let invoice = |id: &str, invoice: &str, start: i64| {
            json!({"id": id, "type": "invoice.paid", "created": now(),
                   "data": {"object": {"id": invoice, "object": "invoice", "subscription": "sub_1",
                   "customer": "cus_test_1", "amount_paid": 30000,
                   "lines": {"data": [{"period": {"start": start, "end": start + 30 * 86400}}]}}}})
        };
        // The first invoice was granted with the session; the next one renews.
        deliver(&app.web, &invoice("evt_6", "in_1", now()), WEBHOOK_SECRET, now()).await;
        assert_eq!(credits(&mut buyer).await, 100);
        deliver(&app.web, &invoice("evt_7", "in_2", now() + 30 * 86400), WEBHOOK_SECRET, now()).await;
        assert_eq!(credits(&mut buyer).await, 200);
        let updated = |id: &str, created: i64, cancel: bool| {
            json!({"id": id, "type": "customer.subscription.updated", "created": created,
                   "data": {"object": {"id": "sub_1", "object": "subscription", "status": "active",
                   "cancel_at_period_end": cancel, "pause_collection": null}}})
        };
        deliver(&app.web, &updated("evt_8", now(), true), WEBHOOK_SECRET, now()).await;
        let billing = buyer.get("/api/billing").await.json;
        assert_eq!(billing["subscription"]["status"], "cancel_at_period_end");
        // An older event delivered late does not undo the newer state.
        deliver(&app.web, &updated("evt_9", now() - 600, false), WEBHOOK_SECRET, now()).await;
        let billing = buyer.get("/api/billing").await.json;
        assert_eq!(billing["subscription"]["status"], "cancel_at_period_end");
        let deleted = json!({"id": "evt_10", "type": "customer.subscription.deleted", "created": now(),
                             "data": {"object": {"id": "sub_1", "object": "subscription", "status": "canceled"}}});
        deliver(&app.web, &deleted, WEBHOOK_SECRET, now()).await;
        let billing = buyer.get("/api/billing").await.json;
        assert!(billing["subscription"].is_null(), "{billing}");
        assert_eq!(buyer.get("/api/account").await.json["plan"], "basic");
        // An event we do not act on is acknowledged.
        let other = json!({"id": "evt_11", "type": "customer.created", "created": now(), "data": {"object": {"id": "cus_2"}}});
        assert_eq!(deliver(&app.web, &other, WEBHOOK_SECRET, now()).await.status, 200);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn billing_routes_answer_by_who_asks() {
    each_engine(|db: TestDb| async move {
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let store_db = app.running.db.clone();
        let (mut owner, owner_id) = signed_up(&app.web, "boss@example.com", "boss").await;
        store::users::set_subscription_plan(&store_db, owner_id, "business")
            .await
            .expect("plan");
        let mut member = Browser::new(&app.web);
        member.sign_up("staff@example.com", "staff").await;
        let invited = owner
            .post(
                "/api/team/invitations",
                json!({"email": "staff@example.com"}),
            )
            .await;
        assert_eq!(invited.status, 200, "{}", invited.json);
        let token = super::accounts::outbox_token(&store_db, "staff@example.com", "join").await;
        assert_eq!(
            member
                .post("/api/team/join", json!({"token": token}))
                .await
                .status,
            200
        );
        let mut other = Browser::new(&app.web);
        other.sign_up("stranger@example.com", "stranger").await;
        let mut anonymous = Browser::new(&app.web);

        // The owner's checkouts: one to read, one to pay, one to decline.
        let mut owners = Vec::new();
        for _ in 0..3 {
            let c = checkout(&mut owner, json!({"package": "credit-1"})).await;
            assert_eq!(c.status, 200, "{}", c.json);
            owners.push(checkout_id(&c));
        }
        let paid = owner
            .post(&format!("/api/test-payments/{}/pay", owners[1]), json!({}))
            .await;
        assert_eq!(paid.status, 200);
        let payment = owner.get("/api/billing").await.json["purchases"][0]["reference"]
            .as_str()
            .expect("purchase")
            .to_owned();

        for who in [Who::Anonymous, Who::Owner, Who::Member, Who::Other] {
            let b = match who {
                Who::Anonymous => &mut anonymous,
                Who::Owner => &mut owner,
                Who::Member => &mut member,
                Who::Other => &mut other,
            };
            // (route, owner, member, other); anonymous is always 401.
            let by = |owner: u16, member: u16, other: u16| match who {
                Who::Anonymous => 401,
                Who::Owner => owner,
                Who::Member => member,
                Who::Other => other,
            };
            let billing = b.get("/api/billing").await;
            assert_eq!(billing.status, by(200, 403, 200), "{who:?} billing");
            if who == Who::Other {
                assert_eq!(
                    billing.json["purchases"],
                    json!([]),
                    "nobody sees another's purchases"
                );
            }
            let read = b.get(&format!("/api/checkout/{}", owners[0])).await;
            assert_eq!(read.status, by(200, 404, 404), "{who:?} read checkout");
            let start = b
                .post("/api/checkout", json!({"package": "credit-5"}))
                .await;
            assert_eq!(start.status, by(200, 403, 200), "{who:?} start checkout");
            let decline = b
                .post(
                    &format!("/api/test-payments/{}/decline", owners[2]),
                    json!({}),
                )
                .await;
            // The owner declines it once; nobody else reaches it.
            assert_eq!(decline.status, by(200, 404, 404), "{who:?} decline");
            let pay = b
                .post(&format!("/api/test-payments/{}/pay", owners[0]), json!({}))
                .await;
            assert_eq!(pay.status, by(200, 404, 404), "{who:?} pay");
            let refund = b
                .post("/api/test-payments/refund", json!({"paymentId": payment}))
                .await;
            assert_eq!(refund.status, by(200, 403, 404), "{who:?} refund");
            let renew = b.post("/api/test-payments/renewal", json!({})).await;
            // Nobody has a subscription: a clear 409 for the owner and the stranger.
            assert_eq!(renew.status, by(409, 403, 409), "{who:?} renewal");
            let action = b
                .post("/api/billing/subscription", json!({"action": "pause"}))
                .await;
            assert_eq!(action.status, by(409, 403, 409), "{who:?} plan action");
        }
        // Only the owner's own payment of the second checkout and of the first (paid by the
        // owner in the table) granted credits; the refund took back the first's.
        assert_eq!(credits(&mut owner).await, 1);
        assert_eq!(credits(&mut other).await, 0);
    })
    .await;
}

/// Where `just setup` installs localstripe (`SITELENS_TEST_LOCALSTRIPE` overrides it).
fn localstripe_dir() -> std::path::PathBuf {
    std::env::var_os("SITELENS_TEST_LOCALSTRIPE")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../.tools/localstripe")
        })
}

/// localstripe's app served on 127.0.0.1 only (its own launcher listens on every address).
const LOCALSTRIPE: &str = r#"
import socket
from aiohttp import web
from localstripe.server import app
sock = socket.socket()
sock.bind(("127.0.0.1", 0))
print(sock.getsockname()[1], flush=True)
web.run_app(app, sock=sock, print=None, access_log=None)
"#;

/// Starts localstripe; `None` (with a warning, or a failure under CI) when it is not installed.
async fn start_localstripe() -> Option<(tokio::process::Child, String)> {
    if !localstripe_dir().join("localstripe").is_dir() {
        assert!(
            !crate::support::under_ci(),
            "localstripe is not installed: run `just setup`"
        );
        eprintln!(
            "WARNING: localstripe is not installed (run `just setup`): the Stripe emulator test is skipped"
        );
        return None;
    }
    let mut child = tokio::process::Command::new("python3")
        .args(["-S", "-c", LOCALSTRIPE])
        .env("PYTHONPATH", localstripe_dir())
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("python3 runs");
    let port = crate::support::printed_port(&mut child).await;
    Some((child, format!("http://127.0.0.1:{port}")))
}

/// A form POST to the emulator's API with the test key; its JSON answer.
async fn emulator(
    http: &reqwest::Client,
    base: &str,
    method: &str,
    path: &str,
    form: &[(&str, &str)],
) -> Value {
    let body = url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(form)
        .finish();
    let method = reqwest::Method::from_bytes(method.as_bytes()).expect("method");
    let res = http
        .request(method, format!("{base}{path}"))
        .basic_auth("sk_test_sitelens", Some(""))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(body)
        .send()
        .await
        .expect("emulator answers");
    serde_json::from_slice(&res.bytes().await.expect("body")).unwrap_or(Value::Null)
}

/// A GET of the emulator's API: its JSON answer.
async fn emulator_get(http: &reqwest::Client, base: &str, path: &str) -> Value {
    emulator(http, base, "GET", path, &[]).await
}

/// Polls `check` every 100 ms for at most 20 s (the emulator delivers its webhooks a second
/// after the change that causes them).
async fn eventually<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(20);
    while !check().await {
        assert!(
            tokio::time::Instant::now() < deadline,
            "never happened: {what}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn stripe_through_a_local_emulator() {
    each_engine(|db: TestDb| async move {
        let Some((_stripe, base)) = start_localstripe().await else {
            return;
        };
        let app = spawn_app(stripe_config(&db, &base), WEB_ONLY).await;
        let store_db = app.running.db.clone();
        let http = reqwest::Client::new();
        // The emulator delivers its signed events to our real webhook route.
        let hook = emulator(
            &http,
            &base,
            "POST",
            "/_config/webhooks/sitelens",
            &[
                ("url", &format!("{}/api/webhooks/stripe", app.base)),
                ("secret", WEBHOOK_SECRET),
            ],
        )
        .await;
        assert!(hook.is_null(), "webhook registered: {hook}");

        let (mut buyer, user_id) = signed_up(&app.web, "stripe@example.com", "stripe").await;
        // The emulator has no Checkout Sessions: the customer is created for real, then the
        // session fails, and the buyer reads the spec's alert (nothing charged, nothing granted).
        let plan = checkout(&mut buyer, json!({"package": "business-plan"})).await;
        assert_eq!(plan.status, 502, "{}", plan.json);
        assert_eq!(
            plan.json["error"],
            "Error starting subscription. Please try again."
        );
        let pack = checkout(&mut buyer, json!({"package": "credit-1"})).await;
        assert_eq!(
            pack.json["error"],
            "Error starting purchase. Please try again."
        );
        let user = store::users::get_user(&store_db, user_id)
            .await
            .expect("user");
        let customer = user
            .stripe_customer_id
            .expect("a Stripe customer was created");
        let remote = emulator_get(&http, &base, &format!("/v1/customers/{customer}")).await;
        assert_eq!(remote["email"], "stripe@example.com");
        assert_eq!(remote["metadata"]["user_id"], user_id.to_string());

        // What Stripe Checkout does for a subscription, done on the emulator: a plan, a card,
        // the subscription and its first invoice.
        emulator(
            &http,
            &base,
            "POST",
            "/v1/plans",
            &[
                ("id", "business-monthly"),
                ("amount", "7000"),
                ("currency", "usd"),
                ("interval", "month"),
                ("product[name]", "Business"),
            ],
        )
        .await;
        let token = emulator(
            &http,
            &base,
            "POST",
            "/v1/tokens",
            &[
                ("card[number]", "4242424242424242"),
                ("card[exp_month]", "12"),
                ("card[exp_year]", "2030"),
                ("card[cvc]", "123"),
            ],
        )
        .await;
        let token = token["id"].as_str().expect("card token").to_owned();
        emulator(
            &http,
            &base,
            "POST",
            &format!("/v1/customers/{customer}/sources"),
            &[("source", &token)],
        )
        .await;
        let sub = emulator(
            &http,
            &base,
            "POST",
            "/v1/subscriptions",
            &[
                ("customer", &customer),
                ("items[0][plan]", "business-monthly"),
            ],
        )
        .await;
        let (sub_id, invoice) = (
            sub["id"].as_str().expect("subscription").to_owned(),
            sub["latest_invoice"]
                .as_str()
                .expect("first invoice")
                .to_owned(),
        );
        // Checkout's completion event, which the emulator lacks, signed by the test.
        let chk = stripe_checkout(&store_db, user_id, "business-plan", 20, 7000, "plan").await;
        let mut completed = session_completed("evt_cs_emulated", &chk, "pi_unused", 7000);
        completed["data"]["object"]["mode"] = json!("subscription");
        completed["data"]["object"]["subscription"] = json!(sub_id);
        completed["data"]["object"]["invoice"] = json!(invoice);
        completed["data"]["object"]["customer"] = json!(customer);
        let done = deliver(&app.web, &completed, WEBHOOK_SECRET, now()).await;
        assert_eq!(done.status, 200, "{}", done.json);
        assert_eq!(credits(&mut buyer).await, 20);
        // The emulator's own signed invoice event for that invoice arrives and grants nothing
        // more: the first period was granted under the same invoice.
        eventually("the emulator's invoice event is handled", || {
            let db = store_db.clone();
            async move {
                store::billing::events_handled(&db, "invoice.paid")
                    .await
                    .expect("count")
                    >= 1
            }
        })
        .await;
        assert_eq!(credits(&mut buyer).await, 20);

        // A change of plan moves the same subscription to the new plan at Stripe (its one item
        // replaced by the new price, which Stripe prorates) instead of starting a second one.
        let change = checkout(&mut buyer, json!({"package": "agency-plan"})).await;
        assert_eq!(change.status, 200, "{}", change.json);
        let change_id = checkout_id(&change);
        assert_eq!(
            change.json["url"],
            format!("/thank-you?session={change_id}")
        );
        let remote = emulator_get(&http, &base, &format!("/v1/subscriptions/{sub_id}")).await;
        assert_eq!(
            remote["items"]["data"].as_array().map(Vec::len),
            Some(1),
            "{remote}"
        );
        assert_eq!(
            remote["items"]["data"][0]["plan"]["amount"], 30000,
            "{remote}"
        );
        // (The emulator keeps no metadata on a subscription update; Stripe keeps the plan id
        // we send there, which its customer.subscription.updated carries back.)
        let subscriptions = emulator_get(
            &http,
            &base,
            &format!("/v1/subscriptions?customer={customer}"),
        )
        .await;
        assert_eq!(
            subscriptions["data"].as_array().map(Vec::len),
            Some(1),
            "one subscription: {subscriptions}"
        );
        let billing = buyer.get("/api/billing").await.json;
        assert_eq!(
            billing["subscription"]["planId"], "agency-plan",
            "{billing}"
        );
        assert_eq!(billing["subscription"]["amountCents"], 30000, "{billing}");
        assert_eq!(buyer.get("/api/account").await.json["plan"], "agency");
        let paid = buyer.get(&format!("/api/checkout/{change_id}")).await;
        assert_eq!(paid.json["status"], "paid", "{}", paid.json);
        // Business grants 20 credits a month and Agency 100: the upgrade grants the other 80
        // for the month under way at once, and once (Stripe's own update event for the change,
        // delivered again, grants nothing more).
        assert_eq!(credits(&mut buyer).await, 100, "the upgrade's difference");
        let updated = json!({"id": "evt_sub_upgraded", "type": "customer.subscription.updated",
            "created": now(),
            "data": {"object": {"id": sub_id, "object": "subscription", "status": "active",
                                "metadata": {"plan_id": "agency-plan", "interval": "monthly",
                                             "extra_seats": "0"}}}});
        for _ in 0..2 {
            let r = deliver(&app.web, &updated, WEBHOOK_SECRET, now()).await;
            assert_eq!(r.status, 200, "{}", r.json);
        }
        assert_eq!(credits(&mut buyer).await, 100);

        // Cancelling at period end is asked of Stripe, and Stripe holds it.
        let cancel = buyer
            .post("/api/billing/subscription", json!({"action": "cancel"}))
            .await;
        assert_eq!(cancel.status, 200, "{}", cancel.json);
        assert_eq!(
            cancel.json["subscription"]["status"],
            "cancel_at_period_end"
        );
        let remote = emulator_get(&http, &base, &format!("/v1/subscriptions/{sub_id}")).await;
        assert_eq!(remote["cancel_at_period_end"], true);

        // Ended at Stripe: its signed customer.subscription.deleted ends the plan here.
        emulator(
            &http,
            &base,
            "DELETE",
            &format!("/v1/subscriptions/{sub_id}"),
            &[],
        )
        .await;
        eventually("the plan ends", || {
            let db = store_db.clone();
            async move {
                store::users::get_user(&db, user_id)
                    .await
                    .is_ok_and(|u| u.subscription_plan == "basic")
            }
        })
        .await;
    })
    .await;
}

/// Paid analyses in the database.
async fn jobs(db: &store::DatabaseConnection) -> Vec<store::jobs::Job> {
    store::jobs::recent_jobs(db, None, 1000)
        .await
        .expect("jobs")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_upgrade_payment_starts_its_professional_report_once() {
    each_engine(|db: TestDb| async move {
        // Test-payment mode: the pay button confirms the payment, and the server starts the
        // professional report in the same transaction as the grant and the spend.
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let store_db = app.running.db.clone();
        let (mut buyer, user_id) = signed_up(&app.web, "upgrade@example.com", "upgrade").await;
        let started = checkout(
            &mut buyer,
            json!({"package": "starter", "amount": "5", "url": "upgrade.example"}),
        )
        .await;
        assert_eq!(started.status, 200, "{}", started.json);
        assert_eq!(started.json["item"]["kind"], "upgrade");
        let id = checkout_id(&started);
        let open = buyer.get(&format!("/api/checkout/{id}")).await;
        assert!(open.json["analysisId"].is_null(), "{}", open.json);
        let paid = buyer
            .post(&format!("/api/test-payments/{id}/pay"), json!({}))
            .await;
        assert_eq!(paid.status, 200, "{}", paid.json);
        let analysis = paid.json["analysisId"]
            .as_str()
            .expect("the payment started the report")
            .to_owned();
        let queued = jobs(&store_db).await;
        assert_eq!(queued.len(), 1);
        let job = &queued[0];
        assert_eq!(job.id.to_string(), analysis);
        assert_eq!(
            (job.report_type, job.url.as_str(), job.requester_user_id),
            (
                domain::report::ReportType::Standard,
                "https://upgrade.example/",
                Some(user_id)
            )
        );
        let charge = job.charge.expect("the report was paid");
        assert_eq!((charge.paid, charge.paid_by), (Credits::whole(1), user_id));
        assert_eq!(
            credits(&mut buyer).await,
            0,
            "the bought credit paid the report"
        );
        // The page reloaded after the payment reads the same analysis; paying again is refused;
        // nothing more is started or spent.
        let reloaded = buyer.get(&format!("/api/checkout/{id}")).await;
        assert_eq!(reloaded.json["analysisId"], analysis.as_str());
        let again = buyer
            .post(&format!("/api/test-payments/{id}/pay"), json!({}))
            .await;
        assert_eq!(again.status, 409, "{}", again.json);
        assert_eq!(jobs(&store_db).await.len(), 1);
        let ledger: Vec<(String, (bool, Credits))> =
            store::credits::credit_history(&store_db, user_id, 10)
                .await
                .expect("ledger")
                .iter()
                .map(|l| (l.reason.clone(), store::credits::ledger_delta(l)))
                .collect();
        assert_eq!(
            ledger,
            vec![
                ("spend".to_owned(), (false, Credits::whole(1))),
                ("purchase".to_owned(), (true, Credits::whole(1)))
            ]
        );
        app.running.shutdown().await;

        // Stripe: the payment confirmed by ten deliveries at once, under different event ids
        // (Stripe's completion and its async-payment success name one payment), starts one
        // report and spends one credit.
        let app = spawn_app(stripe_config(&db, "http://127.0.0.1:9"), WEB_ONLY).await;
        let chk = format!("chk_{}", uuid::Uuid::new_v4().simple());
        store::billing::create_checkout(
            &store_db,
            &store::billing::NewCheckout {
                id: chk.clone(),
                user_id,
                kind: "upgrade".to_owned(),
                package_id: "starter".to_owned(),
                credits: Some(1),
                amount_cents: 500,
                interval: None,
                extra_seats: 0,
                report_type: Some("standard".to_owned()),
                url: Some("https://stripe-upgrade.example/".to_owned()),
                mode: "stripe".to_owned(),
            },
        )
        .await
        .expect("checkout");
        let events = (0..10)
            .map(|n| session_completed(&format!("evt_up_{n}"), &chk, "pi_up", 500))
            .collect();
        deliver_at_once(&app.base, events).await;
        let started: Vec<_> = jobs(&store_db)
            .await
            .into_iter()
            .filter(|j| j.url == "https://stripe-upgrade.example/")
            .collect();
        assert_eq!(started.len(), 1, "one report for one payment");
        let row = store::billing::get_checkout(&store_db, &chk)
            .await
            .expect("read")
            .expect("checkout");
        assert_eq!(
            (row.status.as_str(), row.analysis_id),
            ("paid", Some(started[0].id))
        );
        let balance = store::credits::credit_balance(&store_db, user_id, chrono::Utc::now())
            .await
            .expect("balance");
        assert_eq!(balance.total(), Credits::ZERO);
        let purchases = store::billing::purchases(&store_db, user_id, 10)
            .await
            .expect("purchases");
        assert_eq!(purchases.len(), 2, "one purchase per payment");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_enterprise_plan_covers_paid_reports_while_it_is_paid() {
    each_engine(|db: TestDb| async move {
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let store_db = app.running.db.clone();
        let (mut owner, owner_id) =
            signed_up(&app.web, "enterprise@example.com", "enterprise").await;
        let premium = json!({"url": "https://enterprise.example/", "reportType": "premium"});
        // Without a plan or credits a paid report is refused.
        assert_eq!(
            owner.post("/api/analyze", premium.clone()).await.status,
            402
        );
        assert_eq!(
            owner.get("/api/account").await.json["unlimitedReports"],
            false
        );

        let started = checkout(&mut owner, json!({"package": "enterprise-plan"})).await;
        assert_eq!(started.status, 200, "{}", started.json);
        let id = checkout_id(&started);
        let paid = owner
            .post(&format!("/api/test-payments/{id}/pay"), json!({}))
            .await;
        assert_eq!(paid.json["status"], "paid", "{}", paid.json);
        let account = owner.get("/api/account").await.json;
        assert_eq!(account["unlimitedReports"], true, "{account}");
        assert_eq!(
            credits(&mut owner).await,
            0,
            "unlimited is not a number of credits"
        );

        // Three premium reports (2 credits each) on no credits: the plan covers them, each
        // spend a ledger row of its own, no balance touched.
        for _ in 0..3 {
            let queued = owner.post("/api/analyze", premium.clone()).await;
            assert_eq!(queued.status, 200, "{}", queued.json);
            let job = store::jobs::get_job(
                &store_db,
                queued.json["analysisId"]
                    .as_str()
                    .expect("analysis id")
                    .parse()
                    .expect("uuid"),
            )
            .await
            .expect("job");
            let charge = job.charge.expect("a paid report");
            assert_eq!(
                (charge.trial, charge.paid, charge.plan, charge.paid_by),
                (Credits::ZERO, Credits::ZERO, Credits::whole(2), owner_id)
            );
        }
        assert_eq!(credits(&mut owner).await, 0);
        let spends: Vec<(String, String, (bool, Credits))> =
            store::credits::credit_history(&store_db, owner_id, 10)
                .await
                .expect("ledger")
                .iter()
                .filter(|l| l.reason == "spend")
                .map(|l| {
                    (
                        l.pool.clone(),
                        l.reason.clone(),
                        store::credits::ledger_delta(l),
                    )
                })
                .collect();
        assert_eq!(
            spends,
            vec![
                (
                    "plan".to_owned(),
                    "spend".to_owned(),
                    (false, Credits::whole(2))
                );
                3
            ]
        );

        // Paused, the plan covers nothing: the report needs credits again.
        let paused = owner
            .post("/api/billing/subscription", json!({"action": "pause"}))
            .await;
        assert_eq!(paused.status, 200, "{}", paused.json);
        assert_eq!(
            owner.post("/api/analyze", premium.clone()).await.status,
            402
        );
        assert_eq!(
            owner.get("/api/account").await.json["unlimitedReports"],
            false
        );
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn refunds_count_what_each_adds_and_reach_a_plans_invoice() {
    each_engine(|db: TestDb| async move {
        let app = spawn_app(stripe_config(&db, "http://127.0.0.1:9"), WEB_ONLY).await;
        let store_db = app.running.db.clone();
        let (mut buyer, user_id) = signed_up(&app.web, "refunds@example.com", "refunds").await;
        let chk = stripe_checkout(&store_db, user_id, "credit-20", 20, 7000, "pack").await;
        let paid = deliver(&app.web, &session_completed("evt_r1", &chk, "pi_r", 7000), WEBHOOK_SECRET, now()).await;
        assert_eq!(paid.status, 200, "{}", paid.json);
        assert_eq!(credits(&mut buyer).await, 20);

        // Stripe's charge.refunded carries the charge's running total: $35, then $70.
        let refunded = |event: &str, total: i64| {
            json!({"id": event, "type": "charge.refunded", "created": now(),
                   "data": {"object": {"id": "ch_r", "object": "charge", "payment_intent": "pi_r",
                                       "amount": 7000, "amount_refunded": total, "refunded": total == 7000}}})
        };
        assert_eq!(deliver(&app.web, &refunded("evt_r2", 3500), WEBHOOK_SECRET, now()).await.status, 200);
        assert_eq!(credits(&mut buyer).await, 10, "half the payment refunded, half the credits");
        // Five credits from elsewhere are not the refunded payment's to take.
        store::credits::grant_credits(&store_db, user_id, Credits::whole(5), "admin", None)
            .await
            .expect("grant");
        assert_eq!(deliver(&app.web, &refunded("evt_r3", 7000), WEBHOOK_SECRET, now()).await.status, 200);
        assert_eq!(credits(&mut buyer).await, 5, "the second half takes the other ten, not twenty");
        // The first total delivered again under another event id adds nothing.
        deliver(&app.web, &refunded("evt_r4", 3500), WEBHOOK_SECRET, now()).await;
        assert_eq!(credits(&mut buyer).await, 5);

        // A plan's charge: its credits were granted under the invoice the charge paid.
        let plan = stripe_checkout(&store_db, user_id, "business-plan", 20, 7000, "plan").await;
        let mut completed = session_completed("evt_r5", &plan, "pi_unused", 7000);
        completed["data"]["object"]["mode"] = json!("subscription");
        completed["data"]["object"]["subscription"] = json!("sub_r");
        completed["data"]["object"]["invoice"] = json!("in_r");
        assert_eq!(deliver(&app.web, &completed, WEBHOOK_SECRET, now()).await.status, 200);
        assert_eq!(credits(&mut buyer).await, 25);
        let invoice_refund = json!({"id": "evt_r6", "type": "charge.refunded", "created": now(),
            "data": {"object": {"id": "ch_sub", "object": "charge", "payment_intent": "pi_sub",
                                "invoice": "in_r", "amount": 7000, "amount_refunded": 7000, "refunded": true}}});
        let r = deliver(&app.web, &invoice_refund, WEBHOOK_SECRET, now()).await;
        assert_eq!(r.status, 200, "{}", r.json);
        assert_eq!(credits(&mut buyer).await, 5, "the refunded month's 20 credits are taken back");
        let refunds: Vec<(bool, Credits)> = store::credits::credit_history(&store_db, user_id, 20)
            .await
            .expect("ledger")
            .iter()
            .filter(|l| l.reason == "refund")
            .map(store::credits::ledger_delta)
            .collect();
        assert_eq!(
            refunds,
            vec![
                (false, Credits::whole(20)),
                (false, Credits::whole(10)),
                (false, Credits::whole(10))
            ]
        );

        // Newer API versions: a renewal's charge no longer names its invoice, and Stripe's
        // `invoice_payment.paid` says which payment intent paid which invoice; the refund of
        // that payment intent reaches the invoice's credits (and arriving first does no harm).
        let sub = store::billing::get_subscription(&store_db, user_id)
            .await
            .expect("read")
            .expect("subscription");
        let (start, end) = (
            sub.current_period_end.timestamp(),
            sub.current_period_end.timestamp() + 30 * 86_400,
        );
        let linked = json!({"id": "evt_r7", "type": "invoice_payment.paid", "created": now(),
            "data": {"object": {"id": "inpay_r2", "object": "invoice_payment", "invoice": "in_r2",
                                "payment": {"type": "payment_intent", "payment_intent": "pi_r2"},
                                "status": "paid"}}});
        assert_eq!(deliver(&app.web, &linked, WEBHOOK_SECRET, now()).await.status, 200);
        let renewal = json!({"id": "evt_r8", "type": "invoice.paid", "created": now(),
            "data": {"object": {"id": "in_r2", "object": "invoice", "amount_paid": 7000,
                                "parent": {"subscription_details": {"subscription": "sub_r"}},
                                "lines": {"data": [{"period": {"start": start, "end": end}}]}}}});
        let r = deliver(&app.web, &renewal, WEBHOOK_SECRET, now()).await;
        assert_eq!(r.status, 200, "{}", r.json);
        assert_eq!(credits(&mut buyer).await, 25, "the renewal's 20 credits");
        let newer_refund = json!({"id": "evt_r9", "type": "charge.refunded", "created": now(),
            "data": {"object": {"id": "ch_r2", "object": "charge", "payment_intent": "pi_r2",
                                "amount": 7000, "amount_refunded": 7000, "refunded": true}}});
        let r = deliver(&app.web, &newer_refund, WEBHOOK_SECRET, now()).await;
        assert_eq!(r.status, 200, "{}", r.json);
        assert_eq!(
            credits(&mut buyer).await,
            5,
            "the renewal refunded by its payment intent alone"
        );
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_yearly_plan_grants_each_months_credits_as_the_month_begins() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let store_db = app.running.db.clone();
        let (mut yearly, yearly_id) = signed_up(&app.web, "yearly@example.com", "yearly").await;
        let (mut monthly, _) = signed_up(&app.web, "monthly@example.com", "monthly").await;
        for (b, interval) in [(&mut yearly, "yearly"), (&mut monthly, "monthly")] {
            let started = checkout(
                b,
                json!({"package": "business-plan", "interval": interval, "seats": "0"}),
            )
            .await;
            assert_eq!(started.status, 200, "{engine:?}: {}", started.json);
            let id = checkout_id(&started);
            let paid = b
                .post(&format!("/api/test-payments/{id}/pay"), json!({}))
                .await;
            assert_eq!(paid.json["status"], "paid", "{}", paid.json);
            assert_eq!(
                credits(b).await,
                20,
                "{interval}: the first month's credits"
            );
        }
        let sub = store::billing::get_subscription(&store_db, yearly_id)
            .await
            .expect("read")
            .expect("subscription");
        let (start, end) = (sub.current_period_start, sub.current_period_end);
        let twelfth = (end - start) / 12;
        // The hourly sweep grants them (`sweep` also ends sessions as of its clock, so the
        // later steps call its grant step alone and keep the browser signed in).
        let sweep = |at| server::services::billing::grant_due_plan_months(&store_db, at);

        // Within the first month nothing more is due.
        let swept =
            server::services::maintenance::sweep(&store_db, start + chrono::Duration::days(1))
                .await
                .expect("sweep");
        assert_eq!(swept.plan_months, 0, "{engine:?}");
        assert_eq!(
            sweep(start + twelfth - chrono::Duration::minutes(1))
                .await
                .expect("grant"),
            0
        );
        assert_eq!(credits(&mut yearly).await, 20);

        // The second month begins: its credits, once however often the sweep runs.
        let swept = server::services::maintenance::sweep(&store_db, start + twelfth)
            .await
            .expect("sweep");
        assert_eq!(swept.plan_months, 1, "{engine:?}");
        for _ in 0..3 {
            assert_eq!(sweep(start + twelfth).await.expect("grant"), 0);
        }
        let mut yearly = signed_in_again(&app.web, "yearly@example.com").await;
        assert_eq!(credits(&mut yearly).await, 40, "{engine:?}");
        let mut monthly = signed_in_again(&app.web, "monthly@example.com").await;
        assert_eq!(
            credits(&mut monthly).await,
            20,
            "a monthly plan renews by invoice"
        );

        // Paused, the plan waits; resumed, it catches up on the months its year paid for.
        let paused = yearly
            .post("/api/billing/subscription", json!({"action": "pause"}))
            .await;
        assert_eq!(
            paused.json["subscription"]["status"], "paused",
            "{}",
            paused.json
        );
        assert_eq!(
            sweep(start + twelfth * 3).await.expect("grant"),
            0,
            "{engine:?}"
        );
        let resumed = yearly
            .post("/api/billing/subscription", json!({"action": "resume"}))
            .await;
        assert_eq!(resumed.json["subscription"]["status"], "active");
        assert_eq!(
            sweep(start + twelfth * 3).await.expect("grant"),
            2,
            "months three and four"
        );
        assert_eq!(credits(&mut yearly).await, 80);

        // Past the year's end every month was granted, and never more than twelve.
        sweep(end + chrono::Duration::days(40))
            .await
            .expect("sweep");
        assert_eq!(
            credits(&mut yearly).await,
            240,
            "{engine:?}: twelve months of 20"
        );

        // The next year's invoice starts its own twelve months.
        let renewed = yearly.post("/api/test-payments/renewal", json!({})).await;
        assert_eq!(renewed.status, 200, "{}", renewed.json);
        assert_eq!(credits(&mut yearly).await, 260);
        let next = store::billing::get_subscription(&store_db, yearly_id)
            .await
            .expect("read")
            .expect("subscription");
        let second_month =
            next.current_period_start + (next.current_period_end - next.current_period_start) / 12;
        assert_eq!(sweep(second_month).await.expect("grant"), 1, "{engine:?}");
        assert_eq!(credits(&mut yearly).await, 280);

        // That year's invoice refunded in full: the month granted under it goes back with the
        // invoice's own, and the months still to come are no longer granted.
        let invoice = format!(
            "in_test_{}_{}",
            next.id,
            next.current_period_start.timestamp()
        );
        let refund = yearly
            .post("/api/test-payments/refund", json!({"paymentId": invoice}))
            .await;
        assert_eq!(refund.status, 200, "{}", refund.json);
        assert_eq!(
            credits(&mut yearly).await,
            240,
            "{engine:?}: the invoice's month and the second month both taken back"
        );
        let twelfth = (next.current_period_end - next.current_period_start) / 12;
        assert_eq!(
            sweep(next.current_period_start + twelfth * 5)
                .await
                .expect("grant"),
            0,
            "{engine:?}: a refunded year grants no more months"
        );
        assert_eq!(credits(&mut yearly).await, 240);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_mailed_upgrade_link_opens_the_checkout_of_its_site() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let token = "0123456789abcdef0123456789abcdef";
        store::reports::create_email_report(
            &app.running.db,
            &store::reports::NewEmailReport {
                email: "reader@example.com".to_owned(),
                first_name: "Ada".to_owned(),
                last_name: Some("Lovelace".to_owned()),
                website_url: "https://acme.example/".to_owned(),
                report_type: domain::report::ReportType::Basic,
                analysis_result_id: None,
                upgrade_token: Some(token.to_owned()),
                agree_to_emails: true,
            },
        )
        .await
        .expect("lead");
        let target = format!("/api/checkout/upgrade/{token}");

        // Signed out: sign in first (the page keeps the link's address for the way back).
        assert_eq!(app.get(&target).await.status, 401, "{engine:?}");

        let mut buyer = Browser::new(&app.web);
        buyer.sign_up("buyer@example.com", "buyer").await;
        let named = buyer.get(&target).await;
        assert_eq!(named.status, 200, "{}", named.json);
        assert_eq!(
            named.json,
            json!({"package": "starter", "url": "https://acme.example/", "reportId": null})
        );

        // The token decides the site; the price is the server's, whatever the link says.
        for query in [
            json!({"package": "starter", "upgradeToken": token}),
            json!({"package": "starter", "upgradeToken": token,
                   "url": "https://elsewhere.example/", "amount": "1"}),
        ] {
            let started = buyer.post("/api/checkout", query.clone()).await;
            assert_eq!(started.status, 200, "{query}: {}", started.json);
            let item = &started.json["item"];
            assert_eq!(item["kind"], "upgrade");
            assert_eq!(item["url"], "https://acme.example/");
            assert_eq!(item["amountCents"], 500);
        }

        // Unknown, malformed, or with another package: a message, never a 500.
        let unknown = "ffffffffffffffffffffffffffffffff";
        for (path, body, status, message) in [
            (
                format!("/api/checkout/upgrade/{unknown}"),
                None,
                404,
                domain::checkout::UPGRADE_TOKEN_UNKNOWN,
            ),
            (
                "/api/checkout/upgrade/not-a-token".to_owned(),
                None,
                422,
                domain::checkout::UPGRADE_TOKEN_MALFORMED,
            ),
            (
                "/api/checkout".to_owned(),
                Some(json!({"package": "starter", "upgradeToken": unknown})),
                404,
                domain::checkout::UPGRADE_TOKEN_UNKNOWN,
            ),
            (
                "/api/checkout".to_owned(),
                Some(json!({"package": "starter", "upgradeToken": "x'; --"})),
                422,
                domain::checkout::UPGRADE_TOKEN_MALFORMED,
            ),
            (
                "/api/checkout".to_owned(),
                Some(json!({"package": "credit-5", "upgradeToken": token})),
                422,
                domain::checkout::UPGRADE_TOKEN_PACKAGE,
            ),
        ] {
            let answer = match body {
                Some(body) => buyer.post(&path, body).await,
                None => buyer.get(&path).await,
            };
            assert_eq!(answer.status, status, "{path}: {}", answer.json);
            assert_eq!(answer.json["error"], message, "{path}");
        }
        app.running.shutdown().await;
    })
    .await;
}
