//! The admin area's audit log: every change an administrator makes, recorded in the same
//! transaction as the change, so a change without its row (or a row without its change) cannot
//! be committed. Rows are only ever inserted.

use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection,
    EntityTrait, QueryFilter, QueryOrder, QuerySelect,
};

use crate::StoreResult;
use crate::clock::now;
use crate::entity::admin_audit_log::{self, Column as L};

/// One change to record.
#[derive(Clone, Debug, PartialEq)]
pub struct NewAuditEntry {
    /// The administrator who made it; `None` for the operator at the command line.
    pub actor_user_id: Option<i64>,
    /// Their address when they made it (or [`OPERATOR`]).
    pub actor_email: String,
    /// What they did, as `resource.verb` (e.g. `credits.adjust`).
    pub action: String,
    /// The kind of thing changed (e.g. `user`).
    pub target_type: String,
    /// Which one.
    pub target_id: Option<String>,
    /// Why, in the administrator's words.
    pub reason: Option<String>,
    /// What it was and what it became.
    pub detail: serde_json::Value,
}

/// The actor of a change made at the command line (`sitelens admin grant`).
pub const OPERATOR: &str = "operator (command line)";

impl NewAuditEntry {
    /// A change made by the operator at the command line.
    pub fn operator(
        action: &str,
        target_type: &str,
        target_id: Option<String>,
        detail: serde_json::Value,
    ) -> NewAuditEntry {
        NewAuditEntry {
            actor_user_id: None,
            actor_email: OPERATOR.to_owned(),
            action: action.to_owned(),
            target_type: target_type.to_owned(),
            target_id,
            reason: None,
            detail,
        }
    }
}

/// Records `entry`; call it on the transaction that makes the change.
pub async fn record<C: ConnectionTrait>(conn: &C, entry: &NewAuditEntry) -> StoreResult<()> {
    admin_audit_log::ActiveModel {
        actor_user_id: Set(entry.actor_user_id),
        actor_email: Set(entry.actor_email.clone()),
        action: Set(entry.action.clone()),
        target_type: Set(entry.target_type.clone()),
        target_id: Set(entry.target_id.clone()),
        reason: Set(entry.reason.clone()),
        detail: Set(entry.detail.to_string()),
        created_at: Set(now()),
        ..Default::default()
    }
    .insert(conn)
    .await?;
    Ok(())
}

/// At most `limit` entries, newest first, older than the entry `before` when given.
pub async fn list(
    db: &DatabaseConnection,
    before: Option<i64>,
    limit: u64,
) -> StoreResult<Vec<admin_audit_log::Model>> {
    let mut query = admin_audit_log::Entity::find();
    if let Some(before) = before {
        query = query.filter(L::Id.lt(before));
    }
    Ok(query.order_by_desc(L::Id).limit(limit).all(db).await?)
}

/// The entries about one target, newest first (a user's page shows what was done to it).
pub async fn for_target(
    db: &DatabaseConnection,
    target_type: &str,
    target_id: &str,
    limit: u64,
) -> StoreResult<Vec<admin_audit_log::Model>> {
    Ok(admin_audit_log::Entity::find()
        .filter(L::TargetType.eq(target_type))
        .filter(L::TargetId.eq(target_id))
        .order_by_desc(L::Id)
        .limit(limit)
        .all(db)
        .await?)
}
