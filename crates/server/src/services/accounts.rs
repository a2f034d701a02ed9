//! Our own accounts service (docs/PRODUCT.md §10.1, docs/ARCHITECTURE.md §5): sign-up, sign-in
//! with throttling, server-side sessions, e-mail verification and password reset by one-time
//! links, changing the password or address, deleting an account and exporting its data, and
//! the free trial (docs/PRODUCT.md §5.6, §7.5, §7.6, §9.1).
//!
//! Secrets never reach the log: passwords, session tokens and link tokens are only hashed
//! here. A session token and a link token are 32 random bytes; the database keeps their SHA-256
//! (a leaked table cannot be replayed), a password its Argon2id PHC string, computed on a
//! blocking thread so hashing never stalls the async runtime.

use std::net::IpAddr;
use std::sync::LazyLock;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use base64::Engine as _;
use chrono::{DateTime, Duration, Utc};
use domain::accounts::{self as rules, Account, DashboardData, TeamMembership, TeamRole};
use domain::commerce::{TRIAL_CREDITS, TRIAL_VALID_DAYS, free_allowance_key};
use domain::credits::Credits;
use domain::forms::{FieldError, Registration, validate_registration};
use sha2::{Digest, Sha256};
use store::entity::{sessions, users};
use store::{DatabaseConnection, StoreError};

use crate::services::mail::{MailError, Mailer};

/// Purpose of an e-mail verification token.
const VERIFY_EMAIL: &str = "verify_email";
/// Purpose of a password-reset token.
const PASSWORD_RESET: &str = "password_reset";

/// Why an account request was refused.
#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    /// A form field is wrong; the messages are `domain`'s.
    #[error("{}", .0.first().map(|e| e.message.as_str()).unwrap_or("invalid form"))]
    Invalid(Vec<FieldError>),
    /// Wrong address or wrong password: one answer for both.
    #[error("{}", rules::SIGN_IN_FAILED_MESSAGE)]
    SignInFailed,
    /// Too many failed sign-ins from this address or for this account.
    #[error("{}", rules::throttled_message())]
    Throttled,
    /// The address belongs to another account.
    #[error("{}", rules::EMAIL_TAKEN_MESSAGE)]
    EmailTaken,
    /// An e-mailed link is unknown, used or expired.
    #[error("{}", rules::LINK_INVALID_MESSAGE)]
    LinkInvalid,
    /// The current password given to confirm a change is wrong.
    #[error("{}", rules::CURRENT_PASSWORD_MESSAGE)]
    CurrentPassword,
    /// The trial was used before (docs/PRODUCT.md §5.6).
    #[error("{0}")]
    TrialUsed(String),
    /// The request is not allowed for this user; the text says why.
    #[error("{0}")]
    Forbidden(String),
    /// The request conflicts with the account's state; the text says why.
    #[error("{0}")]
    Conflict(String),
    /// Nothing with that id in the user's reach.
    #[error("{0}")]
    NotFound(String),
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Mail could not be queued.
    #[error(transparent)]
    Mail(#[from] MailError),
    /// Hashing failed (a bug or an exhausted machine).
    #[error("password hashing failed: {0}")]
    Hashing(String),
}

/// A session just issued: the cookie's token (never stored) and its CSRF token.
#[derive(Debug, Clone)]
pub struct IssuedSession {
    /// The random token the cookie carries.
    pub token: String,
    /// The CSRF token bound to the session.
    pub csrf_token: String,
    /// The user.
    pub user_id: i64,
}

/// A request's authenticated session.
#[derive(Debug, Clone)]
pub struct SignedIn {
    /// The session row (its id is the token's hash).
    pub session: sessions::Model,
    /// Its user.
    pub user: users::Model,
}

/// Where the accounts pages live, for the links mailed to users.
#[derive(Debug, Clone)]
pub struct Links {
    /// The accounts base address, e.g. `https://sitelens.example/accounts`.
    pub accounts_url: String,
}

impl Links {
    /// A link to an accounts page carrying a one-time token.
    pub fn link_for(&self, page: &str, token: &str) -> String {
        format!("{}/{page}?token={token}", self.accounts_url)
    }
}

