//! The admin area's rules (docs/PRODUCT.md §6.6, issue 16): who is an administrator and at
//! which level, what each level may do, and the reason every change must give. The server
//! decides with these; the web app only presents.
//!
//! Levels, lowest first: `support` reads everything and changes nothing; `admin` also makes
//! changes (credits, users, jobs, affiliates, messages); `owner` also names and removes
//! administrators. `users.admin_level` holds the level by name, `user` for everyone else.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Shortest reason an administrator may give for a change, in characters.
pub const REASON_MIN_CHARS: usize = 3;
/// Longest reason, in characters.
pub const REASON_MAX_CHARS: usize = 500;

/// An administrator's level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum AdminLevel {
    /// Reads the admin area; changes nothing.
    Support,
    /// Reads and changes.
    Admin,
    /// Also manages administrators.
    Owner,
}

impl AdminLevel {
    /// Every level, lowest first.
    pub const ALL: [AdminLevel; 3] = [AdminLevel::Support, AdminLevel::Admin, AdminLevel::Owner];

    /// The level of a user from `users.is_admin` and `users.admin_level`; `None` for anyone who
    /// is not an administrator (the flag off, or a level this version does not know).
    pub fn of(is_admin: bool, admin_level: &str) -> Option<AdminLevel> {
        if !is_admin {
            return None;
        }
        AdminLevel::parse(admin_level)
    }

    /// The level named `name` (`support`, `admin`, `owner`; any case, spaces around ignored).
    pub fn parse(name: &str) -> Option<AdminLevel> {
        match name.trim().to_ascii_lowercase().as_str() {
            "support" => Some(AdminLevel::Support),
            "admin" => Some(AdminLevel::Admin),
            "owner" => Some(AdminLevel::Owner),
            _ => None,
        }
    }

    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            AdminLevel::Support => "support",
            AdminLevel::Admin => "admin",
            AdminLevel::Owner => "owner",
        }
    }

    /// Whether this level may change anything.
    pub fn can_change(self) -> bool {
        self >= AdminLevel::Admin
    }

    /// Whether this level may name, change and remove administrators.
    pub fn can_manage_admins(self) -> bool {
        self == AdminLevel::Owner
    }
}

/// The message a signed-in user who is not an administrator gets from every admin route.
pub const NOT_AN_ADMIN: &str = "This area is for administrators.";

/// The message an administrator gets for a change their level does not allow.
pub fn level_refusal(level: AdminLevel, needed: AdminLevel) -> String {
    match needed {
        AdminLevel::Owner => format!(
            "Only an owner can manage administrators; your admin level is {}.",
            level.as_str()
        ),
        _ => format!("Your admin level ({}) can only read.", level.as_str()),
    }
}

/// The reason of an admin change, trimmed; an error message for the administrator when it is
/// missing, shorter than [`REASON_MIN_CHARS`] or longer than [`REASON_MAX_CHARS`].
pub fn check_reason(raw: &str) -> Result<String, String> {
    let reason = raw.trim();
    let chars = reason.chars().count();
    if chars < REASON_MIN_CHARS {
        return Err(format!(
            "Give a reason for this change (at least {REASON_MIN_CHARS} characters)."
        ));
    }
    if chars > REASON_MAX_CHARS {
        return Err(format!(
            "Keep the reason under {REASON_MAX_CHARS} characters."
        ));
    }
    Ok(reason.to_owned())
}

/// The signed-in administrator, as the admin area shows them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AdminMe {
    /// Their e-mail address.
    pub email: String,
    /// Their name, or their address when they gave none.
    pub name: String,
    /// Their level.
    pub level: AdminLevel,
}

/// One row of the audit log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AuditEntryView {
    /// Its id (pages go back from it).
    #[ts(type = "number")]
    pub id: i64,
    /// When, RFC 3339.
    pub at: String,
    /// The administrator's address.
    pub actor_email: String,
    /// What they did, as `resource.verb`.
    pub action: String,
    /// The kind of thing changed.
    pub target_type: String,
    /// Which one.
    pub target_id: Option<String>,
    /// Why.
    pub reason: Option<String>,
    /// The details, a JSON document as text.
    pub detail: String,
}

/// A page of the audit log, newest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AuditPage {
    /// The entries.
    pub entries: Vec<AuditEntryView>,
    /// Pass as `before` for the next (older) page; `None` on the last page.
    #[ts(type = "number | null")]
    pub next_before: Option<i64>,
}

/// Entries in one page of the audit log.
pub const AUDIT_PAGE_SIZE: u64 = 50;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_flagged_users_with_a_known_level_are_administrators() {
        assert_eq!(AdminLevel::of(true, "owner"), Some(AdminLevel::Owner));
        assert_eq!(AdminLevel::of(true, " Admin "), Some(AdminLevel::Admin));
        assert_eq!(AdminLevel::of(true, "support"), Some(AdminLevel::Support));
        assert_eq!(AdminLevel::of(false, "owner"), None);
        assert_eq!(AdminLevel::of(true, "user"), None);
        assert_eq!(AdminLevel::of(true, ""), None);
    }

    #[test]
    fn levels_grant_more_as_they_rise() {
        assert!(!AdminLevel::Support.can_change());
        assert!(AdminLevel::Admin.can_change());
        assert!(AdminLevel::Owner.can_change());
        assert!(!AdminLevel::Admin.can_manage_admins());
        assert!(AdminLevel::Owner.can_manage_admins());
        for level in AdminLevel::ALL {
            assert_eq!(AdminLevel::parse(level.as_str()), Some(level));
        }
    }

    #[test]
    fn a_reason_is_required_and_bounded() {
        assert!(check_reason("  ").is_err());
        assert!(check_reason("ok").is_err());
        assert_eq!(
            check_reason("  refund goodwill ").as_deref(),
            Ok("refund goodwill")
        );
        assert!(check_reason(&"é".repeat(REASON_MAX_CHARS)).is_ok());
        assert!(check_reason(&"é".repeat(REASON_MAX_CHARS + 1)).is_err());
    }

    #[test]
    fn refusals_name_the_level() {
        assert_eq!(
            level_refusal(AdminLevel::Support, AdminLevel::Admin),
            "Your admin level (support) can only read."
        );
        assert!(level_refusal(AdminLevel::Admin, AdminLevel::Owner).contains("Only an owner"));
    }
}
