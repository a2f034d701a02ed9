//! The e-mail outbox: mail is queued here, sent by a worker when SMTP is configured, and readable
//! by the admin either way (docs/PRODUCT.md §10.4: never dropped silently).

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter,
    QueryOrder, QuerySelect,
};

use crate::audit::NewAuditEntry;
use crate::clock::now;
use crate::entity::email_outbox::Column as O;
use crate::entity::{email_outbox, email_reports};
use crate::{StoreError, StoreResult};

/// An e-mail to queue.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NewEmail {
    /// The recipient.
    pub to: String,
    /// Where replies go, when not to the sender.
    pub reply_to: Option<String>,
    /// The subject.
    pub subject: String,
    /// The plain-text body.
    pub body: String,
    /// The sender's display name on the configured sender address (an agency's name), when
    /// not the configured one.
    pub from_name: Option<String>,
    /// A file sent with it, kept in blob storage until it is sent.
    pub attachment: Option<Attachment>,
}

/// A file attached to an e-mail: the outbox row keeps where it is, never its bytes, so a retry
/// reads the same file again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attachment {
    /// Its blob key.
    pub key: String,
    /// The file name the recipient sees.
    pub name: String,
    /// Its content type, e.g. `application/pdf`.
    pub content_type: String,
}

impl Attachment {
    /// The attachment an outbox row names, if any (all three columns set).
    pub fn of(row: &email_outbox::Model) -> Option<Attachment> {
        Some(Attachment {
            key: row.attachment_key.clone()?,
            name: row.attachment_name.clone()?,
            content_type: row.attachment_type.clone()?,
        })
    }
}

/// Queues an e-mail on `conn` (a connection or a transaction); returns its id.
pub async fn enqueue<C: ConnectionTrait>(conn: &C, email: &NewEmail) -> StoreResult<i64> {
    let row = email_outbox::ActiveModel {
        to_address: Set(email.to.clone()),
        reply_to: Set(email.reply_to.clone()),
        subject: Set(email.subject.clone()),
        body: Set(email.body.clone()),
        created_at: Set(now()),
        sent_at: Set(None),
        attempts: Set(0),
        last_error: Set(None),
        from_name: Set(email.from_name.clone()),
        attachment_key: Set(email.attachment.as_ref().map(|a| a.key.clone())),
        attachment_name: Set(email.attachment.as_ref().map(|a| a.name.clone())),
        attachment_type: Set(email.attachment.as_ref().map(|a| a.content_type.clone())),
        ..Default::default()
    };
    Ok(email_outbox::Entity::insert(row)
        .exec(conn)
        .await?
        .last_insert_id)
}

/// Queues an e-mail without a Reply-To; returns its id.
pub async fn enqueue_email(
    db: &DatabaseConnection,
    to: &str,
    subject: &str,
    body: &str,
) -> StoreResult<i64> {
    let email = NewEmail {
        to: to.to_owned(),
        subject: subject.to_owned(),
        body: body.to_owned(),
        ..NewEmail::default()
    };
    enqueue(db, &email).await
}

/// Unsent e-mails tried fewer than `max_attempts` times, oldest first.
pub async fn pending_emails(
    db: &DatabaseConnection,
    max_attempts: i32,
    limit: u64,
) -> StoreResult<Vec<email_outbox::Model>> {
    Ok(email_outbox::Entity::find()
        .filter(email_outbox::Column::SentAt.is_null())
        .filter(email_outbox::Column::Attempts.lt(max_attempts))
        .order_by_asc(email_outbox::Column::CreatedAt)
        .order_by_asc(email_outbox::Column::Id)
        .limit(limit)
        .all(db)
        .await?)
}

/// Unsent e-mails that failed at least once and were tried fewer than `max_attempts` times,
/// oldest first: the ones a retry may send.
pub async fn failed_emails(
    db: &DatabaseConnection,
    max_attempts: i32,
    limit: u64,
) -> StoreResult<Vec<email_outbox::Model>> {
    Ok(email_outbox::Entity::find()
        .filter(O::SentAt.is_null())
        .filter(O::Attempts.gte(1))
        .filter(O::Attempts.lt(max_attempts))
        .order_by_asc(O::CreatedAt)
        .order_by_asc(O::Id)
        .limit(limit)
        .all(db)
        .await?)
}

/// Claims a retry of an e-mail last seen with `attempts` tries: counts the attempt and returns
/// true, or false when another node claimed it first (or it was sent meanwhile), so two web
/// nodes never send the same message twice.
pub async fn claim_email_retry(
    db: &DatabaseConnection,
    id: i64,
    attempts: i32,
) -> StoreResult<bool> {
    let updated = email_outbox::Entity::update_many()
        .col_expr(O::Attempts, Expr::value(attempts + 1))
        .filter(O::Id.eq(id))
        .filter(O::Attempts.eq(attempts))
        .filter(O::SentAt.is_null())
        .exec(db)
        .await?;
    Ok(updated.rows_affected == 1)
}

