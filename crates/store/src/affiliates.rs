//! The affiliate programme (docs/PRODUCT.md §3.10-§3.13): affiliates, clicks, conversions and
//! payouts. Amounts are integer cents; the totals on the affiliate row move in the same
//! transaction as the rows they summarise, so they always equal them:
//!
//! - `total_clicks`: counted clicks (one per affiliate, hashed address and UTC day);
//! - `total_conversions`: conversions not reversed;
//! - `total_earnings_cents`: commissions not reversed (pending, approved and paid);
//! - `pending_payouts_cents`: commissions not yet paid (pending and approved);
//! - paid out = `total_earnings_cents - pending_payouts_cents` = the sum of paid payouts.
//!
//! Every function takes the time as an argument (the caller's clock), so tests step through
//! the cookie, conversion and refund windows.

use chrono::{DateTime, Datelike, Duration, NaiveDate, TimeZone, Utc};
use domain::affiliates::{
    self as rules, AffiliateStatus, CommissionStatus, PayoutMethod, REFERRAL_COOKIE_DAYS,
    REFUND_WINDOW_DAYS,
};
use sea_orm::sea_query::{Expr, ExprTrait, OnConflict};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter,
    QueryOrder, QuerySelect,
};

use crate::audit::NewAuditEntry;
use crate::entity::affiliates::Column as A;
use crate::entity::{
    affiliate_clicks, affiliate_conversions, affiliate_payouts, affiliate_referrals, affiliates,
};
use crate::{StoreError, StoreResult, begin_write};

use affiliate_conversions::Column as Cv;
use affiliate_payouts::Column as P;

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
    /// The visitor's address as a salted SHA-256 (hex), never the address itself.
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
    let at = crate::clock::now();
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
        status: Set(AffiliateStatus::Pending.as_str().into()),
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
    get_affiliate(db, id).await
}

/// The affiliate with this id.
pub async fn get_affiliate<C: ConnectionTrait>(
    conn: &C,
    id: i64,
) -> StoreResult<affiliates::Model> {
    affiliates::Entity::find_by_id(id)
        .one(conn)
        .await?
        .ok_or(StoreError::NotFound)
}

/// The affiliate with this referral code.
pub async fn find_affiliate_by_code(
    db: &DatabaseConnection,
    code: &str,
) -> StoreResult<Option<affiliates::Model>> {
    Ok(affiliates::Entity::find()
        .filter(A::AffiliateCode.eq(code))
        .one(db)
        .await?)
}

/// The application made by this account, if any.
pub async fn find_affiliate_by_user(
    db: &DatabaseConnection,
    user_id: i64,
) -> StoreResult<Option<affiliates::Model>> {
    Ok(affiliates::Entity::find()
        .filter(A::UserId.eq(user_id))
        .one(db)
        .await?)
}

/// The application made with this e-mail address, if any.
pub async fn find_affiliate_by_email(
    db: &DatabaseConnection,
    email: &str,
) -> StoreResult<Option<affiliates::Model>> {
    Ok(affiliates::Entity::find()
        .filter(A::Email.eq(email.trim().to_lowercase()))
        .one(db)
        .await?)
}

/// Affiliates, newest first, of one status or all.
pub async fn list_affiliates(
    db: &DatabaseConnection,
    status: Option<AffiliateStatus>,
) -> StoreResult<Vec<affiliates::Model>> {
    let mut query = affiliates::Entity::find().order_by_desc(A::Id);
    if let Some(status) = status {
        query = query.filter(A::Status.eq(status.as_str()));
    }
    Ok(query.limit(500).all(db).await?)
}

/// What [`record_click`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClickOutcome {
    /// A new click, counted on the affiliate.
    Counted(i64),
    /// This address already clicked this affiliate's link today: the first click of the day,
    /// not counted again.
    Repeated(i64),
}

impl ClickOutcome {
    /// The click the visitor's referral names.
    pub fn click_id(self) -> i64 {
        match self {
            Self::Counted(id) | Self::Repeated(id) => id,
        }
    }
}

