//! Failed mail is sent again, a bounded number of times: the SMTP server (aiosmtpd) is down
//! when a message is queued, then comes up on the same port.

use chrono::Duration;
use server::services::blobs::Blobs;
use server::services::mail::{MAX_ATTEMPTS, Mailer};

use crate::support::{TestDb, config, each_engine, received, start_smtp};

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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_mail_is_sent_again_with_its_attachment_and_its_request_marked_sent() {
    use base64::Engine;
    each_engine(|db: TestDb| async move {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let cfg = config(&db);
        std::fs::create_dir_all(cfg.blob_dir()).expect("blob dir");
        let blobs = Blobs::from_config(&cfg).expect("blobs");
        let mailer = Mailer::new(
            "Sitelens <no-reply@sitelens.test>",
            Some(&format!("smtp://127.0.0.1:{port}")),
        )
        .expect("mailer")
        .with_blobs(blobs.clone());
        let conn = store::connect(&db.url).await.expect("database");

        // A real report's PDF, waiting in blob storage for its mail.
        let demo = concat!(env!("CARGO_MANIFEST_DIR"), "/demo/report.json");
        let report =
            serde_json::from_str(&std::fs::read_to_string(demo).expect("demo")).expect("a report");
        let pdf = server::services::pdf::render(
            &report,
            &[None, None],
            &server::services::pdf::Brand::default(),
        )
        .expect("a PDF");
        blobs
            .put("mail/retry.pdf", "application/pdf", &pdf)
            .await
            .expect("stored");
        let email = store::outbox::NewEmail {
            to: "reader@example.com".to_owned(),
            subject: "Your website report".to_owned(),
            body: "Read the report.".to_owned(),
            from_name: Some("Studio Grace".to_owned()),
            attachment: Some(store::outbox::Attachment {
                key: "mail/retry.pdf".to_owned(),
                name: "report.pdf".to_owned(),
                content_type: "application/pdf".to_owned(),
            }),
            ..store::outbox::NewEmail::default()
        };
        let request = store::reports::NewEmailReport {
            email: "reader@example.com".to_owned(),
            first_name: "Ada".to_owned(),
            last_name: None,
            website_url: "https://acme.example/".to_owned(),
            report_type: domain::report::ReportType::Basic,
            analysis_result_id: None,
            upgrade_token: Some("00112233445566778899aabbccddeeff".to_owned()),
            agree_to_emails: true,
        };
        let store::reports::Recorded::Stored {
            outbox_id: Some(id),
            ..
        } = store::reports::record_email_report(&conn, &request, Some(&email), None)
            .await
            .expect("recorded")
        else {
            panic!("stored with its mail");
        };

        // The server is down: the attempt fails, the file and the request wait.
        mailer.send_queued(&conn, id).await.expect("tried");
        let failed = store::outbox::get_email(&conn, id).await.expect("row");
        assert_eq!((failed.attempts, failed.sent_at), (1, None));
        let waiting =
            store::reports::find_by_upgrade_token(&conn, "00112233445566778899aabbccddeeff")
                .await
                .expect("lookup")
                .expect("request");
        assert_eq!(waiting.sent_at, None);
        assert!(cfg.blob_dir().join("mail/retry.pdf").exists());

        // The server comes up; the due retry sends the whole message.
        let dir = db.dir().join("mail");
        let Some((_smtp, _)) = start_smtp(&dir, port).await else {
            return;
        };
        let due = failed.created_at + Duration::minutes(2);
        assert_eq!(mailer.retry_failed(&conn, due).await.expect("retry"), 1);
        let mails = received(&dir);
        assert_eq!(mails.len(), 1);
        assert_eq!(mails[0]["content_type"], "multipart/mixed");
        assert_eq!(mails[0]["from"], "Studio Grace <no-reply@sitelens.test>");
        let attachment = &mails[0]["attachments"][0];
        assert_eq!(attachment["filename"], "report.pdf");
        assert_eq!(attachment["content_type"], "application/pdf");
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(attachment["base64"].as_str().expect("base64"))
            .expect("decodes");
        assert_eq!(bytes, pdf, "the attachment arrives whole");
        lopdf::Document::load_mem(&bytes).expect("the attachment parses as a PDF");
        let sent = store::outbox::get_email(&conn, id).await.expect("row");
        assert!(sent.sent_at.is_some());
        let request =
            store::reports::find_by_upgrade_token(&conn, "00112233445566778899aabbccddeeff")
                .await
                .expect("lookup")
                .expect("request");
        assert_eq!(
            request.sent_at, sent.sent_at,
            "the request is sent with its mail"
        );
        assert!(
            !cfg.blob_dir().join("mail/retry.pdf").exists(),
            "the sent attachment is removed"
        );
    })
    .await;
}