/// 32 random bytes, URL-safe base64 (43 characters), and the SHA-256 hex of that text.
pub fn new_token() -> Result<(String, String), AccountError> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| AccountError::Hashing(e.to_string()))?;
    let token = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);
    let hash = hash_token(&token);
    Ok((token, hash))
}

/// The SHA-256 hex of a token: what the database stores and looks up.
pub fn hash_token(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Argon2id with OWASP's minimum parameters (19 MiB, 2 passes, 1 lane).
fn argon2() -> Argon2<'static> {
    let params = Params::new(19 * 1024, 2, 1, None).unwrap_or_default();
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Hashes a password on a blocking thread.
pub async fn hash_password(password: &str) -> Result<String, AccountError> {
    let password = password.to_owned();
    tokio::task::spawn_blocking(move || {
        let mut salt = [0u8; 16];
        getrandom::fill(&mut salt).map_err(|e| AccountError::Hashing(e.to_string()))?;
        let salt =
            SaltString::encode_b64(&salt).map_err(|e| AccountError::Hashing(e.to_string()))?;
        argon2()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| AccountError::Hashing(e.to_string()))
    })
    .await
    .map_err(|e| AccountError::Hashing(e.to_string()))?
}

/// A hash of a password nobody knows: checked when the account does not exist, so a missing
/// account takes as long to refuse as a wrong password.
static DECOY_HASH: LazyLock<String> = LazyLock::new(|| {
    // A fixed, valid salt: the decoy's hash never has to be unpredictable, only as costly.
    SaltString::from_b64("c2l0ZWxlbnNkZWNveXNhbHQ")
        .ok()
        .and_then(|salt| {
            argon2()
                .hash_password(b"no account has this password", &salt)
                .ok()
                .map(|h| h.to_string())
        })
        .unwrap_or_default()
});

/// Whether `password` matches `hash` (a PHC string), on a blocking thread. With no hash (no
/// account, or an account without a password) the decoy is checked and the answer is `false`.
pub async fn verify_password(hash: Option<&str>, password: &str) -> Result<bool, AccountError> {
    let real = hash.is_some();
    let hash = hash.map_or_else(|| DECOY_HASH.clone(), str::to_owned);
    let password = password.to_owned();
    tokio::task::spawn_blocking(move || {
        let Ok(parsed) = PasswordHash::new(&hash) else {
            return false;
        };
        argon2()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok()
            && real
    })
    .await
    .map_err(|e| AccountError::Hashing(e.to_string()))
}

fn check(errors: Vec<FieldError>) -> Result<(), AccountError> {
    if errors.is_empty() {
        Ok(())
    } else {
        Err(AccountError::Invalid(errors))
    }
}

fn session_lifetime() -> Duration {
    Duration::days(i64::from(rules::SESSION_DAYS))
}

/// Starts a new session for a user: a fresh random token, so signing in never keeps a session
/// id that existed before (no session fixation). An account an administrator disabled gets
/// none, however it signs in.
pub async fn start_session(
    db: &DatabaseConnection,
    user_id: i64,
) -> Result<IssuedSession, AccountError> {
    if store::users::get_user(db, user_id)
        .await?
        .disabled_at
        .is_some()
    {
        return Err(AccountError::Forbidden(
            domain::admin_area::ACCOUNT_DISABLED_MESSAGE.to_owned(),
        ));
    }
    let (token, id_hash) = new_token()?;
    let (csrf_token, _) = new_token()?;
    store::sessions::create_session(
        db,
        &store::sessions::NewSession {
            id_hash,
            user_id,
            csrf_token: csrf_token.clone(),
            expires_at: store::now() + session_lifetime(),
        },
    )
    .await?;
    Ok(IssuedSession {
        token,
        csrf_token,
        user_id,
    })
}

