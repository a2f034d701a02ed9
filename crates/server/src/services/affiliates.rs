//! The affiliate programme (docs/PRODUCT.md §1.5, §3.10-§3.13; issue 16): applications, the
//! referral click and cookie, sign-up attribution, a conversion per referred payment and its
//! reversal by a refund, the monthly payout run and the admin's decisions. The rules are
//! `domain::affiliates`; the rows and their totals `store::affiliates`; every function that
//! depends on the time takes it as an argument.

use std::net::IpAddr;
use std::sync::OnceLock;

use axum::http::{HeaderMap, HeaderValue};
use chrono::{DateTime, Duration, Utc};
use domain::affiliates::{
    self as rules, AdminAffiliateView, AffiliateApplication, AffiliateDashboard, AffiliateStatus,
    CommissionStatus, ConversionView, PayoutMethod, PayoutView,
};
use sha2::{Digest, Sha256};
use store::DatabaseConnection;
use store::affiliates::{self as rows, ClickOutcome, NewAffiliate, NewClick, PaidPayout, Payment};
use store::audit::NewAuditEntry;
use store::entity::{affiliate_conversions, affiliate_payouts, affiliates, users};

use crate::config::{Config, Stripe};
use crate::error::{AppError, AppResult};
use crate::extract::cookie_value;
use crate::state::CookiePolicy;

/// The salt of hashed visitor addresses: `SITELENS_REFERRAL_SALT`, else one random salt for
/// this process.
fn salt(config: &Config) -> Vec<u8> {
    static PROCESS_SALT: OnceLock<[u8; 32]> = OnceLock::new();
    match &config.referral_salt {
        Some(s) => s.0.as_bytes().to_vec(),
        None => PROCESS_SALT
            .get_or_init(|| {
                let mut bytes = [0u8; 32];
                if getrandom::fill(&mut bytes).is_err() {
                    tracing::error!("no randomness for the referral salt");
                }
                bytes
            })
            .to_vec(),
    }
}

