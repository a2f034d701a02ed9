//! `/api/admin` on both engines: who the admin area answers (anonymous 401, a user 403, each
//! admin level), the signed-in administrator's identity, the audit log by pages, and
//! `sitelens admin grant` / `revoke`. [`AdminCast`] and [`assert_refused_below`] are shared by
//! every admin resource's tests.

use serde_json::{Value, json};

use super::accounts::Browser;
use super::api_keys::signed_up;
use crate::support::{TestDb, WEB_ONLY, Web, config, each_engine, make_admin, spawn_app};

/// Everyone an admin route's authorization table asks as.
pub(crate) struct AdminCast<'a> {
    pub(crate) anonymous: Browser<'a>,
    pub(crate) user: Browser<'a>,
    pub(crate) user_id: i64,
    pub(crate) support: Browser<'a>,
    pub(crate) admin: Browser<'a>,
    pub(crate) admin_id: i64,
    pub(crate) owner: Browser<'a>,
    pub(crate) owner_id: i64,
}

/// Signs up a user and one administrator of each level.
pub(crate) async fn admin_cast<'a>(web: &'a Web, db: &store::DatabaseConnection) -> AdminCast<'a> {
    let (user, user_id) = signed_up(web, "user@example.com", "plainuser").await;
    let (support, support_id) = signed_up(web, "support@example.com", "support").await;
    let (admin, admin_id) = signed_up(web, "admin@example.com", "adminuser").await;
    let (owner, owner_id) = signed_up(web, "owner@example.com", "owneruser").await;
    make_admin(db, support_id, "support").await;
    make_admin(db, admin_id, "admin").await;
    make_admin(db, owner_id, "owner").await;
    AdminCast {
        anonymous: Browser::new(web),
        user,
        user_id,
        support,
        admin,
        admin_id,
        owner,
        owner_id,
    }
}