/// The session a cookie token names, if it is live; its expiry slides forward at most once
/// an hour (a write per request would cost more than it gives).
pub async fn authenticate(
    db: &DatabaseConnection,
    token: &str,
) -> Result<Option<SignedIn>, AccountError> {
    let at = store::now();
    let Some((session, user)) = store::sessions::find_session(db, &hash_token(token), at).await?
    else {
        return Ok(None);
    };
    if at - session.last_seen_at > Duration::hours(1) {
        store::sessions::touch_session(db, &session.id, at + session_lifetime()).await?;
    }
    Ok(Some(SignedIn { session, user }))
}

/// Ends one session.
pub async fn sign_out(db: &DatabaseConnection, session_id: &str) -> Result<(), AccountError> {
    store::sessions::delete_session(db, session_id).await?;
    Ok(())
}

/// Ends every session of a user, on every device.
pub async fn sign_out_everywhere(
    db: &DatabaseConnection,
    user_id: i64,
) -> Result<(), AccountError> {
    store::sessions::delete_user_sessions(db, user_id).await?;
    Ok(())
}

async fn send_verification(
    db: &DatabaseConnection,
    mailer: &Mailer,
    links: &Links,
    user: &users::Model,
) -> Result<(), AccountError> {
    let (token, hash) = new_token()?;
    let expires = store::now() + Duration::hours(i64::from(rules::VERIFY_EMAIL_HOURS));
    store::tokens::create_token(db, &hash, VERIFY_EMAIL, user.id, expires).await?;
    let name = user.first_name.as_deref().unwrap_or("there");
    let body = format!(
        "Hi {name},\n\nPlease confirm your email address for Sitelens by opening this link:\n\n{}\n\nThe link works once and expires in {} hours. If you did not create a Sitelens account, ignore this message.\n",
        links.link_for("verify", &token),
        rules::VERIFY_EMAIL_HOURS
    );
    mailer
        .send(db, &user.email, "Confirm your email address", &body)
        .await?;
    Ok(())
}

/// Creates an account from the registration form, mails the verification link and signs the
/// new user in.
pub async fn sign_up(
    db: &DatabaseConnection,
    mailer: &Mailer,
    links: &Links,
    form: &Registration,
) -> Result<IssuedSession, AccountError> {
    check(validate_registration(form))?;
    if store::users::username_taken(db, &form.username).await? {
        return Err(username_taken());
    }
    let password_hash = hash_password(&form.password).await?;
    let user = match store::users::create_user(
        db,
        &store::users::NewUser {
            email: form.email.clone(),
            first_name: Some(form.first_name.trim().to_owned()),
            last_name: Some(form.last_name.trim().to_owned()),
            username: Some(form.username.trim().to_owned()),
            password_hash: Some(password_hash),
            clerk_id: None,
            image_url: None,
        },
    )
    .await
    {
        Ok(user) => user,
        // Two sign-ups raced for the name (the address is checked by the same constraint).
        Err(StoreError::Conflict(_))
            if store::users::username_taken(db, &form.username).await?
                && store::users::find_user_by_email(db, &form.email)
                    .await?
                    .is_none() =>
        {
            return Err(username_taken());
        }
        Err(StoreError::Conflict(_)) => return Err(AccountError::EmailTaken),
        Err(e) => return Err(e.into()),
    };
    send_verification(db, mailer, links, &user).await?;
    start_session(db, user.id).await
}

fn username_taken() -> AccountError {
    AccountError::Invalid(vec![FieldError {
        field: "username".into(),
        message: rules::USERNAME_TAKEN_MESSAGE.into(),
    }])
}

