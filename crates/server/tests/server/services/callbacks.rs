//! Signed callbacks of `/api/v1` on both engines, to a receiver on 127.0.0.1 that checks each
//! signature with the account's secret and answers the first attempt of every event with a 500:
//! a completed and a failed analysis both call back, the failed attempt is retried (the
//! retry made by the test's own deliverer with its clock moved past the 30 s wait, never by
//! waiting), the event id and body stay the same across attempts, every attempt shows in
//! `GET /api/v1/analyses/{id}`; a team member's analysis is signed with the owner's secret;
//! bad callback addresses are refused in the API's error shape; an idempotent replay keeps
//! its callback.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use serde_json::{Value, json};
use tokio::sync::Notify;

use crate::routes::api_keys::{new_key, signed_up};
use crate::routes::api_v1::{give, with_key};
use crate::support::{BOTH, TestDb, config, each_engine, fixture_site, join_team, spawn_app};

/// One request the receiver got.
#[derive(Clone, Debug)]
struct Received {
    signature: String,
    event_id: String,
    event_type: String,
    attempt: String,
    body: Bytes,
}

#[derive(Clone, Default)]
struct Receiver {
    got: Arc<Mutex<Vec<Received>>>,
    arrived: Arc<Notify>,
}

impl Receiver {
    fn all(&self) -> Vec<Received> {
        self.got.lock().expect("lock").clone()
    }

    /// Waits (at most 60 s) until `n` requests arrived.
    async fn wait_for(&self, n: usize) -> Vec<Received> {
        tokio::time::timeout(Duration::from_secs(60), async {
            loop {
                let notified = self.arrived.notified();
                if self.all().len() >= n {
                    return self.all();
                }
                notified.await;
            }
        })
        .await
        .unwrap_or_else(|_| panic!("{n} callbacks did not arrive: {:?}", self.all()))
    }
}

fn header(headers: &HeaderMap, name: &str) -> String {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned()
}

/// Records the request; the first attempt of each event gets a 500 with a short body, later
/// ones a 204.
async fn hook(
    State(r): State<Receiver>,
    headers: HeaderMap,
    body: Bytes,
) -> (StatusCode, &'static str) {
    let received = Received {
        signature: header(&headers, "sitelens-signature"),
        event_id: header(&headers, "sitelens-event-id"),
        event_type: header(&headers, "sitelens-event-type"),
        attempt: header(&headers, "sitelens-delivery-attempt"),
        body,
    };
    let first = {
        let mut got = r.got.lock().expect("lock");
        let first = !got.iter().any(|g| g.event_id == received.event_id);
        got.push(received);
        first
    };
    r.arrived.notify_waiters();
    if first {
        (StatusCode::INTERNAL_SERVER_ERROR, "receiver down")
    } else {
        (StatusCode::NO_CONTENT, "")
    }
}

