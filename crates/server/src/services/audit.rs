//! The admin area's audit log as administrators read it (`store::audit` writes it, inside each
//! change's transaction).

use domain::admin::{AUDIT_PAGE_SIZE, AuditEntryView, AuditPage};
use store::entity::admin_audit_log;
use store::{DatabaseConnection, StoreError};

/// The view of one row.
pub fn entry_view(row: admin_audit_log::Model) -> AuditEntryView {
    AuditEntryView {
        id: row.id,
        at: row.created_at.to_rfc3339(),
        actor_email: row.actor_email,
        action: row.action,
        target_type: row.target_type,
        target_id: row.target_id,
        reason: row.reason,
        detail: row.detail,
    }
}

/// A page of the log, newest first, older than the entry `before` when given.
pub async fn audit_page(
    db: &DatabaseConnection,
    before: Option<i64>,
) -> Result<AuditPage, StoreError> {
    // One more than a page tells whether an older page exists.
    let mut rows = store::audit::list(db, before, AUDIT_PAGE_SIZE + 1).await?;
    let more = rows.len() as u64 > AUDIT_PAGE_SIZE;
    rows.truncate(AUDIT_PAGE_SIZE as usize);
    let next_before = if more {
        rows.last().map(|r| r.id)
    } else {
        None
    };
    Ok(AuditPage {
        entries: rows.into_iter().map(entry_view).collect(),
        next_before,
    })
}
