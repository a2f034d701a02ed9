//! Commerce rules: credit packs, pay-as-you-go prices, plans, report types, the pricing
//! calculator and its recommendations, the custom-price rule, the free trial and the free
//! allowance (docs/PRODUCT.md §1.3, §5, §9). Money is in US cents.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::credits::Credits;
use crate::forms::CalculatorInput;
use crate::report::ReportType;

/// Price of one credit, cents.
pub const CREDIT_PRICE_CENTS: u32 = 500;
/// Free basic analyses per visitor address per UTC day.
pub const FREE_ANALYSES_PER_DAY: u32 = 3;
/// Credits granted by the free trial.
pub const TRIAL_CREDITS: Credits = Credits::whole(1);
/// Days the trial credit stays valid.
pub const TRIAL_VALID_DAYS: u32 = 7;
/// Hours a report saves, used by the calculator.
pub const HOURS_SAVED_PER_CREDIT: u32 = 4;
/// Default affiliate commission, percent.
pub const AFFILIATE_COMMISSION_PERCENT: u32 = 30;
/// Largest report count the calculator accepts per report type.
pub const CALCULATOR_MAX_REPORTS: i64 = 100_000;
/// Shown when a user who already used the trial asks for it again (docs/PRODUCT.md §5.6).
pub const TRIAL_USED_MESSAGE: &str =
    "Free trial is only available for first-time users. You have already used your trial.";

/// A credit pack (docs/PRODUCT.md §3.17 "Credit pack").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CreditPack {
    /// Display name.
    pub name: String,
    /// Credits granted.
    pub credits: u32,
    /// Price, cents.
    pub price: u32,
    /// Price per credit, dollars.
    pub price_per_credit: f64,
    /// Checkout package id.
    pub package_id: String,
    /// Discount against single credits, percent.
    pub discount_percent: u32,
    /// Savings text, empty for the single credit.
    pub savings: String,
    /// Feature lines.
    pub features: Vec<String>,
}

fn pack(name: &str, credits: u32, price: u32, id: &str, extra: &[&str]) -> CreditPack {
    let list_price = credits * CREDIT_PRICE_CENTS;
    let saved = list_price - price;
    let discount_percent = saved * 100 / list_price;
    let savings = if saved == 0 {
        String::new()
    } else {
        format!("Save {} ({discount_percent}% off)", format_dollars(saved))
    };
    let mut features = vec![
        if credits == 1 {
            "1 professional report".to_owned()
        } else {
            format!("{credits} professional reports")
        },
        "Credits never expire".to_owned(),
    ];
    features.extend(extra.iter().map(|s| (*s).to_owned()));
    CreditPack {
        name: name.to_owned(),
        credits,
        price,
        price_per_credit: f64::from(price) / f64::from(credits) / 100.0,
        package_id: id.to_owned(),
        discount_percent,
        savings,
        features,
    }
}

/// The four credit packs (docs/PRODUCT.md §9.2).
pub fn credit_packs() -> Vec<CreditPack> {
    vec![
        pack("Single Credit", 1, 500, "credit-1", &["PDF download"]),
        pack("Starter Pack", 5, 2000, "credit-5", &["PDF download"]),
        pack(
            "Growth Pack",
            20,
            7000,
            "credit-20",
            &["PDF download", "Priority support"],
        ),
        pack(
            "Scale Pack",
            100,
            30000,
            "credit-100",
            &["PDF download", "Priority support", "Best value"],
        ),
    ]
}

/// Formats a count with thousands separators: `10,000`.
pub fn format_count(n: u32) -> String {
    let mut whole = n.to_string();
    let mut i = whole.len();
    while i > 3 {
        i -= 3;
        whole.insert(i, ',');
    }
    whole
}

/// Formats cents as dollars: `$5`, `$3.50`, `$1,234`.
pub fn format_dollars(cents: u32) -> String {
    let whole = format_count(cents / 100);
    let rest = cents % 100;
    if rest == 0 {
        format!("${whole}")
    } else {
        format!("${whole}.{rest:02}")
    }
}

