//! Failed mail is sent again, a bounded number of times: the SMTP server (aiosmtpd) is down
//! when a message is queued, then comes up on the same port.

use chrono::Duration;
use server::services::mail::{MAX_ATTEMPTS, Mailer};

use crate::support::{TestDb, each_engine, received, start_smtp};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failed_mail_is_sent_again_once_the_server_answers() {
    each_engine(|db: TestDb| async move {
        // A port nothing listens on until the server is started there below.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let mailer = Mailer::new(
            "Sitelens <no-reply@sitelens.test>",
            Some(&format!("smtp://127.0.0.1:{port}")),
        )
        .expect("mailer");
        let conn = store::connect(&db.url).await.expect("database");
        let row = |id: i64| {
            let conn = conn.clone();
            async move {
                store::outbox::recent_emails(&conn, 10)
                    .await
                    .expect("outbox")
                    .into_iter()
                    .find(|m| m.id == id)
                    .expect("the row")
            }
        };

        mailer
            .send(&conn, "ada@example.com", "Hello again", "the body")
            .await
            .expect("queued");
        let first = store::outbox::recent_emails(&conn, 1)
            .await
            .expect("outbox")[0]
            .clone();
        assert_eq!((first.attempts, first.sent_at), (1, None));
        assert!(first.last_error.is_some(), "the failure is kept on the row");
        let queued = first.created_at;

        // Not due yet: nothing is tried.
        assert_eq!(mailer.retry_failed(&conn, queued).await.expect("retry"), 0);
        assert_eq!(row(first.id).await.attempts, 1);
        // Due while the server is still down: the attempt counts, the message stays.
        let due = queued + Duration::minutes(2);
        assert_eq!(mailer.retry_failed(&conn, due).await.expect("retry"), 0);
        assert_eq!(row(first.id).await.attempts, 2);

        // The server comes up on that port; the next due retry delivers.
        let dir = db.dir().join("mail");
        let Some((_smtp, _)) = start_smtp(&dir, port).await else {
            return;
        };
        let later = queued + Duration::minutes(4);
        assert_eq!(mailer.retry_failed(&conn, later).await.expect("retry"), 1);
        let mails = received(&dir);
        assert_eq!(mails.len(), 1);
        assert_eq!(mails[0]["subject"], "Hello again");
        assert_eq!(mails[0]["to"], serde_json::json!(["ada@example.com"]));
        let sent = row(first.id).await;
        assert_eq!((sent.attempts, sent.last_error.as_deref()), (3, None));
        assert!(sent.sent_at.is_some());
        // Sent once: later retries leave it alone.
        let next_day = queued + Duration::days(1);
        assert_eq!(
            mailer.retry_failed(&conn, next_day).await.expect("retry"),
            0
        );
        assert_eq!(received(&dir).len(), 1);

        // A message that can never be sent is tried MAX_ATTEMPTS times in all, then left in
        // the outbox with its error for an admin.
        mailer
            .send(&conn, "not an address", "Never", "the body")
            .await
            .expect("queued");
        let doomed = store::outbox::recent_emails(&conn, 1)
            .await
            .expect("outbox")[0]
            .clone();
        for _ in 0..MAX_ATTEMPTS + 3 {
            mailer.retry_failed(&conn, next_day).await.expect("retry");
        }
        let doomed = row(doomed.id).await;
        assert_eq!(doomed.attempts, MAX_ATTEMPTS);
        assert!(doomed.sent_at.is_none() && doomed.last_error.is_some());
    })
    .await;
}
