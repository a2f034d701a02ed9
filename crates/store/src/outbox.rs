//! The e-mail outbox: mail is queued here, sent by a worker when SMTP is configured, and
//! readable by the admin either way (ARCHITECTURE.md section 5: never dropped silently).

use chrono::{DateTime, Utc};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter, QueryOrder,
    QuerySelect,
};

use crate::entity::email_outbox;
use crate::sql::{exec, now};
use crate::{StoreError, StoreResult};

/// Queues an e-mail; returns its id.
pub async fn enqueue_email(
    db: &DatabaseConnection,
    to: &str,
    subject: &str,
    body: &str,
) -> StoreResult<i64> {
    let row = email_outbox::ActiveModel {
        to_address: Set(to.to_owned()),
        subject: Set(subject.to_owned()),
        body: Set(body.to_owned()),
        created_at: Set(now()),
        sent_at: Set(None),
        attempts: Set(0),
        last_error: Set(None),
        ..Default::default()
    };
    Ok(email_outbox::Entity::insert(row)
        .exec(db)
        .await?
        .last_insert_id)
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

/// Marks an e-mail sent.
pub async fn mark_email_sent(
    db: &DatabaseConnection,
    id: i64,
    at: DateTime<Utc>,
) -> StoreResult<()> {
    let updated = exec(
        db,
        "UPDATE email_outbox SET sent_at = ?, attempts = attempts + 1, last_error = NULL WHERE id = ?",
        vec![at.into(), id.into()],
    )
    .await?;
    if updated.rows_affected() == 1 {
        Ok(())
    } else {
        Err(StoreError::NotFound)
    }
}

/// Records a failed sending attempt.
pub async fn mark_email_failed(db: &DatabaseConnection, id: i64, error: &str) -> StoreResult<()> {
    let updated = exec(
        db,
        "UPDATE email_outbox SET attempts = attempts + 1, last_error = ? WHERE id = ?",
        vec![error.into(), id.into()],
    )
    .await?;
    if updated.rows_affected() == 1 {
        Ok(())
    } else {
        Err(StoreError::NotFound)
    }
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
