//! The embeddable audit widget (issue 15 item 5; docs/PRODUCT.md §3.3 `embedCode`, §3.16 and
//! §5.2 the lead form). The rules are `domain::widget`'s; this is what they do with the store.
//!
//! - An agency (an account for which `domain::whitelabel::account_white_label` holds) creates
//!   public keys, each allowing a list of origins; it lists, re-scopes and revokes them, and
//!   reads its leads by page or as CSV. Keys and leads are personal, like API keys: a team
//!   member sees only their own.
//! - The embed code is always derived from a key (`domain::widget::embed_snippet`). It is also
//!   written into `whitelabel_branding.embed_code` (the newest key's, or none) whenever the
//!   agency's keys change or are listed, but only where the agency saved a brand: the widget
//!   never creates a branding row (the company name it would need is the agency's to choose).
//! - A visitor's submission through a key is counted against the key's and the visitor's hourly
//!   limits first (every submission, whatever its outcome); a valid one spends the agency's
//!   basic-report price, queues the visitor's analysis branded for the agency, records the lead
//!   and queues the agency's mail, in one transaction: when the credits do not cover it,
//!   nothing is written.

use std::net::IpAddr;
use std::path::Path;

use domain::api::AnalysisStatus;
use domain::commerce::{free_allowance_key, report_cost};
use domain::forms::{FieldError, LeadForm, validate_lead};
use domain::report::ReportType;
use domain::site_url::SiteUrl;
use domain::whitelabel::{DEFAULT_PRIMARY, DEFAULT_SECONDARY, account_white_label};
use domain::widget::{
    self as rules, KEY_BYTES, MAX_KEYS_PER_ACCOUNT, WidgetConfig, WidgetKeyView, WidgetLeadPage,
    WidgetLeadView, WidgetOverview, WidgetProgress,
};
use store::DatabaseConnection;
use store::entity::{users, widget_keys, widget_leads};
use store::jobs::{JobStatus, NewAnalysis};
use store::widget::{CreatedKey, Limits, NewLead, RecordedLead, RequestCount};
use uuid::Uuid;

use crate::chain::Chain;
use crate::config::Config;
use crate::services::analyses::payer_of;
use crate::services::hub::Hub;
use crate::services::mail::Mailer;

/// Most leads in one CSV export (the newest).
pub const EXPORT_LIMIT: u64 = 100_000;

