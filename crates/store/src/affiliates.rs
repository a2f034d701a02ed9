//! The affiliate programme (SPEC.md section 3): affiliates, clicks and conversions. Amounts
//! are integer cents; totals on the affiliate row move in the same transaction as the rows
//! they summarise.

use sea_orm::{ActiveValue::Set, ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter, Value};

use crate::entity::affiliates;
use crate::sql::{exec, now, query_one};
use crate::{StoreError, StoreResult, begin_write};

/// An affiliate application.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NewAffiliate {
    /// Linked user, if signed in.
    pub user_id: Option<i64>,
    /// The code used in referral links; unique.
    pub affiliate_code: String,
    /// Name.
    pub name: String,
    /// E-mail; unique.
    pub email: String,
    /// Website.
    pub website: Option<String>,
    /// Company.
    pub company: Option<String>,
    /// Marketing experience.
    pub experience: String,
    /// Where their traffic comes from.
    pub traffic_source: String,
    /// Monthly traffic band.
    pub monthly_traffic: String,
    /// Why they apply.
    pub motivation: String,
    /// Commission in percent (SPEC.md section 9: 30 by default; from the domain crate).
    pub commission_rate: i32,
}

/// A click on a referral link.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NewClick {
    /// Visitor address.
    pub ip_address: String,
    /// Visitor's user agent.
    pub user_agent: Option<String>,
    /// Referring page.
    pub referrer: Option<String>,
    /// Where the visitor landed.
    pub landing_page: Option<String>,
}

/// A purchase credited to an affiliate.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NewConversion {
    /// The click that led to it, if known.
    pub click_id: Option<i64>,
    /// The buyer.
    pub user_id: Option<i64>,
    /// credits, subscription, ...
    pub transaction_type: String,
    /// What the buyer paid, in cents.
    pub transaction_amount_cents: i64,
    /// The affiliate's commission, in cents.
    pub commission_amount_cents: i64,
    /// Buyer's e-mail.
    pub customer_email: Option<String>,
    /// The payment; a conversion is recorded once per payment.
    pub stripe_payment_intent_id: Option<String>,
}

/// Registers an affiliate (status pending); [`StoreError::Conflict`] when the code or e-mail
/// is taken.
pub async fn create_affiliate(
    db: &DatabaseConnection,
    affiliate: &NewAffiliate,
) -> StoreResult<affiliates::Model> {
    let at = now();
    let a = affiliate.clone();
    let row = affiliates::ActiveModel {
        user_id: Set(a.user_id),
        affiliate_code: Set(a.affiliate_code),
        name: Set(a.name),
        email: Set(a.email.trim().to_lowercase()),
        website: Set(a.website),
        company: Set(a.company),
        experience: Set(a.experience),
        traffic_source: Set(a.traffic_source),
        monthly_traffic: Set(a.monthly_traffic),
        motivation: Set(a.motivation),
        status: Set("pending".into()),
        commission_rate: Set(a.commission_rate),
        total_earnings_cents: Set(0),
        pending_payouts_cents: Set(0),
        total_clicks: Set(0),
        total_conversions: Set(0),
        last_payout_date: Set(None),
        next_payout_date: Set(None),
        created_at: Set(at),
        updated_at: Set(at),
        ..Default::default()
    };
    let id = affiliates::Entity::insert(row)
        .exec(db)
        .await?
        .last_insert_id;
    affiliates::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or(StoreError::NotFound)
}

/// The affiliate with this referral code.
pub async fn find_affiliate_by_code(
    db: &DatabaseConnection,
    code: &str,
) -> StoreResult<Option<affiliates::Model>> {
    Ok(affiliates::Entity::find()
        .filter(affiliates::Column::AffiliateCode.eq(code))
        .one(db)
        .await?)
}

/// Records a click and counts it on the affiliate; returns the click id.
pub async fn record_click(
    db: &DatabaseConnection,
    affiliate_id: i64,
    click: &NewClick,
) -> StoreResult<i64> {
    let txn = begin_write(db).await?;
    let counted = exec(
        &txn,
        "UPDATE affiliates SET total_clicks = total_clicks + 1 WHERE id = ?",
        vec![affiliate_id.into()],
    )
    .await?;
    if counted.rows_affected() != 1 {
        return Err(StoreError::NotFound);
    }
    let row = query_one(
        &txn,
        "INSERT INTO affiliate_clicks (affiliate_id, ip_address, user_agent, referrer, landing_page, timestamp) \
         VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
        vec![
            affiliate_id.into(),
            click.ip_address.clone().into(),
            Value::from(click.user_agent.clone()),
            Value::from(click.referrer.clone()),
            Value::from(click.landing_page.clone()),
            now().into(),
        ],
    )
    .await?
    .ok_or(StoreError::NotFound)?;
    let id: i64 = row.try_get("", "id")?;
    txn.commit().await?;
    Ok(id)
}

/// Records a conversion and adds its commission to the affiliate's earnings and pending
/// payouts. Returns `false` (and changes nothing) when this payment was already recorded.
pub async fn record_conversion(
    db: &DatabaseConnection,
    affiliate_id: i64,
    conversion: &NewConversion,
) -> StoreResult<bool> {
    let txn = begin_write(db).await?;
    let inserted = exec(
        &txn,
        "INSERT INTO affiliate_conversions (affiliate_id, click_id, user_id, transaction_type, \
         transaction_amount_cents, commission_amount_cents, commission_status, customer_email, \
         stripe_payment_intent_id, timestamp) VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?) \
         ON CONFLICT (stripe_payment_intent_id) DO NOTHING",
        vec![
            affiliate_id.into(),
            Value::from(conversion.click_id),
            Value::from(conversion.user_id),
            conversion.transaction_type.clone().into(),
            conversion.transaction_amount_cents.into(),
            conversion.commission_amount_cents.into(),
            Value::from(conversion.customer_email.clone()),
            Value::from(conversion.stripe_payment_intent_id.clone()),
            now().into(),
        ],
    )
    .await?;
    if inserted.rows_affected() == 0 {
        txn.rollback().await?;
        return Ok(false);
    }
    exec(
        &txn,
        "UPDATE affiliates SET total_conversions = total_conversions + 1, \
         total_earnings_cents = total_earnings_cents + ?, pending_payouts_cents = pending_payouts_cents + ?, \
         updated_at = ? WHERE id = ?",
        vec![
            conversion.commission_amount_cents.into(),
            conversion.commission_amount_cents.into(),
            now().into(),
            affiliate_id.into(),
        ],
    )
    .await?;
    txn.commit().await?;
    Ok(true)
}
