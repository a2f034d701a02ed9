//! Finding a report by its id or by its analysis's id, keeping serialised results in memory,
//! its PDF ([`report_pdf`]), and mailed reports: the Download Report form's lead and mail
//! ([`record_download`]) and a report an account sends a client ([`send_to_client`]).

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use bytes::Bytes;
use domain::report::{AnalysisReport, DownloadRequest};
use domain::report_mail::{
    ClientNote, MailVoice, ReportMail, SEND_LIMIT, SEND_WINDOW_SECS, SendReportRequest,
    SendReportResponse, attaches, client_mail, download_mail, report_links, send_limited_message,
    send_retry_after, sent_message, validate_send_report,
};
use store::entity::users;
use store::jobs::JobStatus;
use store::outbox::{Attachment, NewEmail};
use store::reports::Recorded;
use store::{DatabaseConnection, StoreError};
use uuid::Uuid;

use crate::chain::Chain;
use crate::services::accounts::{AccountError, team_context, team_user_ids};
use crate::services::blobs::{Blobs, PRIVATE_PREFIX};
use crate::services::mail::Mailer;
use crate::services::pdf::{PdfError, file_name, render_pdf};

/// Why a report could not be given.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// No report and no analysis has this id.
    #[error("analysis not found")]
    NotFound,
    /// The analysis is queued or running.
    #[error("the analysis is not finished yet")]
    NotFinished,
    /// The analysis failed; the message is the one its visitor was shown.
    #[error("{0}")]
    Failed(String),
    /// The database failed.
    #[error(transparent)]
    Store(StoreError),
}

impl From<StoreError> for ReportError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::NotFound => ReportError::NotFound,
            other => ReportError::Store(other),
        }
    }
}

/// The stored report with this id, or the report of the analysis with this id (a client that
/// only knows its analysis id, its progress stream lost, can still open the report), as its
/// readers may see it: an unpaid report without its Pro-only content
/// ([`domain::entitlement::viewable`]). Every answer that carries a report — the results JSON,
/// the PDFs — is built from this, so nothing in a request (`paid=true` in an address) can
/// reveal more.
pub async fn find_report(db: &DatabaseConnection, id: Uuid) -> Result<AnalysisReport, ReportError> {
    Ok(domain::entitlement::viewable(
        find_stored_report(db, id).await?,
    ))
}

/// The stored report, whole (see [`find_report`]).
async fn find_stored_report(
    db: &DatabaseConnection,
    id: Uuid,
) -> Result<AnalysisReport, ReportError> {
    match store::results::get_report(db, id).await {
        Err(StoreError::NotFound) => {}
        other => return Ok(other?),
    }
    let job = store::jobs::get_job(db, id).await?;
    match (job.status, job.result_id) {
        (JobStatus::Complete, Some(result_id)) => {
            Ok(store::results::get_report(db, result_id).await?)
        }
        (JobStatus::Failed, _) => Err(ReportError::Failed(
            job.error
                .unwrap_or_else(|| "the analysis failed".to_owned()),
        )),
        _ => Err(ReportError::NotFinished),
    }
}

/// The PDF of `report` (as [`find_report`] gives it): the one function every PDF of a report
/// goes through — the downloads, the public API and mailed reports — so what dresses it (an
/// agency's brand, read from `db`) is decided in one place.
pub async fn report_pdf(
    _db: &DatabaseConnection,
    blobs: &Blobs,
    report: &AnalysisReport,
) -> Result<Vec<u8>, PdfError> {
    render_pdf(report.clone(), blobs).await
}

/// What mailing a report needs: the mailer, blob storage for its attachment, the public
/// address its links start with and the attachment size cap.
#[derive(Clone, Copy)]
pub struct ReportOutbox<'a> {
    /// The mailer (outbox, and SMTP when configured).
    pub mailer: &'a Mailer,
    /// Where the PDF waits until its mail is sent.
    pub blobs: &'a Blobs,
    /// `SITELENS_PUBLIC_URL`.
    pub public_url: &'a str,
    /// The largest PDF sent as an attachment, in bytes.
    pub attachment_max_bytes: u64,
}

