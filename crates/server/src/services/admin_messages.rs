//! The admin area's contact messages and mail outbox (issue 16 item 4): lists, one message,
//! marking a message answered and sending a failed e-mail again, each change audited.

use domain::contact::{
    ContactDetail, ContactKind, ContactMessagePage, ContactMessageView, MessageStatus,
    OutboxEmailView, OutboxPage, OutboxStatus,
};
use store::entity::{contact_messages, email_outbox};
use store::{DatabaseConnection, StoreError};

use crate::error::{AppError, AppResult};
use crate::services::audit::Acting;
use crate::services::mail::{Mailer, RetryOutcome};

/// Rows on one page of a list.
pub const PAGE_SIZE: u64 = 50;

/// A stored message as the admin area shows it.
pub fn message_view(m: contact_messages::Model) -> ContactMessageView {
    // Details are written by this server from the domain's labelled list; a row that does not
    // read as one shows none rather than failing the whole list.
    let details: Vec<ContactDetail> = serde_json::from_str(&m.details).unwrap_or_default();
    ContactMessageView {
        id: m.id,
        kind: ContactKind::parse(&m.kind).unwrap_or(ContactKind::General),
        name: m.name,
        email: m.email,
        subject: m.subject,
        message: m.message,
        details,
        status: MessageStatus::parse(&m.status),
        created_at: m.created_at.to_rfc3339(),
        answered_at: m.answered_at.map(|t| t.to_rfc3339()),
        answered_by: m.answered_by,
    }
}

/// An outbox row as the admin area shows it (without its body).
pub fn email_view(m: email_outbox::Model) -> OutboxEmailView {
    OutboxEmailView {
        id: m.id,
        status: OutboxStatus::of(m.sent_at.is_some(), m.last_error.is_some()),
        to: m.to_address,
        reply_to: m.reply_to,
        subject: m.subject,
        attempts: m.attempts,
        last_error: m.last_error,
        created_at: m.created_at.to_rfc3339(),
        sent_at: m.sent_at.map(|t| t.to_rfc3339()),
    }
}

/// What the messages list is asked for, as the query string spells it.
#[derive(Debug, Default, serde::Deserialize)]
pub struct MessagesQuery {
    /// general, enterprise, agency or partner; empty or absent: all.
    pub kind: Option<String>,
    /// new or answered; empty or absent: both.
    pub status: Option<String>,
    /// Text to find in the name, address, subject, message or details.
    pub q: Option<String>,
    /// The next page: messages older than this id.
    pub before: Option<i64>,
}

/// A page of messages, newest first.
pub async fn list_messages(
    db: &DatabaseConnection,
    query: MessagesQuery,
) -> AppResult<ContactMessagePage> {
    let kind = match query
        .kind
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        None => None,
        Some(k) => Some(
            ContactKind::parse(k)
                .ok_or_else(|| {
                    AppError::BadRequest(
                        "Unknown kind: use general, enterprise, agency or partner.".to_owned(),
                    )
                })?
                .as_str()
                .to_owned(),
        ),
    };
    let status = match query
        .status
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        None => None,
        Some(s @ ("new" | "answered")) => Some(s.to_owned()),
        Some(_) => {
            return Err(AppError::BadRequest(
                "Unknown status: use new or answered.".to_owned(),
            ));
        }
    };
    let search = query
        .q
        .map(|q| q.trim().chars().take(200).collect::<String>());
    let filter = store::contact::MessageFilter {
        kind,
        status,
        search,
        before: query.before,
    };
    let rows = store::contact::list_contact_messages(db, &filter, PAGE_SIZE + 1).await?;
    let next_before = (rows.len() as u64 > PAGE_SIZE).then(|| rows[PAGE_SIZE as usize - 1].id);
    Ok(ContactMessagePage {
        messages: rows
            .into_iter()
            .take(PAGE_SIZE as usize)
            .map(message_view)
            .collect(),
        next_before,
    })
}

