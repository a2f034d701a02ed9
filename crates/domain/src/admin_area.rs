//! What the admin area shows and the rules of its changes (docs/PRODUCT.md §6.6, issue 16 item
//! 4): the business at a glance and how each figure is defined, the users, jobs, purchases and
//! white-label views, and the checks of a credit adjustment, a job filter and a search. Who may
//! do what is `crate::admin`; every change's reason is `crate::admin::check_reason`.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::admin::AdminLevel;
use crate::credits::Credits;

/// Days the overview covers, today included.
pub const OVERVIEW_DAYS: u32 = 30;

/// How the overview's conversion from free to paid is computed, shown beside the figure.
pub const CONVERSION_DEFINITION: &str = "Accounts created in the period that have at least one \
recorded payment (a credit pack, custom credits or a plan invoice in credit_purchases), divided \
by all accounts created in the period. All time: every account that has ever paid, divided by \
every account.";

/// How the overview's failure rate is computed.
pub const FAILURE_DEFINITION: &str = "Analyses queued in the period that ended failed, divided \
by those that ended (complete or failed); analyses still queued or running are left out.";

/// How the overview's revenue and credits are computed.
pub const MONEY_DEFINITION: &str = "Revenue: payments recorded in credit_purchases (packs, \
custom credits and plan invoices) less refunds recorded in refunds, by the day they were \
recorded. Credits sold: credits added by those payments. Credits spent: credits taken by \
analyses, less those given back when an analysis failed.";

/// Most users a search answers.
pub const USER_SEARCH_LIMIT: u64 = 50;

/// Longest search text, in characters.
pub const SEARCH_MAX_CHARS: usize = 200;

/// Most rows a list of jobs, purchases or white-label brandings answers.
pub const LIST_LIMIT: u64 = 100;

/// The share `part / whole` in percent, to one decimal; `None` when `whole` is zero (no
/// figure rather than an invented 0 %).
pub fn percent(part: u64, whole: u64) -> Option<f64> {
    if whole == 0 {
        return None;
    }
    let tenths = (part as f64 * 1000.0 / whole as f64).round();
    Some(tenths / 10.0)
}

/// The search text of the users list, trimmed and lower-cased (addresses are stored
/// lower-case); an error message when it is too long.
pub fn check_search(raw: &str) -> Result<String, String> {
    let text = raw.trim();
    if text.chars().count() > SEARCH_MAX_CHARS {
        return Err(format!(
            "Keep the search under {SEARCH_MAX_CHARS} characters."
        ));
    }
    Ok(text.to_lowercase())
}

/// Which way a credit adjustment goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum AdjustDirection {
    /// Credits given.
    Add,
    /// Credits taken away.
    Remove,
}

/// An administrator's change of a user's paid credits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CreditAdjustment {
    /// Add or remove.
    pub direction: AdjustDirection,
    /// How many credits (halves allowed).
    pub amount: Credits,
    /// Why (`crate::admin::check_reason`).
    pub reason: String,
}

/// The paid balance after adjusting `balance` by `amount` in `direction`; an error message when
/// the amount is zero, when removing would take the balance below zero, or when adding would
/// pass the largest balance.
pub fn adjusted_balance(
    balance: Credits,
    direction: AdjustDirection,
    amount: Credits,
) -> Result<Credits, String> {
    if amount.is_zero() {
        return Err("Give a number of credits above zero.".to_owned());
    }
    match direction {
        AdjustDirection::Add => balance
            .checked_add(amount)
            .ok_or_else(|| "That would pass the largest balance an account can hold.".to_owned()),
        AdjustDirection::Remove => balance.checked_sub(amount).ok_or_else(|| {
            format!(
                "The account holds {} paid credits; a balance never goes below zero.",
                balance
            )
        }),
    }
}

/// A change that only needs its reason (grant the trial again, disable, enable, sign out
/// everywhere, retry a job).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ReasonedAction {
    /// Why (`crate::admin::check_reason`).
    pub reason: String,
}

/// An owner's change of someone's admin level.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AdminLevelChange {
    /// The account's e-mail address.
    pub email: String,
    /// The new level; `null` makes them an ordinary user.
    pub level: Option<AdminLevel>,
    /// Why.
    pub reason: String,
}

/// The message when an owner would leave the site without any owner.
pub const LAST_OWNER_MESSAGE: &str = "This is the last owner: make someone else an owner first.";

/// The message a disabled account gets when signing in.
pub const ACCOUNT_DISABLED_MESSAGE: &str =
    "This account has been disabled. Contact support if you think this is a mistake.";

