//! `/api/admin/affiliates...` on both engines: every route refused to the anonymous visitor
//! (401), a user (403) and, for changes, a support admin (403); read by every admin level;
//! approve and reject (a reason required) written to the audit log; the payout run.

use serde_json::json;

use super::admin::{admin_cast, assert_refused_below};
use super::affiliates::application;
use crate::support::{TestDb, WEB_ONLY, config, each_engine, spawn_app};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn admin_affiliate_routes_answer_by_level() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let store_db = app.running.db.clone();
        let mut cast = admin_cast(&app.web, &store_db).await;
        let applied = cast
            .user
            .post("/api/affiliates/apply", application("user@example.com"))
            .await;
        assert_eq!(applied.status, 201, "{}", applied.json);
        let id = store::affiliates::find_affiliate_by_user(&store_db, cast.user_id)
            .await
            .expect("find")
            .expect("row")
            .id;

        for path in [
            "/api/admin/affiliates",
            "/api/admin/affiliates?status=pending",
            "/api/admin/affiliates/conversions",
            "/api/admin/affiliates/payouts",
        ] {
            assert_refused_below(&mut cast, "GET", path, None, "support").await;
            for b in [&mut cast.support, &mut cast.admin, &mut cast.owner] {
                let answer = b.get(path).await;
                assert_eq!(answer.status, 200, "{engine:?} {path}: {}", answer.json);
            }
        }
        let listed = cast
            .support
            .get("/api/admin/affiliates?status=pending")
            .await;
        assert_eq!(listed.json[0]["id"], id, "{}", listed.json);
        assert_eq!(
            listed.json[0]["motivation"],
            "My readers ask which audit tool to use"
        );
        let bad = cast.support.get("/api/admin/affiliates?status=maybe").await;
        assert_eq!(bad.status, 400);

        let reject = format!("/api/admin/affiliates/{id}/reject");
        let approve = format!("/api/admin/affiliates/{id}/approve");
        for (path, body) in [
            (reject.as_str(), json!({"reason": "No audience yet"})),
            (approve.as_str(), json!({})),
            ("/api/admin/affiliates/payouts/run", json!({})),
            (
                "/api/admin/affiliates/payouts/1/confirm",
                json!({"method": "manual", "note": "paid"}),
            ),
        ] {
            assert_refused_below(&mut cast, "POST", path, Some(body), "admin").await;
        }
        // Nothing changed for the refused.
        let row = store::affiliates::get_affiliate(&store_db, id)
            .await
            .expect("row");
        assert_eq!(row.status, "pending");

        // A rejection needs a reason; it is kept and shown to the applicant.
        let no_reason = cast.admin.post(&reject, json!({"reason": " "})).await;
        assert_eq!(no_reason.status, 422, "{engine:?}: {}", no_reason.json);
        let rejected = cast
            .admin
            .post(&reject, json!({"reason": "No audience yet"}))
            .await;
        assert_eq!(rejected.status, 200, "{engine:?}: {}", rejected.json);
        assert_eq!(rejected.json["status"], "rejected");
        let again = cast.owner.post(&approve, json!({})).await;
        assert_eq!(again.status, 409, "{engine:?}: {}", again.json);
        let mine = cast.user.get("/api/affiliates/me").await;
        assert_eq!(
            (
                mine.json["status"].as_str(),
                mine.json["rejectionReason"].as_str()
            ),
            (Some("rejected"), Some("No audience yet"))
        );
        let missing = cast
            .admin
            .post("/api/admin/affiliates/999999/approve", json!({}))
            .await;
        assert_eq!(missing.status, 404, "{engine:?}: {}", missing.json);
        let missing = cast
            .admin
            .post(
                "/api/admin/affiliates/payouts/999999/confirm",
                json!({"method": "manual", "note": "paid"}),
            )
            .await;
        assert_eq!(missing.status, 404, "{engine:?}: {}", missing.json);
        let run = cast
            .owner
            .post("/api/admin/affiliates/payouts/run", json!({}))
            .await;
        assert_eq!(run.status, 200, "{engine:?}: {}", run.json);
        assert_eq!(run.json, json!([]));

        let audit = cast.owner.get("/api/admin/audit").await;
        let newest = &audit.json["entries"][0];
        assert_eq!(newest["action"], "affiliate.reject");
        assert_eq!(newest["reason"], "No audience yet");
        assert_eq!(newest["actorEmail"], "admin@example.com");
        assert_eq!(newest["targetId"], id.to_string());
    })
    .await;
}
