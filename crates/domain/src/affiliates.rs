//! The affiliate programme's rules (docs/PRODUCT.md §1.5, §3.10-§3.13, §6.8): the application
//! form and its messages, the referral code, the windows a referral and its commission live in,
//! the commission itself, payouts, and the contract types of the affiliate pages.
//!
//! The path of a commission: a click on `?ref=CODE` sets a cookie for
//! [`REFERRAL_COOKIE_DAYS`]; a sign-up within it links the account to the affiliate; each payment
//! of that account within [`CONVERSION_DAYS`] of its sign-up is a conversion earning
//! [`commission_cents`]; the commission is `pending` for [`REFUND_WINDOW_DAYS`], then `approved`
//! (a refund before it is paid out makes it `reversed`); approved commissions of at least
//! [`PAYOUT_MINIMUM_CENTS`] are proposed as a payout on the monthly run ([`next_payout_date`]) and
//! become `paid` when an admin confirms the payout.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::commerce::AFFILIATE_COMMISSION_PERCENT;
use crate::forms::{EMAIL_MESSAGE, FieldError, bounded_text, err, is_valid_email};
use crate::site_url::normalize_input;

/// Days the referral cookie lasts after a click: a sign-up within them is the affiliate's.
pub const REFERRAL_COOKIE_DAYS: i64 = 30;
/// Days after sign-up in which a referred customer's payments earn commissions (twelve months).
pub const CONVERSION_DAYS: i64 = 365;
/// Days a commission stays pending, the refund window, before it is approved.
pub const REFUND_WINDOW_DAYS: i64 = 30;
/// The least a payout may be, in cents ($50); smaller balances wait for the next month.
pub const PAYOUT_MINIMUM_CENTS: i64 = 5_000;
/// The day of the month payouts are run.
pub const PAYOUT_DAY_OF_MONTH: u32 = 1;
/// The query parameter of a referral link.
pub const REFERRAL_PARAM: &str = "ref";
/// The first-party cookie holding the referral.
pub const REFERRAL_COOKIE: &str = "sitelens_ref";
/// Length of a generated referral code.
pub const CODE_LENGTH: usize = 8;
/// The letters of a generated code: capitals and digits without the look-alikes 0, O, 1 and I.
pub const CODE_ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
/// Longest experience or motivation text, in characters.
pub const LONG_TEXT_MAX: usize = 2_000;
/// Longest name or company, in characters.
pub const SHORT_TEXT_MAX: usize = 200;
/// Shown when the account or e-mail already applied.
pub const ALREADY_APPLIED_MESSAGE: &str =
    "You have already applied to the affiliate programme with this account or e-mail address.";

const DAY_SECS: i64 = 86_400;

/// Where an applicant's audience comes from (the form's choices).
pub const TRAFFIC_SOURCES: &[&str] = &[
    "Website or blog",
    "YouTube or video",
    "Social media",
    "Newsletter",
    "Paid advertising",
    "Agency or client work",
    "Other",
];

/// An applicant's monthly visitors (the form's choices).
pub const MONTHLY_TRAFFIC: &[&str] = &[
    "Under 1,000",
    "1,000 to 10,000",
    "10,000 to 100,000",
    "Over 100,000",
];

/// The application form (docs/PRODUCT.md §3.10): everything required except website and company.
/// A field left out reads as empty.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
pub struct AffiliateApplication {
    /// The applicant's name.
    pub name: String,
    /// Where to reach them.
    pub email: String,
    /// Their website (optional).
    pub website: String,
    /// Their company (optional).
    pub company: String,
    /// Their marketing experience.
    pub experience: String,
    /// One of [`TRAFFIC_SOURCES`].
    pub traffic_source: String,
    /// One of [`MONTHLY_TRAFFIC`].
    pub monthly_traffic: String,
    /// Why they want to join.
    pub motivation: String,
}

