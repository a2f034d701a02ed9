//! Checkout rules: what a checkout address (docs/PRODUCT.md §7.10) buys and what it costs, the
//! plans' billing (intervals, extra seats, monthly credits) and the texts the payment pages show
//! (docs/PRODUCT.md §8). Every price comes from [`crate::commerce`]; a price written in the
//! address is only checked against it, never charged as it stands.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::commerce::{
    self, CREDIT_PRICE_CENTS, CreditPack, Plan, credit_packs, custom_price_cents, format_dollars,
    pay_as_you_go_cents, plans, report_type_info,
};
use crate::report::ReportType;
use crate::site_url;

/// Alert when a pack or credit purchase cannot start or is declined (docs/PRODUCT.md §8.11).
pub const PURCHASE_ERROR_MESSAGE: &str = "Error starting purchase. Please try again.";
/// Alert when a subscription cannot start or is declined (docs/PRODUCT.md §8.11).
pub const SUBSCRIPTION_ERROR_MESSAGE: &str = "Error starting subscription. Please try again.";
/// Toast title once a purchase is granted (docs/PRODUCT.md §8.14, §4.9).
pub const PURCHASE_COMPLETE_TITLE: &str = "Purchase Complete!";
/// The label every checkout page carries in test-payment mode.
pub const TEST_MODE_LABEL: &str = "Test payment mode: no real card is charged and no money moves";
/// The label every checkout page carries when Stripe takes the payments.
pub const STRIPE_MODE_LABEL: &str = "Secure payment by Stripe";
/// Most credits one custom purchase may buy.
pub const MAX_CUSTOM_CREDITS: u32 = 10_000;
/// Most extra seats one subscription may buy.
pub const MAX_EXTRA_SEATS: u32 = 1_000;

/// Who takes the payments: Stripe when its keys are configured, else the labelled test mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum PaymentMode {
    /// Stripe Checkout and signed webhooks.
    Stripe,
    /// Test payments: pay and decline buttons, no money moves.
    Test,
}

impl PaymentMode {
    /// The label the header of every checkout page shows.
    pub fn label(self) -> &'static str {
        match self {
            PaymentMode::Stripe => STRIPE_MODE_LABEL,
            PaymentMode::Test => TEST_MODE_LABEL,
        }
    }
}

/// How often a plan is billed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum BillingInterval {
    /// Every month.
    Monthly,
    /// Every year, at ten months' price ("2 Months Free").
    Yearly,
}

impl BillingInterval {
    /// The stored and address form: `monthly` or `yearly`.
    pub fn as_str(self) -> &'static str {
        match self {
            BillingInterval::Monthly => "monthly",
            BillingInterval::Yearly => "yearly",
        }
    }

    /// Reads `monthly`/`month` or `yearly`/`year`/`annual`, in any case.
    pub fn parse(raw: &str) -> Option<Self> {
        match raw.trim().to_ascii_lowercase().as_str() {
            "monthly" | "month" => Some(BillingInterval::Monthly),
            "yearly" | "year" | "annual" | "annually" => Some(BillingInterval::Yearly),
            _ => None,
        }
    }

    /// Months one payment covers.
    pub fn months(self) -> u32 {
        match self {
            BillingInterval::Monthly => 1,
            BillingInterval::Yearly => 12,
        }
    }
}

/// What a checkout sells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum CheckoutKind {
    /// A credit pack (`credit-5`).
    Pack,
    /// A custom number of credits at the pay-as-you-go price.
    Credits,
    /// A subscription plan.
    Plan,
    /// The professional report of one site, bought from its free report.
    Upgrade,
}

/// The query of a checkout address, as written (docs/PRODUCT.md §7.10): `?package=credit-5`,
/// `?type=credits&credits=N&price=CENTS`, `?package=starter&amount=5&url=…`, plus a plan's
/// `interval` and `seats` (extra seats).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CheckoutQuery {
    /// `credit-1` … `enterprise-plan`, or `starter` for the upgrade.
    #[serde(default)]
    #[ts(optional)]
    pub package: Option<String>,
    /// `credits` for a custom amount.
    #[serde(default, rename = "type")]
    #[ts(optional)]
    pub kind: Option<String>,
    /// Credits of a custom amount.
    #[serde(default)]
    #[ts(optional)]
    pub credits: Option<String>,
    /// Price of a custom amount (the custom-price rule: under 100 dollars, else cents).
    #[serde(default)]
    #[ts(optional)]
    pub price: Option<String>,
    /// Price of the upgrade, dollars.
    #[serde(default)]
    #[ts(optional)]
    pub amount: Option<String>,
    /// The site the upgrade analyses.
    #[serde(default)]
    #[ts(optional)]
    pub url: Option<String>,
    /// A plan's billing interval (`monthly` by default).
    #[serde(default)]
    #[ts(optional)]
    pub interval: Option<String>,
    /// A plan's extra seats (0 by default).
    #[serde(default)]
    #[ts(optional)]
    pub seats: Option<String>,
    /// The upgrade link of a mailed report (`?package=starter&upgradeToken=…`): the server
    /// reads the site from the report request it names ([`with_upgrade_site`]).
    #[serde(default)]
    #[ts(optional)]
    pub upgrade_token: Option<String>,
}

