//! `POST /api/contact`.

use serde_json::json;

use super::{Case, JSON, case};
use crate::support::{TestDb, WEB_ONLY, config, each_engine, received, spawn_app, start_smtp};

/// Incomplete contact forms.
pub fn malformed() -> Vec<Case> {
    vec![
        // POST /api/contact
        case("POST", "/api/contact", JSON, "{}", 422),
        case(
            "POST",
            "/api/contact",
            JSON,
            r#"{"name": "", "email": "a@b.co", "message": "hi"}"#,
            422,
        ),
        case(
            "POST",
            "/api/contact",
            JSON,
            r#"{"name": "A", "email": "nope", "message": "hi"}"#,
            422,
        ),
        case(
            "POST",
            "/api/contact",
            JSON,
            r#"{"name": "A", "email": "a@b.co", "message": "  "}"#,
            422,
        ),
        case("POST", "/api/contact/enterprise", JSON, "{", 400),
        case("POST", "/api/contact/enterprise", JSON, "{}", 422),
        case("POST", "/api/contact/agency", JSON, r#"{"name": 7}"#, 422),
        case("POST", "/api/contact/agency", JSON, "{}", 422),
        case("POST", "/api/contact/partner", JSON, "[]", 422),
        case("POST", "/api/contact/partner", JSON, "{}", 422),
    ]
}

/// A complete message is stored, trimmed; an incomplete or overlong one is refused with the
/// message the web form shows for that field (the same `domain` rule on both sides).
async fn contact(db: TestDb) {
    let engine = db.engine;
    let app = spawn_app(config(&db), WEB_ONLY).await;
    let sent = app
        .post_json(
            "/api/contact",
            &json!({"name": " Grace Hopper ", "email": "grace@example.com", "subject": "Agency plan", "message": "Can we brand reports?\n"}),
        )
        .await;
    assert_eq!(sent.status, 200, "{engine:?}: {}", sent.json);
    assert_eq!(sent.json["success"], true);
    let conn = store::connect(&db.url).await.expect("connect");
    let stored = store::contact::recent_contact_messages(&conn, 5)
        .await
        .expect("messages");
    assert_eq!(stored.len(), 1);
    assert_eq!(
        (stored[0].name.as_str(), stored[0].message.as_str()),
        ("Grace Hopper", "Can we brand reports?")
    );

    for (body, message) in [
        (
            json!({"name": "Grace", "email": "grace@example.com", "message": "Hello"}),
            "Please enter a subject",
        ),
        (
            json!({"name": "Grace", "email": "grace@example.com", "subject": "Hi", "message": "m".repeat(5001)}),
            "Please keep the message to 5,000 characters",
        ),
        (
            json!({"name": "g".repeat(201), "email": "grace@example.com", "subject": "Hi", "message": "Hello"}),
            "Please keep your name to 200 characters",
        ),
        (
            json!({"name": "Grace", "email": "grace@localhost", "subject": "Hi", "message": "Hello"}),
            domain::forms::EMAIL_MESSAGE,
        ),
    ] {
        let refused = app.post_json("/api/contact", &body).await;
        assert_eq!(refused.status, 422, "{engine:?}: {}", refused.json);
        assert_eq!(refused.json["error"], message);
    }
    assert_eq!(
        store::contact::recent_contact_messages(&conn, 5)
            .await
            .expect("messages")
            .len(),
        1,
        "nothing refused is stored"
    );
    app.running.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn contact_messages_follow_the_domain_rule() {
    each_engine(contact).await;
}

/// The sales address of the tests.
const SALES: &str = "sales@sitelens.test";

fn enterprise() -> serde_json::Value {
    json!({
        "name": "Ada Lovelace", "email": "ada@analytical.example", "company": "Analytical Engines",
        "jobTitle": "Head of SEO", "companySize": "250-999", "monthlyReports": "500-2000",
        "phone": "+44 20 7946 0000", "message": "We audit 300 client sites a month."
    })
}

/// Enterprise, agency and partner messages: a bad one is refused with its field's message and
/// leaves nothing behind; a good one is stored with its kind and labelled details, and mailed
/// through the real SMTP server to the sales address with Reply-To the sender.
async fn sales_forms(db: TestDb) {
    let engine = db.engine;
    let mail_dir = db.dir().join("mail");
    let Some((_smtp, port)) = start_smtp(&mail_dir, 0).await else {
        return;
    };
    let mut cfg = config(&db);
    cfg.smtp_url = Some(server::config::Secret(format!("smtp://127.0.0.1:{port}")));
    cfg.sales_email = Some(SALES.to_owned());
    let app = spawn_app(cfg, WEB_ONLY).await;
    let conn = &app.running.db;

    for (path, body, message) in [
        (
            "/api/contact/enterprise",
            json!({"name": "Ada", "email": "ada@analytical.example", "company": "AE", "companySize": "250-999", "monthlyReports": "lots", "message": "Hi"}),
            "Please choose how many reports you expect a month",
        ),
        (
            "/api/contact/enterprise",
            {
                let mut b = enterprise();
                b["phone"] = json!("call me");
                b
            },
            domain::contact::PHONE_MESSAGE,
        ),
        (
            "/api/contact/agency",
            json!({"name": "Grace", "email": "grace@studio.example", "agency": "Studio", "clients": "11-50", "website": "not a site", "message": "Hi"}),
            domain::contact::WEBSITE_MESSAGE,
        ),
        (
            "/api/contact/partner",
            json!({"name": "Linus", "email": "linus@host.example", "company": "Host Co", "message": "Hi"}),
            "Please choose the kind of partnership",
        ),
    ] {
        let refused = app.post_json(path, &body).await;
        assert_eq!(refused.status, 422, "{engine:?} {path}: {}", refused.json);
        assert_eq!(refused.json["success"], false);
        assert_eq!(refused.json["error"], message, "{path}");
    }
    assert!(
        store::contact::recent_contact_messages(conn, 5)
            .await
            .expect("messages")
            .is_empty(),
        "nothing refused is stored"
    );
    assert!(
        store::outbox::recent_emails(conn, 5)
            .await
            .expect("outbox")
            .is_empty(),
        "nothing refused is mailed"
    );

    let sent = app
        .post_json("/api/contact/enterprise", &enterprise())
        .await;
    assert_eq!(sent.status, 200, "{engine:?}: {}", sent.json);
    let agency = app
        .post_json(
            "/api/contact/agency",
            &json!({"name": "Grace Hopper", "email": "grace@studio.example", "agency": "Studio Grace", "clients": "11-50", "website": "studio.example", "message": "White-label for 30 clients."}),
        )
        .await;
    assert_eq!(agency.status, 200, "{}", agency.json);
    let partner = app
        .post_json(
            "/api/contact/partner",
            &json!({"name": "Linus", "email": "linus@host.example", "company": "Host Co", "partnership": "hosting", "message": "Audits in our panel."}),
        )
        .await;
    assert_eq!(partner.status, 200, "{}", partner.json);

    let stored = store::contact::recent_contact_messages(conn, 5)
        .await
        .expect("messages");
    let kinds: Vec<&str> = stored.iter().map(|m| m.kind.as_str()).collect();
    assert_eq!(kinds, ["partner", "agency", "enterprise"]);
    let ent = &stored[2];
    assert_eq!(ent.subject, "Enterprise enquiry from Analytical Engines");
    assert_eq!(ent.status, "new");
    let details: serde_json::Value = serde_json::from_str(&ent.details).expect("JSON");
    assert_eq!(
        details[0],
        json!({"label": "Company", "value": "Analytical Engines"})
    );
    assert_eq!(
        details[4],
        json!({"label": "Phone", "value": "+44 20 7946 0000"})
    );

    let mails = received(&mail_dir);
    assert_eq!(mails.len(), 3, "one mail per message");
    assert_eq!(mails[0]["to"], json!([SALES]));
    assert_eq!(
        mails[0]["reply_to"],
        "Ada Lovelace <ada@analytical.example>"
    );
    assert_eq!(
        mails[0]["subject"],
        "[Enterprise] Enterprise enquiry from Analytical Engines"
    );
    let body = mails[0]["body"].as_str().expect("body");
    assert!(
        body.contains("Expected reports a month: 500 to 2,000 reports"),
        "{body}"
    );
    assert!(
        body.contains("We audit 300 client sites a month."),
        "{body}"
    );
    assert_eq!(mails[1]["reply_to"], "Grace Hopper <grace@studio.example>");
    assert_eq!(
        mails[2]["subject"],
        "[Partner] Partner enquiry from Host Co"
    );
    let outbox = store::outbox::recent_emails(conn, 5).await.expect("outbox");
    assert!(
        outbox
            .iter()
            .all(|m| m.sent_at.is_some() && m.reply_to.is_some())
    );
    app.running.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sales_messages_are_stored_and_mailed_with_reply_to() {
    each_engine(sales_forms).await;
}

/// Without a sales address a message is stored for the admin area and nothing is queued.
async fn stored_only(db: TestDb) {
    let app = spawn_app(config(&db), WEB_ONLY).await;
    let sent = app
        .post_json("/api/contact/enterprise", &enterprise())
        .await;
    assert_eq!(sent.status, 200, "{}", sent.json);
    let conn = &app.running.db;
    assert_eq!(
        store::contact::recent_contact_messages(conn, 5)
            .await
            .expect("messages")
            .len(),
        1
    );
    assert!(
        store::outbox::recent_emails(conn, 5)
            .await
            .expect("outbox")
            .is_empty()
    );
    app.running.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn without_a_sales_address_messages_are_only_stored() {
    each_engine(stored_only).await;
}