/// Validates the application, in form order; empty when it may be sent. The browser (through
/// wasm) and the server both ask here.
pub fn validate_application(form: &AffiliateApplication) -> Vec<FieldError> {
    let website = form.website.trim();
    let company = form.company.trim();
    [
        bounded_text(
            "name",
            &form.name,
            SHORT_TEXT_MAX,
            "Please enter your name",
            "your name",
        ),
        (!is_valid_email(&form.email)).then(|| err("email", EMAIL_MESSAGE)),
        (!website.is_empty() && normalize_input(website).is_err()).then(|| {
            err(
                "website",
                "Please enter a valid website URL, or leave it empty",
            )
        }),
        (company.chars().count() > SHORT_TEXT_MAX)
            .then(|| err("company", "Please keep the company name to 200 characters")),
        bounded_text(
            "experience",
            &form.experience,
            LONG_TEXT_MAX,
            "Please tell us about your marketing experience",
            "your experience",
        ),
        (!TRAFFIC_SOURCES.contains(&form.traffic_source.trim())).then(|| {
            err(
                "trafficSource",
                "Please choose where your traffic comes from",
            )
        }),
        (!MONTHLY_TRAFFIC.contains(&form.monthly_traffic.trim()))
            .then(|| err("monthlyTraffic", "Please choose your monthly traffic")),
        bounded_text(
            "motivation",
            &form.motivation,
            LONG_TEXT_MAX,
            "Please tell us why you want to join",
            "your motivation",
        ),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// A referral code as typed or found in a link: trimmed and upper-cased; `None` unless it is 4 to
/// 32 letters, digits, `-` or `_`.
pub fn normalize_code(raw: &str) -> Option<String> {
    let code = raw.trim().to_ascii_uppercase();
    let ok = (4..=32).contains(&code.len())
        && code
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    ok.then_some(code)
}

/// A new referral code of [`CODE_LENGTH`] letters of [`CODE_ALPHABET`], from random bytes (the
/// caller's randomness; the domain does no I/O).
pub fn make_code(random: &[u8; CODE_LENGTH]) -> String {
    random
        .iter()
        .map(|b| char::from(CODE_ALPHABET[usize::from(*b) % CODE_ALPHABET.len()]))
        .collect()
}

/// The referral link of `code` on the site at `origin` (no trailing slash needed).
pub fn referral_link(origin: &str, code: &str) -> String {
    format!("{}/?{REFERRAL_PARAM}={code}", origin.trim_end_matches('/'))
}

/// Whether a sign-up at `signup_at` still belongs to a click at `clicked_at` (unix seconds): at
/// most [`REFERRAL_COOKIE_DAYS`] later, never before it.
pub fn in_cookie_window(clicked_at: i64, signup_at: i64) -> bool {
    signup_at >= clicked_at && signup_at - clicked_at <= REFERRAL_COOKIE_DAYS * DAY_SECS
}

/// Whether a payment at `paid_at` of a customer referred at `signed_up_at` (unix seconds) earns a
/// commission: within [`CONVERSION_DAYS`] of the sign-up.
pub fn converts(signed_up_at: i64, paid_at: i64) -> bool {
    paid_at >= signed_up_at && paid_at - signed_up_at <= CONVERSION_DAYS * DAY_SECS
}

/// The commission on a payment of `amount_cents` at `rate_percent`, in whole cents, rounded
/// down (a fraction of a cent is never paid): 30 % of $9.99 is $2.99.
pub fn commission_cents(amount_cents: i64, rate_percent: u32) -> i64 {
    if amount_cents <= 0 {
        return 0;
    }
    amount_cents.saturating_mul(i64::from(rate_percent)) / 100
}

/// The default commission rate, percent (docs/PRODUCT.md §9.5).
pub const DEFAULT_RATE_PERCENT: u32 = AFFILIATE_COMMISSION_PERCENT;

/// Whether a commission earned at `converted_at` has left the refund window at `now` (unix
/// seconds) and is approved.
pub fn approval_due(converted_at: i64, now: i64) -> bool {
    now - converted_at >= REFUND_WINDOW_DAYS * DAY_SECS
}

/// Whether approved commissions totalling `cents` are paid out on a run (at least
/// [`PAYOUT_MINIMUM_CENTS`]).
pub fn payout_due(cents: i64) -> bool {
    cents >= PAYOUT_MINIMUM_CENTS
}

/// The next payout date after the day `(year, month, day)`: the [`PAYOUT_DAY_OF_MONTH`] of the
/// following month (a run on the 1st makes the next one the 1st of the month after).
pub fn next_payout_date(year: i32, month: u32, _day: u32) -> (i32, u32, u32) {
    if month >= 12 {
        (year + 1, 1, PAYOUT_DAY_OF_MONTH)
    } else {
        (year, month + 1, PAYOUT_DAY_OF_MONTH)
    }
}

/// An affiliate's standing (docs/PRODUCT.md §6.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum AffiliateStatus {
    /// Applied, waiting for an admin.
    Pending,
    /// Earns commissions.
    Approved,
    /// Turned down, with a reason.
    Rejected,
}

impl AffiliateStatus {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Approved => "approved",
            Self::Rejected => "rejected",
        }
    }

    /// Reads a stored name.
    pub fn parse(s: &str) -> Option<Self> {
        [Self::Pending, Self::Approved, Self::Rejected]
            .into_iter()
            .find(|v| v.as_str() == s)
    }
}

