//! The periodic sweep (`services::maintenance`) as of a clock moved forward: an
//! `Idempotency-Key` names its analysis for a day, then a replay is a new analysis (and a new
//! charge); API call records go after the retention period while the account's total stays.

use chrono::Duration;
use domain::credits::Credits;
use serde_json::{Value, json};
use server::services::maintenance::{Swept, sweep};
use store::credits::grant_credits;

use crate::routes::api_keys::{new_key, signed_up};
use crate::support::{TestDb, WEB_ONLY, config, each_engine, spawn_app};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn keys_expire_after_a_day_and_call_records_after_the_retention_period() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let store_db = app.running.db.clone();
        let (mut owner, owner_id) = signed_up(&app.web, "sweep@example.com", "sweeper").await;
        let (secret, _) = new_key(&mut owner, "CI").await;
        grant_credits(&store_db, owner_id, Credits::whole(2), "admin", None)
            .await
            .expect("grant");
        let submit = || async {
            let res = app
                .web
                .http
                .post(format!("{}/api/v1/analyses", app.base))
                .bearer_auth(&secret)
                .header("idempotency-key", "deploy-42")
                .header("content-type", "application/json")
                .body(json!({"url": "https://sweep.example/", "reportType": "basic"}).to_string())
                .send()
                .await
                .expect("submit");
            let status = res.status().as_u16();
            let body: Value =
                serde_json::from_slice(&res.bytes().await.expect("body")).expect("json");
            (status, body["id"].as_str().unwrap_or_default().to_owned())
        };
        let (created, first) = submit().await;
        assert_eq!(created, 201, "{engine:?}");

        // An hour later nothing is due; the replay is the same analysis.
        let now = store::now();
        let swept = sweep(&store_db, now + Duration::hours(1))
            .await
            .expect("sweep");
        assert_eq!(
            (swept.idempotency_keys, swept.api_calls),
            (0, 0),
            "{engine:?}"
        );
        assert_eq!(submit().await, (200, first.clone()));

        // A day later the key is forgotten: the same key is a new analysis, charged again.
        let swept = sweep(&store_db, now + Duration::hours(25))
            .await
            .expect("sweep");
        assert_eq!(swept.idempotency_keys, 1, "{engine:?}");
        let (status, second) = submit().await;
        assert_eq!(status, 201, "{engine:?}");
        assert_ne!(second, first);
        let balance = store::credits::credit_balance(&store_db, owner_id, store::now())
            .await
            .expect("balance");
        assert_eq!(
            balance.paid,
            Credits::whole(1),
            "{engine:?}: two charges of half a credit"
        );

        // Past the retention period the call records go; the account's total stays.
        let calls = store::users::get_user(&store_db, owner_id)
            .await
            .expect("user")
            .api_calls;
        assert_eq!(calls, 3);
        let swept = sweep(&store_db, now + Duration::days(91))
            .await
            .expect("sweep");
        assert_eq!(swept.api_calls, 3, "{engine:?}");
        assert!(
            swept.sessions >= 1,
            "the browser's session expired meanwhile"
        );
        assert_eq!(
            sweep(&store_db, now + Duration::days(91))
                .await
                .expect("again"),
            Swept::default(),
            "a second sweep finds nothing"
        );
        let user = store::users::get_user(&store_db, owner_id)
            .await
            .expect("user");
        assert_eq!(user.api_calls, 3, "{engine:?}");
        app.running.shutdown().await;
    })
    .await;
}