/// Whether an administrator may let a user start the free trial again: only once they used
/// it, and not while its credit is still valid (`trial_active`), which starting again would
/// overwrite.
pub fn check_trial_regrant(has_used_trial: bool, trial_active: bool) -> Result<(), String> {
    if !has_used_trial {
        return Err("This account has not used its trial yet.".to_owned());
    }
    if trial_active {
        return Err(
            "The trial credit is still valid; grant the trial again once it has expired."
                .to_owned(),
        );
    }
    Ok(())
}

/// Whether an administrator at `actor` may disable an account: never their own, and an
/// administrator's (`target`) only as an owner.
pub fn check_disable(
    actor: AdminLevel,
    own_account: bool,
    target: Option<AdminLevel>,
) -> Result<(), String> {
    if own_account {
        return Err("You cannot disable your own account.".to_owned());
    }
    if target.is_some() && !actor.can_manage_admins() {
        return Err("Only an owner can disable an administrator.".to_owned());
    }
    Ok(())
}

/// A job status the jobs list can filter by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum JobFilter {
    /// Waiting for a worker.
    Queued,
    /// Being run.
    Running,
    /// Ended with a report.
    Complete,
    /// Ended without one.
    Failed,
}

impl JobFilter {
    /// The stored status.
    pub fn as_str(self) -> &'static str {
        match self {
            JobFilter::Queued => "queued",
            JobFilter::Running => "running",
            JobFilter::Complete => "complete",
            JobFilter::Failed => "failed",
        }
    }

    /// The filter named `name`; `None` for an unknown name.
    pub fn parse(name: &str) -> Option<JobFilter> {
        match name {
            "queued" => Some(JobFilter::Queued),
            "running" => Some(JobFilter::Running),
            "complete" => Some(JobFilter::Complete),
            "failed" => Some(JobFilter::Failed),
            _ => None,
        }
    }
}

/// The message for an unknown job filter.
pub const JOB_FILTER_MESSAGE: &str = "Filter by status: queued, running, complete or failed.";

/// The message when a job that did not fail is retried.
pub const RETRY_NOT_FAILED_MESSAGE: &str = "Only a failed analysis can be retried.";

/// One UTC day of the overview.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DayFigures {
    /// The day, `YYYY-MM-DD` (UTC).
    pub day: String,
    /// Analyses queued that day.
    pub analyses: u32,
    /// Of those, the ones that failed.
    pub failed: u32,
    /// Accounts created that day.
    pub signups: u32,
    /// Payments less refunds recorded that day, cents (negative when refunds were larger).
    #[ts(type = "number")]
    pub revenue_cents: i64,
}

/// A share with what it was computed from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Share {
    /// The counted part.
    #[ts(type = "number")]
    pub part: u64,
    /// The whole.
    #[ts(type = "number")]
    pub whole: u64,
    /// `part / whole` in percent, one decimal; `null` when the whole is zero.
    pub percent: Option<f64>,
}

impl Share {
    /// The share of `part` in `whole`.
    pub fn of(part: u64, whole: u64) -> Share {
        Share {
            part,
            whole,
            percent: percent(part, whole),
        }
    }
}

/// The business at a glance (the overview panel).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AdminOverview {
    /// Every day of the period, oldest first, zeros where nothing happened.
    pub days: Vec<DayFigures>,
    /// Analyses queued in the period.
    #[ts(type = "number")]
    pub analyses: u64,
    /// Accounts created in the period.
    #[ts(type = "number")]
    pub signups: u64,
    /// Payments recorded in the period, cents.
    #[ts(type = "number")]
    pub gross_revenue_cents: i64,
    /// Refunds recorded in the period, cents.
    #[ts(type = "number")]
    pub refunded_cents: i64,
    /// Credits added by payments in the period.
    pub credits_sold: Credits,
    /// Credits taken by analyses in the period, less those given back for failures.
    pub credits_spent: Credits,
    /// Conversion from free to paid among accounts created in the period.
    pub conversion: Share,
    /// Conversion from free to paid over every account.
    pub conversion_all_time: Share,
    /// Failed analyses among those that ended in the period.
    pub failure_rate: Share,
    /// Analyses waiting for a worker now.
    #[ts(type = "number")]
    pub queue_waiting: u64,
    /// Analyses being run now.
    #[ts(type = "number")]
    pub queue_running: u64,
    /// How long the oldest waiting analysis has waited, seconds.
    #[ts(type = "number | null")]
    pub oldest_wait_seconds: Option<u64>,
    /// How the conversion is defined.
    pub conversion_definition: String,
    /// How the failure rate is defined.
    pub failure_definition: String,
    /// How revenue and credits are defined.
    pub money_definition: String,
}