/// Where a commission stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum CommissionStatus {
    /// In the refund window.
    Pending,
    /// Out of the refund window, owed.
    Approved,
    /// The payment was refunded before the commission was paid: nothing owed.
    Reversed,
    /// Paid out.
    Paid,
}

impl CommissionStatus {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Approved => "approved",
            Self::Reversed => "reversed",
            Self::Paid => "paid",
        }
    }

    /// Reads a stored name.
    pub fn parse(s: &str) -> Option<Self> {
        [Self::Pending, Self::Approved, Self::Reversed, Self::Paid]
            .into_iter()
            .find(|v| v.as_str() == s)
    }

    /// Whether a refund of the payment reverses it (it has not been paid out yet).
    pub fn reversible(self) -> bool {
        matches!(self, Self::Pending | Self::Approved)
    }
}

/// How a payout is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum PayoutMethod {
    /// A Stripe Connect transfer to the affiliate's connected account.
    Stripe,
    /// Paid outside the product (bank transfer, ...), recorded with a note.
    Manual,
}

impl PayoutMethod {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Stripe => "stripe",
            Self::Manual => "manual",
        }
    }
}

/// A manual payout's note (how and when it was paid): required, trimmed, 3 to 500 characters.
pub fn check_payout_note(raw: &str) -> Result<String, String> {
    let note = raw.trim();
    match note.chars().count() {
        0..=2 => Err("Say how the payout was made (at least 3 characters).".to_owned()),
        501.. => Err("Keep the note under 500 characters.".to_owned()),
        _ => Ok(note.to_owned()),
    }
}

/// A Stripe Connect account id as an admin enters it: `acct_` and letters or digits; an empty
/// value removes it (`Ok(None)`).
pub fn check_connected_account(raw: &str) -> Result<Option<String>, String> {
    let id = raw.trim();
    if id.is_empty() {
        return Ok(None);
    }
    let ok = id.len() <= 64
        && id.strip_prefix("acct_").is_some_and(|rest| {
            !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_alphanumeric())
        });
    if ok {
        Ok(Some(id.to_owned()))
    } else {
        Err("A Stripe connected account id looks like acct_1A2b3C4d5E6f.".to_owned())
    }
}

/// An admin's change of an affiliate's Stripe connected account.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ConnectedAccountRequest {
    /// `acct_...`, or empty to remove it.
    #[serde(default)]
    pub account_id: String,
    /// Why (required, written to the audit log).
    #[serde(default)]
    pub reason: String,
}

/// A banner size of the marketing materials.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BannerSize {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Its usual name.
    pub name: &'static str,
}

/// The standard sizes offered.
pub const BANNER_SIZES: &[BannerSize] = &[
    BannerSize {
        width: 728,
        height: 90,
        name: "Leaderboard",
    },
    BannerSize {
        width: 468,
        height: 60,
        name: "Banner",
    },
    BannerSize {
        width: 300,
        height: 250,
        name: "Medium rectangle",
    },
    BannerSize {
        width: 160,
        height: 600,
        name: "Wide skyscraper",
    },
];

