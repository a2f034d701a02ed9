//! The audit widget (issue 15 item 5): agencies' public widget keys with their allowed
//! origins, the hourly request counts per key and per visitor, and the leads.
//!
//! A lead is written in the transaction that spends the agency's credits and queues the
//! visitor's analysis (with the agency as its brand) and the mail that tells the agency: a
//! refused spend writes none of them. The request counts are rows of `widget_requests` counted
//! over the last hour with the key's row locked, so concurrent submissions through one key
//! cannot both pass its limits on PostgreSQL (SQLite's write transaction already excludes other
//! writers).

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait,
    PaginatorTrait, QueryFilter, QueryOrder, QuerySelect,
};
use uuid::Uuid;

use crate::clock::now;
use crate::credits::{Payer, Spend, spend_in};
use crate::entity::widget_keys::Column as K;
use crate::entity::widget_leads::Column as L;
use crate::entity::widget_requests::Column as R;
use crate::entity::{
    analysis_jobs, users, whitelabel_branding, widget_keys, widget_leads, widget_requests,
};
use crate::jobs::{Job, NewAnalysis, enqueue_in};
use crate::outbox::NewEmail;
use crate::{StoreError, StoreResult, begin_write};
use domain::credits::Credits;

/// The outcome of [`create_key`].
#[derive(Clone, Debug, PartialEq)]
pub enum CreatedKey {
    /// Stored.
    Created(widget_keys::Model),
    /// The owner already holds the most unrevoked keys allowed; nothing was stored.
    TooMany,
}

/// Stores a widget key for `user_id` allowing `origins` (a JSON list), unless the user already
/// holds `max_active` unrevoked keys. The owner's row is locked while counting, so two
/// concurrent creations cannot both pass the count.
pub async fn create_key(
    db: &DatabaseConnection,
    user_id: i64,
    public_key: &str,
    origins: &str,
    max_active: usize,
) -> StoreResult<CreatedKey> {
    let txn = begin_write(db).await?;
    users::Entity::find_by_id(user_id)
        .lock_exclusive()
        .one(&txn)
        .await?
        .ok_or(StoreError::NotFound)?;
    let active = widget_keys::Entity::find()
        .filter(K::UserId.eq(user_id))
        .filter(K::RevokedAt.is_null())
        .count(&txn)
        .await?;
    if usize::try_from(active).unwrap_or(usize::MAX) >= max_active {
        txn.rollback().await?;
        return Ok(CreatedKey::TooMany);
    }
    let row = widget_keys::Entity::insert(widget_keys::ActiveModel {
        user_id: Set(user_id),
        public_key: Set(public_key.to_owned()),
        allowed_origins: Set(origins.to_owned()),
        created_at: Set(now()),
        revoked_at: Set(None),
        ..Default::default()
    })
    .exec_with_returning(&txn)
    .await?;
    txn.commit().await?;
    Ok(CreatedKey::Created(row))
}

/// A user's unrevoked keys, newest first, each with how many leads it brought in.
pub async fn active_keys(
    db: &DatabaseConnection,
    user_id: i64,
) -> StoreResult<Vec<(widget_keys::Model, u64)>> {
    let keys = widget_keys::Entity::find()
        .filter(K::UserId.eq(user_id))
        .filter(K::RevokedAt.is_null())
        .order_by_desc(K::CreatedAt)
        .order_by_desc(K::Id)
        .all(db)
        .await?;
    let mut out = Vec::with_capacity(keys.len());
    for key in keys {
        let leads = widget_leads::Entity::find()
            .filter(L::WidgetKeyId.eq(key.id))
            .count(db)
            .await?;
        out.push((key, leads));
    }
    Ok(out)
}

/// Replaces the allowed origins (a JSON list) of `user_id`'s unrevoked key `key_id`.
/// [`StoreError::NotFound`] when the user has no such key (another user's included).
pub async fn update_origins(
    db: &DatabaseConnection,
    user_id: i64,
    key_id: i64,
    origins: &str,
) -> StoreResult<widget_keys::Model> {
    let updated = widget_keys::Entity::update_many()
        .col_expr(K::AllowedOrigins, Expr::value(origins))
        .filter(K::Id.eq(key_id))
        .filter(K::UserId.eq(user_id))
        .filter(K::RevokedAt.is_null())
        .exec_with_returning(db)
        .await?;
    updated.into_iter().next().ok_or(StoreError::NotFound)
}

/// Revokes `user_id`'s key `key_id`: from this statement on it takes no lead and serves no
/// configuration. [`StoreError::NotFound`] when the user has no such unrevoked key.
pub async fn revoke_key(db: &DatabaseConnection, user_id: i64, key_id: i64) -> StoreResult<()> {
    let revoked = widget_keys::Entity::update_many()
        .col_expr(K::RevokedAt, Expr::value(now()))
        .filter(K::Id.eq(key_id))
        .filter(K::UserId.eq(user_id))
        .filter(K::RevokedAt.is_null())
        .exec(db)
        .await?;
    if revoked.rows_affected == 1 {
        Ok(())
    } else {
        Err(StoreError::NotFound)
    }
}