impl ReportOutbox<'_> {
    /// Keeps `pdf` in blob storage for its mail when it is no larger than the cap; `None` when
    /// it is larger, or (logged) when storage fails: the mail then says the PDF is at its link.
    async fn attachment(&self, pdf: &[u8], name: String) -> Option<Attachment> {
        if !attaches(pdf.len() as u64, self.attachment_max_bytes) {
            return None;
        }
        let key = format!("{PRIVATE_PREFIX}{}.pdf", Uuid::new_v4());
        match self.blobs.put(&key, PDF_TYPE, pdf).await {
            Ok(()) => Some(Attachment {
                key,
                name,
                content_type: PDF_TYPE.to_owned(),
            }),
            Err(e) => {
                tracing::warn!(error = %Chain(&e), "report PDF not stored for its mail: sent as a link");
                None
            }
        }
    }

    /// Removes an attachment whose mail was not queued after all.
    async fn discard(&self, attachment: Option<&Attachment>) {
        if let Some(file) = attachment
            && let Err(e) = self.blobs.delete(&file.key).await
        {
            tracing::warn!(error = %Chain(&e), "unqueued mail's attachment not removed");
        }
    }

    /// Sends the queued mail `id` off the request's path: a slow or absent SMTP server never
    /// holds up the answer, and a failure stays on the outbox row for the retries.
    fn send_later(&self, db: &DatabaseConnection, id: i64) {
        let (mailer, db) = (self.mailer.clone(), db.clone());
        tokio::spawn(async move {
            if let Err(e) = mailer.send_queued(&db, id).await {
                tracing::warn!(outbox_id = id, error = %Chain(&e), "report mail queued, not sent now");
            }
        });
    }
}

/// The content type of a report's PDF.
const PDF_TYPE: &str = "application/pdf";

/// The voice of a report's mail: the agency's when the report wears its brand (decided when the
/// report was made, [`domain::whitelabel::report_branded`], and read with it), Sitelens' otherwise;
/// so a mail never speaks for someone other than the report it links.
fn mail_voice(report: &AnalysisReport) -> MailVoice {
    match &report.branding {
        Some(brand) => MailVoice::Agency {
            name: brand.company_name.clone(),
            contact_email: brand.contact_email.clone().filter(|e| !e.trim().is_empty()),
        },
        None => MailVoice::Sitelens,
    }
}

/// Where a mailed report's links lead: the agency's verified custom domain for a report it
/// brands, else our public address.
async fn report_base(db: &DatabaseConnection, report: &AnalysisReport, public_url: &str) -> String {
    let own = match Uuid::parse_str(&report.id) {
        Ok(id) if report.branding.is_some() => {
            crate::services::custom_domains::report_public_base(db, id).await
        }
        _ => None,
    };
    own.unwrap_or_else(|| public_url.to_owned())
}

