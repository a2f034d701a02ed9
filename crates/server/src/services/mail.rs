//! Outgoing mail (docs/PRODUCT.md §10.4): every message is written to the database outbox
//! first, so none is ever dropped silently and an administrator can read them; when
//! `SITELENS_SMTP_URL` is set it is then sent over SMTP (lettre with rustls on ring) and marked
//! sent, or its failure recorded on the outbox row.
//!
//! A message may carry one attachment (a report's PDF): the outbox row names its blob, and
//! every attempt, a retry too, reads it from blob storage and sends a `multipart/mixed`
//! message (the text, then the file). Once sent, the blob is removed. A message may also name
//! its sender (an agency), shown on the configured sender address.

use std::time::Duration;

use chrono::{DateTime, Utc};
use lettre::message::{Attachment, Mailbox, MultiPart, SinglePart, header::ContentType};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use store::DatabaseConnection;
use store::entity::email_outbox;
use tokio::sync::watch;

use crate::chain::Chain;
use crate::services::blobs::Blobs;

/// Why a mailer could not be built or a message not queued.
#[derive(Debug, thiserror::Error)]
pub enum MailError {
    /// `SITELENS_SMTP_URL` or `SITELENS_MAIL_FROM` is not usable.
    #[error("mail settings: {0}")]
    Setup(String),
    /// The outbox could not store the message.
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

/// How many times in all a message is tried before it is left in the outbox for an admin.
pub const MAX_ATTEMPTS: i32 = 8;

/// Whether a message queued at `created_at` and tried `attempts` times (at least once) is due
/// for another try at `now`: the waits double from 2 minutes (2, 4, 8, … 128 minutes after it
/// was queued), so a mail server that is down for a few hours still gets the message.
pub fn retry_due(created_at: DateTime<Utc>, attempts: i32, now: DateTime<Utc>) -> bool {
    let wait = chrono::Duration::minutes(1i64 << attempts.clamp(1, 16));
    now >= created_at + wait
}

/// What an admin's retry did.
#[derive(Debug)]
pub enum RetryOutcome {
    /// No SMTP server is configured: nothing can be sent.
    MailOff,
    /// It was sent, or another retry claimed it, meanwhile.
    AlreadyHandled,
    /// It was tried: the row afterwards (sent, or failed with the new error).
    Tried(Box<email_outbox::Model>),
}

/// Where mail goes.
#[derive(Clone)]
pub struct Mailer {
    from: Mailbox,
    smtp: Option<AsyncSmtpTransport<Tokio1Executor>>,
    /// Where attachments are kept (see [`Mailer::with_blobs`]).
    blobs: Option<Blobs>,
}

impl std::fmt::Debug for Mailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The SMTP URL may hold a password: never print it.
        f.debug_struct("Mailer")
            .field("from", &self.from.to_string())
            .field("smtp", &self.smtp.is_some())
            .finish()
    }
}

impl Mailer {
    /// A mailer sending from `from` through `smtp_url` (`smtp://`, `smtps://`, lettre's URL
    /// syntax), or only into the outbox when it is `None`.
    pub fn new(from: &str, smtp_url: Option<&str>) -> Result<Self, MailError> {
        let from: Mailbox = from
            .parse()
            .map_err(|e| MailError::Setup(format!("sender address: {e}")))?;
        let smtp = smtp_url
            .map(|url| {
                AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
                    .map(|b| b.build())
                    .map_err(|e| MailError::Setup(format!("SMTP URL: {e}")))
            })
            .transpose()?;
        Ok(Mailer {
            from,
            smtp,
            blobs: None,
        })
    }

    /// The mailer reading attachments from `blobs` (the store they were queued in); without
    /// it a message with an attachment fails, and stays in the outbox with that error.
    pub fn with_blobs(self, blobs: Blobs) -> Self {
        Mailer {
            blobs: Some(blobs),
            ..self
        }
    }

    /// Whether mail is sent over SMTP (otherwise it stays in the outbox).
    pub fn sends(&self) -> bool {
        self.smtp.is_some()
    }