fn day_of(at: DateTime<Utc>) -> String {
    at.format("%Y-%m-%d").to_string()
}

/// Records a click at `at`, counted once per affiliate, hashed address and UTC day (decided by
/// the unique index, so concurrent clicks count once); [`StoreError::NotFound`] for an unknown
/// affiliate.
pub async fn record_click(
    db: &DatabaseConnection,
    affiliate_id: i64,
    click: &NewClick,
    at: DateTime<Utc>,
) -> StoreResult<ClickOutcome> {
    let txn = begin_write(db).await?;
    get_affiliate(&txn, affiliate_id).await?;
    let day = day_of(at);
    let inserted = affiliate_clicks::Entity::insert(affiliate_clicks::ActiveModel {
        affiliate_id: Set(affiliate_id),
        ip_address: Set(click.ip_address.clone()),
        user_agent: Set(click.user_agent.clone()),
        referrer: Set(click.referrer.clone()),
        landing_page: Set(click.landing_page.clone()),
        timestamp: Set(at),
        click_day: Set(Some(day.clone())),
        ..Default::default()
    })
    .on_conflict(
        OnConflict::columns([
            affiliate_clicks::Column::AffiliateId,
            affiliate_clicks::Column::IpAddress,
            affiliate_clicks::Column::ClickDay,
        ])
        .do_nothing()
        .to_owned(),
    )
    .exec_without_returning(&txn)
    .await?;
    let id = affiliate_clicks::Entity::find()
        .filter(affiliate_clicks::Column::AffiliateId.eq(affiliate_id))
        .filter(affiliate_clicks::Column::IpAddress.eq(click.ip_address.clone()))
        .filter(affiliate_clicks::Column::ClickDay.eq(day))
        .one(&txn)
        .await?
        .ok_or(StoreError::NotFound)?
        .id;
    if inserted == 0 {
        txn.commit().await?;
        return Ok(ClickOutcome::Repeated(id));
    }
    affiliates::Entity::update_many()
        .col_expr(A::TotalClicks, Expr::col(A::TotalClicks).add(1))
        .filter(A::Id.eq(affiliate_id))
        .exec(&txn)
        .await?;
    txn.commit().await?;
    Ok(ClickOutcome::Counted(id))
}

/// Links the account `user_id` to the affiliate of `click_id` when the account was made within
/// the referral window after that click ([`rules::in_cookie_window`]), at most `at` is still in
/// it, the affiliate is approved and is not the account itself, and the account has no
/// referrer yet. An account that existed before the click is never linked, so calling this
/// after any sign-in is safe. Returns whether it linked.
pub async fn attribute_signup(
    db: &DatabaseConnection,
    user_id: i64,
    click_id: i64,
    at: DateTime<Utc>,
) -> StoreResult<bool> {
    let Some(click) = affiliate_clicks::Entity::find_by_id(click_id)
        .one(db)
        .await?
    else {
        return Ok(false);
    };
    let affiliate = get_affiliate(db, click.affiliate_id).await?;
    let user = crate::users::get_user(db, user_id).await?;
    let clicked = click.timestamp.timestamp();
    if affiliate.status != AffiliateStatus::Approved.as_str()
        || affiliate.user_id == Some(user_id)
        || !rules::in_cookie_window(clicked, user.created_at.timestamp())
        || !rules::in_cookie_window(clicked, at.timestamp())
    {
        return Ok(false);
    }
    // One referrer per account, decided by the unique `user_id`.
    let linked = affiliate_referrals::Entity::insert(affiliate_referrals::ActiveModel {
        user_id: Set(user_id),
        affiliate_id: Set(affiliate.id),
        click_id: Set(Some(click.id)),
        created_at: Set(at),
        ..Default::default()
    })
    .on_conflict(
        OnConflict::column(affiliate_referrals::Column::UserId)
            .do_nothing()
            .to_owned(),
    )
    .exec_without_returning(db)
    .await?;
    Ok(linked == 1)
}