/// Signs in the person an OpenID Connect provider vouched for (docs/PRODUCT.md §10.1). The
/// identity is the provider's subject, qualified by its issuer so two providers' subjects
/// cannot meet, kept in `users.clerk_id`. A known identity signs in; an unknown one is linked
/// to the account with its e-mail address only when the provider says the address is
/// verified; otherwise a new account without a password is made (verified at once when the
/// provider verified the address, else sent our own verification link).
pub async fn sign_in_with_provider(
    db: &DatabaseConnection,
    mailer: &Mailer,
    links: &Links,
    issuer: &str,
    identity: &crate::services::oidc::Identity,
) -> Result<IssuedSession, AccountError> {
    let key = format!("{issuer}#{}", identity.subject);
    if let Some(user) = store::users::find_user_by_clerk_id(db, &key).await? {
        return start_session(db, user.id).await;
    }
    let email = identity
        .email
        .as_deref()
        .filter(|e| domain::forms::is_valid_email(e))
        .ok_or_else(|| AccountError::Forbidden(rules::PROVIDER_NO_EMAIL_MESSAGE.into()))?;
    if let Some(user) = store::users::find_user_by_email(db, email).await? {
        if !identity.email_verified {
            return Err(AccountError::Forbidden(
                rules::PROVIDER_EMAIL_UNVERIFIED_MESSAGE.into(),
            ));
        }
        if user.clerk_id.is_some() {
            return Err(AccountError::Forbidden(
                rules::PROVIDER_OTHER_IDENTITY_MESSAGE.into(),
            ));
        }
        store::users::set_clerk_id(db, user.id, &key).await?;
        if user.email_verified_at.is_none() {
            store::users::mark_email_verified(db, user.id, store::now()).await?;
        }
        return start_session(db, user.id).await;
    }
    let username = free_username(db, identity, email).await?;
    let user = match store::users::create_user(
        db,
        &store::users::NewUser {
            email: email.to_owned(),
            first_name: identity.given_name.clone(),
            last_name: identity.family_name.clone(),
            username: Some(username),
            password_hash: None,
            clerk_id: Some(key),
            image_url: None,
        },
    )
    .await
    {
        Ok(user) => user,
        Err(StoreError::Conflict(_)) => return Err(AccountError::EmailTaken),
        Err(e) => return Err(e.into()),
    };
    if identity.email_verified {
        store::users::mark_email_verified(db, user.id, store::now()).await?;
    } else {
        send_verification(db, mailer, links, &user).await?;
    }
    start_session(db, user.id).await
}

/// A username for an account made through a provider: its preferred username or the address's
/// local part, with a number appended while another account has it.
async fn free_username(
    db: &DatabaseConnection,
    identity: &crate::services::oidc::Identity,
    email: &str,
) -> Result<String, AccountError> {
    let base: String = identity
        .preferred_username
        .as_deref()
        .unwrap_or_else(|| email.split('@').next().unwrap_or("user"))
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
        .take(32)
        .collect();
    let base = if base.len() < 3 {
        format!("user{base}")
    } else {
        base
    };
    for n in 0..100u32 {
        let name = if n == 0 {
            base.clone()
        } else {
            format!("{base}{}", n + 1)
        };
        if !store::users::username_taken(db, &name).await? {
            return Ok(name);
        }
    }
    // A hundred namesakes: a random suffix.
    let (token, _) = new_token()?;
    Ok(format!("{base}-{}", &token[..8]))
}

/// Signs in with an address and password. Throttled per visitor address and per account
/// before the password is checked; a failure is counted and answered the same whether the
/// account exists or not.
pub async fn sign_in(
    db: &DatabaseConnection,
    ip: IpAddr,
    form: &rules::SignInForm,
) -> Result<IssuedSession, AccountError> {
    check(rules::validate_sign_in(form))?;
    let address = free_allowance_key(ip);
    let at = store::now();
    let since = at - Duration::minutes(i64::from(rules::THROTTLE_WINDOW_MINUTES));
    let (by_address, by_account) =
        store::throttle::sign_in_failures_since(db, &address, &form.email, since).await?;
    if rules::sign_in_throttled(by_address, by_account) {
        return Err(AccountError::Throttled);
    }
    let user = store::users::find_user_by_email(db, &form.email).await?;
    let hash = user.as_ref().and_then(|u| u.password_hash.as_deref());
    if !verify_password(hash, &form.password).await? {
        store::throttle::record_sign_in_failure(db, &address, &form.email, at).await?;
        return Err(AccountError::SignInFailed);
    }
    let Some(user) = user else {
        return Err(AccountError::SignInFailed);
    };
    store::throttle::clear_sign_in_failures(db, &user.email).await?;
    start_session(db, user.id).await
}