/// Claims a retry an admin asked for, like [`claim_email_retry`] but for any unsent e-mail
/// however often it was tried, and records `audit` in the same transaction. Returns false
/// (recording nothing) when it was sent or claimed meanwhile.
pub async fn claim_email_retry_audited(
    db: &DatabaseConnection,
    id: i64,
    attempts: i32,
    audit: &NewAuditEntry,
) -> StoreResult<bool> {
    let txn = crate::begin_write(db).await?;
    let updated = email_outbox::Entity::update_many()
        .col_expr(O::Attempts, Expr::value(attempts + 1))
        .filter(O::Id.eq(id))
        .filter(O::Attempts.eq(attempts))
        .filter(O::SentAt.is_null())
        .exec(&txn)
        .await?;
    if updated.rows_affected != 1 {
        txn.rollback().await?;
        return Ok(false);
    }
    crate::audit::record(&txn, audit).await?;
    txn.commit().await?;
    Ok(true)
}

/// Records how a claimed retry went: sent at `sent_at`, or failed with `error` (the attempt
/// itself was counted by [`claim_email_retry`]).
pub async fn finish_email_retry(
    db: &DatabaseConnection,
    id: i64,
    outcome: Result<DateTime<Utc>, &str>,
) -> StoreResult<()> {
    let txn = crate::begin_write(db).await?;
    let update = email_outbox::Entity::update_many().filter(O::Id.eq(id));
    let update = match outcome {
        Ok(at) => update
            .col_expr(O::SentAt, Expr::value(at))
            .col_expr(O::LastError, Expr::value(Option::<String>::None)),
        Err(error) => update.col_expr(O::LastError, Expr::value(error)),
    };
    if update.exec(&txn).await?.rows_affected != 1 {
        txn.rollback().await?;
        return Err(StoreError::NotFound);
    }
    if let Ok(at) = outcome {
        mark_requests_sent(&txn, id, at).await?;
    }
    txn.commit().await?;
    Ok(())
}

/// Marks the report requests (`email_reports`) that e-mail `id` carries as sent at `at`, in the
/// statement's transaction, so a request is sent exactly when its mail is.
async fn mark_requests_sent<C: ConnectionTrait>(
    conn: &C,
    id: i64,
    at: DateTime<Utc>,
) -> StoreResult<()> {
    email_reports::Entity::update_many()
        .col_expr(email_reports::Column::SentAt, Expr::value(at))
        .filter(email_reports::Column::OutboxId.eq(id))
        .filter(email_reports::Column::SentAt.is_null())
        .exec(conn)
        .await?;
    Ok(())
}

/// Marks an e-mail sent, and the report requests it carries with it.
pub async fn mark_email_sent(
    db: &DatabaseConnection,
    id: i64,
    at: DateTime<Utc>,
) -> StoreResult<()> {
    let txn = crate::begin_write(db).await?;
    let updated = email_outbox::Entity::update_many()
        .col_expr(O::SentAt, Expr::value(at))
        .col_expr(O::Attempts, Expr::col(O::Attempts).add(1))
        .col_expr(O::LastError, Expr::value(Option::<String>::None))
        .filter(O::Id.eq(id))
        .exec(&txn)
        .await?;
    if updated.rows_affected != 1 {
        txn.rollback().await?;
        return Err(StoreError::NotFound);
    }
    mark_requests_sent(&txn, id, at).await?;
    txn.commit().await?;
    Ok(())
}

/// Records a failed sending attempt.
pub async fn mark_email_failed(db: &DatabaseConnection, id: i64, error: &str) -> StoreResult<()> {
    let updated = email_outbox::Entity::update_many()
        .col_expr(O::Attempts, Expr::col(O::Attempts).add(1))
        .col_expr(O::LastError, Expr::value(error))
        .filter(O::Id.eq(id))
        .exec(db)
        .await?;
    if updated.rows_affected == 1 {
        Ok(())
    } else {
        Err(StoreError::NotFound)
    }
}

/// One e-mail.
pub async fn get_email(db: &DatabaseConnection, id: i64) -> StoreResult<email_outbox::Model> {
    email_outbox::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or(StoreError::NotFound)
}

/// E-mails for the admin area, newest first, at most `limit`: only those in `status` (sent,
/// pending: never tried, failed: tried with an error) when given, only older than the id
/// `before` when given.
pub async fn list_emails(
    db: &DatabaseConnection,
    status: Option<&str>,
    before: Option<i64>,
    limit: u64,
) -> StoreResult<Vec<email_outbox::Model>> {
    let mut query = email_outbox::Entity::find();
    query = match status {
        Some("sent") => query.filter(O::SentAt.is_not_null()),
        Some("failed") => query
            .filter(O::SentAt.is_null())
            .filter(O::LastError.is_not_null()),
        Some("pending") => query
            .filter(O::SentAt.is_null())
            .filter(O::LastError.is_null()),
        _ => query,
    };
    if let Some(before) = before {
        query = query.filter(O::Id.lt(before));
    }
    Ok(query.order_by_desc(O::Id).limit(limit).all(db).await?)
}

/// The newest `limit` e-mails, sent or not, for the admin.
pub async fn recent_emails(
    db: &DatabaseConnection,
    limit: u64,
) -> StoreResult<Vec<email_outbox::Model>> {
    Ok(email_outbox::Entity::find()
        .order_by_desc(email_outbox::Column::Id)
        .limit(limit)
        .all(db)
        .await?)
}
