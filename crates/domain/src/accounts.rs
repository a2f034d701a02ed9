//! Account rules: the sign-in and account forms with their messages, the password policy,
//! sign-in throttling, the lifetimes of sessions and e-mailed links, the safe return path after
//! signing in, team roles and seats per plan, and whether the free trial may start
//! (docs/PRODUCT.md §3.4, §3.5, §5.6, §6.7, §9.1, §9.3, §10.1).
//!
//! The server refuses with these messages and the web app shows the same ones before a request
//! is sent (docs/PRODUCT.md §5.11).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::commerce::{self, TRIAL_USED_MESSAGE};
use crate::forms::{EMAIL_MESSAGE, FieldError, is_valid_email};

fn err(field: &str, message: &str) -> FieldError {
    FieldError {
        field: field.to_owned(),
        message: message.to_owned(),
    }
}

/// Minimum password length; NIST SP 800-63B §5.1.1.2 asks for at least 8.
pub const PASSWORD_MIN: usize = 8;
/// Maximum password length, which bounds the cost of hashing one.
pub const PASSWORD_MAX: usize = 128;

/// The one answer to a failed sign-in, whether the account exists or the password is wrong, so
/// the form cannot be used to learn who has an account.
pub const SIGN_IN_FAILED_MESSAGE: &str = "Incorrect email or password";
/// Shown when the e-mail address of a registration or change already has an account.
pub const EMAIL_TAKEN_MESSAGE: &str = "An account with this email address already exists";
/// Shown when a registration's username belongs to another account, in any case.
pub const USERNAME_TAKEN_MESSAGE: &str = "This username is already taken. Please choose another";
/// Shown when an OpenID Connect provider vouches for an address that has an account here but
/// does not say the person confirmed it: the account is not linked on its word.
pub const PROVIDER_EMAIL_UNVERIFIED_MESSAGE: &str = "Your sign-in provider has not confirmed this email address, so it cannot be linked to the Sitelens account that uses it. Sign in with your password instead.";
/// Shown when an OpenID Connect provider shares no e-mail address.
pub const PROVIDER_NO_EMAIL_MESSAGE: &str =
    "Your sign-in provider did not share an email address. Allow it to, then try again.";
/// Shown when the account with the provider's address is already linked to another identity.
pub const PROVIDER_OTHER_IDENTITY_MESSAGE: &str = "The Sitelens account with this email address is linked to another sign-in. Sign in with it or with your password.";
/// Shown when signing in through the provider failed for any other reason (the detail is logged).
pub const PROVIDER_FAILED_MESSAGE: &str =
    "Signing in through your provider did not work. Please try again.";
/// Shown when an e-mailed link was already used, has expired or never existed.
pub const LINK_INVALID_MESSAGE: &str =
    "This link is invalid or has expired. Please request a new one.";
/// Shown when the current password given to change a password or address is wrong.
pub const CURRENT_PASSWORD_MESSAGE: &str = "Your current password is incorrect";
/// The alert after the trial starts (docs/PRODUCT.md §7.6).
pub const TRIAL_STARTED_MESSAGE: &str =
    "Free trial activated! You now have 1 credit to use within 7 days.";

/// Failed sign-ins allowed from one visitor address within [`THROTTLE_WINDOW_MINUTES`].
pub const THROTTLE_PER_ADDRESS: u32 = 20;
/// Failed sign-ins allowed for one account within [`THROTTLE_WINDOW_MINUTES`], from anywhere.
pub const THROTTLE_PER_ACCOUNT: u32 = 5;
/// The window the failures are counted in.
pub const THROTTLE_WINDOW_MINUTES: u32 = 15;

/// Days a session lasts without activity; each use moves its expiry (sliding sessions).
pub const SESSION_DAYS: u32 = 30;
/// Hours an e-mail verification link stays valid.
pub const VERIFY_EMAIL_HOURS: u32 = 48;
/// Minutes a password-reset link stays valid.
pub const PASSWORD_RESET_MINUTES: u32 = 60;
/// Days a team invitation stays valid.
pub const TEAM_INVITE_DAYS: u32 = 7;

/// The sign-in form.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SignInForm {
    /// E-mail address.
    pub email: String,
    /// Password.
    pub password: String,
}

/// Validates the sign-in form: an address and a password are needed; whether they match is the
/// server's question.
pub fn validate_sign_in(form: &SignInForm) -> Vec<FieldError> {
    let mut errors = Vec::new();
    if !is_valid_email(&form.email) {
        errors.push(err("email", EMAIL_MESSAGE));
    }
    if form.password.is_empty() {
        errors.push(err("password", "Please enter your password"));
    }
    errors
}

