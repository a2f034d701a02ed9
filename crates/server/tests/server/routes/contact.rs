//! `POST /api/contact`.

use serde_json::json;

use super::{Case, JSON, case};
use crate::support::{TestDb, WEB_ONLY, config, each_engine, spawn_app};

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
