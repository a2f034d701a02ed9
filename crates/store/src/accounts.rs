//! What hangs off a user account: white-label branding, team members, API usage and the
//! monthly report allowance of a subscription.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, ExprTrait, OnConflict};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, DatabaseConnection, EntityTrait, PaginatorTrait, QueryFilter,
    QueryOrder,
};

use crate::clock::now;
use crate::entity::users::Column as U;
use crate::entity::{api_usage, team_members, users, whitelabel_branding};
use crate::{StoreError, StoreResult, begin_write};

/// An agency's branding; colours and font fall back to the contract's defaults
/// (docs/PRODUCT.md §3.3, §9.5: #4F46E5, #10B981, Inter).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Branding {
    /// Company name shown on reports.
    pub company_name: String,
    /// Logo address.
    pub logo_url: Option<String>,
    /// Primary colour.
    pub primary_color: String,
    /// Secondary colour.
    pub secondary_color: String,
    /// CSS font family.
    pub font_family: String,
    /// Contact e-mail printed on reports.
    pub contact_email: Option<String>,
    /// Contact phone printed on reports.
    pub contact_phone: Option<String>,
    /// The agency's website.
    pub website_url: Option<String>,
    /// Embed code for the agency's audit form.
    pub embed_code: Option<String>,
    /// A custom domain; unique.
    pub custom_domain: Option<String>,
}

impl Default for Branding {
    fn default() -> Self {
        Branding {
            company_name: String::new(),
            logo_url: None,
            primary_color: "#4F46E5".into(),
            secondary_color: "#10B981".into(),
            font_family: "Inter, sans-serif".into(),
            contact_email: None,
            contact_phone: None,
            website_url: None,
            embed_code: None,
            custom_domain: None,
        }
    }
}

/// Creates or replaces a user's branding (one per user).
pub async fn save_branding(
    db: &DatabaseConnection,
    user_id: i64,
    branding: &Branding,
) -> StoreResult<whitelabel_branding::Model> {
    use whitelabel_branding::Column as C;
    let at = now();
    let b = branding.clone();
    let row = whitelabel_branding::ActiveModel {
        user_id: Set(user_id),
        company_name: Set(b.company_name),
        logo_url: Set(b.logo_url),
        primary_color: Set(b.primary_color),
        secondary_color: Set(b.secondary_color),
        font_family: Set(b.font_family),
        contact_email: Set(b.contact_email),
        contact_phone: Set(b.contact_phone),
        website_url: Set(b.website_url),
        embed_code: Set(b.embed_code),
        custom_domain: Set(b.custom_domain),
        created_at: Set(at),
        updated_at: Set(at),
        ..Default::default()
    };
    whitelabel_branding::Entity::insert(row)
        .on_conflict(
            OnConflict::column(C::UserId)
                .update_columns([
                    C::CompanyName,
                    C::LogoUrl,
                    C::PrimaryColor,
                    C::SecondaryColor,
                    C::FontFamily,
                    C::ContactEmail,
                    C::ContactPhone,
                    C::WebsiteUrl,
                    C::EmbedCode,
                    C::CustomDomain,
                    C::UpdatedAt,
                ])
                .to_owned(),
        )
        .exec_without_returning(db)
        .await?;
    branding_for_user(db, user_id)
        .await?
        .ok_or(StoreError::NotFound)
}

/// A user's branding, if they set one.
pub async fn branding_for_user(
    db: &DatabaseConnection,
    user_id: i64,
) -> StoreResult<Option<whitelabel_branding::Model>> {
    Ok(whitelabel_branding::Entity::find()
        .filter(whitelabel_branding::Column::UserId.eq(user_id))
        .one(db)
        .await?)
}

/// Invites a user to an owner's team (status pending) with a role and permission names.
/// [`StoreError::Conflict`] when already a member.
pub async fn add_team_member(
    db: &DatabaseConnection,
    team_owner_id: i64,
    member_id: i64,
    role: &str,
    permissions: &[String],
) -> StoreResult<team_members::Model> {
    let row = team_members::ActiveModel {
        team_owner_id: Set(team_owner_id),
        member_id: Set(member_id),
        role: Set(role.to_owned()),
        permissions: Set(serde_json::json!(permissions)),
        invited_at: Set(now()),
        joined_at: Set(None),
        status: Set("pending".into()),
        ..Default::default()
    };
    let id = team_members::Entity::insert(row)
        .exec(db)
        .await?
        .last_insert_id;
    team_members::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or(StoreError::NotFound)
}

