//! The PDF downloads: `POST /api/download-basic-report` and `GET /api/download-report/{id}`
//! (a download of a real report is part of the journey in `analyses`), the mail the download
//! form sends, and `POST /api/reports/{id}/send`, a report sent to a client; every mail is
//! received by a real SMTP server (aiosmtpd) and read back as MIME.

use std::path::Path;
use std::time::Duration;

use domain::report::{AnalysisReport, ReportType};
use serde_json::{Value, json};

use super::accounts::Browser;
use super::paid::{finish_job, full_report, pdf_text};
use super::{Case, JSON, case};
use crate::support::{
    Engine, TestApp, TestDb, WEB_ONLY, assert_error_shape, config, each_engine, join_team,
    make_admin, received, run_on, spawn_app, start_smtp,
};

/// Forms and ids the downloads refuse.
pub fn malformed() -> Vec<Case> {
    let unknown = "00000000-0000-4000-8000-000000000000";
    let mut t = vec![
        // POST /api/download-basic-report
        case("POST", "/api/download-basic-report", JSON, "{}", 422),
        case("POST", "/api/download-basic-report", JSON, "{oops", 400),
        case(
            "POST",
            "/api/download-basic-report",
            JSON,
            r#"{"reportId": "x", "email": "bad", "firstName": "A", "lastName": "B", "agreeToEmails": true}"#,
            422,
        ),
        case(
            "POST",
            "/api/download-basic-report",
            JSON,
            r#"{"reportId": "x", "email": "a@b.co", "firstName": "", "lastName": "B", "agreeToEmails": true}"#,
            422,
        ),
        case(
            "POST",
            "/api/download-basic-report",
            JSON,
            r#"{"reportId": "x", "email": "a@b.co", "firstName": "A", "lastName": "B", "agreeToEmails": false}"#,
            422,
        ),
        case(
            "POST",
            "/api/download-basic-report",
            JSON,
            r#"{"reportId": "x", "email": "a@b.co", "firstName": "A", "lastName": "B", "agreeToEmails": "yes"}"#,
            422,
        ),
        case(
            "POST",
            "/api/download-basic-report",
            JSON,
            r#"{"reportId": "not-a-uuid", "email": "a@b.co", "firstName": "A", "lastName": "B", "agreeToEmails": true}"#,
            404,
        ),
        // POST /api/reports/{id}/send: signed-in users only
        case("POST", "/api/reports/zzz/send", JSON, "{}", 401),
        // GET /api/download-report/{id}
        case("GET", "/api/download-report/zzz", None, "", 404),
        case(
            "GET",
            "/api/download-report/00000000-0000-4000-8000-000000000000",
            None,
            "",
            404,
        ),
    ];
    let unknown_download = format!(
        r#"{{"reportId": "{unknown}", "email": "a@b.co", "firstName": "A", "lastName": "B", "agreeToEmails": true}}"#
    );
    t.push(Case {
        method: "POST",
        path: "/api/download-basic-report",
        content_type: JSON,
        body: unknown_download.into_bytes(),
        status: 404,
    });
    t
}

/// A free report of `report`'s site requested by `requester` (the dashboard lists it for their
/// team), stored as a finished analysis; returns its id.
async fn owned_report(
    db: &store::DatabaseConnection,
    report: &AnalysisReport,
    requester: Option<i64>,
) -> String {
    let job = store::jobs::enqueue_analysis(
        db,
        &store::jobs::NewAnalysis {
            url: report.url.clone(),
            canonical_url: report.url.clone(),
            report_type: report.report_type,
            requested_pages: report.report_type.pages(),
            requester_user_id: requester,
            requester_ip: None,
        },
    )
    .await
    .expect("enqueue");
    finish_job(db, job.id, report).await
}

/// A server sending its mail to a real SMTP server (aiosmtpd) writing into `dir`, configured
/// by `adjust`; `None` when aiosmtpd is not installed.
async fn mailing_app(
    db: &TestDb,
    dir: &Path,
    adjust: impl FnOnce(&mut server::Config),
) -> Option<(TestApp, tokio::process::Child)> {
    let (smtp, port) = start_smtp(dir, 0).await?;
    let mut cfg = config(db);
    cfg.smtp_url = Some(server::config::Secret(format!("smtp://127.0.0.1:{port}")));
    adjust(&mut cfg);
    Some((spawn_app(cfg, WEB_ONLY).await, smtp))
}