/// The unrevoked key with this public text and its owner, unless the owner is disabled.
pub async fn find_active_key(
    db: &DatabaseConnection,
    public_key: &str,
) -> StoreResult<Option<(widget_keys::Model, users::Model)>> {
    let Some(key) = widget_keys::Entity::find()
        .filter(K::PublicKey.eq(public_key))
        .filter(K::RevokedAt.is_null())
        .one(db)
        .await?
    else {
        return Ok(None);
    };
    let owner = users::Entity::find_by_id(key.user_id)
        .filter(users::Column::DisabledAt.is_null())
        .one(db)
        .await?;
    Ok(owner.map(|owner| (key, owner)))
}

/// The outcome of [`count_request`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RequestCount {
    /// Within both limits; counted.
    Allowed,
    /// The key's limit for the hour is reached; not counted. Seconds until one more fits.
    KeyLimited(u64),
    /// The visitor's limit for the hour with this key is reached; not counted. Seconds until
    /// one more fits.
    VisitorLimited(u64),
}

/// The limits a submission is counted against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Submissions per key in the window.
    pub per_key: u32,
    /// Submissions per key and visitor in the window.
    pub per_visitor: u32,
    /// The window, in seconds (a sliding window ending at `at`).
    pub window_seconds: i64,
}

/// Counts a submission through key `key_id` by the visitor `visitor_hash` at `at`, unless the
/// key or the visitor already made their [`Limits`] in the window before `at`. Rows of the key
/// older than the window are removed on the way.
pub async fn count_request(
    db: &DatabaseConnection,
    key_id: i64,
    visitor_hash: &str,
    at: DateTime<Utc>,
    limits: Limits,
) -> StoreResult<RequestCount> {
    let since = at - chrono::Duration::seconds(limits.window_seconds);
    let txn = begin_write(db).await?;
    widget_keys::Entity::find_by_id(key_id)
        .lock_exclusive()
        .one(&txn)
        .await?
        .ok_or(StoreError::NotFound)?;
    widget_requests::Entity::delete_many()
        .filter(R::WidgetKeyId.eq(key_id))
        .filter(R::CreatedAt.lte(since))
        .exec(&txn)
        .await?;
    let of_key = || {
        widget_requests::Entity::find()
            .filter(R::WidgetKeyId.eq(key_id))
            .filter(R::CreatedAt.gt(since))
    };
    let wait = |oldest: Option<widget_requests::Model>| {
        let free_at =
            oldest.map_or(at, |r| r.created_at) + chrono::Duration::seconds(limits.window_seconds);
        Ord::max(u64::try_from((free_at - at).num_seconds()).unwrap_or(0), 1)
    };
    let outcome = if of_key().count(&txn).await? >= u64::from(limits.per_key) {
        RequestCount::KeyLimited(wait(of_key().order_by_asc(R::CreatedAt).one(&txn).await?))
    } else {
        let of_visitor = of_key().filter(R::VisitorHash.eq(visitor_hash));
        if of_visitor.clone().count(&txn).await? >= u64::from(limits.per_visitor) {
            RequestCount::VisitorLimited(wait(
                of_visitor.order_by_asc(R::CreatedAt).one(&txn).await?,
            ))
        } else {
            RequestCount::Allowed
        }
    };
    if outcome != RequestCount::Allowed {
        txn.rollback().await?;
        return Ok(outcome);
    }
    widget_requests::Entity::insert(widget_requests::ActiveModel {
        widget_key_id: Set(key_id),
        visitor_hash: Set(visitor_hash.to_owned()),
        created_at: Set(at),
        ..Default::default()
    })
    .exec_without_returning(&txn)
    .await?;
    txn.commit().await?;
    Ok(RequestCount::Allowed)
}

/// A lead to record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewLead {
    /// The key it came through.
    pub widget_key_id: i64,
    /// The agency (the key's owner), whose brand the report wears.
    pub agency_id: i64,
    /// The visitor's first name.
    pub first_name: String,
    /// The visitor's e-mail.
    pub email: String,
    /// The visitor's site, normalised.
    pub website_url: String,
    /// Salted hash of the visitor's address.
    pub visitor_hash: String,
}

/// The outcome of [`record_lead`].
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum RecordedLead {
    /// Spent, queued and recorded: the job, the lead and the queued mail's outbox id.
    Recorded {
        /// The visitor's analysis, branded for the agency.
        job: Job,
        /// The lead.
        lead: widget_leads::Model,
        /// The mail to the agency, when one was given.
        email_id: Option<i64>,
    },
    /// The agency's credits did not cover the report; nothing was written.
    Insufficient {
        /// What the agency could spend.
        balance: Credits,
    },
}