/// Mails a password-reset link when the address has an account; answers the same either way.
pub async fn request_password_reset(
    db: &DatabaseConnection,
    mailer: &Mailer,
    links: &Links,
    email: &str,
) -> Result<(), AccountError> {
    if !domain::forms::is_valid_email(email) {
        return Err(AccountError::Invalid(vec![FieldError {
            field: "email".into(),
            message: domain::forms::EMAIL_MESSAGE.into(),
        }]));
    }
    let Some(user) = store::users::find_user_by_email(db, email).await? else {
        return Ok(());
    };
    let (token, hash) = new_token()?;
    let expires = store::now() + Duration::minutes(i64::from(rules::PASSWORD_RESET_MINUTES));
    store::tokens::create_token(db, &hash, PASSWORD_RESET, user.id, expires).await?;
    let body = format!(
        "Someone asked to reset the password of your Sitelens account. To choose a new password, open this link:\n\n{}\n\nThe link works once and expires in {} minutes. If it was not you, ignore this message: your password stays as it is.\n",
        links.link_for("reset-password", &token),
        rules::PASSWORD_RESET_MINUTES
    );
    mailer
        .send(db, &user.email, "Reset your Sitelens password", &body)
        .await?;
    Ok(())
}

/// Sets a new password from a reset link: the link is checked, the password validated against
/// the account, then the link is spent, every session of the account ended and its throttle
/// cleared. Following the link proves the address, so it counts as verified too.
pub async fn reset_password(
    db: &DatabaseConnection,
    token: &str,
    password: &str,
) -> Result<(), AccountError> {
    let at = store::now();
    let hash = hash_token(token);
    let user_id = store::tokens::peek_token(db, &hash, PASSWORD_RESET, at)
        .await?
        .ok_or(AccountError::LinkInvalid)?;
    let user = store::users::get_user(db, user_id).await?;
    check(rules::validate_new_password(
        "password",
        password,
        &user.email,
        user.username.as_deref().unwrap_or_default(),
    ))?;
    let password_hash = hash_password(password).await?;
    if store::tokens::consume_token(db, &hash, PASSWORD_RESET, at)
        .await?
        .is_none()
    {
        return Err(AccountError::LinkInvalid);
    }
    store::users::set_password_hash(db, user.id, &password_hash).await?;
    if user.email_verified_at.is_none() {
        store::users::mark_email_verified(db, user.id, at).await?;
    }
    store::sessions::delete_user_sessions(db, user.id).await?;
    store::throttle::clear_sign_in_failures(db, &user.email).await?;
    Ok(())
}

/// Confirms an address from its link.
pub async fn verify_email(db: &DatabaseConnection, token: &str) -> Result<(), AccountError> {
    let at = store::now();
    let user_id = store::tokens::consume_token(db, &hash_token(token), VERIFY_EMAIL, at)
        .await?
        .ok_or(AccountError::LinkInvalid)?;
    store::users::mark_email_verified(db, user_id, at).await?;
    Ok(())
}

/// Mails a new verification link to a signed-in user whose address is not confirmed.
pub async fn resend_verification(
    db: &DatabaseConnection,
    mailer: &Mailer,
    links: &Links,
    user: &users::Model,
) -> Result<(), AccountError> {
    if user.email_verified_at.is_some() {
        return Err(AccountError::Conflict(
            "Your email address is already verified".into(),
        ));
    }
    send_verification(db, mailer, links, user).await
}

async fn confirm_password(user: &users::Model, password: &str) -> Result<(), AccountError> {
    if verify_password(user.password_hash.as_deref(), password).await? {
        Ok(())
    } else {
        Err(AccountError::CurrentPassword)
    }
}

/// Changes the password after checking the current one; every session ends and a new one is
/// issued for the device that asked.
pub async fn change_password(
    db: &DatabaseConnection,
    user: &users::Model,
    form: &rules::PasswordChange,
) -> Result<IssuedSession, AccountError> {
    check(rules::validate_password_change(
        form,
        &user.email,
        user.username.as_deref().unwrap_or_default(),
    ))?;
    confirm_password(user, &form.current_password).await?;
    let hash = hash_password(&form.new_password).await?;
    store::users::set_password_hash(db, user.id, &hash).await?;
    store::sessions::delete_user_sessions(db, user.id).await?;
    start_session(db, user.id).await
}

