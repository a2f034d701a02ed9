//! The admin area's users (issue 16 item 4): search, one user's whole picture, and the
//! administrators' changes to an account — credits, the trial, disabling, signing out
//! everywhere — and, for owners, the admin levels. Each change checks its rule in `domain`,
//! then is made by one `store::admin` function that writes the audit row in the same
//! transaction. Who may call what is the routes' (`extract::AdminUser`).

use chrono::{DateTime, Utc};
use domain::admin::{AdminLevel, AuditEntryView, check_reason};
use domain::admin_area::{
    AdminLedgerRow, AdminListRow, AdminTeamView, AdminUserDetail, AdminUserRow, CreditAdjustment,
    USER_SEARCH_LIMIT, check_disable, check_search, check_trial_regrant,
};
use domain::credits::Credits;
use serde_json::json;
use store::entity::users;
use store::{DatabaseConnection, StoreError};

use crate::services::admin_records::{job_row, purchase_row};
use crate::services::audit::Acting;

/// Why an admin request was refused.
#[derive(Debug, thiserror::Error)]
pub enum AdminError {
    /// A value is missing or wrong; the text says which.
    #[error("{0}")]
    Invalid(String),
    /// The administrator's level or the target does not allow it; the text says why.
    #[error("{0}")]
    Refused(String),
    /// The account's state does not allow it; the text says why.
    #[error("{0}")]
    Conflict(String),
    /// Nothing with that id.
    #[error("{0}")]
    NotFound(String),
    /// The database failed.
    #[error(transparent)]
    Store(StoreError),
}

impl From<StoreError> for AdminError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::NotFound => AdminError::NotFound("No such account.".to_owned()),
            e => AdminError::Store(e),
        }
    }
}

/// The reason of a change, checked by `domain`.
pub fn reason(raw: &str) -> Result<String, AdminError> {
    check_reason(raw).map_err(AdminError::Invalid)
}

