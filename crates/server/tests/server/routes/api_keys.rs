//! `/api/account/api-keys` on both engines: who may list, create and revoke keys (anonymous,
//! the team owner, a team member, a team admin, a site admin, another user), the key shown
//! once and stored hashed, CSRF, names and the per-account limit.

use serde_json::{Value, json};

use super::accounts::Browser;
use super::{Case, JSON, case};
use crate::support::{TestDb, WEB_ONLY, Web, config, each_engine, join_team, spawn_app};

/// Malformed key requests.
pub fn malformed() -> Vec<Case> {
    vec![
        case("GET", "/api/account/api-keys", None, "", 401),
        case(
            "POST",
            "/api/account/api-keys",
            JSON,
            r#"{"name": "ci"}"#,
            401,
        ),
        case("DELETE", "/api/account/api-keys/1", None, "", 401),
        case("DELETE", "/api/account/api-keys/abc", None, "", 401),
        case("PUT", "/api/account/api-keys", JSON, "{}", 405),
    ]
}

/// Who asks, in the table below.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Who {
    Anonymous,
    Owner,
    Member,
    TeamAdmin,
    SiteAdmin,
    Other,
}

/// Signs up a browser; returns it with its user id.
pub(crate) async fn signed_up<'a>(web: &'a Web, email: &str, username: &str) -> (Browser<'a>, i64) {
    let mut b = Browser::new(web);
    let answer = b.sign_up(email, username).await;
    assert_eq!(answer.status, 200, "{}", answer.json);
    let id = answer.json["account"]["id"].as_i64().expect("id");
    (b, id)
}

/// Everyone an account route's authorization table asks as, signed up on `web`: a team's owner
/// with a member and a team admin, a site admin, another user, and an anonymous visitor.
pub(crate) struct Cast<'a> {
    pub(crate) owner: Browser<'a>,
    pub(crate) owner_id: i64,
    pub(crate) member: Browser<'a>,
    pub(crate) team_admin: Browser<'a>,
    pub(crate) site_admin: Browser<'a>,
    pub(crate) other: Browser<'a>,
    pub(crate) anonymous: Browser<'a>,
}

/// Signs the [`Cast`] up and puts the member and the team admin in the owner's team.
pub(crate) async fn cast<'a>(web: &'a Web, db: &store::DatabaseConnection) -> Cast<'a> {
    let (owner, owner_id) = signed_up(web, "owner@example.com", "owner").await;
    let (member, member_id) = signed_up(web, "member@example.com", "member").await;
    let (team_admin, team_admin_id) = signed_up(web, "teamadmin@example.com", "teamadmin").await;
    let (site_admin, site_admin_id) = signed_up(web, "admin@example.com", "siteadmin").await;
    let (other, _) = signed_up(web, "other@example.com", "other").await;
    for (id, role) in [(member_id, "member"), (team_admin_id, "admin")] {
        join_team(db, owner_id, id, role).await;
    }
    crate::support::make_admin(db, site_admin_id, "admin").await;
    Cast {
        owner,
        owner_id,
        member,
        team_admin,
        site_admin,
        other,
        anonymous: Browser::new(web),
    }
}

/// Creates a key named `name` through the dashboard's route; returns the key and its id.
pub(crate) async fn new_key(b: &mut Browser<'_>, name: &str) -> (String, i64) {
    let created = b.post("/api/account/api-keys", json!({"name": name})).await;
    assert_eq!(created.status, 201, "{}", created.json);
    let secret = created.json["secret"].as_str().expect("secret").to_owned();
    let id = created.json["key"]["id"].as_i64().expect("key id");
    (secret, id)
}