/// Asserts that `method path` (with `body`) is refused to everyone below `needed`: 401 for the
/// anonymous visitor, 403 with the error shape for a user and for lower admin levels. It does
/// not call the route as an allowed level (the test does, and checks what it did).
pub(crate) async fn assert_refused_below(
    cast: &mut AdminCast<'_>,
    method: &str,
    path: &str,
    body: Option<Value>,
    needed: &str,
) {
    let anonymous = cast.anonymous.send(method, path, body.clone()).await;
    assert_eq!(
        anonymous.status, 401,
        "anonymous {method} {path}: {}",
        anonymous.json
    );
    let user = cast.user.send(method, path, body.clone()).await;
    assert_eq!(user.status, 403, "user {method} {path}: {}", user.json);
    assert_eq!(user.json["error"], "This area is for administrators.");
    let below: &[&str] = match needed {
        "support" => &[],
        "admin" => &["support"],
        "owner" => &["support", "admin"],
        other => panic!("unknown level {other}"),
    };
    for level in below {
        let browser = match *level {
            "support" => &mut cast.support,
            _ => &mut cast.admin,
        };
        let answer = browser.send(method, path, body.clone()).await;
        assert_eq!(
            answer.status, 403,
            "{level} {method} {path}: {}",
            answer.json
        );
        assert_eq!(answer.json["success"], false);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_admin_area_answers_by_level() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let store_db = app.running.db.clone();
        let mut cast = admin_cast(&app.web, &store_db).await;

        for path in ["/api/admin/me", "/api/admin/audit"] {
            assert_refused_below(&mut cast, "GET", path, None, "support").await;
        }
        let plain = store::users::get_user(&store_db, cast.user_id)
            .await
            .expect("user");
        assert!(!plain.is_admin && plain.admin_level == "user");
        for (browser, level) in [
            (&mut cast.support, "support"),
            (&mut cast.admin, "admin"),
            (&mut cast.owner, "owner"),
        ] {
            let me = browser.get("/api/admin/me").await;
            assert_eq!(me.status, 200, "{engine:?} {level}: {}", me.json);
            assert_eq!(me.json["level"], level);
            assert_eq!(me.json["name"], "Ada Lovelace");
            assert_eq!(me.json["email"], format!("{level}@example.com"));
            let audit = browser.get("/api/admin/audit").await;
            assert_eq!(audit.status, 200, "{engine:?} {level}: {}", audit.json);
        }

        // The three grants are in the log, newest first, as the operator's.
        let audit = cast.owner.get("/api/admin/audit").await;
        let entries = audit.json["entries"].as_array().expect("entries").clone();
        assert_eq!(entries.len(), 3, "{}", audit.json);
        assert_eq!(entries[0]["action"], "admin.grant");
        assert_eq!(entries[0]["targetId"], cast.owner_id.to_string());
        assert_eq!(entries[0]["actorEmail"], store::audit::OPERATOR);
        assert_eq!(
            serde_json::from_str::<Value>(entries[0]["detail"].as_str().expect("detail"))
                .expect("JSON"),
            json!({"level": "owner"})
        );
        assert_eq!(audit.json["nextBefore"], Value::Null);

        // A revoked administrator is an ordinary user at once, session and all.
        let entry = store::audit::NewAuditEntry::operator(
            "admin.revoke",
            "user",
            Some(cast.admin_id.to_string()),
            json!({}),
        );
        store::users::set_admin_level(&store_db, cast.admin_id, None, &entry)
            .await
            .expect("revoke");
        let refused = cast.admin.get("/api/admin/me").await;
        assert_eq!(refused.status, 403, "{engine:?}: {}", refused.json);

        // A bad page cursor is the visitor's mistake.
        let bad = cast.owner.get("/api/admin/audit?before=abc").await;
        assert_eq!(bad.status, 400, "{engine:?}: {}", bad.json);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_audit_log_pages_back_from_the_newest() {
    each_engine(|db: TestDb| async move {
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let store_db = app.running.db.clone();
        let (mut owner, owner_id) = signed_up(&app.web, "boss@example.com", "boss").await;
        make_admin(&store_db, owner_id, "owner").await;
        for n in 0..60 {
            let entry = store::audit::NewAuditEntry {
                actor_user_id: Some(owner_id),
                actor_email: "boss@example.com".to_owned(),
                action: "test.step".to_owned(),
                target_type: "step".to_owned(),
                target_id: Some(n.to_string()),
                reason: Some(format!("step {n}")),
                detail: json!({ "n": n }),
            };
            store::audit::record(&store_db, &entry)
                .await
                .expect("record");
        }
        let first = owner.get("/api/admin/audit").await;
        let entries = first.json["entries"].as_array().expect("entries");
        assert_eq!(entries.len(), 50);
        assert_eq!(entries[0]["targetId"], "59");
        assert_eq!(entries[0]["reason"], "step 59");
        let before = first.json["nextBefore"].as_i64().expect("another page");
        assert_eq!(Some(before), entries[49]["id"].as_i64());
        let second = owner
            .get(&format!("/api/admin/audit?before={before}"))
            .await;
        let rest = second.json["entries"].as_array().expect("entries");
        // 10 steps and the grant remain.
        assert_eq!(rest.len(), 11, "{}", second.json);
        assert_eq!(rest[0]["targetId"], "9");
        assert_eq!(rest[10]["action"], "admin.grant");
        assert_eq!(second.json["nextBefore"], Value::Null);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_operator_grants_and_revokes_administrators() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let store_db = app.running.db.clone();
        let (mut first, first_id) = signed_up(&app.web, "first@example.com", "first").await;
        let url = db.url.clone();
        let dir = db.dir().to_path_buf();
        let admin = move |args: &'static [&'static str]| {
            let (url, dir) = (url.clone(), dir.clone());
            async move {
                tokio::task::spawn_blocking(move || {
                    let out = crate::cli::sitelens(
                        args,
                        &[("SITELENS_DATABASE_URL", url.as_str())],
                        &dir,
                    );
                    (
                        out.status.code(),
                        String::from_utf8_lossy(&out.stdout).trim().to_owned(),
                        String::from_utf8_lossy(&out.stderr).trim().to_owned(),
                    )
                })
                .await
                .expect("run")
            }
        };

        assert_eq!(first.get("/api/admin/me").await.status, 403);
        let (code, out, err) = admin(&["admin", "grant", "First@Example.com"]).await;
        assert_eq!(code, Some(0), "{engine:?}: {err}");
        assert_eq!(
            out,
            "first@example.com is now an administrator at the owner level."
        );
        let me = first.get("/api/admin/me").await;
        assert_eq!(me.json["level"], "owner", "{engine:?}: {}", me.json);

        let (code, out, _) =
            admin(&["admin", "grant", "first@example.com", "--level", "support"]).await;
        assert_eq!(code, Some(0));
        assert!(out.ends_with("at the support level."), "{out}");
        assert_eq!(first.get("/api/admin/me").await.json["level"], "support");

        let (code, _, err) =
            admin(&["admin", "grant", "first@example.com", "--level", "king"]).await;
        assert_eq!(code, Some(2));
        assert!(err.contains("unknown admin level 'king'"), "{err}");
        let (code, _, err) = admin(&["admin", "grant", "nobody@example.com"]).await;
        assert_eq!(code, Some(1));
        assert!(
            err.contains("no account has the address nobody@example.com"),
            "{err}"
        );

        let (code, out, _) = admin(&["admin", "revoke", "first@example.com"]).await;
        assert_eq!(code, Some(0));
        assert_eq!(out, "first@example.com is no longer an administrator.");
        assert_eq!(first.get("/api/admin/me").await.status, 403);
        let (code, out, _) = admin(&["admin", "revoke", "first@example.com"]).await;
        assert_eq!(code, Some(0));
        assert!(
            out.contains("is not an administrator; nothing changed"),
            "{out}"
        );

        // Every change the operator made is in the log, with what it was and what it became.
        let log = store::audit::list(&store_db, None, 10).await.expect("log");
        let steps: Vec<(String, String)> = log
            .iter()
            .map(|r| {
                let detail: Value = serde_json::from_str(&r.detail).expect("JSON");
                (
                    r.action.clone(),
                    format!("{}->{}", detail["from"], detail["to"]),
                )
            })
            .collect();
        assert_eq!(
            steps,
            vec![
                ("admin.revoke".to_owned(), r#""support"->"user""#.to_owned()),
                ("admin.grant".to_owned(), r#""owner"->"support""#.to_owned()),
                ("admin.grant".to_owned(), r#""user"->"owner""#.to_owned()),
            ],
            "{engine:?}"
        );
        assert!(
            log.iter()
                .all(|r| r.target_id.as_deref() == Some(&*first_id.to_string()))
        );
        assert!(log.iter().all(|r| r.actor_user_id.is_none()));
    })
    .await;
}