/// The password policy for a new password (registration, reset, change): 8 to 128 characters
/// and not the account's e-mail address or user name. Length is the rule NIST SP 800-63B gives
/// weight to; composition rules are deliberately absent.
pub fn password_problem(password: &str, email: &str, username: &str) -> Option<String> {
    let len = password.chars().count();
    if len < PASSWORD_MIN {
        return Some(format!(
            "Password must be at least {PASSWORD_MIN} characters"
        ));
    }
    if len > PASSWORD_MAX {
        return Some(format!(
            "Password must be at most {PASSWORD_MAX} characters"
        ));
    }
    let same = |other: &str| {
        let other = other.trim();
        !other.is_empty() && password.trim().eq_ignore_ascii_case(other)
    };
    if same(email) || same(username) {
        return Some("Password must not be your email address or username".to_owned());
    }
    None
}

/// Validates a new password for the account with this e-mail address and user name, as the
/// field `field`.
pub fn validate_new_password(
    field: &str,
    password: &str,
    email: &str,
    username: &str,
) -> Vec<FieldError> {
    password_problem(password, email, username)
        .map(|m| vec![err(field, &m)])
        .unwrap_or_default()
}

/// The change-password form.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PasswordChange {
    /// The password in use.
    pub current_password: String,
    /// The new password.
    pub new_password: String,
}

/// Validates a password change for the account with this e-mail address and user name.
pub fn validate_password_change(
    form: &PasswordChange,
    email: &str,
    username: &str,
) -> Vec<FieldError> {
    let mut errors = Vec::new();
    if form.current_password.is_empty() {
        errors.push(err("currentPassword", "Please enter your current password"));
    }
    errors.extend(validate_new_password(
        "newPassword",
        &form.new_password,
        email,
        username,
    ));
    if errors.is_empty() && form.current_password == form.new_password {
        errors.push(err(
            "newPassword",
            "The new password must differ from the current one",
        ));
    }
    errors
}

/// The change-e-mail form; the password confirms it is the account holder.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct EmailChange {
    /// The new address.
    pub email: String,
    /// The password in use.
    pub current_password: String,
}

/// Validates an e-mail change.
pub fn validate_email_change(form: &EmailChange) -> Vec<FieldError> {
    let mut errors = Vec::new();
    if !is_valid_email(&form.email) {
        errors.push(err("email", EMAIL_MESSAGE));
    }
    if form.current_password.is_empty() {
        errors.push(err("currentPassword", "Please enter your current password"));
    }
    errors
}

/// Where to go after signing in or up: `raw` when it is a path on our own origin (or an
/// absolute address on `own_origin`, reduced to its path), otherwise `/dashboard`. This is what
/// keeps the return parameter from being an open redirect: `//evil.example`, `/\evil.example`,
/// `https://evil.example` and `javascript:` all fall back.
pub fn safe_return_path(raw: &str, own_origin: &str) -> String {
    const FALLBACK: &str = "/dashboard";
    let raw = raw.trim();
    let own = own_origin.trim_end_matches('/');
    let path = match raw.strip_prefix(own) {
        Some(rest) if !own.is_empty() && (rest.is_empty() || rest.starts_with('/')) => {
            if rest.is_empty() { "/" } else { rest }
        }
        _ => raw,
    };
    let bytes = path.as_bytes();
    let is_local = bytes.first() == Some(&b'/')
        && !matches!(bytes.get(1), Some(b'/' | b'\\'))
        && !path.chars().any(|c| c.is_control() || c == '\\');
    // The accounts pages themselves are not a destination: returning to sign-in would loop.
    // The team invitation page is the exception: an invitee signs in or up on the way to it.
    let is_join = path == "/accounts/join" || path.starts_with("/accounts/join?");
    let is_accounts = path == "/sign-in" || path == "/sign-up" || path.starts_with("/accounts");
    if is_local && (is_join || !is_accounts) {
        path.to_owned()
    } else {
        FALLBACK.to_owned()
    }
}

/// Whether a sign-in attempt must be refused with a 429 before the password is checked, given
/// the failures counted in the window for the visitor's address and for the account.
pub fn sign_in_throttled(failures_by_address: u32, failures_by_account: u32) -> bool {
    failures_by_address >= THROTTLE_PER_ADDRESS || failures_by_account >= THROTTLE_PER_ACCOUNT
}