/// The banner of `width`×`height` (one of [`BANNER_SIZES`]) as SVG in the brand's colours: the
/// logo mark, the name and the offer, laid out for the shape.
pub fn banner_svg(width: u32, height: u32) -> Option<String> {
    BANNER_SIZES
        .iter()
        .find(|s| s.width == width && s.height == height)?;
    let (w, h) = (f64::from(width), f64::from(height));
    let tall = h > w;
    let (mark, title, line, cta) = if tall {
        (w * 0.35, w * 0.16, w * 0.09, w * 0.09)
    } else {
        let base = h.min(w / 4.0);
        (base * 0.45, base * 0.24, base * 0.14, base * 0.13)
    };
    let mut body = String::new();
    let logo = |x: f64, y: f64, s: f64| {
        format!(
            r##"<g transform="translate({x:.1} {y:.1})"><rect width="{s:.1}" height="{s:.1}" rx="{r:.1}" fill="#ffffff"/><circle cx="{c:.1}" cy="{c:.1}" r="{cr:.1}" fill="none" stroke="#4f46e5" stroke-width="{sw:.1}"/><path d="M{l1:.1} {l1:.1} L{l2:.1} {l2:.1}" stroke="#4f46e5" stroke-width="{sw:.1}" stroke-linecap="round"/></g>"##,
            r = s * 0.22,
            c = s * 0.45,
            cr = s * 0.22,
            sw = s * 0.09,
            l1 = s * 0.61,
            l2 = s * 0.8,
        )
    };
    let text = |x: f64, y: f64, size: f64, weight: u32, fill: &str, anchor: &str, t: &str| {
        format!(
            r#"<text x="{x:.1}" y="{y:.1}" font-family="Inter, Arial, sans-serif" font-size="{size:.1}" font-weight="{weight}" fill="{fill}" text-anchor="{anchor}">{t}</text>"#
        )
    };
    if tall {
        let cx = w / 2.0;
        body.push_str(&logo(cx - mark / 2.0, h * 0.08, mark));
        body.push_str(&text(
            cx,
            h * 0.08 + mark + title * 1.4,
            title,
            700,
            "#ffffff",
            "middle",
            "Sitelens",
        ));
        for (i, l) in ["Website", "analysis", "in 60", "seconds"]
            .iter()
            .enumerate()
        {
            let y = h * 0.42 + line * 1.4 * i as f64;
            body.push_str(&text(cx, y, line * 1.3, 700, "#ffffff", "middle", l));
        }
        for (i, l) in ["SEO, speed,", "design and", "technical", "checks"]
            .iter()
            .enumerate()
        {
            let y = h * 0.64 + line * 1.35 * i as f64;
            body.push_str(&text(cx, y, line, 400, "#e0e7ff", "middle", l));
        }
        body.push_str(&cta_button(cx, h * 0.88, w * 0.8, cta * 2.6, cta));
    } else {
        let pad = h * 0.18;
        body.push_str(&logo(pad, (h - mark) / 2.0, mark));
        let tx = pad * 1.6 + mark;
        let compact = h < 100.0;
        if compact {
            body.push_str(&text(
                tx,
                h / 2.0 - title * 0.1,
                title,
                700,
                "#ffffff",
                "start",
                "Sitelens",
            ));
            body.push_str(&text(
                tx,
                h / 2.0 + line * 1.4,
                line,
                400,
                "#e0e7ff",
                "start",
                "Website analysis in 60 seconds",
            ));
            let bw = (w * 0.24).min(170.0);
            body.push_str(&cta_button(w - pad - bw / 2.0, h / 2.0, bw, h * 0.46, cta));
        } else {
            let cx = w / 2.0;
            body.clear();
            body.push_str(&logo(cx - mark / 2.0, h * 0.1, mark));
            body.push_str(&text(
                cx,
                h * 0.1 + mark + title * 1.2,
                title,
                700,
                "#ffffff",
                "middle",
                "Sitelens",
            ));
            body.push_str(&text(
                cx,
                h * 0.62,
                line * 1.2,
                700,
                "#ffffff",
                "middle",
                "Website analysis in 60 seconds",
            ));
            body.push_str(&text(
                cx,
                h * 0.62 + line * 1.6,
                line,
                400,
                "#e0e7ff",
                "middle",
                "SEO, speed, design and technical checks",
            ));
            body.push_str(&cta_button(cx, h * 0.86, w * 0.5, h * 0.13, cta));
        }
    }
    Some(format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" aria-label="Sitelens: website analysis in 60 seconds"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#4f46e5"/><stop offset="1" stop-color="#7c3aed"/></linearGradient></defs><rect width="{width}" height="{height}" fill="url(#g)"/>{body}</svg>"##
    ))
}

