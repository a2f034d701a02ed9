//! What hangs off a user account: white-label branding, team members and the
//! monthly report allowance of a subscription.
//! Teams: invitations by e-mail link, memberships and removal (docs/PRODUCT.md §3.5, §6.7).

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, ExprTrait, OnConflict};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, DatabaseConnection, EntityTrait, PaginatorTrait, QueryFilter,
    QueryOrder,
};

use crate::clock::now;
use crate::entity::users::Column as U;
use crate::entity::{team_invitations, team_members, users, whitelabel_branding};
use crate::users::normalize_email;
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

/// A stored branding as reports and pages show it: empty contact fields are absent.
pub fn branding_view(row: &whitelabel_branding::Model) -> domain::whitelabel::Branding {
    let set = |v: &Option<String>| {
        v.as_deref()
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_owned)
    };
    domain::whitelabel::Branding {
        company_name: row.company_name.clone(),
        logo_url: set(&row.logo_url),
        primary_color: row.primary_color.clone(),
        secondary_color: row.secondary_color.clone(),
        font_family: row.font_family.clone(),
        contact_email: set(&row.contact_email),
        contact_phone: set(&row.contact_phone),
        website_url: set(&row.website_url),
    }
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

/// A team invitation to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewInvitation {
    /// Hash of the token in the invitation link.
    pub token_hash: String,
    /// The inviting team's owner.
    pub team_owner_id: i64,
    /// Where the invitation goes (normalised on storing).
    pub email: String,
    /// The role the invitee will have (`admin` or `member`).
    pub role: String,
    /// When the link stops working.
    pub expires_at: DateTime<Utc>,
}

/// Stores an invitation. [`StoreError::Conflict`] when this address already has an open
/// invitation to, or a membership of, this team.
pub async fn create_invitation(
    db: &DatabaseConnection,
    invitation: &NewInvitation,
) -> StoreResult<team_invitations::Model> {
    use team_invitations::Column as I;
    let at = now();
    let email = normalize_email(&invitation.email);
    let txn = begin_write(db).await?;
    let open = team_invitations::Entity::find()
        .filter(I::TeamOwnerId.eq(invitation.team_owner_id))
        .filter(I::Email.eq(email.as_str()))
        .filter(I::AcceptedAt.is_null())
        .filter(I::ExpiresAt.gt(at))
        .count(&txn)
        .await?;
    let member = match users::Entity::find()
        .filter(U::Email.eq(email.as_str()))
        .one(&txn)
        .await?
    {
        Some(user) => {
            team_members::Entity::find()
                .filter(team_members::Column::TeamOwnerId.eq(invitation.team_owner_id))
                .filter(team_members::Column::MemberId.eq(user.id))
                .count(&txn)
                .await?
        }
        None => 0,
    };
    if open + member > 0 {
        txn.rollback().await?;
        return Err(StoreError::Conflict("already invited".into()));
    }
    let id = team_invitations::Entity::insert(team_invitations::ActiveModel {
        token_hash: Set(invitation.token_hash.clone()),
        team_owner_id: Set(invitation.team_owner_id),
        email: Set(email),
        role: Set(invitation.role.clone()),
        invited_at: Set(at),
        expires_at: Set(invitation.expires_at),
        accepted_at: Set(None),
        ..Default::default()
    })
    .exec(&txn)
    .await?
    .last_insert_id;
    let row = team_invitations::Entity::find_by_id(id)
        .one(&txn)
        .await?
        .ok_or(StoreError::NotFound)?;
    txn.commit().await?;
    Ok(row)
}

/// An owner's invitations not yet accepted nor expired at `at`, oldest first.
pub async fn open_invitations(
    db: &DatabaseConnection,
    team_owner_id: i64,
    at: DateTime<Utc>,
) -> StoreResult<Vec<team_invitations::Model>> {
    use team_invitations::Column as I;
    Ok(team_invitations::Entity::find()
        .filter(I::TeamOwnerId.eq(team_owner_id))
        .filter(I::AcceptedAt.is_null())
        .filter(I::ExpiresAt.gt(at))
        .order_by_asc(I::Id)
        .all(db)
        .await?)
}

/// Withdraws an open invitation of this owner's team.
pub async fn withdraw_invitation(
    db: &DatabaseConnection,
    team_owner_id: i64,
    id: i64,
) -> StoreResult<()> {
    use team_invitations::Column as I;
    let deleted = team_invitations::Entity::delete_many()
        .filter(I::Id.eq(id))
        .filter(I::TeamOwnerId.eq(team_owner_id))
        .filter(I::AcceptedAt.is_null())
        .exec(db)
        .await?;
    if deleted.rows_affected == 1 {
        Ok(())
    } else {
        Err(StoreError::NotFound)
    }
}

/// Seats held in an owner's team besides the owner's own: members (active or pending) and
/// open invitations.
pub async fn seats_taken(
    db: &DatabaseConnection,
    team_owner_id: i64,
    at: DateTime<Utc>,
) -> StoreResult<u32> {
    let members = team_members::Entity::find()
        .filter(team_members::Column::TeamOwnerId.eq(team_owner_id))
        .count(db)
        .await?;
    let invitations = open_invitations(db, team_owner_id, at).await?.len() as u64;
    Ok(u32::try_from(members + invitations).unwrap_or(u32::MAX))
}