/// The referral of an account, if it has one.
pub async fn referral_of(
    db: &DatabaseConnection,
    user_id: i64,
) -> StoreResult<Option<affiliate_referrals::Model>> {
    Ok(affiliate_referrals::Entity::find()
        .filter(affiliate_referrals::Column::UserId.eq(user_id))
        .one(db)
        .await?)
}

/// A confirmed payment, as billing knows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Payment {
    /// The payer.
    pub user_id: i64,
    /// The payment's id (payment intent or invoice): one conversion per payment.
    pub payment_id: String,
    /// What was paid, cents.
    pub amount_cents: i64,
    /// What it bought (`credits` or the plan).
    pub transaction_type: String,
    /// When it was paid.
    pub paid_at: DateTime<Utc>,
}

/// Records the conversion of a referred customer's payment, once per payment id: when the
/// payer was referred by an approved affiliate who is not the payer, within
/// [`rules::CONVERSION_DAYS`] of the payer's sign-up, with the affiliate's rate
/// ([`rules::commission_cents`]). Returns the conversion's id when one was recorded now.
pub async fn record_payment(
    db: &DatabaseConnection,
    payment: &Payment,
) -> StoreResult<Option<i64>> {
    let Some(referral) = referral_of(db, payment.user_id).await? else {
        return Ok(None);
    };
    let user = crate::users::get_user(db, payment.user_id).await?;
    let affiliate_id = referral.affiliate_id;
    let affiliate = get_affiliate(db, affiliate_id).await?;
    if affiliate.status != AffiliateStatus::Approved.as_str()
        || affiliate.user_id == Some(user.id)
        || payment.amount_cents <= 0
        || !rules::converts(user.created_at.timestamp(), payment.paid_at.timestamp())
    {
        return Ok(None);
    }
    let rate = u32::try_from(affiliate.commission_rate).unwrap_or(0);
    let conversion = NewConversion {
        click_id: referral.click_id,
        user_id: Some(user.id),
        transaction_type: payment.transaction_type.clone(),
        transaction_amount_cents: payment.amount_cents,
        commission_amount_cents: rules::commission_cents(payment.amount_cents, rate),
        customer_email: Some(user.email.clone()),
        stripe_payment_intent_id: Some(payment.payment_id.clone()),
    };
    record_conversion(db, affiliate_id, &conversion, payment.paid_at).await
}

/// Records a conversion at `at` and adds its commission to the affiliate's earnings and unpaid
/// commissions. Returns its id, or `None` (and changes nothing) when this payment was already
/// recorded.
pub async fn record_conversion(
    db: &DatabaseConnection,
    affiliate_id: i64,
    conversion: &NewConversion,
    at: DateTime<Utc>,
) -> StoreResult<Option<i64>> {
    let txn = begin_write(db).await?;
    let c = conversion.clone();
    let inserted = affiliate_conversions::Entity::insert(affiliate_conversions::ActiveModel {
        affiliate_id: Set(affiliate_id),
        click_id: Set(c.click_id),
        user_id: Set(c.user_id),
        transaction_type: Set(c.transaction_type),
        transaction_amount_cents: Set(c.transaction_amount_cents),
        commission_amount_cents: Set(c.commission_amount_cents),
        commission_status: Set(CommissionStatus::Pending.as_str().to_owned()),
        customer_email: Set(c.customer_email),
        stripe_payment_intent_id: Set(c.stripe_payment_intent_id.clone()),
        timestamp: Set(at),
        payout_id: Set(None),
        ..Default::default()
    })
    .on_conflict(
        OnConflict::column(Cv::StripePaymentIntentId)
            .do_nothing()
            .to_owned(),
    )
    .exec_without_returning(&txn)
    .await?;
    if inserted == 0 {
        txn.rollback().await?;
        return Ok(None);
    }
    let id = affiliate_conversions::Entity::find()
        .filter(Cv::AffiliateId.eq(affiliate_id))
        .filter(Cv::StripePaymentIntentId.eq(c.stripe_payment_intent_id))
        .order_by_desc(Cv::Id)
        .one(&txn)
        .await?
        .ok_or(StoreError::NotFound)?
        .id;
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
        .col_expr(A::UpdatedAt, Expr::value(at))
        .filter(A::Id.eq(affiliate_id))
        .exec(&txn)
        .await?;
    txn.commit().await?;
    Ok(Some(id))
}