    /// Queues a plain-text message and, with SMTP configured, sends it at once. A sending
    /// failure is logged and kept on the outbox row for [`Mailer::retry_failed`]; it is not the
    /// caller's error, since the message is stored either way. The body is never logged: it
    /// may hold a one-time link.
    pub async fn send(
        &self,
        db: &DatabaseConnection,
        to: &str,
        subject: &str,
        body: &str,
    ) -> Result<(), MailError> {
        let id = store::outbox::enqueue_email(db, to, subject, body).await?;
        self.send_queued(db, id).await
    }

    /// With SMTP configured, sends the outbox message `id` (queued by the caller, perhaps in
    /// the transaction that stored what it is about) and marks it sent, or records the failure
    /// for [`Mailer::retry_failed`], as [`Mailer::send`] does.
    pub async fn send_queued(&self, db: &DatabaseConnection, id: i64) -> Result<(), MailError> {
        let Some(smtp) = &self.smtp else {
            return Ok(());
        };
        let row = store::outbox::get_email(db, id).await?;
        match self.deliver(smtp, &row).await {
            Ok(()) => {
                store::outbox::mark_email_sent(db, id, store::now()).await?;
                self.forget_attachment(&row).await;
            }
            Err(error) => {
                tracing::warn!(outbox_id = id, %error, "mail not sent; kept in the outbox to retry");
                store::outbox::mark_email_failed(db, id, &error).await?;
            }
        }
        Ok(())
    }

    /// One SMTP delivery of an outbox row (with its sender's name, Reply-To and attachment,
    /// when set); the error as text for the outbox row.
    async fn deliver(
        &self,
        smtp: &AsyncSmtpTransport<Tokio1Executor>,
        row: &email_outbox::Model,
    ) -> Result<(), String> {
        let message = self.message(row).await?;
        smtp.send(message)
            .await
            .map(|_| ())
            .map_err(|e| Chain(&e).to_string())
    }

    /// The message of an outbox row: plain text, or `multipart/mixed` with the attachment read
    /// from blob storage.
    async fn message(&self, row: &email_outbox::Model) -> Result<Message, String> {
        let recipient = row
            .to_address
            .parse::<Mailbox>()
            .map_err(|e| e.to_string())?;
        let from = match &row.from_name {
            Some(name) => Mailbox::new(Some(name.clone()), self.from.email.clone()),
            None => self.from.clone(),
        };
        let mut message = Message::builder()
            .from(from)
            .to(recipient)
            .subject(&row.subject);
        if let Some(reply_to) = &row.reply_to {
            message = message.reply_to(reply_to.parse::<Mailbox>().map_err(|e| e.to_string())?);
        }
        let Some(file) = store::outbox::Attachment::of(row) else {
            return message
                .header(ContentType::TEXT_PLAIN)
                .body(row.body.clone())
                .map_err(|e| e.to_string());
        };
        let blobs = self
            .blobs
            .as_ref()
            .ok_or("the attachment's blob storage is not configured for this mailer")?;
        let bytes = blobs
            .read(&file.key)
            .await
            .map_err(|e| format!("attachment: {}", Chain(&e)))?;
        let content_type = ContentType::parse(&file.content_type)
            .map_err(|e| format!("attachment content type: {e}"))?;
        message
            .multipart(
                MultiPart::mixed()
                    .singlepart(SinglePart::plain(row.body.clone()))
                    .singlepart(Attachment::new(file.name).body(bytes.to_vec(), content_type)),
            )
            .map_err(|e| e.to_string())
    }

    /// Removes a sent message's attachment from blob storage: no attempt needs it again. A
    /// failure only leaves the file behind, and is logged.
    async fn forget_attachment(&self, row: &email_outbox::Model) {
        if let (Some(file), Some(blobs)) = (store::outbox::Attachment::of(row), &self.blobs)
            && let Err(e) = blobs.delete(&file.key).await
        {
            tracing::warn!(outbox_id = row.id, error = %Chain(&e), "sent mail's attachment not removed");
        }
    }

