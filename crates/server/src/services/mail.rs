//! Outgoing mail (docs/PRODUCT.md §10.4): every message is written to the database outbox
//! first, so none is ever dropped silently and an administrator can read them; when
//! `SITELENS_SMTP_URL` is set it is then sent over SMTP (lettre with rustls on ring) and marked
//! sent, or its failure recorded on the outbox row.

use lettre::message::{Mailbox, header::ContentType};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use store::DatabaseConnection;

use crate::chain::Chain;

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

/// Where mail goes.
#[derive(Clone)]
pub struct Mailer {
    from: Mailbox,
    smtp: Option<AsyncSmtpTransport<Tokio1Executor>>,
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
        Ok(Mailer { from, smtp })
    }

    /// Whether mail is sent over SMTP (otherwise it stays in the outbox).
    pub fn sends(&self) -> bool {
        self.smtp.is_some()
    }

    /// Queues a plain-text message and, with SMTP configured, sends it at once. A sending
    /// failure is logged and kept on the outbox row; it is not the caller's error, since the
    /// message is stored either way. The body is never logged: it may hold a one-time link.
    pub async fn send(
        &self,
        db: &DatabaseConnection,
        to: &str,
        subject: &str,
        body: &str,
    ) -> Result<(), MailError> {
        let id = store::outbox::enqueue_email(db, to, subject, body).await?;
        let Some(smtp) = &self.smtp else {
            return Ok(());
        };
        let outcome = match to.parse::<Mailbox>() {
            Ok(recipient) => match Message::builder()
                .from(self.from.clone())
                .to(recipient)
                .subject(subject)
                .header(ContentType::TEXT_PLAIN)
                .body(body.to_owned())
            {
                Ok(message) => smtp
                    .send(message)
                    .await
                    .map(|_| ())
                    .map_err(|e| Chain(&e).to_string()),
                Err(e) => Err(e.to_string()),
            },
            Err(e) => Err(e.to_string()),
        };
        match outcome {
            Ok(()) => store::outbox::mark_email_sent(db, id, store::now()).await?,
            Err(error) => {
                tracing::warn!(outbox_id = id, %error, "mail not sent; kept in the outbox");
                store::outbox::mark_email_failed(db, id, &error).await?;
            }
        }
        Ok(())
    }
}
