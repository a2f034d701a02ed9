//! Messages sent through the contact forms (general, enterprise, agency, partner), with the
//! mail to sales queued in the same transaction, and the admin area's reading of them.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, ExprTrait, Func, LikeExpr};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, Condition, DatabaseConnection, EntityTrait, QueryFilter,
    QueryOrder, QuerySelect,
};

use crate::audit::NewAuditEntry;
use crate::clock::now;
use crate::entity::contact_messages;
use crate::entity::contact_messages::Column as M;
use crate::outbox::NewEmail;
use crate::{StoreError, StoreResult};

/// A contact message to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewContactMessage {
    /// Which form: general, enterprise, agency or partner.
    pub kind: String,
    /// Sender's name.
    pub name: String,
    /// Sender's e-mail address.
    pub email: String,
    /// Subject line.
    pub subject: String,
    /// The message.
    pub message: String,
    /// The form's other fields: a JSON array of `{label, value}`.
    pub details: String,
}

/// Stores a message and, when `mail` is given, queues that e-mail in the same transaction (a
/// message is never kept without its mail to sales, nor mailed without being kept). Returns
/// the message's id and the queued e-mail's.
pub async fn save_contact_message(
    db: &DatabaseConnection,
    message: &NewContactMessage,
    mail: Option<&NewEmail>,
) -> StoreResult<(i64, Option<i64>)> {
    let txn = crate::begin_write(db).await?;
    let row = contact_messages::ActiveModel {
        kind: Set(message.kind.clone()),
        name: Set(message.name.clone()),
        email: Set(message.email.clone()),
        subject: Set(message.subject.clone()),
        message: Set(message.message.clone()),
        details: Set(message.details.clone()),
        status: Set("new".to_owned()),
        answered_at: Set(None),
        answered_by: Set(None),
        created_at: Set(now()),
        ..Default::default()
    };
    let id = contact_messages::Entity::insert(row)
        .exec(&txn)
        .await?
        .last_insert_id;
    let email_id = match mail {
        Some(mail) => Some(crate::outbox::enqueue(&txn, mail).await?),
        None => None,
    };
    txn.commit().await?;
    Ok((id, email_id))
}

/// The newest `limit` messages.
pub async fn recent_contact_messages(
    db: &DatabaseConnection,
    limit: u64,
) -> StoreResult<Vec<contact_messages::Model>> {
    Ok(contact_messages::Entity::find()
        .order_by_desc(M::Id)
        .limit(limit)
        .all(db)
        .await?)
}

/// What the admin area asks for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MessageFilter {
    /// Only this kind.
    pub kind: Option<String>,
    /// Only this status (new or answered).
    pub status: Option<String>,
    /// Only messages whose name, e-mail, subject, message or details contain this text (any
    /// case).
    pub search: Option<String>,
    /// Only messages older than this id (the next page).
    pub before: Option<i64>,
}

/// `%text%` for LIKE, with `%`, `_` and `\` matched literally.
fn contains(text: &str) -> LikeExpr {
    let mut pattern = String::from("%");
    for ch in text.to_lowercase().chars() {
        if matches!(ch, '%' | '_' | '\\') {
            pattern.push('\\');
        }
        pattern.push(ch);
    }
    pattern.push('%');
    LikeExpr::new(pattern).escape('\\')
}

/// Messages matching `filter`, newest first, at most `limit`.
pub async fn list_contact_messages(
    db: &DatabaseConnection,
    filter: &MessageFilter,
    limit: u64,
) -> StoreResult<Vec<contact_messages::Model>> {
    let mut query = contact_messages::Entity::find();
    if let Some(kind) = &filter.kind {
        query = query.filter(M::Kind.eq(kind.as_str()));
    }
    if let Some(status) = &filter.status {
        query = query.filter(M::Status.eq(status.as_str()));
    }
    if let Some(before) = filter.before {
        query = query.filter(M::Id.lt(before));
    }
    if let Some(search) = filter
        .search
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        let mut any = Condition::any();
        for column in [M::Name, M::Email, M::Subject, M::Message, M::Details] {
            any = any.add(Expr::expr(Func::lower(Expr::col(column))).like(contains(search)));
        }
        query = query.filter(any);
    }
    Ok(query.order_by_desc(M::Id).limit(limit).all(db).await?)
}

/// One message.
pub async fn get_contact_message(
    db: &DatabaseConnection,
    id: i64,
) -> StoreResult<contact_messages::Model> {
    contact_messages::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or(StoreError::NotFound)
}

/// Marks a new message answered by `by` at `at`, and records `audit` in the same transaction.
/// Returns false (recording nothing) when it was already answered; [`StoreError::NotFound`]
/// when there is no such message.
pub async fn mark_contact_answered(
    db: &DatabaseConnection,
    id: i64,
    by: &str,
    at: DateTime<Utc>,
    audit: &NewAuditEntry,
) -> StoreResult<bool> {
    let txn = crate::begin_write(db).await?;
    let updated = contact_messages::Entity::update_many()
        .col_expr(M::Status, Expr::value("answered"))
        .col_expr(M::AnsweredAt, Expr::value(at))
        .col_expr(M::AnsweredBy, Expr::value(by))
        .filter(M::Id.eq(id))
        .filter(M::Status.eq("new"))
        .exec(&txn)
        .await?;
    if updated.rows_affected == 0 {
        txn.rollback().await?;
        return match contact_messages::Entity::find_by_id(id).one(db).await? {
            Some(_) => Ok(false),
            None => Err(StoreError::NotFound),
        };
    }
    crate::audit::record(&txn, audit).await?;
    txn.commit().await?;
    Ok(true)
}