/// A checkout that was started (`POST /api/checkout`): where to send the buyer, and what they
/// buy at the server's price.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct StartedCheckout {
    /// Our checkout id.
    pub id: String,
    /// Where the buyer pays: Stripe's hosted page, or our test-payment page.
    pub url: String,
    /// Who takes the payment.
    pub mode: PaymentMode,
    /// What is bought, at the server's price.
    pub item: CheckoutItem,
}

/// A checkout as its buyer's pages read it (`GET /api/checkout/{id}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CheckoutView {
    /// Our id.
    pub id: String,
    /// `open`, `paid`, `declined` or `expired`.
    pub status: String,
    /// Who takes the payment.
    pub mode: PaymentMode,
    /// What it sells.
    pub kind: CheckoutKind,
    /// The package id.
    pub package_id: String,
    /// Credits granted on payment; `None` is unlimited.
    pub credits: Option<i32>,
    /// The price charged, cents.
    #[ts(type = "number")]
    pub amount_cents: i64,
    /// The upgrade's report type.
    pub report_type: Option<ReportType>,
    /// The upgrade's site.
    pub url: Option<String>,
    /// A plan's interval.
    pub interval: Option<String>,
    /// The alert the page shows when the payment is declined (docs/PRODUCT.md §8.11).
    pub failure_message: String,
    /// The paid analysis an upgrade's payment started; its pages follow it (a reload never
    /// starts another).
    pub analysis_id: Option<String>,
}

/// What a checkout address buys, priced by the server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CheckoutItem {
    /// Pack, credits, plan or upgrade.
    pub kind: CheckoutKind,
    /// The package id: `credit-5`, `business-plan`, `credits-37` or `starter`.
    pub package_id: String,
    /// What the buyer reads: "Growth Pack", "37 credits", "Agency plan (yearly)".
    pub name: String,
    /// Credits granted on payment (a plan: each period); `None` is unlimited.
    pub credits: Option<u32>,
    /// What is charged now, cents.
    pub amount_cents: u32,
    /// The amount as the buyer reads it: `$70`.
    pub amount_text: String,
    /// A plan's billing interval.
    pub interval: Option<BillingInterval>,
    /// A plan's extra seats.
    pub extra_seats: u32,
    /// The report the upgrade starts once paid.
    pub report_type: Option<ReportType>,
    /// The site the upgrade analyses (its normalised address).
    pub url: Option<String>,
}

impl CheckoutItem {
    /// The alert shown when this checkout cannot start or is declined (docs/PRODUCT.md §8.11).
    pub fn failure_message(&self) -> &'static str {
        failure_message(self.kind)
    }
}

/// The alert shown when a checkout of `kind` cannot start or is declined.
pub fn failure_message(kind: CheckoutKind) -> &'static str {
    match kind {
        CheckoutKind::Plan => SUBSCRIPTION_ERROR_MESSAGE,
        _ => PURCHASE_ERROR_MESSAGE,
    }
}

/// Why a checkout address cannot be sold; the text says what to do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct CheckoutError(pub String);

fn refuse<T>(message: impl Into<String>) -> Result<T, CheckoutError> {
    Err(CheckoutError(message.into()))
}

const START_AGAIN: &str = "Nothing was charged; please choose again on the pricing page.";

fn whole_number(raw: &str) -> Option<u32> {
    let raw = raw.trim();
    if raw.is_empty() || !raw.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    raw.parse().ok()
}

fn present(v: &Option<String>) -> Option<&str> {
    v.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

/// Reads an amount written in the address with the custom-price rule (docs/PRODUCT.md §5.9).
fn address_price(raw: &str) -> Option<u32> {
    raw.trim()
        .parse::<f64>()
        .ok()
        .and_then(|p| custom_price_cents(p).ok())
}

/// Prices a checkout address (docs/PRODUCT.md §7.10, §9.2, §9.3). The price is computed here;
/// a `price` or `amount` in the address that disagrees is refused with a message naming both.
pub fn resolve_checkout(q: &CheckoutQuery) -> Result<CheckoutItem, CheckoutError> {
    if present(&q.kind).is_some_and(|k| k.eq_ignore_ascii_case("credits")) {
        return custom_credits(q);
    }
    let Some(package) = present(&q.package) else {
        return refuse(format!(
            "Choose a credit pack or a plan first. {START_AGAIN}"
        ));
    };
    let package = package.to_ascii_lowercase();
    if let Some(p) = credit_packs().into_iter().find(|p| p.package_id == package) {
        return Ok(pack_item(&p));
    }
    if let Some(p) = plans().into_iter().find(|p| p.id == package) {
        return plan_item(&p, q);
    }
    if let Some(report_type) = upgrade_report_type(&package) {
        return upgrade_item(&package, report_type, q);
    }
    refuse(format!(
        "There is no package called \"{package}\". {START_AGAIN}"
    ))
}

fn pack_item(p: &CreditPack) -> CheckoutItem {
    CheckoutItem {
        kind: CheckoutKind::Pack,
        package_id: p.package_id.clone(),
        name: format!("{} ({} {})", p.name, p.credits, credit_word(p.credits)),
        credits: Some(p.credits),
        amount_cents: p.price,
        amount_text: format_dollars(p.price),
        interval: None,
        extra_seats: 0,
        report_type: None,
        url: None,
    }
}

fn credit_word(n: u32) -> &'static str {
    if n == 1 { "credit" } else { "credits" }
}