/// Records the basic report's Download Report form (docs/PRODUCT.md §5.3) as a lead for
/// `report`, with an upgrade token; when mail is configured, also mails the reader the report's
/// link, its PDF (`pdf`, attached when under the cap) and, in Sitelens' voice for an unpaid
/// report, the upgrade link carrying the token. The lead and its mail are written together.
pub async fn record_download(
    db: &DatabaseConnection,
    outbox: ReportOutbox<'_>,
    form: &DownloadRequest,
    report: &AnalysisReport,
    pdf: &[u8],
) -> Result<(), StoreError> {
    let token = Uuid::new_v4().simple().to_string();
    let lead = store::reports::NewEmailReport {
        email: form.email.trim().to_owned(),
        first_name: form.first_name.trim().to_owned(),
        last_name: Some(form.last_name.trim().to_owned()),
        website_url: report.url.clone(),
        report_type: report.report_type,
        analysis_result_id: Uuid::parse_str(&report.id).ok(),
        upgrade_token: Some(token.clone()),
        agree_to_emails: form.agree_to_emails,
    };
    if !outbox.mailer.sends() {
        store::reports::create_email_report(db, &lead).await?;
        return Ok(());
    }
    let voice = mail_voice(report);
    let attachment = outbox.attachment(pdf, file_name(report)).await;
    let links = report_links(
        &report_base(db, report, outbox.public_url).await,
        &report.id,
    );
    let upgrade = (!report.paid && voice == MailVoice::Sitelens).then(|| {
        format!(
            "{}{}",
            outbox.public_url.trim_end_matches('/'),
            domain::checkout::upgrade_checkout_path(&token)
        )
    });
    let mail = download_mail(
        &lead.first_name,
        &report.url,
        &links,
        attachment.is_some(),
        upgrade.as_deref(),
        &voice,
    );
    let email = new_email(&lead.email, mail, attachment.clone());
    match store::reports::record_email_report(db, &lead, Some(&email), None).await {
        Ok(Recorded::Stored {
            outbox_id: Some(id),
            ..
        }) => outbox.send_later(db, id),
        Ok(_) => {}
        Err(e) => {
            outbox.discard(attachment.as_ref()).await;
            return Err(e);
        }
    }
    Ok(())
}

/// The outbox e-mail of a report mail to `to`.
fn new_email(to: &str, mail: ReportMail, attachment: Option<Attachment>) -> NewEmail {
    NewEmail {
        to: to.to_owned(),
        reply_to: mail.reply_to,
        subject: mail.subject,
        body: mail.body,
        from_name: mail.from_name,
        attachment,
    }
}