/// Pay-as-you-go price of one credit when buying `credits`, cents.
///
/// The spec fixes the ends (1-4 credits at $5, above 100 at $2.50) and the packs fix the points
/// in between (5 at $4, 20 at $3.50, 100 at $3). We fill the gaps with the price of the largest
/// pack not larger than the quantity, so a custom amount never costs more per credit than the
/// pack below it: 5-19 at $4, 20-99 at $3.50, exactly 100 at $3, 101 and more at $2.50.
pub fn unit_price_cents(credits: u32) -> u32 {
    match credits {
        0..=4 => 500,
        5..=19 => 400,
        20..=99 => 350,
        100 => 300,
        _ => 250,
    }
}

/// Pay-as-you-go price of exactly `credits`, cents (saturating).
pub fn pay_as_you_go_cents(credits: u32) -> u32 {
    credits.saturating_mul(unit_price_cents(credits))
}

/// The cheapest pay-as-you-go purchase of at least `credits`: the quantity to buy and its price.
///
/// Because larger quantities get lower unit prices, buying a little more is sometimes cheaper
/// (19 credits cost $76 but 20 cost $70). The result never decreases as `credits` grows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Purchase {
    /// Credits to buy (at least the number asked for).
    pub credits: u32,
    /// Price, cents.
    pub price: u32,
}

/// See [`Purchase`].
pub fn cheapest_purchase(credits: u32) -> Purchase {
    // Within one price tier the total grows with the quantity, so the cheapest quantity at or
    // above `credits` is `credits` itself or the start of a later tier.
    [credits, 5, 20, 100, 101]
        .into_iter()
        .filter(|&q| q >= credits)
        .map(|q| Purchase {
            credits: q,
            price: pay_as_you_go_cents(q),
        })
        .min_by_key(|p| (p.price, p.credits))
        .unwrap_or(Purchase {
            credits,
            price: pay_as_you_go_cents(credits),
        })
}

/// Why a price could not be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error, Serialize, Deserialize, TS)]
pub enum PriceError {
    /// Zero, negative, not a number, or absurdly large.
    #[error("the price must be a positive amount")]
    Invalid,
}

/// The custom credit purchase rule (docs/PRODUCT.md §5.9): a price under 100 is dollars and is
/// multiplied by 100; 100 or more is already cents. The result is rounded to whole cents.
pub fn custom_price_cents(price: f64) -> Result<u32, PriceError> {
    if !price.is_finite() || price <= 0.0 {
        return Err(PriceError::Invalid);
    }
    let cents = if price < 100.0 { price * 100.0 } else { price };
    let cents = cents.round();
    if cents < 1.0 || cents > f64::from(u32::MAX) {
        return Err(PriceError::Invalid);
    }
    Ok(cents as u32)
}

/// A subscription plan (docs/PRODUCT.md §3.17 "Plan", §9.3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Plan {
    /// Checkout package id, for example `business-plan`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Credits a month; `None` is unlimited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub credits: Option<u32>,
    /// Monthly price, cents.
    pub monthly_price: u32,
    /// Yearly price, cents (ten months: "2 Months Free").
    pub yearly_price: u32,
    /// Dollars per credit on monthly billing; `None` when unlimited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub per_credit_monthly: Option<f64>,
    /// Dollars per credit on yearly billing; `None` when unlimited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub per_credit_yearly: Option<f64>,
    /// Seats included; `None` is unlimited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub team_members: Option<u32>,
    /// Price of each extra seat a month, cents; `None` when seats are unlimited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub additional_seat_price: Option<u32>,
}

/// Months paid for a year of annual billing ("2 Months Free").
pub const ANNUAL_MONTHS_PAID: u32 = 10;

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn plan(
    id: &str,
    name: &str,
    credits: Option<u32>,
    monthly: u32,
    seats: Option<u32>,
    seat: Option<u32>,
) -> Plan {
    let yearly = monthly * ANNUAL_MONTHS_PAID;
    Plan {
        id: id.to_owned(),
        name: name.to_owned(),
        credits,
        monthly_price: monthly,
        yearly_price: yearly,
        per_credit_monthly: credits.map(|c| round2(f64::from(monthly) / f64::from(c) / 100.0)),
        per_credit_yearly: credits.map(|c| round2(f64::from(yearly) / f64::from(c * 12) / 100.0)),
        team_members: seats,
        additional_seat_price: seat,
    }
}