async fn start_receiver() -> (Receiver, String) {
    let receiver = Receiver::default();
    let app = Router::new()
        .route("/hooks/sitelens", post(hook))
        .with_state(receiver.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind receiver");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (receiver, format!("http://{addr}/hooks/sitelens"))
}

/// Verifies `t=…,v1=…` as a receiver would (HMAC-SHA256 of `"{t}.{body}"` under `secret`,
/// the timestamp within five minutes), with the verifier of the scheme Stripe documents.
fn verify(signature: &str, body: &[u8], secret: &str) -> bool {
    server::services::signature::verify(body, signature, secret, store::now().timestamp()).is_ok()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn completed_and_failed_analyses_call_back_signed_and_retried() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let site = fixture_site().await;
        let (receiver, hook_url) = start_receiver().await;
        let app = spawn_app(config(&db), BOTH).await;
        let store_db = app.running.db.clone();
        let (mut owner, owner_id) = signed_up(&app.web, "owner@example.com", "owner").await;
        let (mut member, member_id) = signed_up(&app.web, "member@example.com", "member").await;
        join_team(&store_db, owner_id, member_id, "member").await;
        let (owner_key, _) = new_key(&mut owner, "CI").await;
        let (member_key, _) = new_key(&mut member, "member CI").await;
        give(&store_db, owner_id, 3).await;
        let api = with_key(&app.web, &owner_key);
        let member_api = with_key(&app.web, &member_key);
        let secret = owner.get("/api/account/callback-secret").await.json["secret"]
            .as_str()
            .expect("secret")
            .to_owned();

        // Addresses a callback cannot go to: refused before anything is charged.
        for bad in [
            json!("ftp://hooks.example.com/x"),
            json!("https://user:pass@hooks.example.com/x"),
            json!("hooks.example.com/x"),
            json!("https://hooks.example.com/x#part"),
            json!(format!("https://hooks.example.com/{}", "a".repeat(2100))),
            json!(""),
        ] {
            let refused = api
                .submit(
                    json!({"url": format!("http://{site}/"), "reportType": "basic", "callbackUrl": bad}),
                    None,
                )
                .await;
            refused.error(422, "invalid_callback_url");
        }
        api.submit(
            json!({"url": format!("http://{site}/"), "reportType": "basic", "callbackUrl": 7}),
            None,
        )
        .await
        .error(422, "invalid_request");
        assert_eq!(api.get("/usage").await.json["paidCredits"], 3, "nothing charged");

        // A completed analysis (the owner's) and a failed one (the member's: a closed port).
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .expect("bind")
            .local_addr()
            .expect("addr")
            .port();
        let body = json!({"url": format!("http://{site}/"), "reportType": "basic", "callbackUrl": hook_url});
        let done = api.submit(body.clone(), Some("cb-1")).await;
        assert_eq!(done.status, 201, "{engine:?}: {}", done.json);
        assert_eq!(done.json["callback"]["url"], hook_url.as_str());
        assert_eq!(done.json["callback"]["state"], "waiting");
        let done_id = done.json["id"].as_str().expect("id").to_owned();
        // An idempotent replay keeps the callback; another callback address is another request.
        let replay = api.submit(body, Some("cb-1")).await;
        assert_eq!(replay.status, 200, "{}", replay.json);
        assert_eq!(replay.json["callback"]["url"], hook_url.as_str());
        api.submit(
            json!({"url": format!("http://{site}/"), "reportType": "basic", "callbackUrl": format!("{hook_url}?other")}),
            Some("cb-1"),
        )
        .await
        .error(409, "idempotency_key_reused");
        let failed = member_api
            .submit(
                json!({"url": format!("http://127.0.0.1:{port}/"), "reportType": "basic", "callbackUrl": hook_url}),
                None,
            )
            .await;
        assert_eq!(failed.status, 201, "{engine:?}: {}", failed.json);
        let failed_id = failed.json["id"].as_str().expect("id").to_owned();

        // First attempts: sent as each analysis ends, both answered 500, and recorded.
        let first = receiver.wait_for(2).await;
        for (client, id) in [(&api, &done_id), (&member_api, &failed_id)] {
            tokio::time::timeout(Duration::from_secs(30), async {
                while client.get(&format!("/analyses/{id}")).await.json["callback"]["attempts"]
                    .as_array()
                    .is_none_or(Vec::is_empty)
                {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            })
            .await
            .expect("the first attempt is recorded");
        }
        let after_first = api.get(&format!("/analyses/{done_id}")).await;
        let callback = &after_first.json["callback"];
        assert_eq!(callback["state"], "pending", "{engine:?}: {}", after_first.json);
        assert_eq!(callback["attempts"][0]["statusCode"], 500);
        assert_eq!(callback["attempts"][0]["responseExcerpt"], "receiver down");
        assert!(callback["nextAttemptAt"].is_string());

        // The retry is due 30 s later: the test's own deliverer makes it with its clock there.
        let deliverer = server::services::callbacks::Deliverer::new(
            store_db.clone(),
            "https://sitelens.test",
            true,
        )
        .expect("deliverer");
        assert_eq!(
            deliverer
                .deliver_due(store::now() + chrono::Duration::seconds(29))
                .await
                .expect("deliver"),
            0,
            "{engine:?}: not due before 30 s"
        );
        assert_eq!(
            deliverer
                .deliver_due(store::now() + chrono::Duration::seconds(31))
                .await
                .expect("deliver"),
            2,
            "{engine:?}"
        );
        let all = receiver.wait_for(4).await;
        assert_eq!(all.len(), 4, "{engine:?}: delivered, not retried again: {all:?}");

        for r in &all {
            assert!(
                verify(&r.signature, &r.body, &secret),
                "{engine:?}: signed with the owner's secret: {r:?}"
            );
            assert!(!verify(&r.signature, b"{}", &secret), "the body is signed");
        }
        for (id, kind) in [
            (&done_id, "analysis.completed"),
            (&failed_id, "analysis.failed"),
        ] {
            let mine: Vec<&Received> = all
                .iter()
                .filter(|r| {
                    serde_json::from_slice::<Value>(&r.body).expect("json")["analysis"]["id"]
                        == id.as_str()
                })
                .collect();
            assert_eq!(mine.len(), 2, "{engine:?} {kind}: two attempts");
            assert_eq!(
                (mine[0].attempt.as_str(), mine[1].attempt.as_str()),
                ("1", "2")
            );
            assert_eq!(mine[0].event_id, mine[1].event_id, "one event id");
            assert_eq!(mine[0].body, mine[1].body, "the same body");
            assert_eq!(mine[0].event_type, kind);
            let event: Value = serde_json::from_slice(&mine[0].body).expect("json");
            assert_eq!(event["id"], mine[0].event_id.as_str());
            assert_eq!(event["type"], kind);
            assert_eq!(event["analysis"]["reportType"], "basic");
            assert_eq!(
                event["links"]["analysis"],
                format!("https://sitelens.test/api/v1/analyses/{id}")
            );
            assert_eq!(
                event["links"]["report"],
                format!("https://sitelens.test/api/v1/analyses/{id}/report")
            );
            if kind == "analysis.completed" {
                assert_eq!(event["analysis"]["status"], "complete");
                assert_eq!(event["analysis"]["url"], format!("http://{site}/"));
                assert!(event["scores"]["overall"].as_u64().is_some(), "{event}");
                assert_eq!(event["error"], Value::Null);
            } else {
                assert_eq!(event["analysis"]["status"], "failed");
                assert_eq!(event["scores"], Value::Null);
                assert_eq!(event["error"]["code"], "analysis_failed");
                assert!(event["error"]["message"].as_str().is_some_and(|m| !m.is_empty()));
            }
        }
        assert!(first.iter().all(|r| r.attempt == "1"));

        // The owner sees every attempt; the member sees theirs.
        for (client, id) in [(&api, &done_id), (&member_api, &failed_id)] {
            let view = client.get(&format!("/analyses/{id}")).await;
            let callback = &view.json["callback"];
            assert_eq!(callback["state"], "delivered", "{engine:?}: {}", view.json);
            assert_eq!(callback["nextAttemptAt"], Value::Null);
            let codes: Vec<Value> = callback["attempts"]
                .as_array()
                .expect("attempts")
                .iter()
                .map(|a| a["statusCode"].clone())
                .collect();
            assert_eq!(codes, vec![json!(500), json!(204)], "{engine:?}");
            assert!(callback["attempts"][0]["durationMs"].is_u64());
            assert_eq!(callback["attempts"][1]["responseExcerpt"], Value::Null);
            assert!(callback["eventId"].is_string());
        }
        let listed = api.get("/analyses").await;
        assert_eq!(
            listed.json["data"][0]["callback"]["state"], "delivered",
            "{}",
            listed.json
        );
        app.running.shutdown().await;
    })
    .await;
}
