//! The affiliate programme (docs/PRODUCT.md §3.10-§3.13): affiliates, clicks and conversions.
//! Amounts are integer cents; totals on the affiliate row move in the same transaction as the rows
//! they summarise.

use sea_orm::sea_query::{Expr, ExprTrait, OnConflict};
use sea_orm::{ActiveValue::Set, ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter};

use crate::clock::now;
use crate::entity::affiliates::Column as A;
use crate::entity::{affiliate_clicks, affiliate_conversions, affiliates};
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
    /// Commission in percent (docs/PRODUCT.md §9.5: 30 by default; from the domain crate).
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
    let counted = affiliates::Entity::update_many()
        .col_expr(A::TotalClicks, Expr::col(A::TotalClicks).add(1))
        .filter(A::Id.eq(affiliate_id))
        .exec(&txn)
        .await?;
    if counted.rows_affected != 1 {
        return Err(StoreError::NotFound);
    }
    let id = affiliate_clicks::Entity::insert(affiliate_clicks::ActiveModel {
        affiliate_id: Set(affiliate_id),
        ip_address: Set(click.ip_address.clone()),
        user_agent: Set(click.user_agent.clone()),
        referrer: Set(click.referrer.clone()),
        landing_page: Set(click.landing_page.clone()),
        timestamp: Set(now()),
        ..Default::default()
    })
    .exec(&txn)
    .await?
    .last_insert_id;
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
    let c = conversion.clone();
    let inserted = affiliate_conversions::Entity::insert(affiliate_conversions::ActiveModel {
        affiliate_id: Set(affiliate_id),
        click_id: Set(c.click_id),
        user_id: Set(c.user_id),
        transaction_type: Set(c.transaction_type),
        transaction_amount_cents: Set(c.transaction_amount_cents),
        commission_amount_cents: Set(c.commission_amount_cents),
        commission_status: Set("pending".to_owned()),
        customer_email: Set(c.customer_email),
        stripe_payment_intent_id: Set(c.stripe_payment_intent_id),
        timestamp: Set(now()),
        ..Default::default()
    })
    .on_conflict(
        OnConflict::column(affiliate_conversions::Column::StripePaymentIntentId)
            .do_nothing()
            .to_owned(),
    )
    .exec_without_returning(&txn)
    .await?;
    if inserted == 0 {
        txn.rollback().await?;
        return Ok(false);
    }
    let commission = conversion.commission_amount_cents;
    affiliates::Entity::update_many()
        .col_expr(A::TotalConversions, Expr::col(A::TotalConversions).add(1))
        .col_expr(
            A::TotalEarningsCents,
            Expr::col(A::TotalEarningsCents).add(commission),
        )
        .col_expr(
            A::PendingPayoutsCents,
            Expr::col(A::PendingPayoutsCents).add(commission),
        )
        .col_expr(A::UpdatedAt, Expr::value(now()))
        .filter(A::Id.eq(affiliate_id))
        .exec(&txn)
        .await?;
    txn.commit().await?;
    Ok(true)
}