fn names(list: &Value) -> Vec<String> {
    list.as_array()
        .into_iter()
        .flatten()
        .filter_map(|k| k["name"].as_str().map(str::to_owned))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn api_key_routes_answer_by_who_asks() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let store_db = app.running.db.clone();
        let Cast {
            mut owner,
            owner_id,
            mut member,
            mut team_admin,
            mut site_admin,
            mut other,
            mut anonymous,
        } = cast(&app.web, &store_db).await;

        // The owner's key: shown once in full, listed by its prefix only, stored hashed.
        let created = owner
            .post("/api/account/api-keys", json!({"name": "  CI pipeline "}))
            .await;
        assert_eq!(created.status, 201, "{engine:?}: {}", created.json);
        let secret = created.json["secret"].as_str().expect("secret").to_owned();
        assert!(domain::api::is_well_formed_key(&secret), "{secret}");
        let owner_key = created.json["key"]["id"].as_i64().expect("id");
        assert_eq!(created.json["key"]["name"], "CI pipeline");
        assert_eq!(created.json["key"]["prefix"], secret[..12]);
        assert_eq!(created.json["key"]["lastUsedAt"], Value::Null);
        let listed = owner.get("/api/account/api-keys").await;
        assert_eq!(listed.status, 200);
        assert_eq!(names(&listed.json), vec!["CI pipeline"]);
        assert!(
            !listed.json.to_string().contains(&secret[12..]),
            "the list never shows the key"
        );
        let stored = store::api_keys::active_api_keys(&store_db, owner_id)
            .await
            .expect("keys");
        assert_eq!(stored.len(), 1);
        assert_ne!(stored[0].key_hash, secret, "only a hash is stored");
        assert!(!stored[0].key_hash.contains(&secret[4..]));

        // The owner comes last, so everyone else tries the key while it is still live.
        for who in [
            Who::Anonymous,
            Who::Member,
            Who::TeamAdmin,
            Who::SiteAdmin,
            Who::Other,
            Who::Owner,
        ] {
            let b = match who {
                Who::Anonymous => &mut anonymous,
                Who::Owner => &mut owner,
                Who::Member => &mut member,
                Who::TeamAdmin => &mut team_admin,
                Who::SiteAdmin => &mut site_admin,
                Who::Other => &mut other,
            };
            let name = format!("{who:?} key");
            let created = b.post("/api/account/api-keys", json!({"name": name})).await;
            let list = b.get("/api/account/api-keys").await;
            // Nobody but the owner reaches the owner's key, team admins and site admins
            // included: keys are personal.
            let revoke = b
                .send(
                    "DELETE",
                    &format!("/api/account/api-keys/{owner_key}"),
                    None,
                )
                .await;
            if who == Who::Anonymous {
                assert_eq!(
                    (created.status, list.status, revoke.status),
                    (401, 401, 401),
                    "{engine:?} {who:?}"
                );
                continue;
            }
            assert_eq!(created.status, 201, "{engine:?} {who:?}: {}", created.json);
            let want = if who == Who::Owner {
                vec![name.clone(), "CI pipeline".to_owned()]
            } else {
                vec![name.clone()]
            };
            assert_eq!(
                names(&list.json),
                want,
                "{engine:?} {who:?} sees only their own"
            );
            if who != Who::Owner {
                assert_eq!(revoke.status, 404, "{engine:?} {who:?}: {}", revoke.json);
                assert_eq!(revoke.json["success"], false);
            } else {
                assert_eq!(revoke.status, 200, "{engine:?}: {}", revoke.json);
            }
        }
        assert_eq!(
            names(&owner.get("/api/account/api-keys").await.json),
            vec!["Owner key"],
            "the revoked key is gone from the list"
        );
        let again = owner
            .send(
                "DELETE",
                &format!("/api/account/api-keys/{owner_key}"),
                None,
            )
            .await;
        assert_eq!(again.status, 404, "a key is revoked once");

        // Names are checked by domain; a cross-site request is refused.
        for bad in [json!({"name": "   "}), json!({"name": "x".repeat(65)})] {
            let refused = owner.post("/api/account/api-keys", bad).await;
            assert_eq!(refused.status, 422, "{}", refused.json);
        }
        let mut forged = owner.clone();
        forged.drop_csrf();
        let refused = forged
            .post("/api/account/api-keys", json!({"name": "forged"}))
            .await;
        assert_eq!(refused.status, 403, "{}", refused.json);

        // An account holds at most MAX_KEYS_PER_ACCOUNT keys.
        for n in 1..domain::api::MAX_KEYS_PER_ACCOUNT {
            new_key(&mut other, &format!("extra {n}")).await;
        }
        let full = other
            .post("/api/account/api-keys", json!({"name": "one too many"}))
            .await;
        assert_eq!(full.status, 409, "{}", full.json);
        app.running.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn keys_are_in_my_data_and_go_with_my_account() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let (mut ada, ada_id) = signed_up(&app.web, "keys@example.com", "keys").await;
        let (secret, _) = new_key(&mut ada, "Nightly audit").await;
        let called = app
            .http
            .get(format!("{}/api/v1/usage", app.base))
            .bearer_auth(&secret)
            .send()
            .await
            .expect("call");
        assert_eq!(called.status(), 200);

        // The export names the key and counts the call; it never holds the key or its hash.
        let export = ada.get("/api/account/export").await;
        assert_eq!(export.status, 200, "{engine:?}");
        assert_eq!(export.json["apiKeys"][0]["name"], "Nightly audit");
        assert_eq!(export.json["apiKeys"][0]["prefix"], secret[..12]);
        assert!(export.json["apiKeys"][0]["lastUsedAt"].is_string());
        assert_eq!(export.json["apiCalls"], 1);
        let text = export.json.to_string();
        let stored = store::api_keys::active_api_keys(&app.running.db, ada_id)
            .await
            .expect("keys");
        assert!(!text.contains(&secret[12..]) && !text.contains(&stored[0].key_hash));

        // Deleting the account takes its keys: the key authenticates nothing any more.
        let deleted = ada
            .post(
                "/api/account/delete",
                json!({"currentPassword": super::accounts::PASSWORD}),
            )
            .await;
        assert_eq!(deleted.status, 200, "{}", deleted.json);
        assert!(
            store::api_keys::find_active_key(&app.running.db, &stored[0].key_hash)
                .await
                .expect("lookup")
                .is_none()
        );
        let refused = app
            .http
            .get(format!("{}/api/v1/usage", app.base))
            .bearer_auth(&secret)
            .send()
            .await
            .expect("call");
        assert_eq!(refused.status(), 401);
        app.running.shutdown().await;
    })
    .await;
}