/// Why a report was not sent to a client.
#[derive(Debug, thiserror::Error)]
pub enum SendError {
    /// A field is missing or wrong; the text says which.
    #[error("{0}")]
    Invalid(String),
    /// No report with this id in the sender's reach (another account's included).
    #[error("report not found")]
    NotFound,
    /// The sender's team role does not allow it.
    #[error("{0}")]
    Forbidden(String),
    /// No mail server is configured: nothing was stored or sent.
    #[error("{}", domain::report_mail::MAIL_OFF_MESSAGE)]
    MailOff,
    /// The sender's hourly allowance is used; nothing was stored or sent.
    #[error("{message}")]
    Limited {
        /// What the sender reads.
        message: String,
        /// Seconds until a send is allowed again.
        retry_after: u64,
    },
    /// The PDF could not be made.
    #[error(transparent)]
    Pdf(#[from] PdfError),
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<AccountError> for SendError {
    fn from(e: AccountError) -> Self {
        match e {
            AccountError::Store(e) => SendError::Store(e),
            other => SendError::Store(StoreError::Data {
                what: format!("the sender's team: {other}"),
                source: None,
            }),
        }
    }
}

/// Sends report `id` to a client from `user`'s dashboard (issue 15 item 4): a report of their
/// team (requested by them or a teammate), if their team role allows
/// ([`domain::report_mail::may_send`]); the form checked by `domain`; within the hourly
/// allowance; in the agency's voice when the report wears its brand. The request and its mail
/// are written together, or nothing is.
pub async fn send_to_client(
    db: &DatabaseConnection,
    outbox: ReportOutbox<'_>,
    user: &users::Model,
    id: Uuid,
    form: &SendReportRequest,
) -> Result<SendReportResponse, SendError> {
    let report = match find_report(db, id).await {
        Ok(report) => report,
        Err(ReportError::Store(e)) => return Err(e.into()),
        Err(_) => return Err(SendError::NotFound),
    };
    let result_id = Uuid::parse_str(&report.id).map_err(|_| SendError::NotFound)?;
    let (owner, role) = team_context(db, user).await?;
    let team = team_user_ids(db, &owner).await?;
    if !store::history::requested_by_any(db, result_id, &team).await? {
        return Err(SendError::NotFound);
    }
    let permissions = match store::accounts::membership_of(db, user.id).await? {
        Some((row, _)) => serde_json::from_value(row.permissions).unwrap_or_default(),
        None => Vec::new(),
    };
    if !domain::report_mail::may_send(role, &permissions) {
        return Err(SendError::Forbidden(
            domain::report_mail::SEND_FORBIDDEN_MESSAGE.to_owned(),
        ));
    }
    if !outbox.mailer.sends() {
        return Err(SendError::MailOff);
    }
    if let Some(first) = validate_send_report(form).into_iter().next() {
        return Err(SendError::Invalid(first.message));
    }
    let now = store::now();
    let sender = store::reports::Sender {
        user_id: user.id,
        since: now - chrono::Duration::seconds(SEND_WINDOW_SECS),
        max: u64::from(SEND_LIMIT),
    };
    let limited = |oldest: chrono::DateTime<chrono::Utc>| {
        let retry_after = send_retry_after(oldest.timestamp_millis(), now.timestamp_millis());
        SendError::Limited {
            message: send_limited_message(retry_after),
            retry_after,
        }
    };
    if let Some(oldest) = store::reports::sender_limited(db, sender).await? {
        return Err(limited(oldest));
    }
    let pdf = report_pdf(db, outbox.blobs, &report).await?;
    let voice = mail_voice(&report);
    let attachment = outbox.attachment(&pdf, file_name(&report)).await;
    let email = form.email.trim();
    let sender_name = [user.first_name.as_deref(), user.last_name.as_deref()]
        .into_iter()
        .flatten()
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let note = ClientNote {
        first_name: form.first_name.trim(),
        site: &report.url,
        message: form.message.as_deref(),
        sender: if sender_name.is_empty() {
            &user.email
        } else {
            &sender_name
        },
        sender_email: &user.email,
    };
    let mail = client_mail(
        &note,
        &report_links(
            &report_base(db, &report, outbox.public_url).await,
            &report.id,
        ),
        attachment.is_some(),
        &voice,
    );
    let request = store::reports::NewEmailReport {
        email: email.to_owned(),
        first_name: note.first_name.to_owned(),
        last_name: None,
        website_url: report.url.clone(),
        report_type: report.report_type,
        analysis_result_id: Some(result_id),
        upgrade_token: None,
        agree_to_emails: false,
    };
    let outcome = store::reports::record_email_report(
        db,
        &request,
        Some(&new_email(email, mail, attachment.clone())),
        Some(sender),
    )
    .await;
    match outcome {
        Ok(Recorded::Stored {
            outbox_id: Some(id),
            ..
        }) => outbox.send_later(db, id),
        Ok(Recorded::Stored { .. }) => {}
        Ok(Recorded::Limited { oldest }) => {
            outbox.discard(attachment.as_ref()).await;
            return Err(limited(oldest));
        }
        Err(e) => {
            outbox.discard(attachment.as_ref()).await;
            return Err(e.into());
        }
    }
    Ok(SendReportResponse {
        message: sent_message(email),
    })
}

/// Results kept in memory.
const RESULT_CACHE_SIZE: usize = 512;

/// A bounded cache of serialised result responses (oldest evicted first). A result never
/// changes once written, so a cached body never goes stale.
#[derive(Default)]
pub struct ResultCache {
    inner: Mutex<(HashMap<Uuid, Bytes>, VecDeque<Uuid>)>,
}

impl ResultCache {
    /// The cached response body for `id`.
    pub fn get(&self, id: &Uuid) -> Option<Bytes> {
        self.inner.lock().ok()?.0.get(id).cloned()
    }

    /// Keeps `body` for `id`, evicting the oldest entry when full.
    pub fn put(&self, id: Uuid, body: Bytes) {
        let Ok(mut guard) = self.inner.lock() else {
            return;
        };
        let (map, order) = &mut *guard;
        if map.insert(id, body).is_none() {
            order.push_back(id);
            if order.len() > RESULT_CACHE_SIZE
                && let Some(old) = order.pop_front()
            {
                map.remove(&old);
            }
        }
    }
}