/// Records a lead: spends `cost` for `payer` (the agency; the ledger rows name the job), queues
/// `analysis` with the agency as its brand (`analysis_jobs.whitelabel_user_id`), stores the lead
/// and queues `mail` for the agency, all in one transaction.
pub async fn record_lead(
    db: &DatabaseConnection,
    payer: Payer,
    cost: Credits,
    analysis: &NewAnalysis,
    lead: &NewLead,
    mail: Option<&NewEmail>,
) -> StoreResult<RecordedLead> {
    let id = Uuid::new_v4();
    let analysis = NewAnalysis {
        requester_user_id: Some(payer.user_id),
        ..analysis.clone()
    };
    let txn = begin_write(db).await?;
    let charge = match spend_in(&txn, payer, cost, Some(&id.to_string())).await? {
        Spend::Insufficient { balance } => {
            txn.rollback().await?;
            return Ok(RecordedLead::Insufficient { balance });
        }
        Spend::Spent(charge) => charge,
    };
    let job = enqueue_in(&txn, &analysis, id, Some(&charge)).await?;
    analysis_jobs::Entity::update_many()
        .col_expr(
            analysis_jobs::Column::WhitelabelUserId,
            Expr::value(lead.agency_id),
        )
        .filter(analysis_jobs::Column::Id.eq(id))
        .exec(&txn)
        .await?;
    let row = widget_leads::Entity::insert(widget_leads::ActiveModel {
        widget_key_id: Set(lead.widget_key_id),
        user_id: Set(lead.agency_id),
        first_name: Set(lead.first_name.clone()),
        email: Set(lead.email.clone()),
        website_url: Set(lead.website_url.clone()),
        analysis_id: Set(id),
        visitor_hash: Set(lead.visitor_hash.clone()),
        created_at: Set(now()),
        ..Default::default()
    })
    .exec_with_returning(&txn)
    .await?;
    let email_id = match mail {
        Some(mail) => Some(crate::outbox::enqueue(&txn, mail).await?),
        None => None,
    };
    txn.commit().await?;
    Ok(RecordedLead::Recorded {
        job,
        lead: row,
        email_id,
    })
}

/// The lead of `key_id` for the analysis `analysis_id`, if that key brought it in.
pub async fn lead_for_analysis(
    db: &DatabaseConnection,
    key_id: i64,
    analysis_id: Uuid,
) -> StoreResult<Option<widget_leads::Model>> {
    Ok(widget_leads::Entity::find()
        .filter(L::WidgetKeyId.eq(key_id))
        .filter(L::AnalysisId.eq(analysis_id))
        .one(db)
        .await?)
}

/// A lead with the public text of the key it came through.
pub type LeadWithKey = (widget_leads::Model, String);

async fn with_keys<C: ConnectionTrait>(
    db: &C,
    leads: Vec<widget_leads::Model>,
) -> StoreResult<Vec<LeadWithKey>> {
    let mut ids: Vec<i64> = leads.iter().map(|l| l.widget_key_id).collect();
    ids.sort_unstable();
    ids.dedup();
    let keys = widget_keys::Entity::find()
        .filter(K::Id.is_in(ids))
        .all(db)
        .await?;
    Ok(leads
        .into_iter()
        .map(|lead| {
            let key = keys
                .iter()
                .find(|k| k.id == lead.widget_key_id)
                .map(|k| k.public_key.clone())
                .unwrap_or_default();
            (lead, key)
        })
        .collect())
}

/// One page of the agency's leads, newest first, and how many there are in all.
pub async fn leads_page(
    db: &DatabaseConnection,
    user_id: i64,
    offset: u64,
    limit: u64,
) -> StoreResult<(Vec<LeadWithKey>, u64)> {
    let mine = widget_leads::Entity::find().filter(L::UserId.eq(user_id));
    let total = mine.clone().count(db).await?;
    let leads = mine
        .order_by_desc(L::CreatedAt)
        .order_by_desc(L::Id)
        .offset(offset)
        .limit(limit)
        .all(db)
        .await?;
    Ok((with_keys(db, leads).await?, total))
}

/// The agency's newest `limit` leads, newest first (the export).
pub async fn all_leads(
    db: &DatabaseConnection,
    user_id: i64,
    limit: u64,
) -> StoreResult<Vec<LeadWithKey>> {
    Ok(leads_page(db, user_id, 0, limit).await?.0)
}

/// Writes `embed_code` into the user's branding row when they have one and it differs; a user
/// without a brand gets no row (the snippet is always derived from their keys, so nothing is
/// lost). Returns whether a row was changed.
pub async fn set_embed_code(
    db: &DatabaseConnection,
    user_id: i64,
    embed_code: Option<&str>,
) -> StoreResult<bool> {
    use whitelabel_branding::Column as B;
    let differs = match embed_code {
        Some(code) => B::EmbedCode.is_null().or(B::EmbedCode.ne(code)),
        None => B::EmbedCode.is_not_null(),
    };
    let updated = whitelabel_branding::Entity::update_many()
        .col_expr(B::EmbedCode, Expr::value(embed_code))
        .col_expr(B::UpdatedAt, Expr::value(now()))
        .filter(B::UserId.eq(user_id))
        .filter(differs)
        .exec(db)
        .await?;
    Ok(updated.rows_affected > 0)
}
