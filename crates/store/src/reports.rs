//! Reports requested by e-mail (docs/PRODUCT.md §3.8, email_reports; §5.3, the
//! Download Report form), each with an optional upgrade token for the paid report, and reports
//! an account sent to a client from its dashboard (issue 15 item 4), each request written in
//! the transaction that queues its e-mail.

use chrono::{DateTime, Utc};
use domain::report::ReportType;
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait,
    PaginatorTrait, QueryFilter, QueryOrder, QuerySelect,
};
use uuid::Uuid;

use crate::clock::now;
use crate::entity::{email_reports, users};
use crate::outbox::NewEmail;
use crate::{StoreError, StoreResult, begin_write};

/// A report download request to record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewEmailReport {
    /// Where to send it.
    pub email: String,
    /// Recipient's first name.
    pub first_name: String,
    /// Recipient's last name.
    pub last_name: Option<String>,
    /// The analysed site.
    pub website_url: String,
    /// The report's type.
    pub report_type: ReportType,
    /// The report.
    pub analysis_result_id: Option<Uuid>,
    /// A random token for the upgrade link; unique.
    pub upgrade_token: Option<String>,
    /// Whether the recipient agreed to receive e-mails.
    pub agree_to_emails: bool,
}

/// Records a request; returns the stored row.
pub async fn create_email_report(
    db: &DatabaseConnection,
    report: &NewEmailReport,
) -> StoreResult<email_reports::Model> {
    let id = email_reports::Entity::insert(new_row(report, None, None))
        .exec(db)
        .await?
        .last_insert_id;
    email_reports::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or(StoreError::NotFound)
}

/// An account sending a report to a client, with its allowance: at most `max` sends since
/// `since`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sender {
    /// The account.
    pub user_id: i64,
    /// The start of the window its sends are counted over.
    pub since: DateTime<Utc>,
    /// How many it may send in the window.
    pub max: u64,
}

/// What [`record_email_report`] did.
#[derive(Clone, Debug, PartialEq)]
pub enum Recorded {
    /// The request is stored, with its e-mail's outbox id when one was queued.
    Stored {
        /// The request's id.
        id: i64,
        /// The queued e-mail.
        outbox_id: Option<i64>,
    },
    /// The sender has used its allowance; nothing was written. `oldest` is the first of its
    /// sends in the window (the window frees a send when that one leaves it).
    Limited {
        /// When the oldest send of the window was made.
        oldest: DateTime<Utc>,
    },
}

/// Records a request and queues its e-mail (`mail`, if any) in one transaction, so neither is
/// written without the other. With a `sender`, the request is the account's send to a client:
/// its row is locked and its sends in the window counted first, so concurrent sends cannot pass
/// the allowance together; at the allowance nothing is written.
pub async fn record_email_report(
    db: &DatabaseConnection,
    report: &NewEmailReport,
    mail: Option<&NewEmail>,
    sender: Option<Sender>,
) -> StoreResult<Recorded> {
    let txn = begin_write(db).await?;
    if let Some(sender) = sender {
        users::Entity::find_by_id(sender.user_id)
            .lock_exclusive()
            .one(&txn)
            .await?
            .ok_or(StoreError::NotFound)?;
        if let Some(oldest) = limited(&txn, sender).await? {
            txn.rollback().await?;
            return Ok(Recorded::Limited { oldest });
        }
    }
    let outbox_id = match mail {
        Some(mail) => Some(crate::outbox::enqueue(&txn, mail).await?),
        None => None,
    };
    let row = new_row(report, outbox_id, sender.map(|s| s.user_id));
    let id = email_reports::Entity::insert(row)
        .exec(&txn)
        .await?
        .last_insert_id;
    txn.commit().await?;
    Ok(Recorded::Stored { id, outbox_id })
}

/// Whether `sender` has used its allowance: the first of its sends in the window when it has.
/// [`record_email_report`] decides under the account's lock; this read lets a caller refuse
/// before doing the work a send needs.
pub async fn sender_limited(
    db: &DatabaseConnection,
    sender: Sender,
) -> StoreResult<Option<DateTime<Utc>>> {
    limited(db, sender).await
}

async fn limited<C: ConnectionTrait>(
    conn: &C,
    sender: Sender,
) -> StoreResult<Option<DateTime<Utc>>> {
    let in_window = || {
        email_reports::Entity::find()
            .filter(email_reports::Column::SentByUserId.eq(sender.user_id))
            .filter(email_reports::Column::CreatedAt.gte(sender.since))
    };
    if in_window().count(conn).await? < sender.max {
        return Ok(None);
    }
    Ok(Some(
        in_window()
            .order_by_asc(email_reports::Column::CreatedAt)
            .one(conn)
            .await?
            .map_or(sender.since, |r| r.created_at),
    ))
}

/// The row of a new request.
fn new_row(
    report: &NewEmailReport,
    outbox_id: Option<i64>,
    sent_by_user_id: Option<i64>,
) -> email_reports::ActiveModel {
    let r = report.clone();
    email_reports::ActiveModel {
        email: Set(r.email.trim().to_lowercase()),
        first_name: Set(r.first_name),
        last_name: Set(r.last_name),
        website_url: Set(r.website_url),
        report_type: Set(r.report_type.as_str().to_owned()),
        analysis_result_id: Set(r.analysis_result_id),
        sent_at: Set(None),
        upgrade_token: Set(r.upgrade_token),
        agree_to_emails: Set(r.agree_to_emails),
        created_at: Set(now()),
        outbox_id: Set(outbox_id),
        sent_by_user_id: Set(sent_by_user_id),
        ..Default::default()
    }
}

/// The request carrying this upgrade token.
pub async fn find_by_upgrade_token(
    db: &DatabaseConnection,
    token: &str,
) -> StoreResult<Option<email_reports::Model>> {
    Ok(email_reports::Entity::find()
        .filter(email_reports::Column::UpgradeToken.eq(token))
        .one(db)
        .await?)
}

/// Marks a request as sent.
pub async fn mark_email_report_sent(
    db: &DatabaseConnection,
    id: i64,
    at: DateTime<Utc>,
) -> StoreResult<()> {
    let updated = email_reports::Entity::update_many()
        .col_expr(email_reports::Column::SentAt, Expr::value(at))
        .filter(email_reports::Column::Id.eq(id))
        .exec(db)
        .await?;
    if updated.rows_affected == 1 {
        Ok(())
    } else {
        Err(StoreError::NotFound)
    }
}