fn cta_button(cx: f64, cy: f64, w: f64, h: f64, size: f64) -> String {
    format!(
        r##"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" rx="{r:.1}" fill="#ffffff"/><text x="{cx:.1}" y="{ty:.1}" font-family="Inter, Arial, sans-serif" font-size="{size:.1}" font-weight="700" fill="#4f46e5" text-anchor="middle">Analyze free</text>"##,
        x = cx - w / 2.0,
        y = cy - h / 2.0,
        r = h * 0.25,
        ty = cy + size * 0.35,
    )
}

/// The programme's terms, as the pages state them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AffiliateTerms {
    /// Default commission, percent.
    pub commission_percent: u32,
    /// Cookie lifetime, days.
    pub cookie_days: u32,
    /// Refund window, days.
    pub refund_window_days: u32,
    /// Days after sign-up that payments earn.
    pub conversion_days: u32,
    /// Smallest payout, cents.
    pub payout_minimum_cents: u32,
    /// Day of the month payouts run.
    pub payout_day_of_month: u32,
    /// The form's traffic source choices.
    pub traffic_sources: Vec<String>,
    /// The form's monthly traffic choices.
    pub monthly_traffic: Vec<String>,
    /// The banner sizes of the marketing materials.
    pub banners: Vec<BannerInfo>,
}

/// A banner size as the marketing materials page lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct BannerInfo {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Its usual name.
    pub name: String,
}

/// The programme's terms.
pub fn terms() -> AffiliateTerms {
    AffiliateTerms {
        commission_percent: DEFAULT_RATE_PERCENT,
        cookie_days: REFERRAL_COOKIE_DAYS as u32,
        refund_window_days: REFUND_WINDOW_DAYS as u32,
        conversion_days: CONVERSION_DAYS as u32,
        payout_minimum_cents: PAYOUT_MINIMUM_CENTS as u32,
        payout_day_of_month: PAYOUT_DAY_OF_MONTH,
        traffic_sources: TRAFFIC_SOURCES.iter().map(|s| (*s).to_owned()).collect(),
        monthly_traffic: MONTHLY_TRAFFIC.iter().map(|s| (*s).to_owned()).collect(),
        banners: BANNER_SIZES
            .iter()
            .map(|b| BannerInfo {
                width: b.width,
                height: b.height,
                name: b.name.to_owned(),
            })
            .collect(),
    }
}

/// One conversion as the affiliate and admins see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ConversionView {
    /// Its id.
    #[ts(type = "number")]
    pub id: i64,
    /// When the payment was made (RFC 3339).
    pub at: String,
    /// `credits` or a plan payment.
    pub transaction_type: String,
    /// What the customer paid, cents.
    #[ts(type = "number")]
    pub amount_cents: i64,
    /// The commission, cents.
    #[ts(type = "number")]
    pub commission_cents: i64,
    /// Where it stands.
    pub status: CommissionStatus,
    /// When a pending commission is approved (RFC 3339).
    pub approves_at: Option<String>,
}

/// One payout.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PayoutView {
    /// Its id.
    #[ts(type = "number")]
    pub id: i64,
    /// The affiliate paid.
    #[ts(type = "number")]
    pub affiliate_id: i64,
    /// Amount, cents.
    #[ts(type = "number")]
    pub amount_cents: i64,
    /// `stripe` or `manual`.
    pub method: String,
    /// `pending` (proposed) or `paid`.
    pub status: String,
    /// When it was proposed (RFC 3339).
    pub created_at: String,
    /// When it was paid (RFC 3339).
    pub paid_at: Option<String>,
    /// Stripe's transfer id.
    pub transfer_id: Option<String>,
    /// The admin's note.
    pub note: Option<String>,
}