/// Waits until the mail sink holds a message to `to` whose subject contains `subject` (mail
/// goes out after the answer), at most 30 s; returns it.
async fn mail_to(dir: &Path, to: &str, subject: &str) -> Value {
    for _ in 0..600 {
        if let Some(mail) = received(dir).into_iter().find(|m| {
            m["to"] == json!([to]) && m["subject"].as_str().is_some_and(|s| s.contains(subject))
        }) {
            return mail;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("no mail {subject:?} to {to}: {:?}", received(dir));
}

/// The attachments of a received mail: (file name, content type, bytes).
fn attachments(mail: &Value) -> Vec<(String, String, Vec<u8>)> {
    use base64::Engine;
    mail["attachments"]
        .as_array()
        .expect("attachments")
        .iter()
        .map(|a| {
            (
                a["filename"].as_str().unwrap_or_default().to_owned(),
                a["content_type"].as_str().unwrap_or_default().to_owned(),
                base64::engine::general_purpose::STANDARD
                    .decode(a["base64"].as_str().expect("base64"))
                    .expect("base64 decodes"),
            )
        })
        .collect()
}

/// The message as received, for its MIME headers.
fn raw_mail(dir: &Path, to: &str) -> String {
    std::fs::read_dir(dir)
        .expect("mail dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
        .map(|p| std::fs::read_to_string(p).expect("eml"))
        .find(|m| m.contains(&format!("To: {to}")))
        .unwrap_or_else(|| panic!("no raw mail to {to}"))
}

/// Waits until `done` holds for the report request with this upgrade token (its mail is marked
/// sent after the server accepted it), at most 30 s.
async fn request_when(
    db: &store::DatabaseConnection,
    token: &str,
    done: impl Fn(&store::entity::email_reports::Model) -> bool,
) -> store::entity::email_reports::Model {
    for _ in 0..600 {
        let row = store::reports::find_by_upgrade_token(db, token)
            .await
            .expect("lookup")
            .expect("the request");
        if done(&row) {
            return row;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the report request never reached the expected state");
}

/// POSTs the Download Report form for `id`; returns the status and the bytes answered.
async fn download(app: &TestApp, id: &str, email: &str) -> (u16, Vec<u8>) {
    let res = app
        .http
        .post(format!("{}/api/download-basic-report", app.base))
        .header("content-type", "application/json")
        .body(
            json!({"reportId": id, "email": email, "firstName": "Ada",
                   "lastName": "Lovelace", "agreeToEmails": true})
            .to_string(),
        )
        .send()
        .await
        .expect("request");
    (
        res.status().as_u16(),
        res.bytes().await.expect("body").to_vec(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_download_form_mails_the_report_with_its_pdf_and_an_upgrade_link() {
    each_engine(|db: TestDb| async move {
        let dir = db.dir().join("mail");
        let Some((app, _smtp)) = mailing_app(&db, &dir, |_| {}).await else {
            return;
        };
        let report = full_report("https://acme.example/", ReportType::Basic);
        let id = owned_report(&app.running.db, &report, None).await;
        let (status, downloaded) = download(&app, &id, "reader@example.com").await;
        assert_eq!(status, 200);

        let mail = mail_to(&dir, "reader@example.com", "Your website report").await;
        assert_eq!(mail["subject"], "Your website report for acme.example");
        assert_eq!(mail["content_type"], "multipart/mixed");
        assert_eq!(mail["from"], "Sitelens <no-reply@sitelens.test>");
        let body = mail["body"].as_str().expect("body");
        assert!(body.starts_with("Hello Ada,"), "{body}");
        assert!(
            body.contains(&format!(
                "Read the report: https://sitelens.test/results?id={id}"
            )),
            "{body}"
        );
        assert!(
            body.contains("The PDF is attached to this email."),
            "{body}"
        );

        // The attachment is the PDF the reader downloaded: a file that parses, named as the
        // download is.
        let files = attachments(&mail);
        assert_eq!(files.len(), 1, "{mail}");
        let (name, content_type, pdf) = &files[0];
        let shown =
            server::services::reports::find_report(&app.running.db, id.parse().expect("id"))
                .await
                .expect("report");
        assert_eq!(name, &server::services::pdf::file_name(&shown));
        assert_eq!(content_type, "application/pdf");
        assert!(pdf.starts_with(b"%PDF-"), "a PDF");
        assert!(pdf_text(pdf).contains("acme.example"), "the report's PDF");
        assert_eq!(pdf, &downloaded, "rendered once: the download's bytes");
        let raw = raw_mail(&dir, "reader@example.com");
        assert!(raw.contains("Content-Type: multipart/mixed;"), "{raw}");
        assert!(raw.contains("Content-Type: application/pdf"), "{raw}");
        assert!(raw.contains("Content-Disposition: attachment;"), "{raw}");
        assert!(raw.contains(name.as_str()), "the file name in the headers");
        if let Ok(keep) = std::env::var("SITELENS_MAIL_PREVIEW") {
            std::fs::write(format!("{keep}/download-{:?}.eml", db.engine), &raw).expect("kept");
        }

        // The upgrade link carries the lead's token, which opens the upgrade of this site.
        let link = body
            .lines()
            .find(|l| l.contains("upgradeToken="))
            .expect("an upgrade link");
        let token = link
            .strip_prefix("https://sitelens.test/checkout?package=starter&upgradeToken=")
            .expect("the upgrade checkout");
        assert!(
            domain::checkout::check_upgrade_token(token).is_ok(),
            "{token}"
        );
        let lead = request_when(&app.running.db, token, |r| r.sent_at.is_some()).await;
        assert_eq!(lead.email, "reader@example.com");
        assert_eq!(lead.website_url, "https://acme.example/");
        assert_eq!(
            lead.analysis_result_id.map(|u| u.to_string()),
            Some(id.clone())
        );
        let outbox = store::outbox::get_email(&app.running.db, lead.outbox_id.expect("its mail"))
            .await
            .expect("outbox row");
        assert!(outbox.sent_at.is_some());
        assert_eq!(outbox.attachment_type.as_deref(), Some("application/pdf"));
        let key = outbox.attachment_key.expect("the attachment's blob");
        assert!(key.starts_with("mail/") && key.ends_with(".pdf"), "{key}");

        // The attachment waited in blob storage, never public, and is removed once sent.
        let blob = db.dir().join("data/blobs").join(&key);
        for _ in 0..600 {
            if !blob.exists() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert!(!blob.exists(), "the sent attachment is removed");
        assert_eq!(app.get(&format!("/files/{key}")).await.status, 404);
        app.running.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_pdf_over_the_cap_stays_at_its_link() {
    each_engine(|db: TestDb| async move {
        let dir = db.dir().join("mail");
        // A cap of 1 KB: every report's PDF is larger (checked below), so none is attached.
        let Some((app, _smtp)) =
            mailing_app(&db, &dir, |c| c.mail_attachment_max_bytes = 1024).await
        else {
            return;
        };
        let report = full_report("https://big.example/", ReportType::Basic);
        let id = owned_report(&app.running.db, &report, None).await;
        let (status, pdf) = download(&app, &id, "reader@example.com").await;
        assert_eq!(status, 200);
        assert!(pdf.len() > 1024, "the PDF is over the cap");
        let mail = mail_to(&dir, "reader@example.com", "Your website report").await;
        assert_eq!(mail["content_type"], "text/plain");
        assert!(attachments(&mail).is_empty(), "{mail}");
        let body = mail["body"].as_str().expect("body");
        assert!(
            body.contains(&format!(
                "The PDF is too large to attach to an email. Download it here: https://sitelens.test/api/download-report/{id}"
            )),
            "{body}"
        );
        assert!(body.contains("upgradeToken="), "{body}");
        app.running.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn without_mail_the_download_records_the_lead_and_queues_nothing() {
    run_on(Engine::Sqlite, |db: TestDb| async move {
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let report = full_report("https://quiet.example/", ReportType::Basic);
        let id = owned_report(&app.running.db, &report, None).await;
        let (status, pdf) = download(&app, &id, "reader@example.com").await;
        assert_eq!(status, 200);
        assert!(pdf.starts_with(b"%PDF-"));
        let mails = store::outbox::recent_emails(&app.running.db, 10)
            .await
            .expect("outbox");
        assert!(mails.is_empty(), "{mails:?}");
        let blobs = db.dir().join("data/blobs/mail");
        assert!(!blobs.exists(), "no attachment stored");
        app.running.shutdown().await;
    })
    .await;
}

/// Signs a new account up; returns the browser and the account's id.
async fn account<'a>(app: &'a TestApp, email: &str, name: &str) -> (Browser<'a>, i64) {
    let mut browser = Browser::new(&app.web);
    let answer = browser.sign_up(email, name).await;
    assert_eq!(answer.status, 200, "{}", answer.json);
    let id = answer.json["account"]["id"].as_i64().expect("id");
    (browser, id)
}

fn send_body(email: &str) -> Value {
    json!({"email": email, "firstName": "Ada", "message": "Here is the audit we talked about."})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_report_is_sent_to_a_client_by_whom_the_team_allows() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let dir = db.dir().join("mail");
        // The operator's own sender address (the agency's name goes on it).
        let Some((app, _smtp)) = mailing_app(&db, &dir, |c| {
            c.mail_from = "Reports <reports@mail.studio.example>".to_owned();
        })
        .await
        else {
            return;
        };
        let conn = app.running.db.clone();
        let (mut owner, owner_id) = account(&app, "owner@studio.example", "owner").await;
        let (mut member, member_id) = account(&app, "member@studio.example", "member").await;
        let (mut bare, bare_id) = account(&app, "bare@studio.example", "bare").await;
        let (mut other, other_id) = account(&app, "other@example.com", "other").await;
        let (mut admin, admin_id) = account(&app, "admin@example.com", "admin").await;
        make_admin(&conn, admin_id, "owner").await;
        store::users::set_subscription_plan(&conn, owner_id, "agency")
            .await
            .expect("plan");
        store::accounts::save_branding(
            &conn,
            owner_id,
            &store::accounts::Branding {
                company_name: "Studio Grace".to_owned(),
                contact_email: Some("hello@studio.example".to_owned()),
                ..store::accounts::Branding::default()
            },
        )
        .await
        .expect("branding");
        // A member whose role's permissions were stored, and one whose were not.
        store::accounts::add_team_member(
            &conn,
            owner_id,
            member_id,
            "member",
            &domain::accounts::TeamRole::Member.permissions(),
        )
        .await
        .expect("invite");
        store::accounts::accept_team_invitation(&conn, owner_id, member_id)
            .await
            .expect("join");
        join_team(&conn, owner_id, bare_id, "member").await;

        // The agency's report (white-label by its plan, so it wears the brand), which its team
        // shares.
        let report = full_report("https://client.example/", ReportType::Basic);
        let id = owned_report(&conn, &report, Some(owner_id)).await;
        let path = format!("/api/reports/{id}/send");

        // Who may send it.
        let anonymous = app.post_json(&path, &send_body("a@client.example")).await;
        assert_eq!(anonymous.status, 401, "{engine:?} anonymous");
        let table: [(&str, &mut Browser<'_>, u16); 5] = [
            ("owner", &mut owner, 200),
            ("member allowed by the role", &mut member, 200),
            ("member without the permission", &mut bare, 403),
            ("another user", &mut other, 404),
            ("an administrator outside the team", &mut admin, 404),
        ];
        let mut sent = 0;
        for (who, browser, status) in table {
            let to = format!("client-{}@client.example", sent + 1);
            let answer = browser.post(&path, send_body(&to)).await;
            assert_eq!(answer.status, status, "{engine:?} {who}: {}", answer.json);
            if status == 200 {
                sent += 1;
                assert_eq!(
                    answer.json["message"],
                    format!("The report is on its way to {to}.")
                );
            } else {
                assert_error_shape(&answer.json, who);
            }
        }
        assert_eq!(
            owner
                .post("/api/reports/not-a-uuid/send", send_body("a@client.example"))
                .await
                .status,
            404
        );

        // The agency's mail: its name, replies to its contact address, no word of Sitelens.
        let mail = mail_to(&dir, "client-1@client.example", "website report").await;
        assert_eq!(mail["from"], "Studio Grace <reports@mail.studio.example>");
        assert_eq!(mail["reply_to"], "hello@studio.example");
        assert_eq!(
            mail["subject"],
            "Studio Grace: your website report for client.example"
        );
        let body = mail["body"].as_str().expect("body");
        assert!(body.contains("Here is the audit we talked about."), "{body}");
        assert!(
            body.contains(&format!(
                "Read the report: https://sitelens.test/results?id={id}"
            )),
            "{body}"
        );
        let files = attachments(&mail);
        assert_eq!(files.len(), 1);
        assert!(files[0].2.starts_with(b"%PDF-"));
        let pdf = pdf_text(&files[0].2);
        assert!(pdf.contains("Studio Grace"), "the attached PDF wears the brand");
        assert!(!pdf.to_lowercase().contains("sitelens"), "{pdf}");
        assert!(files[0].0.starts_with("report-client.example-"), "{}", files[0].0);
        // Nothing names Sitelens but the server's own public address, which the operator sets
        // (and a custom domain replaces).
        let text = body.replace("https://sitelens.test/", "");
        let seen = format!("{} {} {} {}", mail["from"], mail["subject"], text, files[0].0);
        assert!(!seen.to_lowercase().contains("sitelens"), "{seen}");
        if let Ok(keep) = std::env::var("SITELENS_MAIL_PREVIEW") {
            let raw = raw_mail(&dir, "client-1@client.example");
            std::fs::write(format!("{keep}/client-{:?}.eml", db.engine), raw).expect("kept");
        }
        mail_to(&dir, "client-2@client.example", "website report").await;

        // The download form of the agency's report mails its reader in the agency's voice too,
        // with no upgrade to a Sitelens report.
        let (status, _) = download(&app, &id, "lead@client.example").await;
        assert_eq!(status, 200);
        let lead = mail_to(&dir, "lead@client.example", "Your website report").await;
        assert_eq!(lead["from"], "Studio Grace <reports@mail.studio.example>");
        assert_eq!(lead["reply_to"], "hello@studio.example");
        let text = lead["body"].as_str().expect("body").replace("https://sitelens.test/", "");
        assert!(text.contains("prepared by Studio Grace"), "{text}");
        assert!(!text.to_lowercase().contains("sitelens"), "{text}");
        assert!(!text.contains("upgradeToken"), "{text}");

        // The fields are checked with domain's messages; nothing is sent.
        for (body, message) in [
            (json!({"email": "nope", "firstName": "Ada"}), "Please enter a valid email address"),
            (json!({"email": "a@client.example", "firstName": " "}), "Please enter your client's first name"),
            (
                json!({"email": "a@client.example", "firstName": "Ada", "message": "x".repeat(2001)}),
                "Please keep the message to 2,000 characters",
            ),
        ] {
            let answer = owner.post(&path, body).await;
            assert_eq!(answer.status, 422, "{}", answer.json);
            assert_eq!(answer.json["error"], message);
        }

        // A report of another account, sent in Sitelens' voice with replies to its sender.
        let own = owned_report(&conn, &full_report("https://other.example/", ReportType::Basic), Some(other_id)).await;
        let answer = other
            .post(&format!("/api/reports/{own}/send"), send_body("friend@client.example"))
            .await;
        assert_eq!(answer.status, 200, "{}", answer.json);
        let mail = mail_to(&dir, "friend@client.example", "website report").await;
        assert_eq!(mail["from"], "Reports <reports@mail.studio.example>");
        assert_eq!(mail["reply_to"], "other@example.com");
        assert_eq!(
            mail["subject"],
            "Ada Lovelace sent you a website report for other.example"
        );
        assert!(mail["body"].as_str().expect("body").contains("made with Sitelens"));

        // The hourly allowance: at the limit the send is refused with when to try again.
        let since = store::now() - chrono::Duration::hours(1);
        let sender = store::reports::Sender {
            user_id: owner_id,
            since,
            max: u64::from(domain::report_mail::SEND_LIMIT),
        };
        let filler = store::reports::NewEmailReport {
            email: "filler@client.example".to_owned(),
            first_name: "Filler".to_owned(),
            last_name: None,
            website_url: report.url.clone(),
            report_type: ReportType::Basic,
            analysis_result_id: None,
            upgrade_token: None,
            agree_to_emails: false,
        };
        while let store::reports::Recorded::Stored { .. } =
            store::reports::record_email_report(&conn, &filler, None, Some(sender))
                .await
                .expect("record")
        {}
        let limited = owner.post(&path, send_body("late@client.example")).await;
        assert_eq!(limited.status, 429, "{}", limited.json);
        assert!(limited.retry_after.is_some_and(|s| s > 0 && s <= 3600));
        assert!(
            limited.json["error"]
                .as_str()
                .is_some_and(|e| e.starts_with("You have sent 30 reports in the last hour.")),
            "{}",
            limited.json
        );
        let member_still = member.post(&path, send_body("client-3@client.example")).await;
        assert_eq!(member_still.status, 200, "the allowance is per sender");
        app.running.shutdown().await;

        // Without a mail server: a clear 503, and nothing written.
        let quiet = spawn_app(config(&db), WEB_ONLY).await;
        let before = store::outbox::recent_emails(&conn, 1000).await.expect("outbox").len();
        let mut owner = Browser::new(&quiet.web);
        assert_eq!(owner.sign_in("owner@studio.example", super::accounts::PASSWORD).await.status, 200);
        let off = owner.post(&path, send_body("client-4@client.example")).await;
        assert_eq!(off.status, 503, "{}", off.json);
        assert_eq!(off.json["error"], domain::report_mail::MAIL_OFF_MESSAGE);
        let after = store::outbox::recent_emails(&quiet.running.db, 1000).await.expect("outbox").len();
        assert_eq!(before, after, "nothing queued");
        quiet.running.shutdown().await;
    })
    .await;
}