fn custom_credits(q: &CheckoutQuery) -> Result<CheckoutItem, CheckoutError> {
    let credits = present(&q.credits)
        .and_then(whole_number)
        .filter(|n| (1..=MAX_CUSTOM_CREDITS).contains(n));
    let Some(credits) = credits else {
        return refuse(format!(
            "The number of credits must be a whole number from 1 to {}. {START_AGAIN}",
            commerce::format_count(MAX_CUSTOM_CREDITS)
        ));
    };
    let price = pay_as_you_go_cents(credits);
    if let Some(raw) = present(&q.price) {
        match address_price(raw) {
            Some(asked) if asked == price => {}
            Some(asked) => {
                return refuse(format!(
                    "The price in this link ({}) is not the price of {credits} {} ({}). {START_AGAIN}",
                    format_dollars(asked),
                    credit_word(credits),
                    format_dollars(price)
                ));
            }
            None => {
                return refuse(format!(
                    "The price in this link is not an amount. {START_AGAIN}"
                ));
            }
        }
    }
    Ok(CheckoutItem {
        kind: CheckoutKind::Credits,
        package_id: format!("credits-{credits}"),
        name: format!("{credits} {}", credit_word(credits)),
        credits: Some(credits),
        amount_cents: price,
        amount_text: format_dollars(price),
        interval: None,
        extra_seats: 0,
        report_type: None,
        url: None,
    })
}

fn plan_item(p: &Plan, q: &CheckoutQuery) -> Result<CheckoutItem, CheckoutError> {
    let interval = match present(&q.interval) {
        None => BillingInterval::Monthly,
        Some(raw) => match BillingInterval::parse(raw) {
            Some(i) => i,
            None => {
                return refuse(format!(
                    "The billing period must be monthly or yearly. {START_AGAIN}"
                ));
            }
        },
    };
    let extra_seats = match present(&q.seats) {
        None => 0,
        Some(raw) => match whole_number(raw).filter(|n| *n <= MAX_EXTRA_SEATS) {
            Some(n) => n,
            None => {
                return refuse(format!(
                    "Extra seats must be a whole number from 0 to {}. {START_AGAIN}",
                    commerce::format_count(MAX_EXTRA_SEATS)
                ));
            }
        },
    };
    let Some(amount) = plan_charge_cents(&p.id, interval, extra_seats) else {
        return refuse(format!(
            "The {} plan already includes unlimited seats. {START_AGAIN}",
            p.name
        ));
    };
    let seats = if extra_seats == 0 {
        String::new()
    } else {
        format!(
            ", {extra_seats} extra {}",
            if extra_seats == 1 { "seat" } else { "seats" }
        )
    };
    Ok(CheckoutItem {
        kind: CheckoutKind::Plan,
        package_id: p.id.clone(),
        name: format!("{} plan ({}{seats})", p.name, interval.as_str()),
        credits: p.credits,
        amount_cents: amount,
        amount_text: format!(
            "{} / {}",
            format_dollars(amount),
            if interval == BillingInterval::Yearly {
                "year"
            } else {
                "month"
            }
        ),
        interval: Some(interval),
        extra_seats,
        report_type: None,
        url: None,
    })
}

/// The report an upgrade package buys: `starter` is the professional (standard) report
/// (docs/PRODUCT.md §9.2 "Starter report 5 USD, 10 pages").
pub fn upgrade_report_type(package: &str) -> Option<ReportType> {
    match package.trim().to_ascii_lowercase().as_str() {
        "starter" => Some(ReportType::Standard),
        _ => None,
    }
}

/// Whole credits an upgrade grants for its report: the report's price in credits, rounded up.
pub fn upgrade_credits(report_type: ReportType) -> u32 {
    crate::commerce::report_cost(report_type)
        .halves()
        .div_ceil(2)
}

