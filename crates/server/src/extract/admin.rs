//! The signed-in administrator (docs/PRODUCT.md §6.6): a [`CurrentUser`] whose account is an
//! administrator at a level `domain::admin` knows. Every admin route takes [`AdminUser`], so a
//! visitor who is not signed in gets 401 and a user who is not an administrator 403 from all of
//! them alike; a change also asks [`AdminUser::require_change`] (or
//! [`AdminUser::require_owner`]) before it touches anything.

use std::sync::Arc;

use axum::extract::{FromRef, FromRequestParts};
use axum::http::request::Parts;
use domain::admin::{AdminLevel, NOT_AN_ADMIN, level_refusal};
use store::DatabaseConnection;
use store::audit::NewAuditEntry;
use store::entity::{sessions, users};

use crate::error::{AppError, AppResult};
use crate::extract::CurrentUser;
use crate::state::CookiePolicy;

/// An administrator's request.
#[derive(Debug, Clone)]
pub struct AdminUser {
    /// Their account.
    pub user: users::Model,
    /// Their session.
    pub session: sessions::Model,
    /// Their level.
    pub level: AdminLevel,
}

impl AdminUser {
    /// Refuses (403) unless this administrator may make changes.
    pub fn require_change(&self) -> AppResult<()> {
        self.require(AdminLevel::Admin)
    }

    /// Refuses (403) unless this administrator is an owner (who manages administrators).
    pub fn require_owner(&self) -> AppResult<()> {
        self.require(AdminLevel::Owner)
    }

    fn require(&self, needed: AdminLevel) -> AppResult<()> {
        if self.level >= needed {
            Ok(())
        } else {
            Err(AppError::Forbidden(level_refusal(self.level, needed)))
        }
    }

    /// The audit-log row of a change this administrator makes, to be written in the change's
    /// transaction with `store::audit::record`.
    pub fn audit_entry(
        &self,
        action: &str,
        target_type: &str,
        target_id: Option<String>,
        reason: Option<String>,
        detail: serde_json::Value,
    ) -> NewAuditEntry {
        NewAuditEntry {
            actor_user_id: Some(self.user.id),
            actor_email: self.user.email.clone(),
            action: action.to_owned(),
            target_type: target_type.to_owned(),
            target_id,
            reason,
            detail,
        }
    }
}

impl<S> FromRequestParts<S> for AdminUser
where
    S: Send + Sync,
    DatabaseConnection: FromRef<S>,
    Arc<CookiePolicy>: FromRef<S>,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        let current = CurrentUser::from_request_parts(parts, state).await?;
        let level = AdminLevel::of(current.user.is_admin, &current.user.admin_level)
            .ok_or_else(|| AppError::Forbidden(NOT_AN_ADMIN.to_owned()))?;
        Ok(AdminUser {
            user: current.user,
            session: current.session,
            level,
        })
    }
}
