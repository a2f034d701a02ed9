//! Agencies' custom domains (issue 15 item 3; `custom_domains`, migration 000029): one per
//! account, one account per domain (the unique index decides a race, as a
//! [`StoreError::Conflict`]), the token its TXT record must hold, and the checks' outcome.
//!
//! A check is recorded only against the domain and token it checked
//! ([`record_check`]), so a check that was still running when the agency changed its domain
//! never verifies the new one.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, Func};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter, QuerySelect,
};
use uuid::Uuid;

use crate::clock::now;
use crate::entity::custom_domains::{self, Column as D};
use crate::entity::{analysis_jobs, analysis_results};
use crate::{StoreResult, begin_write};

/// The account's custom domain, verified or not.
pub async fn domain_for_user(
    db: &DatabaseConnection,
    user_id: i64,
) -> StoreResult<Option<custom_domains::Model>> {
    Ok(custom_domains::Entity::find()
        .filter(D::UserId.eq(user_id))
        .one(db)
        .await?)
}

/// Sets the account's domain (already normalised) with a new `token`, unverified. Setting the
/// domain it already has changes nothing (its token and verification stay); any other domain
/// replaces it and so is unverified until checked. [`crate::StoreError::Conflict`] when another
/// account has the domain.
pub async fn set_domain(
    db: &DatabaseConnection,
    user_id: i64,
    domain: &str,
    token: &str,
) -> StoreResult<custom_domains::Model> {
    let txn = begin_write(db).await?;
    let existing = custom_domains::Entity::find()
        .filter(D::UserId.eq(user_id))
        .one(&txn)
        .await?;
    let at = now();
    let row = match existing {
        Some(row) if row.domain == domain => row,
        Some(row) => {
            let mut active: custom_domains::ActiveModel = row.into();
            active.domain = Set(domain.to_owned());
            active.token = Set(token.to_owned());
            active.verified_at = Set(None);
            active.checked_at = Set(None);
            active.last_error = Set(None);
            active.updated_at = Set(at);
            custom_domains::Entity::update(active).exec(&txn).await?
        }
        None => {
            let active = custom_domains::ActiveModel {
                user_id: Set(user_id),
                domain: Set(domain.to_owned()),
                token: Set(token.to_owned()),
                verified_at: Set(None),
                checked_at: Set(None),
                last_error: Set(None),
                created_at: Set(at),
                updated_at: Set(at),
                ..Default::default()
            };
            custom_domains::Entity::insert(active)
                .exec_with_returning(&txn)
                .await?
        }
    };
    txn.commit().await?;
    Ok(row)
}

/// Removes the account's domain; whether there was one.
pub async fn remove_domain(db: &DatabaseConnection, user_id: i64) -> StoreResult<bool> {
    let done = custom_domains::Entity::delete_many()
        .filter(D::UserId.eq(user_id))
        .exec(db)
        .await?;
    Ok(done.rows_affected > 0)
}

/// What a DNS check found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Check {
    /// The TXT record holds the token: verified (since its first verification, if it already
    /// was).
    Verified,
    /// The record is missing or wrong: not verified, with the reason.
    Failed(String),
    /// The check could not be made: the verification stays as it was, with the reason.
    Inconclusive(String),
}

/// Records a check of `domain` with `token` made at `at`, if the account still has that domain
/// with that token; the row as it is afterwards, or `None` when the domain changed meanwhile
/// (or was removed).
pub async fn record_check(
    db: &DatabaseConnection,
    user_id: i64,
    domain: &str,
    token: &str,
    check: &Check,
    at: DateTime<Utc>,
) -> StoreResult<Option<custom_domains::Model>> {
    let mut update = custom_domains::Entity::update_many()
        .col_expr(D::CheckedAt, Expr::value(at))
        .col_expr(D::UpdatedAt, Expr::value(at));
    update = match check {
        Check::Verified => update
            .col_expr(
                D::VerifiedAt,
                Func::coalesce([Expr::col(D::VerifiedAt), Expr::value(at)]).into(),
            )
            .col_expr(D::LastError, Expr::value(Option::<String>::None)),
        Check::Failed(reason) => update
            .col_expr(D::VerifiedAt, Expr::value(Option::<DateTime<Utc>>::None))
            .col_expr(D::LastError, Expr::value(reason.clone())),
        Check::Inconclusive(reason) => update.col_expr(D::LastError, Expr::value(reason.clone())),
    };
    let done = update
        .filter(D::UserId.eq(user_id))
        .filter(D::Domain.eq(domain))
        .filter(D::Token.eq(token))
        .exec(db)
        .await?;
    if done.rows_affected == 0 {
        return Ok(None);
    }
    domain_for_user(db, user_id).await
}

/// The custom domains of these accounts (for the admin area's list), in no order.
pub async fn domains_of(
    db: &DatabaseConnection,
    user_ids: &[i64],
) -> StoreResult<Vec<custom_domains::Model>> {
    Ok(custom_domains::Entity::find()
        .filter(D::UserId.is_in(user_ids.iter().copied()))
        .all(db)
        .await?)
}

/// The account a *verified* domain belongs to (the domain normalised, as stored).
pub async fn verified_owner(db: &DatabaseConnection, domain: &str) -> StoreResult<Option<i64>> {
    Ok(custom_domains::Entity::find()
        .select_only()
        .column(D::UserId)
        .filter(D::Domain.eq(domain))
        .filter(D::VerifiedAt.is_not_null())
        .into_tuple::<i64>()
        .one(db)
        .await?)
}

/// The account's domain, if it is verified.
pub async fn verified_domain(db: &DatabaseConnection, user_id: i64) -> StoreResult<Option<String>> {
    Ok(custom_domains::Entity::find()
        .select_only()
        .column(D::Domain)
        .filter(D::UserId.eq(user_id))
        .filter(D::VerifiedAt.is_not_null())
        .into_tuple::<String>()
        .one(db)
        .await?)
}

/// The agency whose brand the report `id` wears: `whitelabel_user_id` when `is_white_labeled`,
/// as `results::get_report` reads it.
async fn brand_of(db: &DatabaseConnection, id: Uuid) -> StoreResult<Option<Option<i64>>> {
    Ok(analysis_results::Entity::find_by_id(id)
        .select_only()
        .column(analysis_results::Column::WhitelabelUserId)
        .column(analysis_results::Column::IsWhiteLabeled)
        .into_tuple::<(Option<i64>, bool)>()
        .one(db)
        .await?
        .map(|(agency, branded)| agency.filter(|_| branded)))
}

/// Whose brand a report wears (`analysis_results.whitelabel_user_id` with `is_white_labeled`),
/// found by the report's id or by its analysis's id, as `GET /api/results/{id}` accepts both:
/// `None` when no such report exists or it carries no agency's brand.
pub async fn report_brand_owner(db: &DatabaseConnection, id: Uuid) -> StoreResult<Option<i64>> {
    if let Some(owner) = brand_of(db, id).await? {
        return Ok(owner);
    }
    let result_id = analysis_jobs::Entity::find_by_id(id)
        .select_only()
        .column(analysis_jobs::Column::ResultId)
        .into_tuple::<Option<Uuid>>()
        .one(db)
        .await?
        .flatten();
    match result_id {
        Some(result_id) => Ok(brand_of(db, result_id).await?.flatten()),
        None => Ok(None),
    }
}