/// Business, Agency and Enterprise (docs/PRODUCT.md §9.3).
pub fn plans() -> Vec<Plan> {
    vec![
        plan(
            "business-plan",
            "Business",
            Some(20),
            7000,
            Some(3),
            Some(2000),
        ),
        plan(
            "agency-plan",
            "Agency",
            Some(100),
            30000,
            Some(5),
            Some(3000),
        ),
        plan("enterprise-plan", "Enterprise", None, 49900, None, None),
    ]
}

/// Every checkout package id the pricing page links to (docs/PRODUCT.md §7.10).
pub fn package_ids() -> Vec<String> {
    credit_packs()
        .into_iter()
        .map(|p| p.package_id)
        .chain(plans().into_iter().map(|p| p.id))
        .collect()
}

/// What a report type costs and includes (docs/PRODUCT.md §9.2).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ReportTypeInfo {
    /// The type.
    pub report_type: ReportType,
    /// Display name.
    pub name: String,
    /// Credits per report (0.5, 1 or 2).
    pub credits: Credits,
    /// Pages crawled.
    pub pages: u32,
    /// Whether the report carries the Sitelens watermark.
    pub watermarked: bool,
    /// Whether the report can carry an agency's brand.
    pub white_label: bool,
}

/// What a report of this type costs (docs/PRODUCT.md §9.2): basic half a credit, standard 1,
/// premium 2.
pub fn report_cost(t: ReportType) -> Credits {
    match t {
        ReportType::Basic => Credits::HALF,
        ReportType::Standard => Credits::whole(1),
        ReportType::Premium => Credits::whole(2),
    }
}

/// The display name of a report type: `Basic`, `Standard`, `Premium`.
pub fn report_type_name(t: ReportType) -> &'static str {
    match t {
        ReportType::Basic => "Basic",
        ReportType::Standard => "Standard",
        ReportType::Premium => "Premium",
    }
}

/// What a signed-in user is told when their credits do not cover a paid report: the price,
/// the balance, and where to buy more.
pub fn insufficient_credits_message(t: ReportType, balance: Credits) -> String {
    format!(
        "A {} report costs {} and you have {}. Buy credits on the pricing page to run it.",
        report_type_name(t),
        report_cost(t).label(),
        balance.label()
    )
}

/// What a signed-out visitor is told when asking for a paid report.
pub const PAID_REPORT_NEEDS_SIGN_IN: &str =
    "Sign in to run a paid report: it is paid for with the credits of your account.";

/// Details of one report type.
pub fn report_type_info(t: ReportType) -> ReportTypeInfo {
    ReportTypeInfo {
        report_type: t,
        name: report_type_name(t).to_owned(),
        credits: report_cost(t),
        pages: t.pages(),
        watermarked: t.watermarked(),
        white_label: !t.watermarked(),
    }
}

/// All three report types, cheapest first.
pub fn report_types() -> Vec<ReportTypeInfo> {
    ReportType::ALL.into_iter().map(report_type_info).collect()
}

/// Plan the calculator recommends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "kebab-case")]
pub enum PlanChoice {
    /// Buy credits as needed.
    PayAsYouGo,
    /// Business plan.
    Business,
    /// Agency plan.
    Agency,
}

/// Plan recommendation (docs/PRODUCT.md §9.4): Agency if credits exceed 50 or the team exceeds 3;
/// Business if credits exceed 20 or the team exceeds 1; else pay-as-you-go.
pub fn recommend_plan(credits: f64, team: u32) -> PlanChoice {
    if credits > 50.0 || team > 3 {
        PlanChoice::Agency
    } else if credits > 20.0 || team > 1 {
        PlanChoice::Business
    } else {
        PlanChoice::PayAsYouGo
    }
}

/// Pack recommendation (docs/PRODUCT.md §9.4): 100 or more credits the Scale Pack; 20 or more the
/// Growth Pack; more than 1 the Starter Pack; else a single credit. Returns the package id.
pub fn recommend_pack(credits: f64) -> String {
    let id = if credits >= 100.0 {
        "credit-100"
    } else if credits >= 20.0 {
        "credit-20"
    } else if credits > 1.0 {
        "credit-5"
    } else {
        "credit-1"
    };
    id.to_owned()
}