/// A refund of `payment_id` reverses its commission when it has not been paid out: the
/// conversion becomes `reversed`, leaves a proposed payout (whose amount drops by it; a payout
/// left at nothing is removed) and leaves the affiliate's totals, in one transaction. Returns
/// whether a commission was reversed now (a second refund of the payment reverses nothing).
pub async fn reverse_payment(
    db: &DatabaseConnection,
    payment_id: &str,
    at: DateTime<Utc>,
) -> StoreResult<bool> {
    let txn = begin_write(db).await?;
    let Some(conversion) = affiliate_conversions::Entity::find()
        .filter(Cv::StripePaymentIntentId.eq(payment_id))
        .one(&txn)
        .await?
    else {
        txn.rollback().await?;
        return Ok(false);
    };
    let reversed = affiliate_conversions::Entity::update_many()
        .col_expr(
            Cv::CommissionStatus,
            Expr::value(CommissionStatus::Reversed.as_str()),
        )
        .col_expr(Cv::PayoutId, Expr::value(Option::<i64>::None))
        .filter(Cv::Id.eq(conversion.id))
        .filter(Cv::CommissionStatus.is_in([
            CommissionStatus::Pending.as_str(),
            CommissionStatus::Approved.as_str(),
        ]))
        .exec(&txn)
        .await?;
    if reversed.rows_affected != 1 {
        txn.rollback().await?;
        return Ok(false);
    }
    let commission = conversion.commission_amount_cents;
    if let Some(payout_id) = conversion.payout_id {
        affiliate_payouts::Entity::update_many()
            .col_expr(P::AmountCents, Expr::col(P::AmountCents).sub(commission))
            .filter(P::Id.eq(payout_id))
            .filter(P::Status.eq("pending"))
            .exec(&txn)
            .await?;
        affiliate_payouts::Entity::delete_many()
            .filter(P::Id.eq(payout_id))
            .filter(P::Status.eq("pending"))
            .filter(P::AmountCents.lte(0))
            .exec(&txn)
            .await?;
    }
    affiliates::Entity::update_many()
        .col_expr(A::TotalConversions, Expr::col(A::TotalConversions).sub(1))
        .col_expr(
            A::TotalEarningsCents,
            Expr::col(A::TotalEarningsCents).sub(commission),
        )
        .col_expr(
            A::PendingPayoutsCents,
            Expr::col(A::PendingPayoutsCents).sub(commission),
        )
        .col_expr(A::UpdatedAt, Expr::value(at))
        .filter(A::Id.eq(conversion.affiliate_id))
        .exec(&txn)
        .await?;
    txn.commit().await?;
    Ok(true)
}

/// Approves the pending commissions whose refund window ended by `at`
/// ([`REFUND_WINDOW_DAYS`]); the totals do not move (both count as unpaid). Returns how many.
pub async fn approve_due(db: &DatabaseConnection, at: DateTime<Utc>) -> StoreResult<u64> {
    let cutoff = at - Duration::days(REFUND_WINDOW_DAYS);
    let done = affiliate_conversions::Entity::update_many()
        .col_expr(
            Cv::CommissionStatus,
            Expr::value(CommissionStatus::Approved.as_str()),
        )
        .filter(Cv::CommissionStatus.eq(CommissionStatus::Pending.as_str()))
        .filter(Cv::Timestamp.lte(cutoff))
        .exec(db)
        .await?;
    Ok(done.rows_affected)
}