/// A user in the admin's list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AdminUserRow {
    /// Id.
    #[ts(type = "number")]
    pub id: i64,
    /// Address.
    pub email: String,
    /// First and last name.
    pub name: String,
    /// Plan.
    pub plan: String,
    /// Paid credits.
    pub paid_credits: Credits,
    /// Their admin level, if they are an administrator.
    pub admin_level: Option<AdminLevel>,
    /// When the account was disabled (RFC 3339), if it is.
    pub disabled_at: Option<String>,
    /// When the account was made (RFC 3339).
    pub created_at: String,
}

/// A credit movement of a user.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AdminLedgerRow {
    /// Id.
    #[ts(type = "number")]
    pub id: i64,
    /// When (RFC 3339).
    pub at: String,
    /// Whether credits were added.
    pub added: bool,
    /// How many.
    pub amount: Credits,
    /// `paid`, `trial` or `plan`.
    pub pool: String,
    /// Why.
    pub reason: String,
    /// A payment, a job or a note.
    pub reference: Option<String>,
}

/// An analysis in the admin's lists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AdminJobRow {
    /// The analysis id.
    pub id: String,
    /// The address analysed.
    pub url: String,
    /// `queued`, `running`, `complete` or `failed`.
    pub status: String,
    /// Report depth.
    pub report_type: String,
    /// Percent done.
    pub progress: u32,
    /// Why it failed.
    pub error: Option<String>,
    /// Times a worker took it.
    pub attempts: u32,
    /// What it cost.
    pub cost: Credits,
    /// Whether its credits were given back.
    pub refunded: bool,
    /// The requester's id, if signed in.
    #[ts(type = "number | null")]
    pub user_id: Option<i64>,
    /// The requester's address, if signed in.
    pub user_email: Option<String>,
    /// Its report, once complete.
    pub result_id: Option<String>,
    /// When it was queued (RFC 3339).
    pub created_at: String,
    /// When it ended (RFC 3339).
    pub finished_at: Option<String>,
}

/// The team a user owns or belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AdminTeamView {
    /// Whether the user owns it.
    pub owner: bool,
    /// The owner's id.
    #[ts(type = "number")]
    pub owner_id: i64,
    /// The owner's address.
    pub owner_email: String,
    /// The team's name, if given.
    pub name: Option<String>,
    /// Members (the owner not counted), addresses.
    pub members: Vec<String>,
}

/// One user as the admin sees them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AdminUserDetail {
    /// The summary.
    pub user: AdminUserRow,
    /// User name.
    pub username: Option<String>,
    /// Subscription status.
    pub subscription_status: String,
    /// Trial credits (whether valid or not).
    pub trial_credits: Credits,
    /// When the trial credit expires (RFC 3339).
    pub trial_expires_at: Option<String>,
    /// Whether the trial was used.
    pub has_used_trial: bool,
    /// Whether the address was confirmed.
    pub email_verified: bool,
    /// Live sessions.
    #[ts(type = "number")]
    pub sessions: u64,
    /// Unrevoked API keys.
    #[ts(type = "number")]
    pub api_keys: u64,
    /// The team.
    pub team: Option<AdminTeamView>,
    /// Newest credit movements.
    pub ledger: Vec<AdminLedgerRow>,
    /// Newest analyses.
    pub analyses: Vec<AdminJobRow>,
    /// Newest payments.
    pub purchases: Vec<AdminPurchaseRow>,
    /// What administrators did to this account, newest first.
    pub audit: Vec<crate::admin::AuditEntryView>,
}

/// A recorded payment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AdminPurchaseRow {
    /// Id.
    #[ts(type = "number")]
    pub id: i64,
    /// Who paid (`null` once the account is deleted).
    #[ts(type = "number | null")]
    pub user_id: Option<i64>,
    /// Their address.
    pub user_email: Option<String>,
    /// The payment's id at the processor.
    pub payment_id: String,
    /// The pack or plan.
    pub package: String,
    /// Credits added.
    #[ts(type = "number")]
    pub credits: i64,
    /// Amount, cents.
    #[ts(type = "number")]
    pub amount_cents: i64,
    /// When (RFC 3339).
    pub at: String,
}

/// A subscription.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AdminSubscriptionRow {
    /// Id.
    #[ts(type = "number")]
    pub id: i64,
    /// The subscriber.
    #[ts(type = "number")]
    pub user_id: i64,
    /// Their address.
    pub user_email: Option<String>,
    /// Plan.
    pub plan: String,
    /// `month` or `year`.
    pub interval: String,
    /// State.
    pub status: String,
    /// Price of a period, cents.
    #[ts(type = "number")]
    pub amount_cents: i64,
    /// End of the paid period (RFC 3339).
    pub period_end: String,
}