fn upgrade_item(
    package: &str,
    report_type: ReportType,
    q: &CheckoutQuery,
) -> Result<CheckoutItem, CheckoutError> {
    let credits = upgrade_credits(report_type);
    let price = credits * CREDIT_PRICE_CENTS;
    let url = present(&q.url).map(site_url::normalize_input);
    let url = match url {
        Some(Ok(url)) => url,
        _ => {
            return refuse(
                "The address of the site to analyse is missing or not valid. Nothing was charged; please start again from your report.",
            );
        }
    };
    if let Some(raw) = present(&q.amount) {
        match address_price(raw) {
            Some(asked) if asked == price => {}
            asked => {
                return refuse(format!(
                    "The amount in this link{} is not the price of a professional report ({}). Nothing was charged; please start again from your report.",
                    asked
                        .map(|a| format!(" ({})", format_dollars(a)))
                        .unwrap_or_default(),
                    format_dollars(price)
                ));
            }
        }
    }
    let info = report_type_info(report_type);
    Ok(CheckoutItem {
        kind: CheckoutKind::Upgrade,
        package_id: package.to_owned(),
        name: format!("Professional report ({}, {} pages)", info.name, info.pages),
        credits: Some(credits),
        amount_cents: price,
        amount_text: format_dollars(price),
        interval: None,
        extra_seats: 0,
        report_type: Some(report_type),
        url: Some(url),
    })
}

/// Length of an upgrade token: the 32 lower-case hex digits of a random UUID.
pub const UPGRADE_TOKEN_LEN: usize = 32;
/// An upgrade link whose token is not one we could have written.
pub const UPGRADE_TOKEN_MALFORMED: &str = "This upgrade link is incomplete or damaged. Nothing was charged; please open the link from your email again, or start from your report.";
/// An upgrade link whose token names no report request.
pub const UPGRADE_TOKEN_UNKNOWN: &str = "This upgrade link does not belong to any report we sent. Nothing was charged; please start again from your report.";
/// An upgrade token with a package that is not an upgrade.
pub const UPGRADE_TOKEN_PACKAGE: &str = "An upgrade link buys the professional report of its site only. Nothing was charged; please choose again on the pricing page.";

/// The upgrade token of an address, checked for its form (trimmed): `Err` with the message to
/// show when it cannot be one of ours, so it is never looked up.
pub fn check_upgrade_token(raw: &str) -> Result<&str, CheckoutError> {
    let token = raw.trim();
    if token.len() == UPGRADE_TOKEN_LEN
        && token
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    {
        Ok(token)
    } else {
        refuse(UPGRADE_TOKEN_MALFORMED)
    }
}

/// The checkout address of a mailed report's upgrade link (docs/PRODUCT.md §7.10 with the
/// token in place of the address: the server reads the site from the report it names).
pub fn upgrade_checkout_path(token: &str) -> String {
    format!("/checkout?package=starter&upgradeToken={token}")
}

/// What an upgrade token names: the report's site and the report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct UpgradeTarget {
    /// The package the link buys (`starter`).
    pub package: String,
    /// The site the upgrade analyses.
    pub url: String,
    /// The report the link was mailed with, if it still exists.
    pub report_id: Option<String>,
}

/// The query of an upgrade link once its token is resolved to `site`: the token's site replaces
/// any `url` and `amount` in the address (the report request, not the address, says what is
/// upgraded; the price is then [`resolve_checkout`]'s). A token with a package that is not an
/// upgrade is refused.
pub fn with_upgrade_site(q: &CheckoutQuery, site: &str) -> Result<CheckoutQuery, CheckoutError> {
    if present(&q.package).is_none_or(|p| upgrade_report_type(p).is_none())
        || present(&q.kind).is_some()
    {
        return refuse(UPGRADE_TOKEN_PACKAGE);
    }
    Ok(CheckoutQuery {
        url: Some(site.to_owned()),
        amount: None,
        ..q.clone()
    })
}

/// What a plan costs per period with `extra_seats`, cents; a year is ten months of the plan
/// and of each extra seat ("2 Months Free"). `None` when the plan is unknown, or has unlimited
/// seats and extra seats were asked for.
pub fn plan_charge_cents(
    plan_id: &str,
    interval: BillingInterval,
    extra_seats: u32,
) -> Option<u32> {
    let plan = find_plan(plan_id)?;
    let (base, seat_months) = match interval {
        BillingInterval::Monthly => (plan.monthly_price, 1),
        BillingInterval::Yearly => (plan.yearly_price, commerce::ANNUAL_MONTHS_PAID),
    };
    let seats = match plan.additional_seat_price {
        Some(seat) => seat.saturating_mul(seat_months).saturating_mul(extra_seats),
        None if extra_seats == 0 => 0,
        None => return None,
    };
    Some(base.saturating_add(seats))
}

