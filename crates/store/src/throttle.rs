//! Failed sign-ins, counted per visitor address and per account for throttling
//! (`domain::accounts::sign_in_throttled`). Kept in the database so every web node counts the
//! same visitor alike.

use chrono::{DateTime, Utc};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, DatabaseConnection, EntityTrait, PaginatorTrait, QueryFilter,
};

use crate::StoreResult;
use crate::entity::sign_in_failures;
use crate::entity::sign_in_failures::Column as F;
use crate::users::normalize_email;

/// Records a failed sign-in from `address` (the visitor's address key) for `email`.
pub async fn record_sign_in_failure(
    db: &DatabaseConnection,
    address: &str,
    email: &str,
    at: DateTime<Utc>,
) -> StoreResult<()> {
    sign_in_failures::Entity::insert(sign_in_failures::ActiveModel {
        address: Set(address.to_owned()),
        email: Set(normalize_email(email)),
        at: Set(at),
        ..Default::default()
    })
    .exec_without_returning(db)
    .await?;
    Ok(())
}

/// Failures since `since`: `(from this address, for this account)`.
pub async fn sign_in_failures_since(
    db: &DatabaseConnection,
    address: &str,
    email: &str,
    since: DateTime<Utc>,
) -> StoreResult<(u32, u32)> {
    let by_address = sign_in_failures::Entity::find()
        .filter(F::Address.eq(address))
        .filter(F::At.gt(since))
        .count(db)
        .await?;
    let by_account = sign_in_failures::Entity::find()
        .filter(F::Email.eq(normalize_email(email)))
        .filter(F::At.gt(since))
        .count(db)
        .await?;
    let clamp = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
    Ok((clamp(by_address), clamp(by_account)))
}

/// Forgets an account's failures after it signed in or reset its password, so its owner is
/// not locked out by their own earlier typos.
pub async fn clear_sign_in_failures(db: &DatabaseConnection, email: &str) -> StoreResult<()> {
    sign_in_failures::Entity::delete_many()
        .filter(F::Email.eq(normalize_email(email)))
        .exec(db)
        .await?;
    Ok(())
}

/// Removes failures older than `before`; returns how many.
pub async fn delete_old_sign_in_failures(
    db: &DatabaseConnection,
    before: DateTime<Utc>,
) -> StoreResult<u64> {
    Ok(sign_in_failures::Entity::delete_many()
        .filter(F::At.lte(before))
        .exec(db)
        .await?
        .rows_affected)
}