/// Why a widget request was refused.
#[derive(Debug, thiserror::Error)]
pub enum WidgetError {
    /// The account's plan does not include the widget.
    #[error("{}", rules::NOT_ENTITLED)]
    NotEntitled,
    /// A form field is wrong; the messages are `domain`'s.
    #[error("{}", .0.first().map(|e| e.message.as_str()).unwrap_or("invalid form"))]
    Invalid(Vec<FieldError>),
    /// A query value is wrong; the text says which.
    #[error("{0}")]
    BadQuery(String),
    /// No such key (unknown, revoked, another account's) or analysis; the text says which.
    #[error("{0}")]
    NotFound(String),
    /// The account holds the most keys allowed.
    #[error("{0}")]
    TooManyKeys(String),
    /// The page's origin is not one the key allows (or the request named none).
    #[error("{0}")]
    OriginRefused(String),
    /// An hourly limit is reached.
    #[error("{message}")]
    RateLimited {
        /// What the visitor reads.
        message: String,
        /// Seconds until a submission fits again.
        retry_after: u64,
    },
    /// The agency's credits do not cover the visitor's report; nothing was recorded.
    #[error("{}", rules::AGENCY_OUT_OF_CREDITS)]
    OutOfCredits,
    /// An internal failure (no randomness for a key); logged, never detailed to the client.
    #[error("{0}")]
    Internal(String),
    /// The database failed.
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

/// The built script (`widget.js` in the web app's folder), read once at start-up.
#[derive(Debug, Clone, Default)]
pub struct WidgetScript {
    /// The minified script, when the web app was built.
    pub body: Option<Vec<u8>>,
    /// A strong entity tag of the body.
    pub etag: String,
}

impl WidgetScript {
    /// Reads `widget.js` from `web_dir` (built by `just web`); without it the script route says
    /// how to build it.
    pub async fn load(web_dir: &Path) -> Self {
        match tokio::fs::read(web_dir.join("widget.js")).await {
            Ok(body) => {
                let etag = format!(
                    "\"{}\"",
                    &crate::services::accounts::hash_token(&String::from_utf8_lossy(&body))[..16]
                );
                WidgetScript {
                    body: Some(body),
                    etag,
                }
            }
            Err(_) => {
                tracing::warn!(dir = %web_dir.display(), "widget.js not built: run `just web`");
                WidgetScript::default()
            }
        }
    }
}

fn origins_of(key: &widget_keys::Model) -> Vec<String> {
    serde_json::from_str(&key.allowed_origins).unwrap_or_default()
}

fn origins_json(origins: &[String]) -> String {
    serde_json::to_string(origins).unwrap_or_else(|_| "[]".to_owned())
}

fn key_view(public_url: &str, key: &widget_keys::Model, leads: u64) -> WidgetKeyView {
    WidgetKeyView {
        id: key.id,
        key: key.public_key.clone(),
        allowed_origins: origins_of(key),
        embed_code: rules::embed_snippet(public_url, &key.public_key),
        created_at: key.created_at.to_rfc3339(),
        leads,
    }
}

/// The address of the branded report of `analysis_id` on the public URL (the results page
/// opens a report by its analysis id as well as by its own).
pub fn report_url(public_url: &str, analysis_id: Uuid) -> String {
    format!(
        "{}/results?id={analysis_id}",
        public_url.trim_end_matches('/')
    )
}

fn lead_view(public_url: &str, lead: &widget_leads::Model, key: &str) -> WidgetLeadView {
    WidgetLeadView {
        id: lead.id,
        first_name: lead.first_name.clone(),
        email: lead.email.clone(),
        website_url: lead.website_url.clone(),
        analysis_id: lead.analysis_id.to_string(),
        report_url: report_url(public_url, lead.analysis_id),
        key: key.to_owned(),
        created_at: lead.created_at.to_rfc3339(),
    }
}

fn entitled(user: &users::Model) -> bool {
    account_white_label(&user.subscription_plan, user.has_white_label)
}

/// Keeps `whitelabel_branding.embed_code` at the newest key's snippet (none without keys), where
/// the agency has a brand. A failure is logged: the snippet shown is always derived anyway.
async fn sync_embed_code(db: &DatabaseConnection, user_id: i64, keys: &[WidgetKeyView]) {
    let code = keys.first().map(|k| k.embed_code.as_str());
    if let Err(e) = store::widget::set_embed_code(db, user_id, code).await {
        tracing::warn!(error = %Chain(&e), user_id, "embed code not stored on the brand");
    }
}

/// The account's widget: whether it may create keys, and its unrevoked keys.
pub async fn overview(
    db: &DatabaseConnection,
    config: &Config,
    user: &users::Model,
) -> Result<WidgetOverview, WidgetError> {
    let keys: Vec<WidgetKeyView> = store::widget::active_keys(db, user.id)
        .await?
        .iter()
        .map(|(key, leads)| key_view(&config.public_url, key, *leads))
        .collect();
    sync_embed_code(db, user.id, &keys).await;
    Ok(WidgetOverview {
        enabled: entitled(user),
        keys,
    })
}

/// Creates a key allowing `origins` for a white-label account.
pub async fn create_key(
    db: &DatabaseConnection,
    config: &Config,
    user: &users::Model,
    origins: &[String],
) -> Result<WidgetKeyView, WidgetError> {
    if !entitled(user) {
        return Err(WidgetError::NotEntitled);
    }
    let origins = rules::parse_origins(origins).map_err(|e| WidgetError::Invalid(vec![e]))?;
    let mut bytes = [0u8; KEY_BYTES];
    getrandom::fill(&mut bytes)
        .map_err(|e| WidgetError::Internal(format!("no randomness for a widget key: {e}")))?;
    let key = rules::format_key(&bytes);
    match store::widget::create_key(
        db,
        user.id,
        &key,
        &origins_json(&origins),
        MAX_KEYS_PER_ACCOUNT,
    )
    .await?
    {
        CreatedKey::Created(row) => {
            overview(db, config, user).await?;
            Ok(key_view(&config.public_url, &row, 0))
        }
        CreatedKey::TooMany => Err(WidgetError::TooManyKeys(
            rules::check_key_count(MAX_KEYS_PER_ACCOUNT)
                .err()
                .unwrap_or_default(),
        )),
    }
}

const NO_SUCH_KEY: &str = "You have no such widget key";

/// Replaces the allowed origins of one of a white-label account's keys.
pub async fn update_origins(
    db: &DatabaseConnection,
    config: &Config,
    user: &users::Model,
    key_id: i64,
    origins: &[String],
) -> Result<WidgetKeyView, WidgetError> {
    if !entitled(user) {
        return Err(WidgetError::NotEntitled);
    }
    let origins = rules::parse_origins(origins).map_err(|e| WidgetError::Invalid(vec![e]))?;
    let row = store::widget::update_origins(db, user.id, key_id, &origins_json(&origins))
        .await
        .map_err(|e| not_found(e, NO_SUCH_KEY))?;
    let leads = store::widget::active_keys(db, user.id)
        .await?
        .into_iter()
        .find(|(k, _)| k.id == row.id)
        .map_or(0, |(_, n)| n);
    Ok(key_view(&config.public_url, &row, leads))
}

/// Revokes one of the user's keys (allowed after a downgrade too); another user's key is "not
/// found", as an unknown one is.
pub async fn revoke_key(
    db: &DatabaseConnection,
    config: &Config,
    user: &users::Model,
    key_id: i64,
) -> Result<(), WidgetError> {
    store::widget::revoke_key(db, user.id, key_id)
        .await
        .map_err(|e| not_found(e, NO_SUCH_KEY))?;
    overview(db, config, user).await?;
    Ok(())
}

fn not_found(e: store::StoreError, missing: &str) -> WidgetError {
    match e {
        store::StoreError::NotFound => WidgetError::NotFound(missing.to_owned()),
        other => other.into(),
    }
}

/// One page of the user's leads, newest first.
pub async fn leads_page(
    db: &DatabaseConnection,
    config: &Config,
    user: &users::Model,
    page: Option<u32>,
    per_page: Option<u32>,
) -> Result<WidgetLeadPage, WidgetError> {
    let (offset, limit) =
        rules::leads_page_bounds(page, per_page).map_err(WidgetError::BadQuery)?;
    let (rows, total) = store::widget::leads_page(db, user.id, offset, limit).await?;
    Ok(WidgetLeadPage {
        leads: rows
            .iter()
            .map(|(lead, key)| lead_view(&config.public_url, lead, key))
            .collect(),
        total,
        page: page.unwrap_or(1),
        per_page: u32::try_from(limit).unwrap_or(u32::MAX),
    })
}

/// The user's leads as CSV (`domain::widget::leads_csv`), the newest [`EXPORT_LIMIT`].
pub async fn leads_csv(
    db: &DatabaseConnection,
    config: &Config,
    user: &users::Model,
) -> Result<String, WidgetError> {
    let rows = store::widget::all_leads(db, user.id, EXPORT_LIMIT).await?;
    let leads: Vec<WidgetLeadView> = rows
        .iter()
        .map(|(lead, key)| lead_view(&config.public_url, lead, key))
        .collect();
    Ok(rules::leads_csv(&leads))
}

/// A public request's key and its agency, after the origin check.
#[derive(Debug, Clone)]
pub struct Widget {
    /// The key.
    pub key: widget_keys::Model,
    /// The agency.
    pub agency: users::Model,
}

/// The unrevoked key `public_key` of an enabled agency whose plan includes white-label, or "not
/// found".
pub async fn find_key(db: &DatabaseConnection, public_key: &str) -> Result<Widget, WidgetError> {
    let unknown = || WidgetError::NotFound(rules::KEY_UNKNOWN.to_owned());
    if !rules::is_well_formed_key(public_key) {
        return Err(unknown());
    }
    let (key, agency) = store::widget::find_active_key(db, public_key)
        .await?
        .ok_or_else(unknown)?;
    // A plan that no longer includes white-label takes the form off the agency's pages: the
    // reports it would start could not wear the agency's brand.
    if !entitled(&agency) {
        return Err(unknown());
    }
    Ok(Widget { key, agency })
}

impl Widget {
    /// The request's `Origin` when the key allows it; [`WidgetError::OriginRefused`] otherwise
    /// (a missing origin included: browsers always send one with a cross-origin request).
    pub fn check_origin(&self, origin: Option<&str>) -> Result<String, WidgetError> {
        match origin {
            Some(o) if rules::origin_allowed(&origins_of(&self.key), o) => Ok(o.to_owned()),
            _ => Err(WidgetError::OriginRefused(rules::origin_refused_message(
                origin,
            ))),
        }
    }
}

/// The script's configuration: the agency's company name and colours from its brand, else its
/// account's name and Sitelens' defaults (docs/PRODUCT.md §9.5).
pub async fn config(db: &DatabaseConnection, widget: &Widget) -> Result<WidgetConfig, WidgetError> {
    let brand = store::accounts::branding_for_user(db, widget.agency.id).await?;
    let fallback_name = || {
        let a = &widget.agency;
        let name = [&a.team_name, &a.first_name, &a.last_name]
            .into_iter()
            .flatten()
            .next()
            .map_or("", |n| n.trim());
        if name.is_empty() {
            "Website audit".to_owned()
        } else {
            name.to_owned()
        }
    };
    Ok(match brand {
        Some(b) => WidgetConfig {
            company_name: b.company_name,
            primary_color: b.primary_color,
            secondary_color: b.secondary_color,
            messages: rules::lead_messages(),
        },
        None => WidgetConfig {
            company_name: fallback_name(),
            primary_color: DEFAULT_PRIMARY.to_owned(),
            secondary_color: DEFAULT_SECONDARY.to_owned(),
            messages: rules::lead_messages(),
        },
    })
}

/// Where a submission goes besides the database.
#[derive(Clone, Copy)]
pub struct Delivery<'a> {
    /// The server's configuration (public URL, salt).
    pub config: &'a Config,
    /// Progress fan-out: idle workers are woken for the new analysis.
    pub hub: &'a Hub,
    /// The agency's mail.
    pub mailer: &'a Mailer,
}