/// Marks an invitation accepted.
pub async fn accept_team_invitation(
    db: &DatabaseConnection,
    team_owner_id: i64,
    member_id: i64,
) -> StoreResult<()> {
    use team_members::Column as T;
    let updated = team_members::Entity::update_many()
        .col_expr(T::Status, Expr::value("active"))
        .col_expr(T::JoinedAt, Expr::value(now()))
        .filter(T::TeamOwnerId.eq(team_owner_id))
        .filter(T::MemberId.eq(member_id))
        .exec(db)
        .await?;
    if updated.rows_affected == 1 {
        Ok(())
    } else {
        Err(StoreError::NotFound)
    }
}

/// An owner's team, oldest invitation first.
pub async fn team_of(
    db: &DatabaseConnection,
    team_owner_id: i64,
) -> StoreResult<Vec<team_members::Model>> {
    Ok(team_members::Entity::find()
        .filter(team_members::Column::TeamOwnerId.eq(team_owner_id))
        .order_by_asc(team_members::Column::Id)
        .all(db)
        .await?)
}

/// One API call made with a user's key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiCall {
    /// Path called.
    pub endpoint: String,
    /// HTTP method.
    pub method: String,
    /// Time to answer, ms.
    pub response_time_ms: i32,
    /// HTTP status answered.
    pub status_code: i32,
}

/// Records an API call and counts it on the user, in one transaction.
pub async fn record_api_call(
    db: &DatabaseConnection,
    user_id: i64,
    call: &ApiCall,
) -> StoreResult<()> {
    let txn = begin_write(db).await?;
    let counted = users::Entity::update_many()
        .col_expr(U::ApiCalls, Expr::col(U::ApiCalls).add(1))
        .filter(U::Id.eq(user_id))
        .exec(&txn)
        .await?;
    if counted.rows_affected != 1 {
        return Err(StoreError::NotFound);
    }
    api_usage::Entity::insert(api_usage::ActiveModel {
        user_id: Set(user_id),
        endpoint: Set(call.endpoint.clone()),
        method: Set(call.method.clone()),
        response_time_ms: Set(call.response_time_ms),
        status_code: Set(call.status_code),
        timestamp: Set(now()),
        ..Default::default()
    })
    .exec_without_returning(&txn)
    .await?;
    txn.commit().await?;
    Ok(())
}

/// API calls a user made since `since` (for rate limiting against `users.api_rate_limit`).
pub async fn api_calls_since(
    db: &DatabaseConnection,
    user_id: i64,
    since: DateTime<Utc>,
) -> StoreResult<u64> {
    Ok(api_usage::Entity::find()
        .filter(api_usage::Column::UserId.eq(user_id))
        .filter(api_usage::Column::Timestamp.gte(since))
        .count(db)
        .await?)
}

/// Uses one report of a subscription's monthly allowance; `false` when it is used up.
/// One guarded update, so concurrent requests cannot exceed the allowance.
pub async fn use_monthly_report(db: &DatabaseConnection, user_id: i64) -> StoreResult<bool> {
    let updated = users::Entity::update_many()
        .col_expr(
            U::MonthlyReportsUsed,
            Expr::col(U::MonthlyReportsUsed).add(1),
        )
        .col_expr(U::UpdatedAt, Expr::value(now()))
        .filter(U::Id.eq(user_id))
        .filter(Expr::col(U::MonthlyReportsUsed).lt(Expr::col(U::MonthlyReportAllowance)))
        .exec(db)
        .await?;
    Ok(updated.rows_affected == 1)
}

/// Starts a new subscription month: sets the allowance and resets the count used.
pub async fn reset_monthly_allowance(
    db: &DatabaseConnection,
    user_id: i64,
    allowance: i32,
    renews_at: Option<DateTime<Utc>>,
) -> StoreResult<()> {
    let updated = users::Entity::update_many()
        .col_expr(U::MonthlyReportAllowance, Expr::value(allowance))
        .col_expr(U::MonthlyReportsUsed, Expr::value(0))
        .col_expr(U::SubscriptionRenewsAt, Expr::value(renews_at))
        .col_expr(U::UpdatedAt, Expr::value(now()))
        .filter(U::Id.eq(user_id))
        .exec(db)
        .await?;
    if updated.rows_affected == 1 {
        Ok(())
    } else {
        Err(StoreError::NotFound)
    }
}