/// Checkout address of a plan with its interval and extra seats (docs/PRODUCT.md §7.10): the
/// monthly plan without extra seats is the plain package address.
pub fn plan_checkout_path(plan_id: &str, interval: BillingInterval, extra_seats: u32) -> String {
    let mut path = commerce::package_checkout_path(plan_id);
    if interval == BillingInterval::Yearly {
        path.push_str("&interval=yearly");
    }
    if extra_seats > 0 {
        path.push_str(&format!("&seats={extra_seats}"));
    }
    path
}

/// A plan by its id (`agency-plan`) or short name (`agency`), in any case.
pub fn find_plan(plan: &str) -> Option<Plan> {
    let plan = plan.trim().to_ascii_lowercase();
    let id = if plan.ends_with("-plan") {
        plan
    } else {
        format!("{plan}-plan")
    };
    plans().into_iter().find(|p| p.id == id)
}

/// The short name stored as a user's plan (`business` for `business-plan`).
pub fn plan_short_name(plan_id: &str) -> String {
    plan_id
        .trim()
        .to_ascii_lowercase()
        .trim_end_matches("-plan")
        .to_owned()
}

/// Seats of a subscription: the plan's own plus the extra seats bought; `None` is unlimited.
pub fn subscription_seats(plan: &str, extra_seats: u32) -> Option<u32> {
    crate::accounts::seats_for_plan(plan).map(|s| s.saturating_add(extra_seats))
}

/// Credits a plan grants each month: `Some(n)`, or `None` for unlimited; a yearly plan is
/// granted its credits month by month as well ([`credit_months_due`]), so an unused year cannot
/// pile up at once.
pub fn monthly_credits(plan: &str) -> Option<Option<u32>> {
    find_plan(plan).map(|p| p.credits)
}

/// Credits a change of plan grants at once for the month under way: what the new plan grants
/// each month beyond what the old one did (Business 20 to Agency 100 grants 80), so an upgrade
/// is usable the day it is paid rather than at the next invoice. A move to a plan with fewer
/// credits, to or from an unlimited plan, or between unknown plans grants nothing: the credits
/// already granted stay, and an unlimited plan does not count its spending.
pub fn plan_change_credits(from_plan: &str, to_plan: &str) -> u32 {
    match (monthly_credits(from_plan), monthly_credits(to_plan)) {
        (Some(Some(from)), Some(Some(to))) => to.saturating_sub(from),
        _ => 0,
    }
}

/// Credit months of a paid period that have begun by `now`: a plan grants its monthly credits
/// once per month of the period it is paid for, the first when the period's payment arrives,
/// each later one when its month begins, so a yearly plan holds twelve grants (a monthly plan
/// one). A period of `months` months from `start` to `end` (seconds since the epoch) is split
/// into equal months (a year's months are its twelfth parts: the grant does not depend on
/// calendar lengths). Before the period starts one month is due (the payment's own grant);
/// after it ends, all of them. A period that ends before it starts counts as one month.
pub fn credit_months_due(start: i64, end: i64, months: u32, now: i64) -> u32 {
    let months = months.max(1);
    if end <= start {
        return 1;
    }
    if now <= start {
        return 1;
    }
    let elapsed = i128::from(now - start).min(i128::from(end - start));
    let begun = elapsed * i128::from(months) / i128::from(end - start) + 1;
    u32::try_from(begun).unwrap_or(months).min(months)
}

/// Whole credits a refund takes back from a payment that granted `granted` credits for
/// `amount_cents`, when the payment's refunded total goes from `refunded_before_cents` to
/// `refunded_total_cents` (Stripe's `amount_refunded` is the charge's running total, so a
/// second partial refund counts only what it adds). Each total's share of the credits is
/// rounded up, so a refunded credit is never left to spend, and all the refunds of a payment
/// together never take back more than it granted. A total that adds nothing takes nothing.
pub fn refund_credits(
    granted: u32,
    amount_cents: i64,
    refunded_before_cents: i64,
    refunded_total_cents: i64,
) -> u32 {
    let share = |refunded: i64| -> u32 {
        if refunded <= 0 {
            0
        } else if amount_cents <= 0 || refunded >= amount_cents {
            granted
        } else {
            // Both positive here: the share, rounded up.
            let (amount, refunded) = (i128::from(amount_cents), i128::from(refunded));
            let n = (i128::from(granted) * refunded + amount - 1) / amount;
            u32::try_from(n).unwrap_or(granted)
        }
    };
    share(refunded_total_cents).saturating_sub(share(refunded_before_cents))
}

/// How long after the end of its paid period a subscription still covers its holder's reports
/// while the renewal's payment is confirmed, seconds (Stripe finalises a renewal invoice about
/// an hour after the period ends and retries a failed charge for days; a failed renewal turns
/// the subscription `past_due`, which ends the cover at once).
pub const RENEWAL_GRACE_SECS: i64 = 2 * 86_400;

