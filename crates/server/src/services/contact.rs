//! The contact forms (docs/PRODUCT.md §5.12, issue 16 item 5): general, enterprise, agency and
//! partner messages are checked with the rule the web forms use, stored for the admin area, and
//! mailed to the sales address (`SITELENS_SALES_EMAIL`) with Reply-To the sender, through the
//! outbox; without a sales address they are stored only.

use domain::contact::SalesMessage;
use domain::forms::FieldError;
use store::DatabaseConnection;
use store::StoreError;

use crate::chain::Chain;
use crate::services::mail::Mailer;

/// Why a message was not accepted.
#[derive(Debug, thiserror::Error)]
pub enum ContactError {
    /// A field is missing or wrong; the text says which, for the visitor.
    #[error("{0}")]
    Invalid(String),
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Where a message goes besides the database.
#[derive(Clone, Copy)]
pub struct SalesInbox<'a> {
    /// The mailer (outbox, and SMTP when configured).
    pub mailer: &'a Mailer,
    /// The sales address, when configured.
    pub sales_email: Option<&'a str>,
}

/// Stores a checked message (or refuses an invalid one with the message of its first failing
/// field) and, with a sales address, queues its mail in the same transaction and sends it. A
/// sending failure stays on the outbox row for the retries; the visitor's message is in.
/// Returns the stored message's id.
pub async fn submit(
    db: &DatabaseConnection,
    inbox: SalesInbox<'_>,
    checked: Result<SalesMessage, Vec<FieldError>>,
) -> Result<i64, ContactError> {
    let message = checked.map_err(|errors| {
        ContactError::Invalid(
            errors
                .into_iter()
                .next()
                .map(|e| e.message)
                .unwrap_or_default(),
        )
    })?;
    let details = serde_json::to_string(&message.details).map_err(|e| StoreError::Data {
        what: "contact details".to_owned(),
        source: Some(e),
    })?;
    let mail = inbox.sales_email.map(|to| store::outbox::NewEmail {
        to: to.to_owned(),
        reply_to: Some(format!("{} <{}>", quoted(&message.name), message.email)),
        subject: message.mail_subject(),
        body: message.mail_body(),
        ..store::outbox::NewEmail::default()
    });
    let (id, email_id) = store::contact::save_contact_message(
        db,
        &store::contact::NewContactMessage {
            kind: message.kind.as_str().to_owned(),
            name: message.name.clone(),
            email: message.email.clone(),
            subject: message.subject.clone(),
            message: message.message.clone(),
            details,
        },
        mail.as_ref(),
    )
    .await?;
    if let Some(email_id) = email_id
        && let Err(e) = inbox.mailer.send_queued(db, email_id).await
    {
        tracing::warn!(outbox_id = email_id, error = %Chain(&e), "sales mail queued, not sent now");
    }
    Ok(id)
}

/// A display name as a quoted string of an address header (RFC 5322 §3.2.4), so a name with a
/// comma or angle brackets stays a name.
fn quoted(name: &str) -> String {
    let mut out = String::from("\"");
    for ch in name.chars().filter(|c| !c.is_control()) {
        if ch == '"' || ch == '\\' {
            out.push('\\');
        }
        out.push(ch);
    }
    out.push('"');
    out
}
