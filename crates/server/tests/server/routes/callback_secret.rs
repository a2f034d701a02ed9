//! `/api/account/callback-secret` on both engines: who may read and rotate the secret that
//! signs API callbacks (anonymous, the account, a team member, a team admin, a site admin,
//! another user), made once on first read, the team owner's for the team, CSRF.

use serde_json::{Value, json};

use super::api_keys::{Cast, cast};
use super::{Case, case};
use crate::support::{TestDb, WEB_ONLY, config, each_engine, spawn_app};

const SECRET: &str = "/api/account/callback-secret";
const ROTATE: &str = "/api/account/callback-secret/rotate";

/// Malformed secret requests.
pub fn malformed() -> Vec<Case> {
    vec![
        case("GET", SECRET, None, "", 401),
        case("POST", ROTATE, None, "", 401),
        case("DELETE", SECRET, None, "", 405),
        case("GET", ROTATE, None, "", 405),
    ]
}

fn secret(answer: &Value) -> String {
    answer["secret"].as_str().expect("secret").to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn callback_secret_routes_answer_by_who_asks() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let store_db = app.running.db.clone();
        let Cast {
            mut owner,
            mut member,
            mut team_admin,
            mut site_admin,
            mut other,
            mut anonymous,
            ..
        } = cast(&app.web, &store_db).await;

        // Anonymous: nothing.
        assert_eq!(anonymous.get(SECRET).await.status, 401);
        assert_eq!(anonymous.post(ROTATE, json!({})).await.status, 401);

        // The account: made on first read, the same on the next, rotatable.
        let first = owner.get(SECRET).await;
        assert_eq!(first.status, 200, "{engine:?}: {}", first.json);
        let owners = secret(&first.json);
        assert!(
            owners.starts_with("slwh_") && owners.len() == 69,
            "{owners}"
        );
        assert_eq!(first.json["teamSecret"], false);
        assert_eq!(first.json["canRotate"], true);
        assert_eq!(secret(&owner.get(SECRET).await.json), owners);

        // Team member and team admin: the owner's secret (it signs their analyses), read-only.
        for (who, b) in [("member", &mut member), ("team admin", &mut team_admin)] {
            let read = b.get(SECRET).await;
            assert_eq!(read.status, 200, "{engine:?} {who}: {}", read.json);
            assert_eq!(secret(&read.json), owners, "{engine:?} {who}");
            assert_eq!(read.json["teamSecret"], true);
            assert_eq!(read.json["canRotate"], false);
            let rotate = b.post(ROTATE, json!({})).await;
            assert_eq!(rotate.status, 403, "{engine:?} {who}: {}", rotate.json);
            assert_eq!(rotate.json["success"], false);
        }
        assert_eq!(secret(&owner.get(SECRET).await.json), owners, "unchanged");

        // A site admin and another user: their own secrets, never the owner's.
        for (who, b) in [("site admin", &mut site_admin), ("other", &mut other)] {
            let read = b.get(SECRET).await;
            assert_eq!(read.status, 200, "{engine:?} {who}");
            let theirs = secret(&read.json);
            assert_ne!(theirs, owners, "{engine:?} {who}");
            let rotated = b.post(ROTATE, json!({})).await;
            assert_eq!(rotated.status, 200, "{engine:?} {who}: {}", rotated.json);
            assert_ne!(secret(&rotated.json), theirs);
            assert_ne!(secret(&rotated.json), owners);
        }
        assert_eq!(secret(&owner.get(SECRET).await.json), owners, "unchanged");

        // The owner rotates: the team reads the new secret. A cross-site rotation is refused.
        let mut forged = owner.clone();
        forged.drop_csrf();
        assert_eq!(forged.post(ROTATE, json!({})).await.status, 403);
        let rotated = owner.post(ROTATE, json!({})).await;
        assert_eq!(rotated.status, 200, "{engine:?}: {}", rotated.json);
        let new = secret(&rotated.json);
        assert_ne!(new, owners);
        assert_eq!(secret(&member.get(SECRET).await.json), new);
        app.running.shutdown().await;
    })
    .await;
}