/// The next payout run after `at` ([`rules::next_payout_date`]), at midnight UTC.
pub fn next_payout_at(at: DateTime<Utc>) -> DateTime<Utc> {
    let (y, m, d) = rules::next_payout_date(at.year(), at.month(), at.day());
    NaiveDate::from_ymd_opt(y, m, d)
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .map(|t| Utc.from_utc_datetime(&t))
        .unwrap_or(at)
}

/// The monthly payout run at `at`: approves what left the refund window, then, for every
/// approved affiliate whose approved commissions not yet in a payout reach the minimum
/// ([`rules::payout_due`]), proposes a payout (`pending`) of exactly those commissions, and
/// sets every approved affiliate's next payout date. Each affiliate's proposal is one
/// transaction whose commissions are claimed by a guarded update, so concurrent runs never put
/// a commission in two payouts; when an admin started the run, `audit` gives each proposal's
/// audit row, written in that transaction. Returns the payouts proposed now.
pub async fn propose_payouts(
    db: &DatabaseConnection,
    at: DateTime<Utc>,
    audit: Option<&(dyn Fn(&affiliate_payouts::Model) -> NewAuditEntry + Sync)>,
) -> StoreResult<Vec<affiliate_payouts::Model>> {
    approve_due(db, at).await?;
    let next = next_payout_at(at);
    let approved = affiliates::Entity::find()
        .filter(A::Status.eq(AffiliateStatus::Approved.as_str()))
        .order_by_asc(A::Id)
        .all(db)
        .await?;
    let mut proposed = Vec::new();
    for affiliate in approved {
        let txn = begin_write(db).await?;
        let due = affiliate_conversions::Entity::find()
            .filter(Cv::AffiliateId.eq(affiliate.id))
            .filter(Cv::CommissionStatus.eq(CommissionStatus::Approved.as_str()))
            .filter(Cv::PayoutId.is_null())
            .all(&txn)
            .await?;
        let total: i64 = due.iter().map(|c| c.commission_amount_cents).sum();
        affiliates::Entity::update_many()
            .col_expr(A::NextPayoutDate, Expr::value(next))
            .filter(A::Id.eq(affiliate.id))
            .exec(&txn)
            .await?;
        if !rules::payout_due(total) {
            txn.commit().await?;
            continue;
        }
        let method = if affiliate.stripe_account_id.is_some() {
            PayoutMethod::Stripe
        } else {
            PayoutMethod::Manual
        };
        let payout_id = affiliate_payouts::Entity::insert(affiliate_payouts::ActiveModel {
            affiliate_id: Set(affiliate.id),
            amount_cents: Set(total),
            method: Set(method.as_str().to_owned()),
            status: Set("pending".to_owned()),
            payout_date: Set(None),
            stripe_transfer_id: Set(None),
            notes: Set(None),
            created_at: Set(at),
            ..Default::default()
        })
        .exec(&txn)
        .await?
        .last_insert_id;
        let ids: Vec<i64> = due.iter().map(|c| c.id).collect();
        let claimed = affiliate_conversions::Entity::update_many()
            .col_expr(Cv::PayoutId, Expr::value(payout_id))
            .filter(Cv::Id.is_in(ids.clone()))
            .filter(Cv::PayoutId.is_null())
            .filter(Cv::CommissionStatus.eq(CommissionStatus::Approved.as_str()))
            .exec(&txn)
            .await?;
        if claimed.rows_affected != ids.len() as u64 {
            // Another run (or a refund) got there first: this affiliate waits for the next.
            txn.rollback().await?;
            continue;
        }
        let row = affiliate_payouts::Entity::find_by_id(payout_id)
            .one(&txn)
            .await?
            .ok_or(StoreError::NotFound)?;
        if let Some(audit) = audit {
            crate::audit::record(&txn, &audit(&row)).await?;
        }
        txn.commit().await?;
        proposed.push(row);
    }
    Ok(proposed)
}

/// How a payout was paid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PaidPayout {
    /// The method.
    pub method: PayoutMethod,
    /// Stripe's transfer id, for a Stripe payout.
    pub transfer_id: Option<String>,
    /// The admin's note (required for a manual payout; checked by the caller).
    pub note: Option<String>,
}