/// A visitor's lead through `widget`: counted against the hourly limits, validated
/// (docs/PRODUCT.md §5.2), then paid by the agency, queued, recorded and mailed to the agency
/// in one transaction. Returns the analysis.
pub async fn submit_lead(
    db: &DatabaseConnection,
    delivery: Delivery<'_>,
    widget: &Widget,
    visitor: IpAddr,
    form: Option<&LeadForm>,
) -> Result<Uuid, WidgetError> {
    let config = delivery.config;
    let visitor_hash =
        crate::services::affiliates::hash_visitor(config, "widget", &free_allowance_key(visitor));
    let limits = Limits {
        per_key: rules::REQUESTS_PER_KEY_PER_HOUR,
        per_visitor: rules::REQUESTS_PER_VISITOR_PER_HOUR,
        window_seconds: rules::RATE_WINDOW_SECONDS,
    };
    match store::widget::count_request(db, widget.key.id, &visitor_hash, store::now(), limits)
        .await?
    {
        RequestCount::Allowed => {}
        RequestCount::KeyLimited(retry_after) => {
            return Err(WidgetError::RateLimited {
                message: rules::rate_limited_message(false),
                retry_after,
            });
        }
        RequestCount::VisitorLimited(retry_after) => {
            return Err(WidgetError::RateLimited {
                message: rules::rate_limited_message(true),
                retry_after,
            });
        }
    }
    // A body that is not the form (not JSON, wrong fields) is answered as an empty form: the
    // visitor sees which fields to fill.
    let empty = LeadForm::default();
    let form = form.unwrap_or(&empty);
    let mut errors = validate_lead(form);
    if errors.is_empty() && rules::clean_first_name(&form.first_name).is_empty() {
        // Only control characters: no name to store or mail.
        errors = validate_lead(&LeadForm {
            first_name: String::new(),
            ..form.clone()
        });
    }
    if !errors.is_empty() {
        return Err(WidgetError::Invalid(errors));
    }
    let site = SiteUrl::parse(form.website_url.trim()).map_err(|_| {
        WidgetError::Invalid(
            validate_lead(&LeadForm {
                website_url: String::new(),
                ..form.clone()
            })
            .into_iter()
            .filter(|e| e.field == "websiteUrl")
            .collect(),
        )
    })?;
    let agency = &widget.agency;
    let analysis = NewAnalysis {
        url: site.to_string(),
        canonical_url: site.to_string(),
        report_type: ReportType::Basic,
        requested_pages: ReportType::Basic.pages(),
        requester_user_id: Some(agency.id),
        requester_ip: Some(visitor.to_string()),
    };
    let lead = NewLead {
        widget_key_id: widget.key.id,
        agency_id: agency.id,
        first_name: rules::clean_first_name(&form.first_name),
        email: form.email.trim().to_owned(),
        website_url: site.to_string(),
        visitor_hash,
    };
    // The analysis id is only known once the job is queued, so the mail links the leads list
    // and names the site; the report's own link is in the list and the export.
    let mail = store::outbox::NewEmail {
        to: agency.email.clone(),
        reply_to: Some(lead.email.clone()),
        subject: format!("New lead from your audit widget: {}", lead.first_name),
        body: lead_mail_body(config, &lead),
        ..store::outbox::NewEmail::default()
    };
    let payer = payer_of(db, agency).await.map_err(|e| match e {
        crate::services::analyses::SubmitError::Store(e) => WidgetError::Store(e),
        other => WidgetError::Internal(other.to_string()),
    })?;
    match store::widget::record_lead(
        db,
        payer,
        report_cost(ReportType::Basic),
        &analysis,
        &lead,
        Some(&mail),
    )
    .await?
    {
        RecordedLead::Insufficient { balance } => {
            tracing::info!(agency = agency.id, key = widget.key.id, %balance, "widget lead refused: the agency's credits do not cover it");
            Err(WidgetError::OutOfCredits)
        }
        RecordedLead::Recorded { job, email_id, .. } => {
            delivery.hub.job_queued().await;
            if let Some(id) = email_id
                && let Err(e) = delivery.mailer.send_queued(db, id).await
            {
                tracing::warn!(outbox_id = id, error = %Chain(&e), "lead mail queued, not sent now");
            }
            Ok(job.id)
        }
    }
}