    /// Sends again, at an admin's request, the unsent outbox message `row` however often it was
    /// tried, recording `audit` with the claim of the attempt (so two admins never send it
    /// twice). Returns the row as it stands afterwards.
    pub async fn retry_now(
        &self,
        db: &DatabaseConnection,
        row: &email_outbox::Model,
        audit: &store::audit::NewAuditEntry,
    ) -> Result<RetryOutcome, MailError> {
        let Some(smtp) = &self.smtp else {
            return Ok(RetryOutcome::MailOff);
        };
        if row.sent_at.is_some()
            || !store::outbox::claim_email_retry_audited(db, row.id, row.attempts, audit).await?
        {
            return Ok(RetryOutcome::AlreadyHandled);
        }
        let outcome = self.deliver(smtp, row).await.map(|()| store::now());
        if let Err(error) = &outcome {
            tracing::warn!(outbox_id = row.id, %error, "mail retry by an admin failed");
        }
        store::outbox::finish_email_retry(
            db,
            row.id,
            outcome.as_ref().copied().map_err(String::as_str),
        )
        .await?;
        if outcome.is_ok() {
            self.forget_attachment(row).await;
        }
        Ok(RetryOutcome::Tried(Box::new(
            store::outbox::get_email(db, row.id).await?,
        )))
    }

    /// Sends again the outbox messages whose sending failed and whose wait is over at `now`
    /// ([`retry_due`]); returns how many were sent. Each retry is claimed first, so web nodes
    /// sharing the database never send a message twice. Without SMTP there is nothing to do.
    pub async fn retry_failed(
        &self,
        db: &DatabaseConnection,
        now: DateTime<Utc>,
    ) -> Result<usize, MailError> {
        let Some(smtp) = &self.smtp else {
            return Ok(0);
        };
        let mut sent = 0;
        for row in store::outbox::failed_emails(db, MAX_ATTEMPTS, 100).await? {
            if !retry_due(row.created_at, row.attempts, now)
                || !store::outbox::claim_email_retry(db, row.id, row.attempts).await?
            {
                continue;
            }
            let outcome = self.deliver(smtp, &row).await;
            if let Err(error) = &outcome {
                tracing::warn!(outbox_id = row.id, attempts = row.attempts + 1, %error, "mail retry failed");
            } else {
                sent += 1;
            }
            let outcome = outcome.map(|()| store::now());
            store::outbox::finish_email_retry(
                db,
                row.id,
                outcome.as_ref().copied().map_err(String::as_str),
            )
            .await?;
            if outcome.is_ok() {
                self.forget_attachment(&row).await;
            }
        }
        Ok(sent)
    }

    /// Retries failed mail every `every` until `stop` turns true (the web role runs it when
    /// SMTP is configured).
    pub async fn retry_loop(
        self,
        db: DatabaseConnection,
        every: Duration,
        mut stop: watch::Receiver<bool>,
    ) {
        loop {
            tokio::select! {
                _ = tokio::time::sleep(every) => {}
                _ = stop.wait_for(|s| *s) => return,
            }
            match self.retry_failed(&db, store::now()).await {
                Ok(0) => {}
                Ok(n) => tracing::info!(sent = n, "failed mail sent on retry"),
                Err(e) => {
                    tracing::warn!(error = %Chain(&e), "mail retry could not read the outbox")
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_wait_twice_as_long_each_time() {
        let queued = DateTime::<Utc>::from_timestamp(1_800_000_000, 0).expect("time");
        let at = |minutes: i64| queued + chrono::Duration::minutes(minutes);
        assert!(!retry_due(queued, 1, at(1)));
        assert!(retry_due(queued, 1, at(2)));
        assert!(!retry_due(queued, 3, at(7)));
        assert!(retry_due(queued, 3, at(8)));
        assert!(retry_due(queued, 7, at(128)));
    }
}