fn keyed_hex(salt: &[u8], purpose: &str, value: &str) -> String {
    let mut hash = Sha256::new();
    hash.update(salt);
    hash.update(purpose.as_bytes());
    hash.update([0u8]);
    hash.update(value.as_bytes());
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// The stored form of a visitor's address: the salted SHA-256, hex.
pub fn hash_address(config: &Config, ip: IpAddr) -> String {
    keyed_hex(&salt(config), "ip", &ip.to_string())
}

/// The stored form of something that names a visitor, kept apart by `purpose` (the audit
/// widget's visitor networks): the salted SHA-256, hex, with the same salt as [`hash_address`].
pub fn hash_visitor(config: &Config, purpose: &str, value: &str) -> String {
    keyed_hex(&salt(config), purpose, value)
}

/// The referral cookie's value: the click id and a keyed check, so a browser cannot name a
/// click it was not given.
fn cookie_token(config: &Config, click_id: i64) -> String {
    let id = click_id.to_string();
    format!("{id}.{}", &keyed_hex(&salt(config), "click", &id)[..16])
}

/// The click a referral cookie names, when its check holds.
pub fn click_of_cookie(config: &Config, headers: &HeaderMap) -> Option<i64> {
    let value = cookie_value(headers, rules::REFERRAL_COOKIE)?;
    let (id, _) = value.split_once('.')?;
    let id: i64 = id.parse().ok()?;
    (cookie_token(config, id) == value).then_some(id)
}

/// The `Set-Cookie` of a referral: first party, HttpOnly, SameSite=Lax, for the cookie window.
pub fn referral_cookie(config: &Config, policy: &CookiePolicy, click_id: i64) -> HeaderValue {
    let secure = if policy.secure { "; Secure" } else { "" };
    let text = format!(
        "{}={}; Path=/; HttpOnly; SameSite=Lax; Max-Age={}{secure}",
        rules::REFERRAL_COOKIE,
        cookie_token(config, click_id),
        rows::cookie_max_age().num_seconds()
    );
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// A visit with `?ref=CODE`.
#[derive(Debug, Clone)]
pub struct Visit {
    /// The code as found in the address.
    pub code: String,
    /// The visitor's address (hashed before it is stored).
    pub ip: IpAddr,
    /// `User-Agent`.
    pub user_agent: Option<String>,
    /// `Referer`.
    pub referrer: Option<String>,
    /// The path and query landed on.
    pub landing_page: String,
    /// The signed-in visitor, if any.
    pub user_id: Option<i64>,
}

fn clip(s: Option<&str>, max: usize) -> Option<String> {
    s.map(|s| s.chars().take(max).collect::<String>())
        .filter(|s| !s.is_empty())
}

/// Records a referral visit at `at`: nothing for an unknown code, an affiliate that is not
/// approved, or the affiliate's own account (self-referral); otherwise the click (counted once
/// per address and day) whose id the cookie carries.
pub async fn track(
    db: &DatabaseConnection,
    config: &Config,
    visit: &Visit,
    at: DateTime<Utc>,
) -> AppResult<Option<ClickOutcome>> {
    let Some(code) = rules::normalize_code(&visit.code) else {
        return Ok(None);
    };
    let Some(affiliate) = rows::find_affiliate_by_code(db, &code).await? else {
        return Ok(None);
    };
    if affiliate.status != AffiliateStatus::Approved.as_str()
        || (visit.user_id.is_some() && affiliate.user_id == visit.user_id)
    {
        return Ok(None);
    }
    let click = NewClick {
        ip_address: hash_address(config, visit.ip),
        user_agent: clip(visit.user_agent.as_deref(), 500),
        referrer: clip(visit.referrer.as_deref(), 1000),
        landing_page: clip(Some(&visit.landing_page), 1000),
    };
    Ok(Some(
        rows::record_click(db, affiliate.id, &click, at).await?,
    ))
}

/// After a sign-up (or a provider sign-in that made an account): links the new account to the
/// affiliate of the referral cookie the browser carries, when the rules allow
/// ([`rows::attribute_signup`]). Never fails the sign-up: a failure is logged.
pub async fn attribute(
    db: &DatabaseConnection,
    config: &Config,
    headers: &HeaderMap,
    user_id: i64,
    at: DateTime<Utc>,
) {
    let Some(click) = click_of_cookie(config, headers) else {
        return;
    };
    if let Err(e) = rows::attribute_signup(db, user_id, click, at).await {
        tracing::error!(error = %e, user_id, click, "referral attribution failed");
    }
}

/// The affiliate side of a billing event, after its effect (`billing::apply_event`): a paid
/// checkout or invoice may be a referred customer's conversion; a refund reverses one.
pub async fn after_billing_event(
    db: &DatabaseConnection,
    event: &crate::services::billing::BillingEvent,
) -> Result<(), store::StoreError> {
    use crate::services::billing::BillingEvent as E;
    match event {
        E::CheckoutCompleted { payment_id, .. } => on_payment(db, payment_id).await,
        E::InvoicePaid { invoice_id, .. } => on_payment(db, invoice_id).await,
        E::Refunded {
            payment_id,
            invoice,
            ..
        } => {
            let ids: Vec<&str> = std::iter::once(payment_id.as_str())
                .chain(invoice.as_deref())
                .collect();
            on_refund(db, &ids, store::now()).await
        }
        _ => Ok(()),
    }
}

/// After a payment is granted (billing's one path, for Stripe and test payments alike): the
/// conversion of a referred payer's payment, once per payment id. Called for every delivery
/// of the payment's event, so a failure here is completed by the redelivery.
pub async fn on_payment(
    db: &DatabaseConnection,
    payment_id: &str,
) -> Result<(), store::StoreError> {
    let Some(purchase) = store::credits::find_purchase(db, payment_id).await? else {
        return Ok(());
    };
    let Some(user_id) = purchase.user_id else {
        return Ok(());
    };
    let kind = if purchase.package_type.starts_with("plan") || payment_id.starts_with("in_") {
        format!("subscription:{}", purchase.package_type)
    } else {
        format!("credits:{}", purchase.package_type)
    };
    rows::record_payment(
        db,
        &Payment {
            user_id,
            payment_id: payment_id.to_owned(),
            amount_cents: purchase.amount_paid_cents,
            transaction_type: kind,
            paid_at: purchase.created_at,
        },
    )
    .await?;
    Ok(())
}

/// After a refund: reverses the commission of the refunded payment (any of `payments`, the
/// ids a refund may name) unless it was paid out.
pub async fn on_refund(
    db: &DatabaseConnection,
    payments: &[&str],
    at: DateTime<Utc>,
) -> Result<(), store::StoreError> {
    for id in payments {
        rows::reverse_payment(db, id, at).await?;
    }
    Ok(())
}

/// The affiliate part of the periodic sweep at `at`: commissions whose refund window ended are
/// approved, and on the payout day ([`rules::PAYOUT_DAY_OF_MONTH`]) the monthly payout run
/// proposes payouts (each commission joins one payout only, so sweeping often on that day
/// proposes each once). Failures are logged and tried again next sweep.
pub async fn scheduled(db: &DatabaseConnection, at: DateTime<Utc>) {
    use chrono::Datelike;
    let result = if at.day() == rules::PAYOUT_DAY_OF_MONTH {
        rows::propose_payouts(db, at, None)
            .await
            .map(|p| p.len() as u64)
    } else {
        rows::approve_due(db, at).await
    };
    match result {
        Ok(0) => {}
        Ok(n) => tracing::info!(n, "affiliate commissions approved or payouts proposed"),
        Err(e) => tracing::error!(error = %e, "affiliate sweep failed"),
    }
}

fn rfc3339(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

fn new_code() -> AppResult<String> {
    let mut bytes = [0u8; rules::CODE_LENGTH];
    getrandom::fill(&mut bytes).map_err(|e| AppError::internal(e.to_string()))?;
    Ok(rules::make_code(&bytes))
}

/// An application from the signed-in `user`: one per account and e-mail address (409 with
/// [`rules::ALREADY_APPLIED_MESSAGE`]); the form checked by `domain`.
pub async fn apply(
    db: &DatabaseConnection,
    config: &Config,
    user: &users::Model,
    form: &AffiliateApplication,
) -> AppResult<AffiliateDashboard> {
    if let Some(first) = rules::validate_application(form).into_iter().next() {
        return Err(AppError::Unprocessable(first.message));
    }
    if rows::find_affiliate_by_user(db, user.id).await?.is_some()
        || rows::find_affiliate_by_email(db, &form.email)
            .await?
            .is_some()
    {
        return Err(AppError::Conflict(
            rules::ALREADY_APPLIED_MESSAGE.to_owned(),
        ));
    }
    let optional = |s: &str| Some(s.trim().to_owned()).filter(|s| !s.is_empty());
    let website =
        optional(&form.website).map(|w| domain::site_url::normalize_input(&w).unwrap_or(w));
    for _ in 0..5 {
        let created = rows::create_affiliate(
            db,
            &NewAffiliate {
                user_id: Some(user.id),
                affiliate_code: new_code()?,
                name: form.name.trim().to_owned(),
                email: form.email.trim().to_owned(),
                website: website.clone(),
                company: optional(&form.company),
                experience: form.experience.trim().to_owned(),
                traffic_source: form.traffic_source.trim().to_owned(),
                monthly_traffic: form.monthly_traffic.trim().to_owned(),
                motivation: form.motivation.trim().to_owned(),
                commission_rate: i32::try_from(rules::DEFAULT_RATE_PERCENT).unwrap_or(30),
            },
        )
        .await;
        match created {
            Ok(row) => return dashboard_of(db, config, row).await,
            Err(store::StoreError::Conflict(_)) => {
                // The e-mail raced another application, or (rarely) the code was taken.
                if rows::find_affiliate_by_email(db, &form.email)
                    .await?
                    .is_some()
                    || rows::find_affiliate_by_user(db, user.id).await?.is_some()
                {
                    return Err(AppError::Conflict(
                        rules::ALREADY_APPLIED_MESSAGE.to_owned(),
                    ));
                }
            }
            Err(e) => return Err(e.into()),
        }
    }
    Err(AppError::Conflict(
        "Please try again: no free referral code was found.".to_owned(),
    ))
}

/// The signed-in user's affiliate dashboard; 404 when they have not applied.
pub async fn dashboard(
    db: &DatabaseConnection,
    config: &Config,
    user: &users::Model,
) -> AppResult<AffiliateDashboard> {
    let row = rows::find_affiliate_by_user(db, user.id)
        .await?
        .ok_or_else(|| {
            AppError::NotFound("You have not applied to the affiliate programme yet.".to_owned())
        })?;
    dashboard_of(db, config, row).await
}

/// The signed-in user's referral code and link when they are an approved affiliate (the share
/// widget appends the code to the report's address).
pub async fn referral(
    db: &DatabaseConnection,
    config: &Config,
    user: &users::Model,
) -> AppResult<Option<(String, String)>> {
    Ok(rows::find_affiliate_by_user(db, user.id)
        .await?
        .filter(|a| a.status == AffiliateStatus::Approved.as_str())
        .map(|a| {
            let link = rules::referral_link(&config.public_url, &a.affiliate_code);
            (a.affiliate_code, link)
        }))
}

fn status_of(row: &affiliates::Model) -> AffiliateStatus {
    AffiliateStatus::parse(&row.status).unwrap_or(AffiliateStatus::Pending)
}

/// A conversion as shown.
pub fn conversion_view(c: &affiliate_conversions::Model) -> ConversionView {
    let status = CommissionStatus::parse(&c.commission_status).unwrap_or(CommissionStatus::Pending);
    ConversionView {
        id: c.id,
        at: rfc3339(c.timestamp),
        transaction_type: c.transaction_type.clone(),
        amount_cents: c.transaction_amount_cents,
        commission_cents: c.commission_amount_cents,
        status,
        approves_at: (status == CommissionStatus::Pending)
            .then(|| rfc3339(c.timestamp + Duration::days(rules::REFUND_WINDOW_DAYS))),
    }
}

/// A payout as shown.
pub fn payout_view(p: &affiliate_payouts::Model) -> PayoutView {
    PayoutView {
        id: p.id,
        affiliate_id: p.affiliate_id,
        amount_cents: p.amount_cents,
        method: p.method.clone(),
        status: p.status.clone(),
        created_at: rfc3339(p.created_at),
        paid_at: p.payout_date.map(rfc3339),
        transfer_id: p.stripe_transfer_id.clone(),
        note: p.notes.clone(),
    }
}

async fn dashboard_of(
    db: &DatabaseConnection,
    config: &Config,
    row: affiliates::Model,
) -> AppResult<AffiliateDashboard> {
    let sums = rows::commission_sums(db, row.id).await?;
    let conversions = rows::conversions_of(db, Some(row.id), 50).await?;
    let payouts = rows::payouts_of(db, Some(row.id), None).await?;
    let status = status_of(&row);
    let next = row.next_payout_date.or_else(|| {
        (status == AffiliateStatus::Approved).then(|| rows::next_payout_at(store::now()))
    });
    Ok(AffiliateDashboard {
        status,
        rejection_reason: row.rejection_reason.clone(),
        code: row.affiliate_code.clone(),
        referral_link: rules::referral_link(&config.public_url, &row.affiliate_code),
        commission_percent: u32::try_from(row.commission_rate).unwrap_or(0),
        clicks: i64::from(row.total_clicks),
        conversions: i64::from(row.total_conversions),
        earnings_cents: row.total_earnings_cents,
        pending_cents: sums.pending,
        approved_cents: sums.approved,
        paid_cents: row.total_earnings_cents - row.pending_payouts_cents,
        payout_minimum_cents: rules::PAYOUT_MINIMUM_CENTS,
        last_payout_date: row.last_payout_date.map(rfc3339),
        next_payout_date: next.map(rfc3339),
        recent_conversions: conversions.iter().map(conversion_view).collect(),
        payouts: payouts.iter().map(payout_view).collect(),
    })
}

/// An affiliate as the admin area lists it.
pub fn admin_view(row: &affiliates::Model) -> AdminAffiliateView {
    AdminAffiliateView {
        id: row.id,
        user_id: row.user_id,
        code: row.affiliate_code.clone(),
        name: row.name.clone(),
        email: row.email.clone(),
        website: row.website.clone(),
        company: row.company.clone(),
        experience: row.experience.clone(),
        traffic_source: row.traffic_source.clone(),
        monthly_traffic: row.monthly_traffic.clone(),
        motivation: row.motivation.clone(),
        status: status_of(row),
        rejection_reason: row.rejection_reason.clone(),
        commission_percent: u32::try_from(row.commission_rate).unwrap_or(0),
        clicks: i64::from(row.total_clicks),
        conversions: i64::from(row.total_conversions),
        earnings_cents: row.total_earnings_cents,
        unpaid_cents: row.pending_payouts_cents,
        has_connected_account: row.stripe_account_id.is_some(),
        created_at: rfc3339(row.created_at),
    }
}

/// Approves or rejects a pending application; a rejection needs a reason
/// (`domain::admin::check_reason`); written to the audit log in the same transaction.
pub async fn review(
    db: &DatabaseConnection,
    affiliate_id: i64,
    approve: bool,
    reason: &str,
    audit: impl FnOnce(Option<String>, serde_json::Value) -> NewAuditEntry + Send,
) -> AppResult<AdminAffiliateView> {
    let reason = if approve {
        Some(reason.trim().to_owned()).filter(|r| !r.is_empty())
    } else {
        Some(domain::admin::check_reason(reason).map_err(AppError::Unprocessable)?)
    };
    let status = if approve {
        AffiliateStatus::Approved
    } else {
        AffiliateStatus::Rejected
    };
    let entry = audit(
        reason.clone(),
        serde_json::json!({ "from": "pending", "to": status.as_str() }),
    );
    let row = rows::review_affiliate(
        db,
        affiliate_id,
        status,
        if approve { None } else { reason.as_deref() },
        store::now(),
        &entry,
    )
    .await
    .map_err(|e| match e {
        store::StoreError::Conflict(m) => AppError::Conflict(capitalise(&m)),
        other => AppError::from_store(other, "No such affiliate application."),
    })?;
    Ok(admin_view(&row))
}

/// Sets or removes the affiliate's Stripe connected account (`domain` checks its form), with a
/// required reason; written to the audit log in the same transaction.
pub async fn set_connected_account(
    db: &DatabaseConnection,
    affiliate_id: i64,
    request: &domain::affiliates::ConnectedAccountRequest,
    audit: impl FnOnce(String, serde_json::Value) -> NewAuditEntry + Send,
) -> AppResult<AdminAffiliateView> {
    let account =
        rules::check_connected_account(&request.account_id).map_err(AppError::Unprocessable)?;
    let reason = domain::admin::check_reason(&request.reason).map_err(AppError::Unprocessable)?;
    let entry = audit(reason, serde_json::json!({ "accountId": account }));
    let row =
        rows::set_connected_account(db, affiliate_id, account.as_deref(), store::now(), &entry)
            .await
            .map_err(|e| AppError::from_store(e, "No such affiliate application."))?;
    Ok(admin_view(&row))
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect::<String>() + ".",
        None => String::new(),
    }
}

/// Confirms a proposed payout: with `stripe`, a Stripe Connect transfer to the affiliate's
/// connected account first (refused when Stripe keys or the account are missing; Stripe's
/// idempotency key is the payout, so a retry never transfers twice); with `manual`, the
/// admin's note is required. Then the payout, its commissions and the totals in one
/// transaction with the audit row.
pub async fn confirm_payout(
    db: &DatabaseConnection,
    config: &Config,
    payout_id: i64,
    method: PayoutMethod,
    note: &str,
    at: DateTime<Utc>,
    audit: impl FnOnce(serde_json::Value) -> NewAuditEntry + Send,
) -> AppResult<PayoutView> {
    let payout = rows::get_payout(db, payout_id)
        .await
        .map_err(|e| AppError::from_store(e, "No such payout."))?;
    if payout.status != "pending" {
        return Err(AppError::Conflict(format!(
            "This payout is already {}.",
            payout.status
        )));
    }
    let affiliate = rows::get_affiliate(db, payout.affiliate_id).await?;
    let (transfer_id, note) = match method {
        PayoutMethod::Manual => (
            None,
            Some(rules::check_payout_note(note).map_err(AppError::Unprocessable)?),
        ),
        PayoutMethod::Stripe => {
            let (Some(stripe), Some(account)) = (&config.stripe, &affiliate.stripe_account_id)
            else {
                return Err(AppError::Unprocessable(
                    "A Stripe transfer needs Stripe keys and the affiliate's connected account; record a manual payment instead.".to_owned(),
                ));
            };
            let id = transfer(stripe, account, &payout).await?;
            (
                Some(id),
                Some(note.trim().to_owned()).filter(|n| !n.is_empty()),
            )
        }
    };
    let entry = audit(serde_json::json!({
        "amountCents": payout.amount_cents,
        "method": method.as_str(),
        "transferId": transfer_id,
        "affiliateId": payout.affiliate_id,
    }));
    let row = rows::confirm_payout(
        db,
        payout_id,
        &PaidPayout {
            method,
            transfer_id,
            note,
        },
        at,
        &entry,
    )
    .await
    .map_err(|e| match e {
        store::StoreError::Conflict(m) => AppError::Conflict(capitalise(&m)),
        other => AppError::from_store(other, "No such payout."),
    })?;
    Ok(payout_view(&row))
}

/// A Stripe Connect transfer of the payout's amount (USD) to `account`; returns its id.
async fn transfer(
    stripe: &Stripe,
    account: &str,
    payout: &affiliate_payouts::Model,
) -> AppResult<String> {
    let url = format!("{}/v1/transfers", stripe.api_base.trim_end_matches('/'));
    let form = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("amount", &payout.amount_cents.to_string())
        .append_pair("currency", "usd")
        .append_pair("destination", account)
        .append_pair("transfer_group", &format!("payout-{}", payout.id))
        .finish();
    let response = reqwest::Client::new()
        .post(url)
        .basic_auth(&stripe.secret_key.0, Some(""))
        .header("Idempotency-Key", format!("sitelens-payout-{}", payout.id))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body(form)
        .send()
        .await
        .and_then(reqwest::Response::error_for_status)
        .map_err(|e| AppError::BadGateway {
            message: "Stripe did not make the transfer; nothing was recorded.".to_owned(),
            source: Box::new(e),
        })?;
    let bytes = response.bytes().await.map_err(|e| AppError::BadGateway {
        message: "Stripe's answer to the transfer could not be read; check Stripe before retrying."
            .to_owned(),
        source: Box::new(e),
    })?;
    let body: serde_json::Value =
        serde_json::from_slice(&bytes).map_err(|e| AppError::BadGateway {
            message:
                "Stripe's answer to the transfer could not be read; check Stripe before retrying."
                    .to_owned(),
            source: Box::new(e),
        })?;
    body["id"]
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| AppError::BadGateway {
            message: "Stripe's answer to the transfer had no id; check Stripe before retrying."
                .to_owned(),
            source: Box::new(std::io::Error::other("no transfer id")),
        })
}
