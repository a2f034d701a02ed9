//! Teams (docs/PRODUCT.md §3.5, §6.7): an owner (or an admin of the team) invites people by an
//! e-mailed link within the seats of the owner's plan (`domain::accounts::check_invite`); an
//! invitee who accepts joins at once, shares the owner's credits and sees the team's reports.
//! Removing a member ends their access with that statement: every request reads the
//! membership row again.

use chrono::Duration;
use domain::accounts::{self as rules, TeamMemberView, TeamRole, TeamView};
use store::entity::users;
use store::{DatabaseConnection, StoreError};

use crate::services::accounts::{AccountError, Links, hash_token, new_token, team_context};
use crate::services::mail::Mailer;

/// The team the user owns or belongs to, with members and open invitations.
pub async fn team_view(
    db: &DatabaseConnection,
    user: &users::Model,
) -> Result<TeamView, AccountError> {
    let (owner, role) = team_context(db, user).await?;
    let mut members: Vec<TeamMemberView> = store::accounts::members_of(db, owner.id)
        .await?
        .into_iter()
        .map(|(m, u)| TeamMemberView {
            id: m.id,
            email: u.email,
            role: TeamRole::parse(&m.role).unwrap_or(TeamRole::Member),
            status: m.status,
        })
        .collect();
    // Open invitations are listed with negative ids so one list can address both kinds.
    members.extend(
        store::accounts::open_invitations(db, owner.id, store::now())
            .await?
            .into_iter()
            .map(|i| TeamMemberView {
                id: -i.id,
                email: i.email,
                role: TeamRole::parse(&i.role).unwrap_or(TeamRole::Member),
                status: "pending".into(),
            }),
    );
    Ok(TeamView {
        owner_email: owner.email.clone(),
        role,
        seats: team_seats(db, &owner).await?,
        members,
    })
}

/// Seats of an owner's team: the plan's own and the extra seats bought with it.
pub async fn team_seats(
    db: &DatabaseConnection,
    owner: &users::Model,
) -> Result<Option<u32>, AccountError> {
    let extra = store::billing::extra_seats(db, owner.id).await?;
    Ok(domain::checkout::subscription_seats(
        &owner.subscription_plan,
        extra,
    ))
}

fn require_manager(role: TeamRole) -> Result<(), AccountError> {
    if role.manages_members() {
        Ok(())
    } else {
        Err(AccountError::Forbidden(
            "Only the team's owner or an admin can manage its members".into(),
        ))
    }
}

/// Invites `email` to the user's team with `role` (`admin` or `member`) and mails the link.
pub async fn invite(
    db: &DatabaseConnection,
    mailer: &Mailer,
    links: &Links,
    user: &users::Model,
    email: &str,
    role: TeamRole,
) -> Result<(), AccountError> {
    let (owner, my_role) = team_context(db, user).await?;
    require_manager(my_role)?;
    if !domain::forms::is_valid_email(email) {
        return Err(AccountError::Invalid(vec![domain::forms::FieldError {
            field: "email".into(),
            message: domain::forms::EMAIL_MESSAGE.into(),
        }]));
    }
    if role == TeamRole::Owner {
        return Err(AccountError::Forbidden(
            "A team has one owner: invite members or admins".into(),
        ));
    }
    if store::users::normalize_email(email) == owner.email {
        return Err(AccountError::Conflict(
            "The owner is already in the team".into(),
        ));
    }
    let taken = store::accounts::seats_taken(db, owner.id, store::now()).await?;
    rules::check_invite_seats(team_seats(db, &owner).await?, taken)
        .map_err(AccountError::Conflict)?;
    let (token, hash) = new_token()?;
    let invitation = store::accounts::NewInvitation {
        token_hash: hash,
        team_owner_id: owner.id,
        email: email.to_owned(),
        role: role.as_str().to_owned(),
        expires_at: store::now() + Duration::days(i64::from(rules::TEAM_INVITE_DAYS)),
    };
    match store::accounts::create_invitation(db, &invitation).await {
        Ok(_) => {}
        Err(StoreError::Conflict(_)) => {
            return Err(AccountError::Conflict(
                "This address is already invited to or a member of the team".into(),
            ));
        }
        Err(e) => return Err(e.into()),
    }
    let inviter = user
        .first_name
        .clone()
        .unwrap_or_else(|| user.email.clone());
    let body = format!(
        "{inviter} invited you to join their team on Sitelens as {}. To accept, sign in or create an account with this address and open this link:\n\n{}\n\nThe invitation expires in {} days.\n",
        role.as_str(),
        links.link_for("join", &token),
        rules::TEAM_INVITE_DAYS
    );
    mailer
        .send(db, email, "You are invited to a Sitelens team", &body)
        .await?;
    Ok(())
}

/// Accepts an invitation for the signed-in user.
pub async fn accept(
    db: &DatabaseConnection,
    user: &users::Model,
    token: &str,
) -> Result<(), AccountError> {
    let at = store::now();
    let hash = hash_token(token);
    // The role decides the permissions stored with the membership.
    let permissions = |role: TeamRole| role.permissions();
    let role = store::accounts::invitation_role(db, &hash).await?;
    let role = role
        .as_deref()
        .and_then(TeamRole::parse)
        .unwrap_or(TeamRole::Member);
    match store::accounts::accept_invitation(db, &hash, user, &permissions(role), at).await {
        Ok(_) => Ok(()),
        Err(StoreError::NotFound) => Err(AccountError::LinkInvalid),
        Err(StoreError::Conflict(detail)) => Err(AccountError::Conflict(capitalise(&detail))),
        Err(e) => Err(e.into()),
    }
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// Removes a member (positive id) or withdraws an invitation (negative id, as
/// [`team_view`] lists them). An admin cannot remove another admin.
pub async fn remove(
    db: &DatabaseConnection,
    user: &users::Model,
    id: i64,
) -> Result<(), AccountError> {
    let (owner, my_role) = team_context(db, user).await?;
    require_manager(my_role)?;
    let missing = || AccountError::NotFound("No such member in your team".into());
    if id < 0 {
        return match store::accounts::withdraw_invitation(db, owner.id, -id).await {
            Err(StoreError::NotFound) => Err(missing()),
            other => Ok(other?),
        };
    }
    let members = store::accounts::team_of(db, owner.id).await?;
    let row = members.iter().find(|m| m.id == id).ok_or_else(missing)?;
    if my_role == TeamRole::Admin
        && row.role == TeamRole::Admin.as_str()
        && row.member_id != user.id
    {
        return Err(AccountError::Forbidden(
            "Only the team's owner can remove an admin".into(),
        ));
    }
    store::accounts::remove_team_member(db, owner.id, id).await?;
    Ok(())
}

/// Leaves the team the user belongs to.
pub async fn leave(db: &DatabaseConnection, user: &users::Model) -> Result<(), AccountError> {
    let Some((row, owner)) = store::accounts::membership_of(db, user.id).await? else {
        return Err(AccountError::NotFound(
            "You are not a member of a team".into(),
        ));
    };
    store::accounts::remove_team_member(db, owner.id, row.id).await?;
    Ok(())
}
