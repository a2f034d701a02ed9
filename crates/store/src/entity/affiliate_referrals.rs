//! The affiliate an account was referred by (issue 16: a sign-up within the referral cookie's
//! window); one row per account.

use sea_orm::entity::prelude::*;

/// A row of `affiliate_referrals`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "affiliate_referrals")]
pub struct Model {
    /// The `id` column.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The `user_id` column: the referred account; unique.
    #[sea_orm(unique)]
    pub user_id: i64,
    /// The `affiliate_id` column.
    pub affiliate_id: i64,
    /// The `click_id` column: the click the referral cookie named.
    pub click_id: Option<i64>,
    /// The `created_at` column: when the sign-up was attributed.
    pub created_at: DateTimeUtc,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