/// The message of a throttled sign-in (answered with 429 and `Retry-After`).
pub fn throttled_message() -> String {
    format!(
        "Too many sign-in attempts. Please wait {THROTTLE_WINDOW_MINUTES} minutes and try again."
    )
}

/// Whether a signed-in user may start the free trial: first-time users only (docs/PRODUCT.md
/// §5.6, §9.1). `Err` carries the message to show.
pub fn check_trial_start(has_used_trial: bool) -> Result<(), String> {
    if has_used_trial {
        Err(TRIAL_USED_MESSAGE.to_owned())
    } else {
        Ok(())
    }
}

/// A team member's role (docs/PRODUCT.md §3.5, §6.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum TeamRole {
    /// The account whose credits and reports the team shares.
    Owner,
    /// Manages members as the owner does, but cannot remove the owner or delete the team.
    Admin,
    /// Uses the team's credits and sees its reports.
    Member,
}

impl TeamRole {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            TeamRole::Owner => "owner",
            TeamRole::Admin => "admin",
            TeamRole::Member => "member",
        }
    }

    /// The role with this stored name.
    pub fn parse(raw: &str) -> Option<TeamRole> {
        match raw {
            "owner" => Some(TeamRole::Owner),
            "admin" => Some(TeamRole::Admin),
            "member" => Some(TeamRole::Member),
            _ => None,
        }
    }

    /// The permissions the role grants, by name (stored in `team_members.permissions`).
    pub fn permissions(self) -> Vec<String> {
        let names: &[&str] = match self {
            TeamRole::Owner | TeamRole::Admin => &[
                "reports:read",
                "reports:create",
                "credits:use",
                "members:invite",
                "members:remove",
            ],
            TeamRole::Member => &["reports:read", "reports:create", "credits:use"],
        };
        names.iter().map(|s| (*s).to_owned()).collect()
    }

    /// Whether the role may invite and remove members.
    pub fn manages_members(self) -> bool {
        matches!(self, TeamRole::Owner | TeamRole::Admin)
    }
}

/// Seats (people, the owner included) of a subscription plan: one without a plan (`basic`),
/// Business 3, Agency 5, Enterprise unlimited (`None`) (docs/PRODUCT.md §6.7, §9.3). A plan is
/// named by its id (`business-plan`) or its short name (`business`), in any case.
pub fn seats_for_plan(plan: &str) -> Option<u32> {
    let plan = plan.trim().to_ascii_lowercase();
    let id = if plan.ends_with("-plan") {
        plan
    } else {
        format!("{plan}-plan")
    };
    match commerce::plans().into_iter().find(|p| p.id == id) {
        Some(p) => p.team_members,
        None => Some(1),
    }
}

/// Whether the owner of a team on `plan` may invite one more person, with `taken` seats already
/// held by members and pending invitations (the owner's own seat not counted). `Err` carries
/// the message to show.
pub fn check_invite(plan: &str, taken: u32) -> Result<(), String> {
    check_invite_seats(seats_for_plan(plan), taken)
}

/// [`check_invite`] for a team with `seats` in all (a plan's own plus the extra seats bought,
/// `crate::checkout::subscription_seats`); `None` is unlimited.
pub fn check_invite_seats(seats: Option<u32>, taken: u32) -> Result<(), String> {
    match seats {
        None => Ok(()),
        Some(seats) if taken.saturating_add(1) < seats => Ok(()),
        Some(1) => Err(
            "Your plan has one seat. Upgrade to the Business or Agency plan to invite team members."
                .to_owned(),
        ),
        Some(seats) => Err(format!(
            "All {seats} seats of your plan are in use. Remove a member or upgrade your plan to invite more."
        )),
    }
}