/// Marks a proposed payout paid at `at`, with its commissions, the affiliate's unpaid total,
/// last and next payout dates and the admin's audit row, in one transaction. `Conflict` when
/// it is no longer pending, `NotFound` when there is no such payout.
pub async fn confirm_payout(
    db: &DatabaseConnection,
    payout_id: i64,
    paid: &PaidPayout,
    at: DateTime<Utc>,
    audit: &NewAuditEntry,
) -> StoreResult<affiliate_payouts::Model> {
    let txn = begin_write(db).await?;
    let payout = affiliate_payouts::Entity::find_by_id(payout_id)
        .one(&txn)
        .await?
        .ok_or(StoreError::NotFound)?;
    let done = affiliate_payouts::Entity::update_many()
        .col_expr(P::Status, Expr::value("paid"))
        .col_expr(P::Method, Expr::value(paid.method.as_str()))
        .col_expr(P::PayoutDate, Expr::value(at))
        .col_expr(P::StripeTransferId, Expr::value(paid.transfer_id.clone()))
        .col_expr(P::Notes, Expr::value(paid.note.clone()))
        .filter(P::Id.eq(payout_id))
        .filter(P::Status.eq("pending"))
        .exec(&txn)
        .await?;
    if done.rows_affected != 1 {
        txn.rollback().await?;
        return Err(StoreError::Conflict(format!(
            "payout {payout_id} is already {}",
            payout.status
        )));
    }
    affiliate_conversions::Entity::update_many()
        .col_expr(
            Cv::CommissionStatus,
            Expr::value(CommissionStatus::Paid.as_str()),
        )
        .filter(Cv::PayoutId.eq(payout_id))
        .exec(&txn)
        .await?;
    affiliates::Entity::update_many()
        .col_expr(
            A::PendingPayoutsCents,
            Expr::col(A::PendingPayoutsCents).sub(payout.amount_cents),
        )
        .col_expr(A::LastPayoutDate, Expr::value(at))
        .col_expr(A::NextPayoutDate, Expr::value(next_payout_at(at)))
        .col_expr(A::UpdatedAt, Expr::value(at))
        .filter(A::Id.eq(payout.affiliate_id))
        .exec(&txn)
        .await?;
    crate::audit::record(&txn, audit).await?;
    let row = affiliate_payouts::Entity::find_by_id(payout_id)
        .one(&txn)
        .await?
        .ok_or(StoreError::NotFound)?;
    txn.commit().await?;
    Ok(row)
}

/// An admin's decision on a pending application: approved, or rejected with `reason`, and the
/// audit row, in one transaction. `Conflict` when it was decided already.
pub async fn review_affiliate(
    db: &DatabaseConnection,
    affiliate_id: i64,
    status: AffiliateStatus,
    reason: Option<&str>,
    at: DateTime<Utc>,
    audit: &NewAuditEntry,
) -> StoreResult<affiliates::Model> {
    let txn = begin_write(db).await?;
    let before = get_affiliate(&txn, affiliate_id).await?;
    let done = affiliates::Entity::update_many()
        .col_expr(A::Status, Expr::value(status.as_str()))
        .col_expr(A::RejectionReason, Expr::value(reason.map(str::to_owned)))
        .col_expr(A::NextPayoutDate, Expr::value(next_payout_at(at)))
        .col_expr(A::UpdatedAt, Expr::value(at))
        .filter(A::Id.eq(affiliate_id))
        .filter(A::Status.eq(AffiliateStatus::Pending.as_str()))
        .exec(&txn)
        .await?;
    if done.rows_affected != 1 {
        txn.rollback().await?;
        return Err(StoreError::Conflict(format!(
            "this application is already {}",
            before.status
        )));
    }
    crate::audit::record(&txn, audit).await?;
    let row = get_affiliate(&txn, affiliate_id).await?;
    txn.commit().await?;
    Ok(row)
}