/// A refund.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AdminRefundRow {
    /// The processor's refund id.
    pub id: String,
    /// Who was refunded.
    #[ts(type = "number | null")]
    pub user_id: Option<i64>,
    /// Their address.
    pub user_email: Option<String>,
    /// The refunded payment.
    pub payment_id: String,
    /// Amount, cents.
    #[ts(type = "number")]
    pub amount_cents: i64,
    /// Credits taken back.
    pub credits_removed: Credits,
    /// When (RFC 3339).
    pub at: String,
}

/// Purchases, subscriptions and refunds, newest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AdminPurchases {
    /// Payments.
    pub purchases: Vec<AdminPurchaseRow>,
    /// Subscriptions.
    pub subscriptions: Vec<AdminSubscriptionRow>,
    /// Refunds.
    pub refunds: Vec<AdminRefundRow>,
}

/// A white-label branding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AdminWhitelabelRow {
    /// Id.
    #[ts(type = "number")]
    pub id: i64,
    /// The account.
    #[ts(type = "number")]
    pub user_id: i64,
    /// Its address.
    pub user_email: Option<String>,
    /// Company shown on the reports.
    pub company_name: String,
    /// The account's custom domain (issue 15 item 3), as normalised when it was set.
    pub custom_domain: Option<String>,
    /// Whether its TXT record was found, so that it serves the agency's reports.
    pub custom_domain_verified: bool,
    /// Website.
    pub website_url: Option<String>,
    /// Contact address.
    pub contact_email: Option<String>,
    /// Brand colour.
    pub primary_color: String,
    /// Last change (RFC 3339).
    pub updated_at: String,
}

/// An administrator in the owners' list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AdminListRow {
    /// Id.
    #[ts(type = "number")]
    pub id: i64,
    /// Address.
    pub email: String,
    /// Level.
    pub level: AdminLevel,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_share_of_nothing_is_no_figure() {
        assert_eq!(percent(0, 0), None);
        assert_eq!(percent(0, 7), Some(0.0));
        assert_eq!(percent(1, 3), Some(33.3));
        assert_eq!(percent(2, 3), Some(66.7));
        assert_eq!(percent(5, 5), Some(100.0));
        assert_eq!(Share::of(1, 8).percent, Some(12.5));
    }

    #[test]
    fn an_adjustment_never_takes_a_balance_below_zero() {
        let two = Credits::whole(2);
        assert_eq!(
            adjusted_balance(two, AdjustDirection::Remove, Credits::HALF),
            Ok(Credits::from_halves(3))
        );
        assert_eq!(
            adjusted_balance(two, AdjustDirection::Remove, two),
            Ok(Credits::ZERO)
        );
        let err = adjusted_balance(two, AdjustDirection::Remove, Credits::whole(3))
            .expect_err("below zero");
        assert!(err.contains("never goes below zero"), "{err}");
        assert!(adjusted_balance(two, AdjustDirection::Add, Credits::ZERO).is_err());
        assert_eq!(
            adjusted_balance(two, AdjustDirection::Add, Credits::whole(5)),
            Ok(Credits::whole(7))
        );
        assert!(adjusted_balance(Credits::MAX, AdjustDirection::Add, Credits::HALF).is_err());
    }

    #[test]
    fn the_trial_is_granted_again_only_once_used_and_expired() {
        assert!(check_trial_regrant(false, false).is_err());
        assert!(check_trial_regrant(true, true).is_err());
        assert_eq!(check_trial_regrant(true, false), Ok(()));
    }

    #[test]
    fn nobody_disables_themselves_and_only_owners_disable_admins() {
        assert!(check_disable(AdminLevel::Owner, true, None).is_err());
        assert!(check_disable(AdminLevel::Admin, false, Some(AdminLevel::Support)).is_err());
        assert_eq!(
            check_disable(AdminLevel::Owner, false, Some(AdminLevel::Admin)),
            Ok(())
        );
        assert_eq!(check_disable(AdminLevel::Admin, false, None), Ok(()));
    }

    #[test]
    fn searches_and_filters_are_checked() {
        assert_eq!(
            check_search("  Ann@Example.COM "),
            Ok("ann@example.com".into())
        );
        assert!(check_search(&"a".repeat(SEARCH_MAX_CHARS + 1)).is_err());
        for f in [
            JobFilter::Queued,
            JobFilter::Running,
            JobFilter::Complete,
            JobFilter::Failed,
        ] {
            assert_eq!(JobFilter::parse(f.as_str()), Some(f));
        }
        assert_eq!(JobFilter::parse("lost"), None);
    }
}