/// What the pricing calculator shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CalculatorResult {
    /// Credits a month the reports need (basic 0.5, standard 1, premium 2).
    pub credits: f64,
    /// Hours saved a month: credits × 4.
    pub hours_saved: f64,
    /// The recommended plan.
    pub plan: PlanChoice,
    /// The recommended pack id.
    pub pack: String,
    /// Cheapest pay-as-you-go purchase covering a month.
    pub pay_as_you_go: Purchase,
    /// Monthly cost of the recommended plan with any extra seats, cents (pay-as-you-go: its price).
    pub plan_monthly_cost: u32,
    /// Extra seats the team needs beyond the plan's included ones.
    pub extra_seats: u32,
    /// How much the recommended plan saves a month against pay-as-you-go, cents (never negative).
    pub monthly_savings: u32,
}

/// The pricing calculator (docs/PRODUCT.md §9.4). Inputs outside their limits are clamped: report
/// counts to 0..=[`CALCULATOR_MAX_REPORTS`], team to at least 1 (see
/// [`crate::forms::validate_calculator`] for the messages).
pub fn calculate(input: &CalculatorInput) -> CalculatorResult {
    let clamp = |n: i64| n.clamp(0, CALCULATOR_MAX_REPORTS) as u32;
    let (basic, standard, premium) = (
        clamp(input.basic),
        clamp(input.standard),
        clamp(input.premium),
    );
    let team = input.team.clamp(1, i64::from(u32::MAX)) as u32;
    // Count in half credits so the arithmetic stays exact.
    let cost = |t: ReportType, n: u32| n.saturating_mul(report_cost(t).halves());
    let halves = cost(ReportType::Basic, basic)
        .saturating_add(cost(ReportType::Standard, standard))
        .saturating_add(cost(ReportType::Premium, premium));
    let credits = f64::from(halves) / 2.0;
    let whole_credits = halves.div_ceil(2);
    let pay_as_you_go = cheapest_purchase(whole_credits);
    let choice = recommend_plan(credits, team);
    let (plan_monthly_cost, extra_seats) = match choice {
        PlanChoice::PayAsYouGo => (pay_as_you_go.price, 0),
        PlanChoice::Business | PlanChoice::Agency => {
            let id = if choice == PlanChoice::Business {
                "business-plan"
            } else {
                "agency-plan"
            };
            let p = plans().into_iter().find(|p| p.id == id);
            let (price, seats, seat_price) = p
                .map(|p| {
                    (
                        p.monthly_price,
                        p.team_members.unwrap_or(u32::MAX),
                        p.additional_seat_price.unwrap_or(0),
                    )
                })
                .unwrap_or((0, u32::MAX, 0));
            let extra = team.saturating_sub(seats);
            (
                price.saturating_add(extra.saturating_mul(seat_price)),
                extra,
            )
        }
    };
    CalculatorResult {
        credits,
        hours_saved: credits * f64::from(HOURS_SAVED_PER_CREDIT),
        plan: choice,
        pack: recommend_pack(credits),
        pay_as_you_go,
        plan_monthly_cost,
        extra_seats,
        monthly_savings: pay_as_you_go.price.saturating_sub(plan_monthly_cost),
    }
}

/// Checkout address for a package id (docs/PRODUCT.md §7.10).
pub fn package_checkout_path(package_id: &str) -> String {
    format!("/stripe-checkout?package={package_id}")
}

/// Checkout address for a custom number of credits; the price is in cents.
pub fn credits_checkout_path(credits: u32) -> String {
    format!(
        "/stripe-checkout?type=credits&credits={credits}&price={}",
        pay_as_you_go_cents(credits)
    )
}

/// Trial eligibility as the home page sees it (docs/PRODUCT.md §4.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum TrialState {
    /// Unknown or signed-out visitor.
    New,
    /// Signed in and has not used the trial.
    SignedInEligible,
    /// Signed in and has used the trial.
    SignedInUsed,
}

/// The trial state of a visitor.
pub fn trial_state(signed_in: bool, has_used_trial: bool) -> TrialState {
    match (signed_in, has_used_trial) {
        (false, _) => TrialState::New,
        (true, false) => TrialState::SignedInEligible,
        (true, true) => TrialState::SignedInUsed,
    }
}

/// The trial button's label and destination.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TrialButton {
    /// Button text.
    pub label: String,
    /// Where it goes.
    pub href: String,
}