fn lead_mail_body(config: &Config, lead: &NewLead) -> String {
    let base = config.public_url.trim_end_matches('/');
    format!(
        "A visitor asked for a website audit through your audit widget.\n\n\
         First name: {}\nEmail: {}\nWebsite: {}\n\n\
         Their report is being prepared now, branded with your company name. Open it, and \
         every lead, on your dashboard: {base}/dashboard#widget\n\n\
         Reply to this mail to write to {} directly.\n",
        lead.first_name, lead.email, lead.website_url, lead.first_name
    )
}

/// Where the visitor's branded report is read: the agency's verified custom domain, else our
/// public address.
pub async fn report_base(db: &DatabaseConnection, config: &Config, widget: &Widget) -> String {
    crate::services::custom_domains::public_base_for(db, widget.agency.id)
        .await
        .unwrap_or_else(|| config.public_url.clone())
}

/// Where the widget's analysis `analysis_id` stands, for the visitor's page; an analysis this
/// key did not start is "not found".
pub async fn progress(
    db: &DatabaseConnection,
    config: &Config,
    widget: &Widget,
    analysis_id: &str,
) -> Result<WidgetProgress, WidgetError> {
    let missing = || WidgetError::NotFound("no such analysis for this widget".to_owned());
    let id = Uuid::parse_str(analysis_id.trim()).map_err(|_| missing())?;
    store::widget::lead_for_analysis(db, widget.key.id, id)
        .await?
        .ok_or_else(missing)?;
    let job = store::jobs::get_job(db, id)
        .await
        .map_err(|e| not_found(e, "no such analysis for this widget"))?;
    let event = job.progress_event();
    let status = match job.status {
        JobStatus::Queued => AnalysisStatus::Queued,
        JobStatus::Running => AnalysisStatus::Running,
        JobStatus::Complete => AnalysisStatus::Complete,
        JobStatus::Failed => AnalysisStatus::Failed,
    };
    let report = match job.status {
        JobStatus::Complete => Some(report_url(
            &report_base(db, config, widget).await,
            job.result_id.unwrap_or(job.id),
        )),
        _ => None,
    };
    Ok(WidgetProgress {
        status,
        progress: event.progress,
        message: event.message,
        report_url: report,
    })
}