/// Sets (or with `None` removes) the Stripe Connect account an affiliate's payouts are
/// transferred to, with the admin's audit row, in one transaction.
pub async fn set_connected_account(
    db: &DatabaseConnection,
    affiliate_id: i64,
    account: Option<&str>,
    at: DateTime<Utc>,
    audit: &NewAuditEntry,
) -> StoreResult<affiliates::Model> {
    let txn = begin_write(db).await?;
    let done = affiliates::Entity::update_many()
        .col_expr(A::StripeAccountId, Expr::value(account.map(str::to_owned)))
        .col_expr(A::UpdatedAt, Expr::value(at))
        .filter(A::Id.eq(affiliate_id))
        .exec(&txn)
        .await?;
    if done.rows_affected != 1 {
        txn.rollback().await?;
        return Err(StoreError::NotFound);
    }
    crate::audit::record(&txn, audit).await?;
    let row = get_affiliate(&txn, affiliate_id).await?;
    txn.commit().await?;
    Ok(row)
}

/// An affiliate's conversions, newest first (at most `limit`).
pub async fn conversions_of(
    db: &DatabaseConnection,
    affiliate_id: Option<i64>,
    limit: u64,
) -> StoreResult<Vec<affiliate_conversions::Model>> {
    let mut query = affiliate_conversions::Entity::find().order_by_desc(Cv::Id);
    if let Some(id) = affiliate_id {
        query = query.filter(Cv::AffiliateId.eq(id));
    }
    Ok(query.limit(limit).all(db).await?)
}

/// Payouts, newest first, of one affiliate or all, of one status or all.
pub async fn payouts_of(
    db: &DatabaseConnection,
    affiliate_id: Option<i64>,
    status: Option<&str>,
) -> StoreResult<Vec<affiliate_payouts::Model>> {
    let mut query = affiliate_payouts::Entity::find().order_by_desc(P::Id);
    if let Some(id) = affiliate_id {
        query = query.filter(P::AffiliateId.eq(id));
    }
    if let Some(status) = status {
        query = query.filter(P::Status.eq(status));
    }
    Ok(query.limit(500).all(db).await?)
}

/// One payout.
pub async fn get_payout(
    db: &DatabaseConnection,
    payout_id: i64,
) -> StoreResult<affiliate_payouts::Model> {
    affiliate_payouts::Entity::find_by_id(payout_id)
        .one(db)
        .await?
        .ok_or(StoreError::NotFound)
}

/// Commission totals of one affiliate by status, summed from the conversions themselves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CommissionSums {
    /// In the refund window.
    pub pending: i64,
    /// Approved, not yet paid.
    pub approved: i64,
    /// Paid out.
    pub paid: i64,
    /// Reversed by refunds.
    pub reversed: i64,
    /// Conversions not reversed.
    pub conversions: i64,
}

/// Sums an affiliate's commissions by status from its conversion rows.
pub async fn commission_sums(
    db: &DatabaseConnection,
    affiliate_id: i64,
) -> StoreResult<CommissionSums> {
    let rows = affiliate_conversions::Entity::find()
        .filter(Cv::AffiliateId.eq(affiliate_id))
        .all(db)
        .await?;
    let mut sums = CommissionSums::default();
    for row in rows {
        let c = row.commission_amount_cents;
        match CommissionStatus::parse(&row.commission_status) {
            Some(CommissionStatus::Pending) => sums.pending += c,
            Some(CommissionStatus::Approved) => sums.approved += c,
            Some(CommissionStatus::Paid) => sums.paid += c,
            Some(CommissionStatus::Reversed) => sums.reversed += c,
            None => {}
        }
        if row.commission_status != CommissionStatus::Reversed.as_str() {
            sums.conversions += 1;
        }
    }
    Ok(sums)
}

/// How long the referral cookie lasts, for the `Max-Age` the server writes.
pub fn cookie_max_age() -> Duration {
    Duration::days(REFERRAL_COOKIE_DAYS)
}
