//! `/api/team`: the signed-in user's team (docs/PRODUCT.md §3.5, §6.7): read it, invite by
//! e-mail, accept an invitation, remove a member or withdraw an invitation, leave.

use axum::extract::{Path, State};
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use domain::accounts::{TeamRole, TeamView};
use serde::Deserialize;
use serde_json::json;

use crate::error::AppResult;
use crate::extract::{ApiJson, CurrentUser};
use crate::routes::parse_row_id;
use crate::services::teams;
use crate::state::AppState;

/// The team resource.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/team", get(get_team))
        .route("/team/invitations", post(create_invitation))
        .route("/team/join", post(join_team))
        .route("/team/leave", post(leave_team))
        .route("/team/members/{id}", delete(remove_member))
}

/// An invitation: the address and the role offered.
#[derive(Debug, Deserialize)]
struct InviteBody {
    email: String,
    #[serde(default = "member")]
    role: TeamRole,
}

fn member() -> TeamRole {
    TeamRole::Member
}

/// The token of an invitation link.
#[derive(Debug, Deserialize)]
struct JoinBody {
    token: String,
}

async fn get_team(
    State(state): State<AppState>,
    current: CurrentUser,
) -> AppResult<Json<TeamView>> {
    Ok(Json(teams::team_view(&state.db, &current.user).await?))
}

async fn create_invitation(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiJson(body): ApiJson<InviteBody>,
) -> AppResult<Json<serde_json::Value>> {
    teams::invite(
        &state.db,
        &state.mailer,
        &state.links,
        &current.user,
        &body.email,
        body.role,
    )
    .await?;
    Ok(Json(json!({"success": true, "message": "Invitation sent"})))
}

async fn join_team(
    State(state): State<AppState>,
    current: CurrentUser,
    ApiJson(body): ApiJson<JoinBody>,
) -> AppResult<Json<serde_json::Value>> {
    teams::accept(&state.db, &current.user, &body.token).await?;
    Ok(Json(
        json!({"success": true, "message": "You have joined the team"}),
    ))
}

async fn leave_team(
    State(state): State<AppState>,
    current: CurrentUser,
) -> AppResult<Json<serde_json::Value>> {
    teams::leave(&state.db, &current.user).await?;
    Ok(Json(
        json!({"success": true, "message": "You have left the team"}),
    ))
}

async fn remove_member(
    State(state): State<AppState>,
    current: CurrentUser,
    Path(id): Path<String>,
) -> AppResult<Json<serde_json::Value>> {
    let id = parse_row_id(&id, "No such member in your team")?;
    teams::remove(&state.db, &current.user, id).await?;
    Ok(Json(
        json!({"success": true, "message": "Removed from the team"}),
    ))
}
