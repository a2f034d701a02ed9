//! Users (docs/PRODUCT.md §3.4, users).

use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, DatabaseConnection, EntityTrait,
    IntoActiveModel, QueryFilter, QueryOrder, QuerySelect,
};

use sea_orm::sea_query::Expr;

use crate::audit::{NewAuditEntry, record};
use crate::clock::now;
use crate::entity::users;
use crate::{StoreError, StoreResult, begin_write};

/// A user to create. Every other column starts at the contract's default.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NewUser {
    /// E-mail address; stored trimmed and lower-cased, unique.
    pub email: String,
    /// First name.
    pub first_name: Option<String>,
    /// Last name.
    pub last_name: Option<String>,
    /// User name.
    pub username: Option<String>,
    /// Argon2id PHC string of the password (hashing is the server's job).
    pub password_hash: Option<String>,
    /// Subject of a linked external identity, unique when present.
    pub clerk_id: Option<String>,
    /// Avatar URL.
    pub image_url: Option<String>,
}

/// How e-mail addresses are compared: trimmed and lower-cased.
pub fn normalize_email(email: &str) -> String {
    email.trim().to_lowercase()
}

/// Creates a user; [`StoreError::Conflict`] when the e-mail (or external id) is taken.
pub async fn create_user(db: &DatabaseConnection, user: &NewUser) -> StoreResult<users::Model> {
    let at = now();
    let row = users::ActiveModel {
        email: Set(normalize_email(&user.email)),
        first_name: Set(user.first_name.clone()),
        last_name: Set(user.last_name.clone()),
        username: Set(user.username.clone()),
        password_hash: Set(user.password_hash.clone()),
        clerk_id: Set(user.clerk_id.clone()),
        image_url: Set(user.image_url.clone()),
        report_credits: Set(0),
        trial_credits: Set(0),
        trial_expires_at: Set(None),
        free_report_used: Set(false),
        has_used_trial: Set(false),
        subscription_plan: Set("basic".into()),
        subscription_status: Set("active".into()),
        monthly_report_allowance: Set(0),
        monthly_reports_used: Set(0),
        is_admin: Set(false),
        admin_level: Set("user".into()),
        api_calls: Set(0),
        api_rate_limit: Set(
            i32::try_from(domain::api::DEFAULT_RATE_LIMIT_PER_MINUTE).unwrap_or(i32::MAX)
        ),
        max_team_members: Set(1),
        has_white_label: Set(false),
        whitelabel_usage: Set(0),
        email_verified_at: Set(None),
        created_at: Set(at),
        updated_at: Set(at),
        ..Default::default()
    };
    let inserted = users::Entity::insert(row).exec(db).await?;
    get_user(db, inserted.last_insert_id).await
}

/// The user with this id.
pub async fn get_user(db: &DatabaseConnection, id: i64) -> StoreResult<users::Model> {
    users::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or(StoreError::NotFound)
}

/// The user with this e-mail address (compared as [`normalize_email`] does).
pub async fn find_user_by_email(
    db: &DatabaseConnection,
    email: &str,
) -> StoreResult<Option<users::Model>> {
    Ok(users::Entity::find()
        .filter(users::Column::Email.eq(normalize_email(email)))
        .one(db)
        .await?)
}

/// Whether an account already has this username, compared regardless of case (as the unique
/// index on `LOWER(username)` does).
pub async fn username_taken(db: &DatabaseConnection, username: &str) -> StoreResult<bool> {
    use sea_orm::PaginatorTrait;
    use sea_orm::sea_query::{Expr, ExprTrait, Func};
    let lower = Func::lower(Expr::col(users::Column::Username));
    Ok(users::Entity::find()
        .filter(Expr::expr(lower).eq(username.trim().to_lowercase()))
        .count(db)
        .await?
        > 0)
}

/// The user linked to this external identity subject.
pub async fn find_user_by_clerk_id(
    db: &DatabaseConnection,
    clerk_id: &str,
) -> StoreResult<Option<users::Model>> {
    Ok(users::Entity::find()
        .filter(users::Column::ClerkId.eq(clerk_id))
        .one(db)
        .await?)
}

/// Replaces a user's password hash.
pub async fn set_password_hash(
    db: &DatabaseConnection,
    id: i64,
    password_hash: &str,
) -> StoreResult<()> {
    let mut user = get_user(db, id).await?.into_active_model();
    user.password_hash = Set(Some(password_hash.to_owned()));
    user.updated_at = Set(now());
    user.update(db).await?;
    Ok(())
}