/// Whether a subscription covers its holder's paid reports instead of their credits: a plan
/// whose monthly credits are unlimited (Enterprise), while it is paid for (active, or
/// cancelled at period end but not yet ended) and its period, with [`RENEWAL_GRACE_SECS`], has
/// not run out at `now_secs` (unix seconds). A paused, past-due or ended plan covers nothing;
/// nor does a plan with a monthly allowance, whose credits are granted into the balance.
pub fn plan_covers_reports(
    plan_id: &str,
    status: SubscriptionStatus,
    period_end_secs: i64,
    now_secs: i64,
) -> bool {
    monthly_credits(plan_id) == Some(None)
        && matches!(
            status,
            SubscriptionStatus::Active | SubscriptionStatus::CancelAtPeriodEnd
        )
        && now_secs < period_end_secs.saturating_add(RENEWAL_GRACE_SECS)
}

/// A subscription's state as the dashboard shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum SubscriptionStatus {
    /// Paid and renewing.
    Active,
    /// Paused: no renewal and no monthly credits until resumed.
    Paused,
    /// Ends at the end of the paid period.
    CancelAtPeriodEnd,
    /// Ended.
    Canceled,
    /// The last renewal failed.
    PastDue,
}

impl SubscriptionStatus {
    /// The stored form.
    pub fn as_str(self) -> &'static str {
        match self {
            SubscriptionStatus::Active => "active",
            SubscriptionStatus::Paused => "paused",
            SubscriptionStatus::CancelAtPeriodEnd => "cancel_at_period_end",
            SubscriptionStatus::Canceled => "canceled",
            SubscriptionStatus::PastDue => "past_due",
        }
    }

    /// Reads the stored form.
    pub fn parse(raw: &str) -> Option<Self> {
        Some(match raw {
            "active" => SubscriptionStatus::Active,
            "paused" => SubscriptionStatus::Paused,
            "cancel_at_period_end" => SubscriptionStatus::CancelAtPeriodEnd,
            "canceled" => SubscriptionStatus::Canceled,
            "past_due" => SubscriptionStatus::PastDue,
            _ => return None,
        })
    }
}

/// A change the owner asks of their subscription.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum PlanAction {
    /// Stop renewing and granting credits until resumed.
    Pause,
    /// Undo a pause.
    Resume,
    /// End at the end of the paid period.
    Cancel,
    /// Undo a cancellation before the period ends.
    Reactivate,
}

/// Whether `action` applies to a subscription in `status`; `Err` is the message to show.
pub fn check_plan_action(
    status: SubscriptionStatus,
    action: PlanAction,
) -> Result<SubscriptionStatus, String> {
    use PlanAction as A;
    use SubscriptionStatus as S;
    match (status, action) {
        (S::Active, A::Pause) => Ok(S::Paused),
        (S::Paused, A::Resume) => Ok(S::Active),
        (S::Active | S::Paused | S::PastDue, A::Cancel) => Ok(S::CancelAtPeriodEnd),
        (S::CancelAtPeriodEnd, A::Reactivate) => Ok(S::Active),
        (S::Canceled, _) => Err(
            "This subscription has ended. Choose a plan on the pricing page to subscribe again."
                .to_owned(),
        ),
        (S::Paused, A::Pause) => Err("The subscription is already paused.".to_owned()),
        (S::CancelAtPeriodEnd, A::Cancel) => {
            Err("The subscription already ends at the end of the paid period.".to_owned())
        }
        (_, A::Resume) => Err("Only a paused subscription can be resumed.".to_owned()),
        (_, A::Reactivate) => Err("Only a subscription that is due to end can be kept.".to_owned()),
        (_, A::Pause) => Err("Only an active subscription can be paused.".to_owned()),
    }
}

/// A subscription as the dashboard's billing section reads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SubscriptionView {
    /// `business-plan`, `agency-plan` or `enterprise-plan`.
    pub plan_id: String,
    /// Display name.
    pub plan_name: String,
    /// Billing interval.
    pub interval: BillingInterval,
    /// State.
    pub status: SubscriptionStatus,
    /// Extra seats bought.
    pub extra_seats: u32,
    /// Seats in all, the owner included; `None` is unlimited.
    pub seats: Option<u32>,
    /// Credits a month; `None` is unlimited.
    pub monthly_credits: Option<u32>,
    /// What each period costs, cents.
    pub amount_cents: u32,
    /// When the paid period ends (RFC 3339).
    pub current_period_end: String,
}

/// A purchase or invoice on the dashboard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PurchaseView {
    /// When it was paid (RFC 3339).
    pub created_at: String,
    /// The package or plan.
    pub package_id: String,
    /// Credits it granted.
    pub credits: i64,
    /// What was paid, cents.
    #[ts(type = "number")]
    pub amount_cents: i64,
    /// The payment's reference at the processor.
    pub reference: String,
}