/// The affiliate dashboard (`GET /api/affiliates/me`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AffiliateDashboard {
    /// Standing.
    pub status: AffiliateStatus,
    /// Why an application was rejected.
    pub rejection_reason: Option<String>,
    /// The referral code.
    pub code: String,
    /// The referral link.
    pub referral_link: String,
    /// The affiliate's rate, percent.
    pub commission_percent: u32,
    /// Counted clicks.
    #[ts(type = "number")]
    pub clicks: i64,
    /// Conversions not reversed.
    #[ts(type = "number")]
    pub conversions: i64,
    /// All commissions not reversed (pending, approved and paid), cents.
    #[ts(type = "number")]
    pub earnings_cents: i64,
    /// Commissions in the refund window, cents.
    #[ts(type = "number")]
    pub pending_cents: i64,
    /// Approved commissions not yet paid, cents.
    #[ts(type = "number")]
    pub approved_cents: i64,
    /// Paid out, cents.
    #[ts(type = "number")]
    pub paid_cents: i64,
    /// The least a payout may be, cents.
    #[ts(type = "number")]
    pub payout_minimum_cents: i64,
    /// The last payout (RFC 3339).
    pub last_payout_date: Option<String>,
    /// The next payout run (RFC 3339).
    pub next_payout_date: Option<String>,
    /// Latest conversions, newest first.
    pub recent_conversions: Vec<ConversionView>,
    /// Payouts, newest first.
    pub payouts: Vec<PayoutView>,
}

/// An affiliate as the admin area lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AdminAffiliateView {
    /// Its id.
    #[ts(type = "number")]
    pub id: i64,
    /// The account that applied.
    #[ts(type = "number | null")]
    pub user_id: Option<i64>,
    /// Code.
    pub code: String,
    /// Name.
    pub name: String,
    /// E-mail.
    pub email: String,
    /// Website.
    pub website: Option<String>,
    /// Company.
    pub company: Option<String>,
    /// Experience.
    pub experience: String,
    /// Traffic source.
    pub traffic_source: String,
    /// Monthly traffic.
    pub monthly_traffic: String,
    /// Motivation.
    pub motivation: String,
    /// Standing.
    pub status: AffiliateStatus,
    /// Why rejected.
    pub rejection_reason: Option<String>,
    /// Rate, percent.
    pub commission_percent: u32,
    /// Counted clicks.
    #[ts(type = "number")]
    pub clicks: i64,
    /// Conversions not reversed.
    #[ts(type = "number")]
    pub conversions: i64,
    /// Commissions not reversed, cents.
    #[ts(type = "number")]
    pub earnings_cents: i64,
    /// Commissions not yet paid (pending and approved), cents.
    #[ts(type = "number")]
    pub unpaid_cents: i64,
    /// Whether a Stripe connected account is on file.
    pub has_connected_account: bool,
    /// Applied at (RFC 3339).
    pub created_at: String,
}

/// An admin's decision on an application.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ReviewRequest {
    /// Why (required for a rejection; written to the audit log either way).
    #[serde(default)]
    pub reason: String,
}