/// Changes the address after checking the password: the new address must be verified through
/// a link sent to it, and the old address is told of the change.
pub async fn change_email(
    db: &DatabaseConnection,
    mailer: &Mailer,
    links: &Links,
    user: &users::Model,
    form: &rules::EmailChange,
) -> Result<(), AccountError> {
    check(rules::validate_email_change(form))?;
    confirm_password(user, &form.current_password).await?;
    match store::users::set_email(db, user.id, &form.email).await {
        Ok(()) => {}
        Err(StoreError::Conflict(_)) => return Err(AccountError::EmailTaken),
        Err(e) => return Err(e.into()),
    }
    let changed = store::users::get_user(db, user.id).await?;
    let notice = format!(
        "The email address of your Sitelens account was changed to {}. If you did not do this, reset your password at {}/forgot-password and contact us.\n",
        changed.email, links.accounts_url
    );
    mailer
        .send(
            db,
            &user.email,
            "Your Sitelens email address changed",
            &notice,
        )
        .await?;
    send_verification(db, mailer, links, &changed).await
}

/// Deletes the account, its reports and its personal data after checking the password (an
/// account without a password, made through OpenID Connect, confirms by being signed in).
pub async fn delete_account(
    db: &DatabaseConnection,
    user: &users::Model,
    password: &str,
) -> Result<(), AccountError> {
    if user.password_hash.is_some() {
        confirm_password(user, password).await?;
    }
    store::history::delete_account(db, user.id).await?;
    Ok(())
}

/// Everything stored about the user, as JSON.
pub async fn export_data(
    db: &DatabaseConnection,
    user: &users::Model,
) -> Result<serde_json::Value, AccountError> {
    Ok(store::history::export_user_data(db, user.id).await?)
}

/// The team a user works in: `(owner, the user's role)`: their own when they own one or belong
/// to none, else the team they joined.
pub async fn team_context(
    db: &DatabaseConnection,
    user: &users::Model,
) -> Result<(users::Model, TeamRole), AccountError> {
    Ok(match store::accounts::membership_of(db, user.id).await? {
        Some((row, owner)) => (
            owner,
            TeamRole::parse(&row.role).unwrap_or(TeamRole::Member),
        ),
        None => (user.clone(), TeamRole::Owner),
    })
}

/// The users whose reports a user sees: the whole team (owner and active members).
pub async fn team_user_ids(
    db: &DatabaseConnection,
    owner: &users::Model,
) -> Result<Vec<i64>, AccountError> {
    let mut ids = vec![owner.id];
    ids.extend(
        store::accounts::members_of(db, owner.id)
            .await?
            .into_iter()
            .filter(|(m, _)| m.status == "active")
            .map(|(_, u)| u.id),
    );
    Ok(ids)
}

fn rfc3339(at: Option<DateTime<Utc>>) -> Option<String> {
    at.map(|t| t.to_rfc3339())
}

/// What a user can spend now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spendable {
    /// Paid credits: the team owner's for a member (members share the owner's credits).
    pub paid: Credits,
    /// The user's own trial credit, while valid.
    pub trial: Credits,
    /// When the trial credit expires, once a trial was started.
    pub trial_expires_at: Option<DateTime<Utc>>,
    /// Whether the owner's plan covers paid reports whatever the credits.
    pub unlimited: bool,
}

async fn credits_of(
    db: &DatabaseConnection,
    user: &users::Model,
    owner: &users::Model,
) -> Result<Spendable, AccountError> {
    let at = store::now();
    let own = store::credits::credit_balance(db, user.id, at).await?;
    let paid = if owner.id == user.id {
        own.paid
    } else {
        store::credits::credit_balance(db, owner.id, at).await?.paid
    };
    Ok(Spendable {
        paid,
        trial: own.trial,
        trial_expires_at: own.trial_expires_at,
        unlimited: store::credits::plan_covers(db, owner.id, at).await?,
    })
}