/// `GET /api/billing`: the owner's plan, purchases and the payment mode.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct BillingOverview {
    /// Who takes payments.
    pub mode: PaymentMode,
    /// The current subscription, if any.
    pub subscription: Option<SubscriptionView>,
    /// Purchases and paid invoices, newest first.
    pub purchases: Vec<PurchaseView>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_yearly_period_grants_a_month_of_credits_as_each_twelfth_begins() {
        let (start, end) = (1_000_000, 1_000_000 + 365 * 86_400);
        let twelfth = (end - start) / 12;
        assert_eq!(
            credit_months_due(start, end, 12, start - 5),
            1,
            "paid ahead"
        );
        assert_eq!(credit_months_due(start, end, 12, start), 1);
        assert_eq!(credit_months_due(start, end, 12, start + twelfth - 1), 1);
        assert_eq!(credit_months_due(start, end, 12, start + twelfth), 2);
        assert_eq!(credit_months_due(start, end, 12, start + 11 * twelfth), 12);
        assert_eq!(credit_months_due(start, end, 12, end - 1), 12);
        assert_eq!(
            credit_months_due(start, end, 12, end + 400 * 86_400),
            12,
            "never more"
        );
        assert_eq!(
            credit_months_due(start, start + 30 * 86_400, 1, end),
            1,
            "monthly: one"
        );
        assert_eq!(
            credit_months_due(end, start, 12, end),
            1,
            "a reversed period"
        );
        assert_eq!(
            credit_months_due(start, end, 0, end),
            1,
            "no months counts as one"
        );
        assert_eq!(
            credit_months_due(i64::MIN / 2, i64::MAX / 2, 12, i64::MAX / 2 - 1),
            12,
            "no overflow"
        );
    }

    fn q(pairs: &[(&str, &str)]) -> CheckoutQuery {
        let mut q = CheckoutQuery::default();
        for (k, v) in pairs {
            let v = Some((*v).to_owned());
            match *k {
                "package" => q.package = v,
                "type" => q.kind = v,
                "credits" => q.credits = v,
                "price" => q.price = v,
                "amount" => q.amount = v,
                "url" => q.url = v,
                "interval" => q.interval = v,
                "seats" => q.seats = v,
                "upgradeToken" => q.upgrade_token = v,
                _ => unreachable!(),
            }
        }
        q
    }

    #[test]
    fn an_upgrade_token_has_the_form_we_write_or_is_refused_unread() {
        let token = "0123456789abcdef0123456789abcdef";
        assert_eq!(check_upgrade_token(&format!(" {token} ")), Ok(token));
        for bad in [
            "",
            "0123456789abcdef",
            "0123456789ABCDEF0123456789ABCDEF",
            "0123456789abcdef0123456789abcdeg",
            "0123456789abcdef0123456789abcdef0",
            "'; drop table email_reports; --",
        ] {
            assert_eq!(
                check_upgrade_token(bad),
                Err(CheckoutError(UPGRADE_TOKEN_MALFORMED.to_owned())),
                "{bad:?}"
            );
        }
        assert_eq!(
            upgrade_checkout_path(token),
            format!("/checkout?package=starter&upgradeToken={token}")
        );
    }

    #[test]
    fn an_upgrade_link_buys_its_tokens_site_at_the_servers_price() {
        let token = "0123456789abcdef0123456789abcdef";
        let link = q(&[
            ("package", "starter"),
            ("upgradeToken", token),
            ("url", "https://elsewhere.example/"),
            ("amount", "1"),
        ]);
        let resolved = with_upgrade_site(&link, "https://acme.example/").expect("an upgrade");
        assert_eq!(resolved.url.as_deref(), Some("https://acme.example/"));
        let item = resolve_checkout(&resolved).expect("priced");
        assert_eq!(item.kind, CheckoutKind::Upgrade);
        assert_eq!(item.url.as_deref(), Some("https://acme.example/"));
        assert_eq!(
            item.amount_cents, 500,
            "the price of the upgrade, not the link's"
        );
        for other in [
            q(&[("package", "credit-5"), ("upgradeToken", token)]),
            q(&[
                ("type", "credits"),
                ("credits", "3"),
                ("upgradeToken", token),
            ]),
            q(&[("upgradeToken", token)]),
        ] {
            assert_eq!(
                with_upgrade_site(&other, "https://acme.example/"),
                Err(CheckoutError(UPGRADE_TOKEN_PACKAGE.to_owned()))
            );
        }
    }

    #[test]
    fn packs_and_plans_are_priced_from_commerce() {
        let growth = resolve_checkout(&q(&[("package", "credit-20")])).expect("pack");
        assert_eq!((growth.credits, growth.amount_cents), (Some(20), 7000));
        let agency = resolve_checkout(&q(&[
            ("package", "agency-plan"),
            ("interval", "yearly"),
            ("seats", "2"),
        ]))
        .expect("plan");
        assert_eq!(agency.amount_cents, 300_000 + 2 * 3000 * 10);
        assert!(resolve_checkout(&q(&[("package", "enterprise-plan"), ("seats", "1")])).is_err());
    }

    #[test]
    fn a_price_in_the_address_that_disagrees_is_refused() {
        let ok = resolve_checkout(&q(&[("type", "credits"), ("credits", "1"), ("price", "5")]));
        assert_eq!(ok.expect("the trial button's link").amount_cents, 500);
        let ok = resolve_checkout(&q(&[
            ("type", "credits"),
            ("credits", "20"),
            ("price", "7000"),
        ]));
        assert_eq!(ok.expect("cents").amount_cents, 7000);
        let err = resolve_checkout(&q(&[
            ("type", "credits"),
            ("credits", "20"),
            ("price", "1"),
        ]))
        .expect_err("a dollar for twenty credits");
        assert!(err.0.contains("($1)") && err.0.contains("($70)"), "{err}");
        let err = resolve_checkout(&q(&[
            ("package", "starter"),
            ("amount", "1"),
            ("url", "example.com"),
        ]))
        .expect_err("cheap upgrade");
        assert!(err.0.contains("$5"), "{err}");
    }

    #[test]
    fn refunds_take_back_what_each_adds_to_the_refunded_total() {
        // A whole refund of a 20-credit, $70 pack.
        assert_eq!(refund_credits(20, 7000, 0, 7000), 20);
        // Two partial refunds of $35 each: Stripe reports totals of $35 then $70.
        assert_eq!(refund_credits(20, 7000, 0, 3500), 10);
        assert_eq!(refund_credits(20, 7000, 3500, 7000), 10);
        // Rounded up at each total, so three refunds of a third take back 20 in all, never 21.
        let thirds = [0, 2333, 4666, 7000];
        let taken: u32 = thirds
            .windows(2)
            .map(|w| refund_credits(20, 7000, w[0], w[1]))
            .sum();
        assert_eq!(taken, 20);
        assert_eq!(
            refund_credits(20, 7000, 0, 1),
            1,
            "a cent refunded takes a credit"
        );
        // A redelivered or older total adds nothing; an unlimited plan's payment granted none.
        assert_eq!(refund_credits(20, 7000, 7000, 7000), 0);
        assert_eq!(refund_credits(20, 7000, 7000, 3500), 0);
        assert_eq!(refund_credits(0, 49900, 0, 49900), 0);
    }

    #[test]
    fn a_change_of_plan_grants_the_difference_of_monthly_credits() {
        assert_eq!(plan_change_credits("business-plan", "agency-plan"), 80);
        assert_eq!(plan_change_credits("agency-plan", "business-plan"), 0);
        assert_eq!(plan_change_credits("business-plan", "business-plan"), 0);
        // Unlimited on either side, or a plan this version does not know: nothing.
        assert_eq!(plan_change_credits("agency-plan", "enterprise-plan"), 0);
        assert_eq!(plan_change_credits("enterprise-plan", "agency-plan"), 0);
        assert_eq!(plan_change_credits("no-such-plan", "agency-plan"), 0);
    }

    #[test]
    fn only_a_paid_unlimited_plan_covers_reports() {
        use SubscriptionStatus as S;
        let (end, before) = (1_000_000, 999_999);
        assert!(plan_covers_reports(
            "enterprise-plan",
            S::Active,
            end,
            before
        ));
        assert!(plan_covers_reports(
            "enterprise",
            S::CancelAtPeriodEnd,
            end,
            before
        ));
        // A renewal confirmed late still covers; a period long over does not.
        assert!(plan_covers_reports(
            "enterprise-plan",
            S::Active,
            end,
            end + RENEWAL_GRACE_SECS - 1
        ));
        assert!(!plan_covers_reports(
            "enterprise-plan",
            S::Active,
            end,
            end + RENEWAL_GRACE_SECS
        ));
        for status in [S::Paused, S::PastDue, S::Canceled] {
            assert!(
                !plan_covers_reports("enterprise-plan", status, end, before),
                "{status:?}"
            );
        }
        // Plans with a monthly allowance spend their granted credits; unknown plans nothing.
        assert!(!plan_covers_reports("agency-plan", S::Active, end, before));
        assert!(!plan_covers_reports(
            "business-plan",
            S::Active,
            end,
            before
        ));
        assert!(!plan_covers_reports("gold-plan", S::Active, end, before));
    }

    #[test]
    fn plan_actions_follow_the_states() {
        use PlanAction as A;
        use SubscriptionStatus as S;
        assert_eq!(check_plan_action(S::Active, A::Pause), Ok(S::Paused));
        assert_eq!(check_plan_action(S::Paused, A::Resume), Ok(S::Active));
        assert_eq!(
            check_plan_action(S::Active, A::Cancel),
            Ok(S::CancelAtPeriodEnd)
        );
        assert!(check_plan_action(S::Canceled, A::Resume).is_err());
        assert!(check_plan_action(S::Active, A::Resume).is_err());
    }
}