fn full_name(user: &users::Model) -> String {
    [user.first_name.as_deref(), user.last_name.as_deref()]
        .into_iter()
        .flatten()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

fn halves(n: i32) -> Credits {
    Credits::from_halves(u32::try_from(n).unwrap_or(0))
}

/// A user as a row of the list.
pub fn user_row(user: &users::Model) -> AdminUserRow {
    AdminUserRow {
        id: user.id,
        email: user.email.clone(),
        name: full_name(user),
        plan: user.subscription_plan.clone(),
        paid_credits: halves(user.report_credits),
        admin_level: AdminLevel::of(user.is_admin, &user.admin_level),
        disabled_at: user.disabled_at.map(|t| t.to_rfc3339()),
        created_at: user.created_at.to_rfc3339(),
    }
}

/// Users matching `query` (address, name or user name), newest first.
pub async fn search(db: &DatabaseConnection, query: &str) -> Result<Vec<AdminUserRow>, AdminError> {
    let text = check_search(query).map_err(AdminError::Invalid)?;
    let users = store::admin::search_users(db, &text, USER_SEARCH_LIMIT).await?;
    Ok(users.iter().map(user_row).collect())
}

/// Everything the admin area shows about one user, as of `at`.
pub async fn detail(
    db: &DatabaseConnection,
    user_id: i64,
    at: DateTime<Utc>,
) -> Result<AdminUserDetail, AdminError> {
    let user = store::users::get_user(db, user_id).await?;
    let (sessions, api_keys) = store::admin::access_counts(db, user_id, at).await?;
    let team = team(db, &user).await?;
    let ledger = store::credits::credit_history(db, user_id, 50)
        .await?
        .iter()
        .map(|row| {
            let (added, amount) = store::credits::ledger_delta(row);
            AdminLedgerRow {
                id: row.id,
                at: row.created_at.to_rfc3339(),
                added,
                amount,
                pool: row.pool.clone(),
                reason: row.reason.clone(),
                reference: row.reference.clone(),
            }
        })
        .collect();
    let jobs = store::jobs::jobs_for_user(db, user_id, 20).await?;
    let email = Some(user.email.clone());
    let analyses = jobs.iter().map(|j| job_row(j, email.clone())).collect();
    let purchases = store::billing::purchases(db, user_id, 20)
        .await?
        .into_iter()
        .map(|p| purchase_row(p, email.clone()))
        .collect();
    let audit = store::audit::for_target(db, "user", &user_id.to_string(), 50)
        .await?
        .into_iter()
        .map(crate::services::audit::entry_view)
        .collect::<Vec<AuditEntryView>>();
    Ok(AdminUserDetail {
        user: user_row(&user),
        username: user.username.clone(),
        subscription_status: user.subscription_status.clone(),
        trial_credits: halves(user.trial_credits),
        trial_expires_at: user.trial_expires_at.map(|t| t.to_rfc3339()),
        has_used_trial: user.has_used_trial,
        email_verified: user.email_verified_at.is_some(),
        sessions,
        api_keys,
        team,
        ledger,
        analyses,
        purchases,
        audit,
    })
}

async fn team(
    db: &DatabaseConnection,
    user: &users::Model,
) -> Result<Option<AdminTeamView>, AdminError> {
    if let Some((_, owner)) = store::accounts::membership_of(db, user.id).await? {
        let members = store::accounts::members_of(db, owner.id).await?;
        return Ok(Some(AdminTeamView {
            owner: false,
            owner_id: owner.id,
            owner_email: owner.email.clone(),
            name: owner.team_name.clone(),
            members: members.into_iter().map(|(_, u)| u.email).collect(),
        }));
    }
    let members = store::accounts::members_of(db, user.id).await?;
    if members.is_empty() {
        return Ok(None);
    }
    Ok(Some(AdminTeamView {
        owner: true,
        owner_id: user.id,
        owner_email: user.email.clone(),
        name: user.team_name.clone(),
        members: members.into_iter().map(|(_, u)| u.email).collect(),
    }))
}

/// Adds or removes paid credits: a ledger row with the administrator's reason, never below
/// zero, audited.
pub async fn adjust_credits(
    db: &DatabaseConnection,
    actor: &Acting,
    user_id: i64,
    change: &CreditAdjustment,
) -> Result<(), AdminError> {
    let why = reason(&change.reason)?;
    let entry = actor.entry(
        "credits.adjust",
        "user",
        Some(user_id.to_string()),
        Some(why.clone()),
        json!({ "direction": change.direction, "amount": change.amount }),
    );
    store::admin::adjust_paid_credits(
        db,
        user_id,
        change.direction,
        change.amount,
        &why,
        &format!("admin:{}", actor.id),
        entry,
    )
    .await?
    .map(|_| ())
    .map_err(AdminError::Invalid)
}

/// Lets the user start the free trial again.
pub async fn regrant_trial(
    db: &DatabaseConnection,
    actor: &Acting,
    user_id: i64,
    raw_reason: &str,
    at: DateTime<Utc>,
) -> Result<(), AdminError> {
    let why = reason(raw_reason)?;
    let user = store::users::get_user(db, user_id).await?;
    let active = user.trial_credits > 0 && user.trial_expires_at.is_some_and(|e| e > at);
    check_trial_regrant(user.has_used_trial, active).map_err(AdminError::Conflict)?;
    let entry = actor.entry(
        "trial.regrant",
        "user",
        Some(user_id.to_string()),
        Some(why),
        json!({}),
    );
    if store::admin::regrant_trial(db, user_id, &entry).await? {
        Ok(())
    } else {
        Err(AdminError::Conflict(
            "This account has not used its trial yet.".to_owned(),
        ))
    }
}

/// Disables the account (it cannot sign in, its sessions end, its API keys are refused) or
/// enables it again.
pub async fn set_disabled(
    db: &DatabaseConnection,
    actor: &Acting,
    user_id: i64,
    disabled: bool,
    raw_reason: &str,
) -> Result<(), AdminError> {
    let why = reason(raw_reason)?;
    let user = store::users::get_user(db, user_id).await?;
    if disabled {
        check_disable(
            actor.level,
            user.id == actor.id,
            AdminLevel::of(user.is_admin, &user.admin_level),
        )
        .map_err(AdminError::Refused)?;
    }
    let action = if disabled {
        "user.disable"
    } else {
        "user.enable"
    };
    let entry = actor.entry(
        action,
        "user",
        Some(user_id.to_string()),
        Some(why),
        json!({}),
    );
    match store::admin::set_disabled(db, user_id, disabled, &entry).await? {
        Some(_) => Ok(()),
        None if disabled => Err(AdminError::Conflict(
            "This account is already disabled.".to_owned(),
        )),
        None => Err(AdminError::Conflict(
            "This account is not disabled.".to_owned(),
        )),
    }
}

/// Ends every session of the user; how many ended.
pub async fn sign_out_everywhere(
    db: &DatabaseConnection,
    actor: &Acting,
    user_id: i64,
    raw_reason: &str,
) -> Result<u64, AdminError> {
    let why = reason(raw_reason)?;
    let entry = actor.entry(
        "user.sign_out_everywhere",
        "user",
        Some(user_id.to_string()),
        Some(why),
        json!({}),
    );
    Ok(store::admin::end_sessions(db, user_id, &entry).await?)
}

/// The administrators, by address.
pub async fn admins(db: &DatabaseConnection) -> Result<Vec<AdminListRow>, AdminError> {
    Ok(store::users::admins(db)
        .await?
        .into_iter()
        .filter_map(|u| {
            AdminLevel::of(u.is_admin, &u.admin_level).map(|level| AdminListRow {
                id: u.id,
                email: u.email,
                level,
            })
        })
        .collect())
}

/// Gives the account at `email` an admin level, or (`None`) takes it away; never the last
/// owner's.
pub async fn change_level(
    db: &DatabaseConnection,
    actor: &Acting,
    email: &str,
    level: Option<AdminLevel>,
    raw_reason: &str,
) -> Result<(), AdminError> {
    let why = reason(raw_reason)?;
    let user = store::users::find_user_by_email(db, email)
        .await?
        .ok_or_else(|| AdminError::NotFound("No account has that e-mail address.".to_owned()))?;
    let before = AdminLevel::of(user.is_admin, &user.admin_level);
    let action = if level.is_some() {
        "admin.grant"
    } else {
        "admin.revoke"
    };
    let entry = actor.entry(
        action,
        "user",
        Some(user.id.to_string()),
        Some(why),
        json!({ "email": user.email, "before": before, "after": level }),
    );
    store::admin::change_admin_level(db, user.id, level, &entry)
        .await?
        .map_err(AdminError::Conflict)
}