/// What `user` can spend now, counted as a paid report spends it.
pub async fn spendable_credits(
    db: &DatabaseConnection,
    user: &users::Model,
) -> Result<Spendable, AccountError> {
    let (owner, _) = team_context(db, user).await?;
    credits_of(db, user, &owner).await
}

/// The account as the web app reads it: paid credits are the team owner's for a member
/// (members share the owner's credits), the trial credit is the user's own.
pub async fn account_view(
    db: &DatabaseConnection,
    user: &users::Model,
    csrf_token: &str,
) -> Result<Account, AccountError> {
    let (owner, role) = team_context(db, user).await?;
    let credits = credits_of(db, user, &owner).await?;
    let team = (owner.id != user.id).then(|| TeamMembership {
        owner_id: owner.id,
        owner_email: owner.email.clone(),
        role,
    });
    Ok(Account {
        id: user.id,
        email: user.email.clone(),
        first_name: user.first_name.clone().unwrap_or_default(),
        last_name: user.last_name.clone().unwrap_or_default(),
        username: user.username.clone().unwrap_or_default(),
        email_verified: user.email_verified_at.is_some(),
        has_used_trial: user.has_used_trial,
        paid_credits: credits.paid,
        trial_credits: credits.trial,
        trial_expires_at: rfc3339(credits.trial_expires_at),
        plan: owner.subscription_plan.clone(),
        unlimited_reports: credits.unlimited,
        seats: crate::services::teams::team_seats(db, &owner).await?,
        team,
        has_password: user.password_hash.is_some(),
        csrf_token: csrf_token.to_owned(),
    })
}

/// The dashboard: the account and the analyses of every site the team analysed.
pub async fn dashboard(
    db: &DatabaseConnection,
    user: &users::Model,
    csrf_token: &str,
) -> Result<DashboardData, AccountError> {
    let account = account_view(db, user, csrf_token).await?;
    let (owner, _) = team_context(db, user).await?;
    let ids = team_user_ids(db, &owner).await?;
    let sites = store::history::site_histories(db, &ids).await?;
    Ok(DashboardData { account, sites })
}

/// Whether the signed-in user may start the trial (docs/PRODUCT.md §7.5).
pub fn trial_eligible(user: &users::Model) -> bool {
    rules::check_trial_start(user.has_used_trial).is_ok()
}

/// Starts the free trial: 1 credit valid 7 days, first-time users only (docs/PRODUCT.md §5.6,
/// §9.1). Returns when the credit expires. Two concurrent requests start it once.
pub async fn start_trial(
    db: &DatabaseConnection,
    user: &users::Model,
) -> Result<DateTime<Utc>, AccountError> {
    rules::check_trial_start(user.has_used_trial).map_err(AccountError::TrialUsed)?;
    match store::credits::start_trial(
        db,
        user.id,
        TRIAL_CREDITS,
        Duration::days(i64::from(TRIAL_VALID_DAYS)),
    )
    .await
    {
        Ok(expires) => Ok(expires),
        Err(StoreError::Conflict(_)) => Err(AccountError::TrialUsed(
            domain::commerce::TRIAL_USED_MESSAGE.to_owned(),
        )),
        Err(e) => Err(e.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn passwords_verify_only_against_their_hash() {
        let hash = hash_password("correct horse").await.expect("hash");
        assert!(hash.starts_with("$argon2id$"));
        assert!(
            verify_password(Some(&hash), "correct horse")
                .await
                .expect("verify")
        );
        assert!(
            !verify_password(Some(&hash), "wrong horse")
                .await
                .expect("verify")
        );
        assert!(
            !verify_password(None, "no account has this password")
                .await
                .expect("decoy")
        );
    }

    #[test]
    fn tokens_are_random_and_hashed() {
        let (a, ha) = new_token().expect("token");
        let (b, _) = new_token().expect("token");
        assert_ne!(a, b);
        assert_eq!(a.len(), 43);
        assert_eq!(ha, hash_token(&a));
        assert_eq!(ha.len(), 64);
    }
}
