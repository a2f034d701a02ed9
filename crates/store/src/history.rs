//! What a signed-in user has done, read back: the analyses of each site for the dashboard,
//! everything stored about them for "download my data", and deleting an account with its
//! reports. Rows become `domain::accounts` contract types here (docs/ARCHITECTURE.md §3).

use std::collections::BTreeMap;

use domain::accounts::{AnalysisSummary, SiteHistory};
use domain::report::ReportType;
use sea_orm::sea_query::ExprTrait;
use sea_orm::{ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter, QueryOrder};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::entity::{
    analysis_jobs, analysis_results, api_keys, credit_ledger, credit_purchases, email_reports,
    sessions, team_members, users,
};
use crate::{StoreError, StoreResult, begin_write};

/// The analyses requested by any of `user_ids` (a user and, for a team, its other members) that
/// produced a report, grouped by site: sites most recently analysed first, each site's analyses
/// oldest first (the order of its score-trend chart).
pub async fn site_histories(
    db: &DatabaseConnection,
    user_ids: &[i64],
) -> StoreResult<Vec<SiteHistory>> {
    let jobs = analysis_jobs::Entity::find()
        .filter(analysis_jobs::Column::RequesterUserId.is_in(user_ids.iter().copied()))
        .filter(analysis_jobs::Column::ResultId.is_not_null())
        .all(db)
        .await?;
    let requesters: BTreeMap<Uuid, i64> = jobs
        .iter()
        .filter_map(|j| Some((j.result_id?, j.requester_user_id?)))
        .collect();
    let names: BTreeMap<i64, String> = users::Entity::find()
        .filter(users::Column::Id.is_in(user_ids.iter().copied()))
        .all(db)
        .await?
        .into_iter()
        .map(|u| (u.id, u.email))
        .collect();
    let results = analysis_results::Entity::find()
        .filter(analysis_results::Column::Id.is_in(requesters.keys().copied()))
        .order_by_asc(analysis_results::Column::Timestamp)
        .all(db)
        .await?;
    let mut sites: Vec<SiteHistory> = Vec::new();
    for row in results {
        let tier = ReportType::parse(&row.tier).ok_or_else(|| StoreError::Data {
            what: format!("unknown tier {:?}", row.tier),
            source: None,
        })?;
        let score = |v: i32| u32::try_from(v).unwrap_or(0);
        let summary = AnalysisSummary {
            result_id: row.id.to_string(),
            timestamp: row.timestamp.to_rfc3339(),
            tier,
            overall_score: score(row.overall_score),
            seo_score: score(row.seo_score),
            performance_score: score(row.performance_score),
            requested_by: requesters
                .get(&row.id)
                .and_then(|id| names.get(id))
                .cloned()
                .unwrap_or_default(),
        };
        match sites.iter_mut().find(|s| s.url == row.url) {
            Some(site) => site.analyses.push(summary),
            None => sites.push(SiteHistory {
                url: row.url,
                analyses: vec![summary],
            }),
        }
    }
    // Most recently analysed site first; timestamps are RFC 3339 in UTC, so text order is time
    // order.
    sites.sort_by(|a, b| {
        let last = |s: &SiteHistory| s.analyses.last().map(|a| a.timestamp.clone());
        last(b).cmp(&last(a))
    });
    Ok(sites)
}

/// Whether `user_ids` requested the analysis that produced report `result_id`.
pub async fn requested_by_any(
    db: &DatabaseConnection,
    result_id: Uuid,
    user_ids: &[i64],
) -> StoreResult<bool> {
    Ok(analysis_jobs::Entity::find()
        .filter(analysis_jobs::Column::ResultId.eq(result_id))
        .filter(analysis_jobs::Column::RequesterUserId.is_in(user_ids.iter().copied()))
        .one(db)
        .await?
        .is_some())
}

