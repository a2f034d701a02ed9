//! The signed-in administrator (docs/PRODUCT.md §6.6): a [`CurrentUser`] whose account is an
//! administrator at a level `domain::admin` knows. Every admin route takes [`AdminUser`], so a
//! visitor who is not signed in gets 401 and a user who is not an administrator 403 from all of
//! them alike; a change also asks [`AdminUser::require_change`] (or
//! [`AdminUser::require_owner`]) before it touches anything, and hands the services
//! [`AdminUser::acting`], whose `entry` is the change's audit-log row.

use std::sync::Arc;

use axum::extract::{FromRef, FromRequestParts};
use axum::http::request::Parts;
use domain::admin::{AdminLevel, NOT_AN_ADMIN, level_refusal};
use store::DatabaseConnection;
use store::entity::{sessions, users};

use crate::error::{AppError, AppResult};
use crate::extract::CurrentUser;
use crate::services::audit::Acting;
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

    /// This administrator as the services record a change they make.
    pub fn acting(&self) -> Acting {
        Acting {
            id: self.user.id,
            email: self.user.email.clone(),
            level: self.level,
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