/// Accepts an invitation for `member`: the invitation must be open at `at` and addressed to
/// the member's e-mail; the member joins the team at once, active, with the invited role and
/// its permissions. One guarded update marks the invitation used, so a link works once.
///
/// [`StoreError::NotFound`] for an unknown, used or expired link; [`StoreError::Conflict`] when
/// the link was sent to another address, or the member already belongs to a team or owns one.
pub async fn accept_invitation(
    db: &DatabaseConnection,
    token_hash: &str,
    member: &users::Model,
    permissions: &[String],
    at: DateTime<Utc>,
) -> StoreResult<team_members::Model> {
    use team_invitations::Column as I;
    let txn = begin_write(db).await?;
    let Some(invitation) = team_invitations::Entity::find()
        .filter(I::TokenHash.eq(token_hash))
        .filter(I::AcceptedAt.is_null())
        .filter(I::ExpiresAt.gt(at))
        .one(&txn)
        .await?
    else {
        txn.rollback().await?;
        return Err(StoreError::NotFound);
    };
    if invitation.email != normalize_email(&member.email) {
        txn.rollback().await?;
        return Err(StoreError::Conflict(
            "this invitation was sent to another email address".into(),
        ));
    }
    let memberships = team_members::Entity::find()
        .filter(
            team_members::Column::MemberId
                .eq(member.id)
                .or(team_members::Column::TeamOwnerId.eq(member.id)),
        )
        .count(&txn)
        .await?;
    if memberships > 0 || invitation.team_owner_id == member.id {
        txn.rollback().await?;
        return Err(StoreError::Conflict(
            "you already belong to a team or own one".into(),
        ));
    }
    let used = team_invitations::Entity::update_many()
        .col_expr(I::AcceptedAt, Expr::value(at))
        .filter(I::Id.eq(invitation.id))
        .filter(I::AcceptedAt.is_null())
        .exec(&txn)
        .await?;
    if used.rows_affected != 1 {
        txn.rollback().await?;
        return Err(StoreError::NotFound);
    }
    let id = team_members::Entity::insert(team_members::ActiveModel {
        team_owner_id: Set(invitation.team_owner_id),
        member_id: Set(member.id),
        role: Set(invitation.role.clone()),
        permissions: Set(serde_json::json!(permissions)),
        invited_at: Set(invitation.invited_at),
        joined_at: Set(Some(at)),
        status: Set("active".into()),
        ..Default::default()
    })
    .exec(&txn)
    .await?
    .last_insert_id;
    let row = team_members::Entity::find_by_id(id)
        .one(&txn)
        .await?
        .ok_or(StoreError::NotFound)?;
    txn.commit().await?;
    Ok(row)
}

/// The active team membership of a user, with the team's owner, if they belong to a team.
pub async fn membership_of(
    db: &DatabaseConnection,
    member_id: i64,
) -> StoreResult<Option<(team_members::Model, users::Model)>> {
    let Some(row) = team_members::Entity::find()
        .filter(team_members::Column::MemberId.eq(member_id))
        .filter(team_members::Column::Status.eq("active"))
        .one(db)
        .await?
    else {
        return Ok(None);
    };
    let owner = users::Entity::find_by_id(row.team_owner_id).one(db).await?;
    Ok(owner.map(|owner| (row, owner)))
}

/// An owner's members with their user rows, oldest first.
pub async fn members_of(
    db: &DatabaseConnection,
    team_owner_id: i64,
) -> StoreResult<Vec<(team_members::Model, users::Model)>> {
    let rows = team_of(db, team_owner_id).await?;
    let ids: Vec<i64> = rows.iter().map(|m| m.member_id).collect();
    let users = users::Entity::find()
        .filter(U::Id.is_in(ids))
        .all(db)
        .await?;
    Ok(rows
        .into_iter()
        .filter_map(|m| {
            let user = users.iter().find(|u| u.id == m.member_id)?.clone();
            Some((m, user))
        })
        .collect())
}

/// Removes a member (by membership row id) from an owner's team; their access through the team
/// ends with this statement, since every check reads the membership row.
pub async fn remove_team_member(
    db: &DatabaseConnection,
    team_owner_id: i64,
    membership_id: i64,
) -> StoreResult<team_members::Model> {
    let Some(row) = team_members::Entity::find_by_id(membership_id)
        .filter(team_members::Column::TeamOwnerId.eq(team_owner_id))
        .one(db)
        .await?
    else {
        return Err(StoreError::NotFound);
    };
    team_members::Entity::delete_by_id(row.id).exec(db).await?;
    Ok(row)
}

/// The role an open invitation offers, if the token names one.
pub async fn invitation_role(
    db: &DatabaseConnection,
    token_hash: &str,
) -> StoreResult<Option<String>> {
    Ok(team_invitations::Entity::find()
        .filter(team_invitations::Column::TokenHash.eq(token_hash))
        .one(db)
        .await?
        .map(|i| i.role))
}
