//! `/api/admin/messages` and `/api/admin/outbox` on both engines: the authorization table of
//! each route (anonymous 401, user 403, support reads, admin and owner change), what each level
//! sees and changes, and the audit rows of the changes.

use serde_json::{Value, json};

use super::admin::{admin_cast, assert_refused_below};
use crate::support::{TestDb, WEB_ONLY, config, each_engine, received, spawn_app, start_smtp};

fn enterprise() -> Value {
    json!({
        "name": "Ada Lovelace", "email": "ada@analytical.example", "company": "Analytical Engines",
        "companySize": "250-999", "monthlyReports": "500-2000", "message": "We audit 300 sites."
    })
}

/// The newest audit entry, as the owner reads it.
async fn newest_audit(cast: &mut super::admin::AdminCast<'_>) -> Value {
    let audit = cast.owner.get("/api/admin/audit").await;
    audit.json["entries"][0].clone()
}

async fn messages(db: TestDb) {
    let engine = db.engine;
    let app = spawn_app(config(&db), WEB_ONLY).await;
    for (path, body) in [
        ("/api/contact/enterprise", enterprise()),
        (
            "/api/contact/agency",
            json!({"name": "Grace", "email": "grace@studio.example", "agency": "Studio 100%", "clients": "11-50", "message": "White-label."}),
        ),
        (
            "/api/contact/partner",
            json!({"name": "Linus", "email": "linus@host.example", "company": "Host Co", "partnership": "hosting", "message": "Panel audits."}),
        ),
        (
            "/api/contact",
            json!({"name": "Ann", "email": "ann@example.com", "subject": "Invoices", "message": "Where are they?"}),
        ),
    ] {
        assert_eq!(app.post_json(path, &body).await.status, 200, "{path}");
    }
    let store_db = app.running.db.clone();
    let mut cast = admin_cast(&app.web, &store_db).await;
    let list = cast.support.get("/api/admin/messages").await;
    assert_eq!(list.status, 200, "{engine:?}: {}", list.json);
    let all = list.json["messages"].as_array().expect("messages").clone();
    assert_eq!(all.len(), 4);
    assert_eq!(list.json["nextBefore"], Value::Null);
    let ada = all
        .iter()
        .find(|m| m["kind"] == "enterprise")
        .expect("enterprise")
        .clone();
    let id = ada["id"].as_i64().expect("id");

    // The authorization table.
    for path in [
        "/api/admin/messages".to_owned(),
        format!("/api/admin/messages/{id}"),
    ] {
        assert_refused_below(&mut cast, "GET", &path, None, "support").await;
    }
    let answered = format!("/api/admin/messages/{id}/answered");
    assert_refused_below(&mut cast, "POST", &answered, Some(json!({})), "admin").await;
    let support = cast.support.post(&answered, json!({})).await;
    assert_eq!(
        support.json["error"],
        "Your admin level (support) can only read."
    );

    // Filters and search (any case; LIKE's wildcards match only themselves).
    for (query, expected) in [
        ("?kind=enterprise", 1),
        ("?kind=agency&status=new", 1),
        ("?q=ANALYTICAL", 1),
        ("?q=100%25", 1),
        ("?q=%25%25", 0),
        ("?q=example", 4),
        ("?status=answered", 0),
    ] {
        let found = cast
            .support
            .get(&format!("/api/admin/messages{query}"))
            .await;
        assert_eq!(found.status, 200, "{query}: {}", found.json);
        assert_eq!(
            found.json["messages"].as_array().map(Vec::len),
            Some(expected),
            "{engine:?} {query}"
        );
    }
    for bad in ["?kind=spam", "?status=done", "?before=abc"] {
        let refused = cast.support.get(&format!("/api/admin/messages{bad}")).await;
        assert_eq!(refused.status, 400, "{bad}: {}", refused.json);
        assert_eq!(refused.json["success"], false);
    }

    // One message, with its labelled details.
    let one = cast.support.get(&format!("/api/admin/messages/{id}")).await;
    assert_eq!(one.status, 200);
    assert_eq!(
        one.json["details"][1],
        json!({"label": "Company size", "value": "250 to 999 employees"})
    );
    assert_eq!(
        one.json["status"], "new",
        "the support's attempt changed nothing"
    );
    for missing in ["/api/admin/messages/999999", "/api/admin/messages/abc"] {
        assert_eq!(cast.support.get(missing).await.status, 404, "{missing}");
    }

    // An admin marks it answered, once; the audit log says who and what.
    let done = cast.admin.post(&answered, json!({})).await;
    assert_eq!(done.status, 200, "{engine:?}: {}", done.json);
    assert_eq!(done.json["status"], "answered");
    assert_eq!(done.json["answeredBy"], "admin@example.com");
    let entry = newest_audit(&mut cast).await;
    assert_eq!(entry["action"], "contact_message.answered");
    assert_eq!(entry["targetId"], id.to_string());
    assert_eq!(entry["actorEmail"], "admin@example.com");
    let again = cast.owner.post(&answered, json!({})).await;
    assert_eq!(again.status, 409, "{}", again.json);
    assert_eq!(
        again.json["error"],
        "This message is already marked answered."
    );
    let audit = cast.owner.get("/api/admin/audit").await;
    let answers = audit.json["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .filter(|e| e["action"] == "contact_message.answered")
        .count();
    assert_eq!(answers, 1, "a refused change writes no audit row");
    let other = all
        .iter()
        .find(|m| m["kind"] == "general")
        .expect("general")["id"]
        .clone();
    let owner = cast
        .owner
        .post(&format!("/api/admin/messages/{other}/answered"), json!({}))
        .await;
    assert_eq!(owner.status, 200, "{}", owner.json);
    let answered_list = cast
        .support
        .get("/api/admin/messages?status=answered")
        .await;
    assert_eq!(
        answered_list.json["messages"].as_array().map(Vec::len),
        Some(2)
    );
    app.running.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn admins_read_and_answer_contact_messages_by_level() {
    each_engine(messages).await;
}

/// A free local port (bound, then released for the mail server to take later).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr")
        .port()
}

async fn outbox(db: TestDb) {
    let engine = db.engine;
    // The mail server is down when the message comes in, and up when the admin retries.
    let port = free_port();
    let mut cfg = config(&db);
    cfg.smtp_url = Some(server::config::Secret(format!("smtp://127.0.0.1:{port}")));
    cfg.sales_email = Some("sales@sitelens.test".to_owned());
    let app = spawn_app(cfg, WEB_ONLY).await;
    assert_eq!(
        app.post_json("/api/contact/enterprise", &enterprise())
            .await
            .status,
        200
    );
    let store_db = app.running.db.clone();
    let mut cast = admin_cast(&app.web, &store_db).await;

    let failed = cast.support.get("/api/admin/outbox?status=failed").await;
    assert_eq!(failed.status, 200, "{engine:?}: {}", failed.json);
    let emails = failed.json["emails"].as_array().expect("emails").clone();
    let sales = emails
        .iter()
        .find(|e| e["to"] == "sales@sitelens.test")
        .expect("the sales mail failed")
        .clone();
    assert_eq!(sales["status"], "failed");
    assert_eq!(sales["attempts"], 1);
    assert!(sales["lastError"].as_str().is_some_and(|e| !e.is_empty()));
    assert_eq!(
        sales["replyTo"],
        "\"Ada Lovelace\" <ada@analytical.example>"
    );
    assert!(
        sales.get("body").is_none(),
        "bodies (one-time links) stay out of the admin area"
    );
    let id = sales["id"].as_i64().expect("id");
    for bad in ["?status=lost", "?before=x"] {
        assert_eq!(
            cast.support
                .get(&format!("/api/admin/outbox{bad}"))
                .await
                .status,
            400
        );
    }

    let retry = format!("/api/admin/outbox/{id}/retry");
    assert_refused_below(&mut cast, "GET", "/api/admin/outbox", None, "support").await;
    assert_refused_below(&mut cast, "POST", &retry, Some(json!({})), "admin").await;

    let mail_dir = db.dir().join("mail");
    let Some((_smtp, _)) = start_smtp(&mail_dir, port).await else {
        return;
    };
    let sent = cast.admin.post(&retry, json!({})).await;
    assert_eq!(sent.status, 200, "{engine:?}: {}", sent.json);
    assert_eq!(sent.json["status"], "sent");
    assert_eq!(sent.json["attempts"], 2);
    assert_eq!(sent.json["lastError"], Value::Null);
    let mails = received(&mail_dir);
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0]["to"], json!(["sales@sitelens.test"]));
    assert_eq!(
        mails[0]["reply_to"],
        "Ada Lovelace <ada@analytical.example>"
    );
    let entry = newest_audit(&mut cast).await;
    assert_eq!(entry["action"], "email.retry");
    assert_eq!(entry["targetId"], id.to_string());

    let again = cast.owner.post(&retry, json!({})).await;
    assert_eq!(again.status, 409);
    assert_eq!(again.json["error"], "This e-mail was already sent.");
    assert_eq!(
        cast.owner
            .post("/api/admin/outbox/999999/retry", json!({}))
            .await
            .status,
        404
    );
    let sent_list = cast.support.get("/api/admin/outbox?status=sent").await;
    assert!(
        sent_list.json["emails"]
            .as_array()
            .expect("emails")
            .iter()
            .any(|e| e["id"] == id)
    );
    app.running.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn admins_see_the_outbox_and_retry_a_failed_mail() {
    each_engine(outbox).await;
}
