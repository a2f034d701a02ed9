//! Reports requested by e-mail (docs/PRODUCT.md §3.8, email_reports; §5.3, the
//! Download Report form), each with an optional upgrade token for the paid report.

use chrono::{DateTime, Utc};
use domain::report::ReportType;
use sea_orm::sea_query::Expr;
use sea_orm::{ActiveValue::Set, ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter};
use uuid::Uuid;

use crate::clock::now;
use crate::entity::email_reports;
use crate::{StoreError, StoreResult};

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
    let r = report.clone();
    let row = email_reports::ActiveModel {
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
        ..Default::default()
    };
    let id = email_reports::Entity::insert(row)
        .exec(db)
        .await?
        .last_insert_id;
    email_reports::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or(StoreError::NotFound)
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