/// Everything stored about a user, as JSON for "download my data": the account without its
/// password hash or key hashes, the credit ledger, purchases, team rows, the number of open
/// sessions, the API keys (names and prefixes) and calls, and every analysis with its full report.
pub async fn export_user_data(db: &DatabaseConnection, user_id: i64) -> StoreResult<Value> {
    let user = users::Entity::find_by_id(user_id)
        .one(db)
        .await?
        .ok_or(StoreError::NotFound)?;
    let ledger = credit_ledger::Entity::find()
        .filter(credit_ledger::Column::UserId.eq(user_id))
        .order_by_asc(credit_ledger::Column::Id)
        .all(db)
        .await?;
    let purchases = credit_purchases::Entity::find()
        .filter(credit_purchases::Column::UserId.eq(user_id))
        .all(db)
        .await?;
    let teams = team_members::Entity::find()
        .filter(
            team_members::Column::MemberId
                .eq(user_id)
                .or(team_members::Column::TeamOwnerId.eq(user_id)),
        )
        .all(db)
        .await?;
    let open_sessions = sessions::Entity::find()
        .filter(sessions::Column::UserId.eq(user_id))
        .all(db)
        .await?
        .len();
    let keys = api_keys::Entity::find()
        .filter(api_keys::Column::UserId.eq(user_id))
        .order_by_asc(api_keys::Column::Id)
        .all(db)
        .await?;
    let jobs = analysis_jobs::Entity::find()
        .filter(analysis_jobs::Column::RequesterUserId.eq(user_id))
        .order_by_asc(analysis_jobs::Column::CreatedAt)
        .all(db)
        .await?;
    let mut analyses = Vec::new();
    for job in jobs {
        let report = match job.result_id {
            // As its readers see it: an unpaid report without its Pro-only content.
            Some(id) => Some(domain::entitlement::viewable(
                crate::results::get_report(db, id).await?,
            )),
            None => None,
        };
        analyses.push(json!({
            "analysisId": job.id,
            "url": job.url,
            "status": job.status,
            "tier": job.tier,
            "createdAt": job.created_at.to_rfc3339(),
            "report": report,
        }));
    }
    Ok(json!({
        "account": {
            "id": user.id,
            "email": user.email,
            "emailVerifiedAt": user.email_verified_at.map(|t| t.to_rfc3339()),
            "firstName": user.first_name,
            "lastName": user.last_name,
            "username": user.username,
            "imageUrl": user.image_url,
            "linkedIdentity": user.clerk_id,
            "reportCredits": crate::credits::stored(user.report_credits),
            "trialCredits": crate::credits::stored(user.trial_credits),
            "trialExpiresAt": user.trial_expires_at.map(|t| t.to_rfc3339()),
            "hasUsedTrial": user.has_used_trial,
            "subscriptionPlan": user.subscription_plan,
            "subscriptionStatus": user.subscription_status,
            "createdAt": user.created_at.to_rfc3339(),
        },
        "creditLedger": ledger.iter().map(|l| json!({
            // In credits, signed: -0.5 for a basic report.
            "delta": match crate::credits::ledger_delta(l) {
                (true, c) => c.as_number(),
                (false, c) => -c.as_number(),
            },
            "pool": l.pool, "reason": l.reason,
            "reference": l.reference, "at": l.created_at.to_rfc3339(),
        })).collect::<Vec<_>>(),
        "purchases": purchases.iter().map(|p| json!({
            "paymentId": p.stripe_payment_intent_id, "credits": p.credits_added,
            "amountPaidCents": p.amount_paid_cents, "package": p.package_type,
            "at": p.created_at.to_rfc3339(),
        })).collect::<Vec<_>>(),
        "teams": teams.iter().map(|t| json!({
            "teamOwnerId": t.team_owner_id, "memberId": t.member_id, "role": t.role,
            "status": t.status, "joinedAt": t.joined_at.map(|d| d.to_rfc3339()),
        })).collect::<Vec<_>>(),
        "openSessions": open_sessions,
        // The keys as the dashboard lists them (never their hashes), and the calls counted.
        "apiKeys": keys.iter().map(|k| json!({
            "name": k.name, "prefix": k.prefix, "createdAt": k.created_at.to_rfc3339(),
            "lastUsedAt": k.last_used_at.map(|t| t.to_rfc3339()),
            "revokedAt": k.revoked_at.map(|t| t.to_rfc3339()),
        })).collect::<Vec<_>>(),
        "apiCalls": user.api_calls,
        "analyses": analyses,
    }))
}

/// Deletes a user with the reports they requested, their jobs and the report requests they sent
/// to clients, in one transaction; sessions,
/// tokens, team rows, branding, API keys and ledger go with the user row (cascades). Reports of their team
/// owner's that they did not request stay.
pub async fn delete_account(db: &DatabaseConnection, user_id: i64) -> StoreResult<()> {
    let txn = begin_write(db).await?;
    let jobs = analysis_jobs::Entity::find()
        .filter(analysis_jobs::Column::RequesterUserId.eq(user_id))
        .all(&txn)
        .await?;
    let result_ids: Vec<Uuid> = jobs.iter().filter_map(|j| j.result_id).collect();
    analysis_jobs::Entity::delete_many()
        .filter(analysis_jobs::Column::RequesterUserId.eq(user_id))
        .exec(&txn)
        .await?;
    // A report another job also points at (a cached result shared by two requests) stays.
    let shared: Vec<Uuid> = analysis_jobs::Entity::find()
        .filter(analysis_jobs::Column::ResultId.is_in(result_ids.clone()))
        .all(&txn)
        .await?
        .into_iter()
        .filter_map(|j| j.result_id)
        .collect();
    let own: Vec<Uuid> = result_ids
        .into_iter()
        .filter(|id| !shared.contains(id))
        .collect();
    analysis_results::Entity::delete_many()
        .filter(analysis_results::Column::Id.is_in(own))
        .exec(&txn)
        .await?;
    // The clients' addresses the user sent reports to go with the account.
    email_reports::Entity::delete_many()
        .filter(email_reports::Column::SentByUserId.eq(user_id))
        .exec(&txn)
        .await?;
    let deleted = users::Entity::delete_by_id(user_id).exec(&txn).await?;
    if deleted.rows_affected != 1 {
        txn.rollback().await?;
        return Err(StoreError::NotFound);
    }
    txn.commit().await?;
    Ok(())
}