/// The signed-in account as the web app reads it (`GET /api/account`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Account {
    /// User id.
    #[ts(type = "number")]
    pub id: i64,
    /// E-mail address.
    pub email: String,
    /// First name.
    pub first_name: String,
    /// Last name.
    pub last_name: String,
    /// User name.
    pub username: String,
    /// Whether the address was confirmed through the e-mailed link.
    pub email_verified: bool,
    /// Whether the free trial was used (docs/PRODUCT.md §5.6).
    pub has_used_trial: bool,
    /// Paid credits spendable now: the team owner's when the user is a team member.
    pub paid_credits: crate::credits::Credits,
    /// Trial credits still valid now.
    pub trial_credits: crate::credits::Credits,
    /// When the trial credit expires (RFC 3339), once a trial was started.
    pub trial_expires_at: Option<String>,
    /// Subscription plan (`basic` without one).
    pub plan: String,
    /// Whether the plan covers paid reports whatever the credits (Enterprise's unlimited
    /// credits while the plan is paid for: `checkout::plan_covers_reports`).
    pub unlimited_reports: bool,
    /// Seats of the plan, the owner included; `None` is unlimited.
    pub seats: Option<u32>,
    /// The team the user belongs to as a member, if any.
    pub team: Option<TeamMembership>,
    /// Whether the account has a password (false for accounts made through OpenID Connect).
    pub has_password: bool,
    /// The token to send as `X-CSRF-Token` with every state-changing request.
    pub csrf_token: String,
}

/// A membership of someone else's team.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TeamMembership {
    /// The owner's user id.
    #[ts(type = "number")]
    pub owner_id: i64,
    /// The owner's e-mail address.
    pub owner_email: String,
    /// The member's role.
    pub role: TeamRole,
}

/// One past analysis on the dashboard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AnalysisSummary {
    /// The report's id (`/results?id=`).
    pub result_id: String,
    /// When it was made (RFC 3339).
    pub timestamp: String,
    /// Report depth.
    pub tier: crate::report::ReportType,
    /// Overall score.
    pub overall_score: u32,
    /// SEO score.
    pub seo_score: u32,
    /// Performance score.
    pub performance_score: u32,
    /// Who ran it (for a team's reports).
    pub requested_by: String,
}

/// The analyses of one site, oldest first (the order of the score-trend chart).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SiteHistory {
    /// The site's address.
    pub url: String,
    /// Its analyses, oldest first.
    pub analyses: Vec<AnalysisSummary>,
}

/// `GET /api/dashboard`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DashboardData {
    /// The account.
    pub account: Account,
    /// The sites the user (or their team) analysed, most recently analysed first.
    pub sites: Vec<SiteHistory>,
}

/// A team member or invitation, as the team's managers see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TeamMemberView {
    /// Row id (to remove the member).
    #[ts(type = "number")]
    pub id: i64,
    /// The member's or invitee's e-mail address.
    pub email: String,
    /// Role.
    pub role: TeamRole,
    /// `pending` until the invitation is accepted, then `active`.
    pub status: String,
}

/// `GET /api/team`: the team the signed-in user owns or belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TeamView {
    /// The owner's e-mail address.
    pub owner_email: String,
    /// The signed-in user's role in it.
    pub role: TeamRole,
    /// Seats of the owner's plan, the owner included; `None` is unlimited.
    pub seats: Option<u32>,
    /// Members and pending invitations, oldest first.
    pub members: Vec<TeamMemberView>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn return_paths_stay_on_our_origin() {
        let own = "https://sitelens.example";
        assert_eq!(safe_return_path("/results?id=1", own), "/results?id=1");
        assert_eq!(
            safe_return_path("https://sitelens.example/pricing", own),
            "/pricing"
        );
        for bad in [
            "//evil.example",
            "/\\evil.example",
            "https://evil.example/",
            "https://sitelens.example.evil.example/",
            "javascript:alert(1)",
            "",
            "/sign-in",
            "/accounts/sign-in",
            "/a\nb",
        ] {
            assert_eq!(safe_return_path(bad, own), "/dashboard", "{bad}");
        }
    }

    #[test]
    fn seats_follow_the_plans() {
        assert_eq!(seats_for_plan("basic"), Some(1));
        assert_eq!(seats_for_plan("business"), Some(3));
        assert_eq!(seats_for_plan("Agency-Plan"), Some(5));
        assert_eq!(seats_for_plan("enterprise"), None);
        assert!(check_invite("business", 1).is_ok());
        assert!(check_invite("business", 2).is_err());
        assert!(check_invite("basic", 0).is_err());
        assert!(check_invite("enterprise", 10_000).is_ok());
    }

    #[test]
    fn throttling_counts_either_side() {
        assert!(!sign_in_throttled(0, 0));
        assert!(!sign_in_throttled(
            THROTTLE_PER_ADDRESS - 1,
            THROTTLE_PER_ACCOUNT - 1
        ));
        assert!(sign_in_throttled(THROTTLE_PER_ADDRESS, 0));
        assert!(sign_in_throttled(0, THROTTLE_PER_ACCOUNT));
    }
}