/// The trial button by visitor state (docs/PRODUCT.md §2.4).
pub fn trial_button(state: TrialState) -> TrialButton {
    let (label, href) = match state {
        TrialState::New => ("Try For Free", "/sign-up"),
        TrialState::SignedInEligible => ("Try For Free", "/dashboard"),
        TrialState::SignedInUsed => (
            "Buy Credits",
            "/stripe-checkout?type=credits&credits=1&price=5",
        ),
    };
    TrialButton {
        label: label.to_owned(),
        href: href.to_owned(),
    }
}

/// Milliseconds in a day.
pub const DAY_MS: f64 = 86_400_000.0;

/// When a trial credit granted at `granted_at_ms` expires (7 days later), ms since the epoch.
pub fn trial_expires_at(granted_at_ms: f64) -> f64 {
    granted_at_ms + f64::from(TRIAL_VALID_DAYS) * DAY_MS
}

/// Whether a trial credit granted at `granted_at_ms` can still be used at `now_ms`.
pub fn trial_credit_valid(granted_at_ms: f64, now_ms: f64) -> bool {
    now_ms >= granted_at_ms && now_ms < trial_expires_at(granted_at_ms)
}

/// The UTC calendar day of a timestamp, `YYYY-MM-DD`: the key of the free daily allowance.
pub fn utc_day(ms_since_epoch: f64) -> String {
    let days = (ms_since_epoch / DAY_MS).floor() as i64;
    // Civil-from-days (Howard Hinnant's algorithm, proleptic Gregorian calendar).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// Whole seconds from `ms_since_epoch` until the next UTC day begins, when a used-up free
/// allowance is given again: the `Retry-After` of its 429 (RFC 9110 §10.2.3). At least 1.
pub fn seconds_until_next_utc_day(ms_since_epoch: f64) -> u64 {
    let into_day = ms_since_epoch.rem_euclid(DAY_MS);
    (((DAY_MS - into_day) / 1000.0).ceil() as u64).max(1)
}

/// The visitor the free allowance counts against, for a request from `ip` (docs/PRODUCT.md
/// §9.1, §9.13): an IPv4 address as it is, and an IPv6 address by its /64 network, written
/// `2001:db8:1:2::/64`. One IPv6 subscriber is usually given a whole /64 and may pick any
/// address in it, so counting single IPv6 addresses would let one visitor take an allowance
/// per address. An IPv4 address carried in IPv6 (`::ffff:198.51.100.7`) is that IPv4 address.
pub fn free_allowance_key(ip: std::net::IpAddr) -> String {
    use std::net::{IpAddr, Ipv6Addr};
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let network = u128::from(v6) & (u128::MAX << 64);
                format!("{}/64", Ipv6Addr::from(network))
            }
        },
    }
}

/// Free analyses left today after `used_today` were made.
pub fn free_analyses_remaining(used_today: u32) -> u32 {
    FREE_ANALYSES_PER_DAY.saturating_sub(used_today)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(ip: &str) -> String {
        free_allowance_key(ip.parse().expect("ip"))
    }

    #[test]
    fn the_allowance_returns_at_the_next_utc_midnight() {
        // 2026-11-25T23:59:30.200Z: 30 s (rounded up) to go.
        let late = 1_795_651_170_200.0;
        assert_eq!(utc_day(late), "2026-11-25");
        assert_eq!(seconds_until_next_utc_day(late), 30);
        // At midnight itself a whole day remains.
        assert_eq!(seconds_until_next_utc_day(1_795_651_200_000.0), 86_400);
    }

    #[test]
    fn ipv4_visitors_are_counted_by_address() {
        assert_eq!(key("198.51.100.7"), "198.51.100.7");
        assert_ne!(key("198.51.100.7"), key("198.51.100.8"));
    }

    #[test]
    fn ipv6_visitors_are_counted_by_their_64_network() {
        assert_eq!(key("2001:db8:1:2:3:4:5:6"), "2001:db8:1:2::/64");
        // Every address of one /64 is one visitor...
        assert_eq!(
            key("2001:db8:1:2::1"),
            key("2001:db8:1:2:ffff:ffff:ffff:ffff")
        );
        // ...and the next /64 is another.
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
        assert_eq!(key("::1"), "::/64");
        assert_eq!(key("fe80::1"), "fe80::/64");
    }

    #[test]
    fn ipv4_carried_in_ipv6_is_the_ipv4_address() {
        assert_eq!(key("::ffff:198.51.100.7"), "198.51.100.7");
    }
}