/// Saves changes made to a user row (plan, subscription, branding flags, ...); sets
/// `updated_at`. Credits are not changed here: use [`crate::credits`].
pub async fn update_user(
    db: &DatabaseConnection,
    mut user: users::ActiveModel,
) -> StoreResult<users::Model> {
    user.updated_at = Set(now());
    Ok(user.update(db).await?)
}

/// Deletes a user; sessions, team rows, branding and ledger go with it, purchases and results
/// keep an empty reference.
pub async fn delete_user(db: &DatabaseConnection, id: i64) -> StoreResult<()> {
    let deleted = users::Entity::delete_by_id(id).exec(db).await?;
    if deleted.rows_affected == 1 {
        Ok(())
    } else {
        Err(StoreError::NotFound)
    }
}

/// Users for the admin, newest first, `limit` from `offset`.
pub async fn list_users(
    db: &DatabaseConnection,
    offset: u64,
    limit: u64,
) -> StoreResult<Vec<users::Model>> {
    Ok(users::Entity::find()
        .order_by_desc(users::Column::Id)
        .offset(offset)
        .limit(limit)
        .all(db)
        .await?)
}

/// Changes a user's e-mail address; the new address is unverified until its link is followed.
/// [`StoreError::Conflict`] when another account has it.
pub async fn set_email(db: &DatabaseConnection, id: i64, email: &str) -> StoreResult<()> {
    let mut user = get_user(db, id).await?.into_active_model();
    user.email = Set(normalize_email(email));
    user.email_verified_at = Set(None);
    user.updated_at = Set(now());
    user.update(db).await?;
    Ok(())
}

/// Records that a user confirmed their e-mail address at `at`.
pub async fn mark_email_verified(
    db: &DatabaseConnection,
    id: i64,
    at: chrono::DateTime<chrono::Utc>,
) -> StoreResult<()> {
    let mut user = get_user(db, id).await?.into_active_model();
    user.email_verified_at = Set(Some(at));
    user.updated_at = Set(now());
    user.update(db).await?;
    Ok(())
}

/// Links an external identity (an OpenID Connect subject) to a user.
pub async fn set_clerk_id(db: &DatabaseConnection, id: i64, clerk_id: &str) -> StoreResult<()> {
    let mut user = get_user(db, id).await?.into_active_model();
    user.clerk_id = Set(Some(clerk_id.to_owned()));
    user.updated_at = Set(now());
    user.update(db).await?;
    Ok(())
}

/// Sets a user's subscription plan (`basic` without one).
pub async fn set_subscription_plan(
    db: &DatabaseConnection,
    id: i64,
    plan: &str,
) -> StoreResult<()> {
    let mut user = get_user(db, id).await?.into_active_model();
    user.subscription_plan = Set(plan.to_owned());
    user.updated_at = Set(now());
    user.update(db).await?;
    Ok(())
}

/// Makes a user a site administrator at `level` (`support`, `admin` or `owner`, see
/// `domain::admin::AdminLevel`), or, with `None`, an ordinary user again; `audit` is written in
/// the same transaction.
pub async fn set_admin_level(
    db: &DatabaseConnection,
    id: i64,
    level: Option<&str>,
    audit: &NewAuditEntry,
) -> StoreResult<()> {
    let txn = begin_write(db).await?;
    let changed = users::Entity::update_many()
        .col_expr(users::Column::IsAdmin, Expr::value(level.is_some()))
        .col_expr(
            users::Column::AdminLevel,
            Expr::value(level.unwrap_or("user").to_owned()),
        )
        .col_expr(users::Column::UpdatedAt, Expr::value(now()))
        .filter(users::Column::Id.eq(id))
        .exec(&txn)
        .await?;
    if changed.rows_affected == 0 {
        return Err(StoreError::NotFound);
    }
    record(&txn, audit).await?;
    txn.commit().await?;
    Ok(())
}

/// The administrators, by address.
pub async fn admins(db: &DatabaseConnection) -> StoreResult<Vec<users::Model>> {
    Ok(users::Entity::find()
        .filter(users::Column::IsAdmin.eq(true))
        .order_by_asc(users::Column::Email)
        .all(db)
        .await?)
}

/// Sets the requests per minute each of a user's API keys may make (`users.api_rate_limit`).
pub async fn set_api_rate_limit(db: &DatabaseConnection, id: i64, limit: u32) -> StoreResult<()> {
    let mut user = get_user(db, id).await?.into_active_model();
    user.api_rate_limit = Set(i32::try_from(limit).unwrap_or(i32::MAX));
    user.updated_at = Set(now());
    user.update(db).await?;
    Ok(())
}