/// An admin's confirmation of a proposed payout.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ConfirmPayoutRequest {
    /// How it is paid.
    pub method: PayoutMethod,
    /// How it was paid (required for a manual payout).
    #[serde(default)]
    pub note: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filled() -> AffiliateApplication {
        AffiliateApplication {
            name: "Ada Lovelace".into(),
            email: "ada@example.com".into(),
            website: String::new(),
            company: String::new(),
            experience: "Five years of SEO consulting".into(),
            traffic_source: "Website or blog".into(),
            monthly_traffic: "1,000 to 10,000".into(),
            motivation: "My readers ask which audit tool to use".into(),
        }
    }

    #[test]
    fn application_requires_all_but_website_and_company() {
        assert!(validate_application(&filled()).is_empty());
        let fields: Vec<String> = validate_application(&AffiliateApplication::default())
            .into_iter()
            .map(|e| e.field)
            .collect();
        assert_eq!(
            fields,
            [
                "name",
                "email",
                "experience",
                "trafficSource",
                "monthlyTraffic",
                "motivation"
            ]
        );
    }

    #[test]
    fn application_checks_optional_fields_only_when_given() {
        let mut form = filled();
        form.website = "not a site".into();
        form.company = "x".repeat(201);
        let errors = validate_application(&form);
        assert_eq!(errors.len(), 2);
        assert_eq!(errors[0].field, "website");
        assert_eq!(errors[1].field, "company");
        form.website = "example.com".into();
        form.company = "Acme".into();
        assert!(validate_application(&form).is_empty());
        form.traffic_source = "Carrier pigeons".into();
        assert_eq!(validate_application(&form)[0].field, "trafficSource");
    }

    #[test]
    fn codes_are_normalized_and_generated_from_the_alphabet() {
        assert_eq!(normalize_code(" ann30 ").as_deref(), Some("ANN30"));
        assert_eq!(normalize_code("ab"), None);
        assert_eq!(normalize_code("has space"), None);
        assert_eq!(normalize_code(&"A".repeat(33)), None);
        let code = make_code(&[0, 1, 31, 32, 255, 8, 9, 100]);
        assert_eq!(code, "AB9A9JKE");
        assert_eq!(normalize_code(&code).as_deref(), Some(code.as_str()));
        assert_eq!(
            referral_link("https://sitelens.example/", "AB9A9JKE"),
            "https://sitelens.example/?ref=AB9A9JKE"
        );
    }

    #[test]
    fn windows_include_their_last_second() {
        let day = DAY_SECS;
        assert!(in_cookie_window(0, 30 * day));
        assert!(!in_cookie_window(0, 30 * day + 1));
        assert!(!in_cookie_window(10, 9));
        assert!(converts(0, 365 * day));
        assert!(!converts(0, 365 * day + 1));
        assert!(!approval_due(0, 30 * day - 1));
        assert!(approval_due(0, 30 * day));
    }

    #[test]
    fn commission_rounds_down_to_whole_cents() {
        assert_eq!(commission_cents(4_900, 30), 1_470);
        assert_eq!(commission_cents(999, 30), 299);
        assert_eq!(commission_cents(1, 30), 0);
        assert_eq!(commission_cents(-500, 30), 0);
        assert_eq!(commission_cents(10_000, DEFAULT_RATE_PERCENT), 3_000);
    }

    #[test]
    fn payouts_need_the_minimum_and_run_monthly() {
        assert!(!payout_due(PAYOUT_MINIMUM_CENTS - 1));
        assert!(payout_due(PAYOUT_MINIMUM_CENTS));
        assert_eq!(next_payout_date(2026, 11, 29), (2026, 12, 1));
        assert_eq!(next_payout_date(2026, 12, 1), (2027, 1, 1));
        assert!(check_payout_note("  ").is_err());
        assert_eq!(
            check_payout_note(" bank transfer ").expect("valid"),
            "bank transfer"
        );
        assert!(check_payout_note(&"n".repeat(501)).is_err());
    }

    #[test]
    fn statuses_round_trip_and_only_unpaid_commissions_reverse() {
        for s in ["pending", "approved", "rejected"] {
            assert_eq!(AffiliateStatus::parse(s).expect("status").as_str(), s);
        }
        for s in ["pending", "approved", "reversed", "paid"] {
            assert_eq!(CommissionStatus::parse(s).expect("status").as_str(), s);
        }
        assert!(CommissionStatus::Approved.reversible());
        assert!(!CommissionStatus::Paid.reversible());
    }

    #[test]
    fn connected_accounts_look_like_stripes() {
        assert_eq!(check_connected_account(" "), Ok(None));
        assert_eq!(
            check_connected_account(" acct_1A2b3C ")
                .expect("valid")
                .as_deref(),
            Some("acct_1A2b3C")
        );
        assert!(check_connected_account("acct_").is_err());
        assert!(check_connected_account("cus_123").is_err());
        assert!(check_connected_account("acct_12-3").is_err());
    }

    #[test]
    fn banners_exist_for_the_standard_sizes_only() {
        for s in BANNER_SIZES {
            let svg = banner_svg(s.width, s.height).expect("banner");
            assert!(svg.starts_with("<svg"));
            assert!(svg.contains(&format!(r#"width="{}""#, s.width)));
            assert!(svg.contains("Sitelens"));
        }
        assert!(banner_svg(100, 100).is_none());
    }
}