fn message_not_found(e: StoreError) -> AppError {
    match e {
        StoreError::NotFound => AppError::NotFound("Message not found.".to_owned()),
        e => e.into(),
    }
}

/// One message.
pub async fn show_message(db: &DatabaseConnection, id: i64) -> AppResult<ContactMessageView> {
    store::contact::get_contact_message(db, id)
        .await
        .map(message_view)
        .map_err(message_not_found)
}

/// Marks a message answered by `admin` (admin level or above), audited in the same
/// transaction; 409 when it already was.
pub async fn mark_answered(
    db: &DatabaseConnection,
    admin: &Acting,
    id: i64,
) -> AppResult<ContactMessageView> {
    let before = store::contact::get_contact_message(db, id)
        .await
        .map_err(message_not_found)?;
    let audit = admin.entry(
        "contact_message.answered",
        "contact_message",
        Some(id.to_string()),
        None,
        serde_json::json!({"kind": before.kind, "from": before.email, "subject": before.subject}),
    );
    let changed = store::contact::mark_contact_answered(db, id, &admin.email, store::now(), &audit)
        .await
        .map_err(message_not_found)?;
    if !changed {
        return Err(AppError::Conflict(
            "This message is already marked answered.".to_owned(),
        ));
    }
    show_message(db, id).await
}

/// What the outbox list is asked for.
#[derive(Debug, Default, serde::Deserialize)]
pub struct OutboxQuery {
    /// sent, pending or failed; empty or absent: all.
    pub status: Option<String>,
    /// The next page: e-mails older than this id.
    pub before: Option<i64>,
}

/// A page of outbox e-mails, newest first.
pub async fn list_outbox(db: &DatabaseConnection, query: OutboxQuery) -> AppResult<OutboxPage> {
    let status = match query
        .status
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        None => None,
        Some(s @ ("sent" | "pending" | "failed")) => Some(s),
        Some(_) => {
            return Err(AppError::BadRequest(
                "Unknown status: use sent, pending or failed.".to_owned(),
            ));
        }
    };
    let rows = store::outbox::list_emails(db, status, query.before, PAGE_SIZE + 1).await?;
    let next_before = (rows.len() as u64 > PAGE_SIZE).then(|| rows[PAGE_SIZE as usize - 1].id);
    Ok(OutboxPage {
        emails: rows
            .into_iter()
            .take(PAGE_SIZE as usize)
            .map(email_view)
            .collect(),
        next_before,
    })
}

/// Sends a failed e-mail again at `admin`'s request (admin level or above), audited with the
/// attempt's claim. 409 when it was sent already or mail sending is off.
pub async fn retry_email(
    db: &DatabaseConnection,
    mailer: &Mailer,
    admin: &Acting,
    id: i64,
) -> AppResult<OutboxEmailView> {
    let row = store::outbox::get_email(db, id)
        .await
        .map_err(|e| match e {
            StoreError::NotFound => AppError::NotFound("E-mail not found.".to_owned()),
            e => e.into(),
        })?;
    if row.sent_at.is_some() {
        return Err(AppError::Conflict(
            "This e-mail was already sent.".to_owned(),
        ));
    }
    let audit = admin.entry(
        "email.retry",
        "email",
        Some(id.to_string()),
        None,
        serde_json::json!({"to": row.to_address, "subject": row.subject, "attempts": row.attempts}),
    );
    match mailer
        .retry_now(db, &row, &audit)
        .await
        .map_err(|e| match e {
            crate::services::mail::MailError::Store(e) => AppError::from(e),
            crate::services::mail::MailError::Setup(m) => AppError::Conflict(m),
        })? {
        RetryOutcome::MailOff => Err(AppError::Conflict(
            "Mail sending is off: set SITELENS_SMTP_URL to send e-mail.".to_owned(),
        )),
        RetryOutcome::AlreadyHandled => Err(AppError::Conflict(
            "This e-mail was sent or retried meanwhile; reload the list.".to_owned(),
        )),
        RetryOutcome::Tried(row) => Ok(email_view(*row)),
    }
}
