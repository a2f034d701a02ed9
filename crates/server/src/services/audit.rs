//! The admin area's audit log: who is making a change ([`Acting`], the row it becomes) and the
//! log as administrators read it (`store::audit` writes it, inside each change's transaction).

use domain::admin::{AUDIT_PAGE_SIZE, AdminLevel, AuditEntryView, AuditPage};
use store::audit::NewAuditEntry;
use store::entity::admin_audit_log;
use store::{DatabaseConnection, StoreError};

/// The administrator making a change.
#[derive(Debug, Clone)]
pub struct Acting {
    /// Their account id.
    pub id: i64,
    /// Their address.
    pub email: String,
    /// Their level.
    pub level: AdminLevel,
}

impl Acting {
    /// The audit-log row of a change they make.
    pub fn entry(
        &self,
        action: &str,
        target_type: &str,
        target_id: Option<String>,
        reason: Option<String>,
        detail: serde_json::Value,
    ) -> NewAuditEntry {
        NewAuditEntry {
            actor_user_id: Some(self.id),
            actor_email: self.email.clone(),
            action: action.to_owned(),
            target_type: target_type.to_owned(),
            target_id,
            reason,
            detail,
        }
    }
}

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
