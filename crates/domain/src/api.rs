//! The public API's rules and contract (docs/PRODUCT.md §3.4 `users.apiKey`, `apiCalls`,
//! `apiRateLimit`; §3.6 `api_usage`; §9.5 the API rate limit of 100).
//!
//! An API key is `slk_` followed by 64 lower-case hex digits (32 random bytes, drawn by the
//! server): the server stores only its SHA-256 and shows its first [`KEY_SHOWN_CHARS`]
//! characters, so a person can tell keys apart without the database holding a usable secret.
//! Requests are counted per key in fixed one-minute windows ([`rate_window`]); the limit is the
//! account's `apiRateLimit`, [`DEFAULT_RATE_LIMIT_PER_MINUTE`] unless an operator changed it.
//!
//! Every error of `/api/v1` has one shape, [`ApiErrorBody`], with a stable [`ApiErrorCode`] a
//! program can branch on and a message a person can read.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::callbacks::ApiCallback;
use crate::credits::Credits;
use crate::report::ReportType;

/// Requests a key may make per minute unless the account's limit was changed (docs/PRODUCT.md
/// §9.5).
pub const DEFAULT_RATE_LIMIT_PER_MINUTE: u32 = 100;

/// Length of a rate-limit window, in seconds.
pub const RATE_WINDOW_SECONDS: i64 = 60;

/// What every key starts with, so a leaked key is recognisable (secret scanners, logs).
pub const KEY_PREFIX: &str = "slk_";

/// Random bytes in a key: 256 bits, far beyond guessing.
pub const KEY_BYTES: usize = 32;

/// Characters of a key shown after it was created: the prefix and 8 hex digits.
pub const KEY_SHOWN_CHARS: usize = 12;

/// Longest key name, in characters.
pub const KEY_NAME_MAX: usize = 64;

/// Keys an account may hold at once (revoked keys not counted).
pub const MAX_KEYS_PER_ACCOUNT: usize = 20;

/// Longest `Idempotency-Key` header value.
pub const IDEMPOTENCY_KEY_MAX: usize = 255;

/// Analyses per page of `GET /api/v1/analyses` unless `perPage` says otherwise.
pub const DEFAULT_PAGE_SIZE: u32 = 20;

/// Most analyses per page.
pub const MAX_PAGE_SIZE: u32 = 100;

/// The message of a missing, unknown or revoked key: one answer for all three.
pub const KEY_REFUSED_MESSAGE: &str =
    "send a valid API key as `Authorization: Bearer slk_…`; create one on your dashboard";

/// The key text for `random` bytes: [`KEY_PREFIX`] and the bytes in lower-case hex.
pub fn format_key(random: &[u8; KEY_BYTES]) -> String {
    prefixed_hex(KEY_PREFIX, random)
}

/// Whether `text` has the form of a key; anything else is refused before the database is asked.
pub fn is_well_formed_key(text: &str) -> bool {
    is_prefixed_hex(text, KEY_PREFIX, KEY_BYTES)
}

/// `prefix` and `random` in lower-case hex: the form of every key Sitelens draws.
pub(crate) fn prefixed_hex(prefix: &str, random: &[u8]) -> String {
    let mut key = String::with_capacity(prefix.len() + 2 * random.len());
    key.push_str(prefix);
    for b in random {
        key.push(char::from_digit(u32::from(b >> 4), 16).unwrap_or('0'));
        key.push(char::from_digit(u32::from(b & 0xf), 16).unwrap_or('0'));
    }
    key
}

/// Whether `text` is `prefix` and `bytes` bytes in lower-case hex ([`prefixed_hex`]).
pub(crate) fn is_prefixed_hex(text: &str, prefix: &str, bytes: usize) -> bool {
    text.strip_prefix(prefix).is_some_and(|hex| {
        hex.len() == 2 * bytes
            && hex
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}

/// The part of a key shown in lists: its first [`KEY_SHOWN_CHARS`] characters.
pub fn key_prefix(key: &str) -> String {
    key.chars().take(KEY_SHOWN_CHARS).collect()
}

/// The name a key is stored with (trimmed), or the message to show.
pub fn validate_key_name(name: &str) -> Result<String, String> {
    let name = name.trim();
    if name.is_empty() {
        return Err("Give the key a name, for example the tool that will use it".to_owned());
    }
    if name.chars().count() > KEY_NAME_MAX {
        return Err(format!("A key name has at most {KEY_NAME_MAX} characters"));
    }
    if name.chars().any(char::is_control) {
        return Err("A key name cannot contain control characters".to_owned());
    }
    Ok(name.to_owned())
}

/// Whether an account holding `active` keys may create another; `Err` is the message to show.
pub fn check_key_count(active: usize) -> Result<(), String> {
    if active < MAX_KEYS_PER_ACCOUNT {
        Ok(())
    } else {
        Err(format!(
            "An account can hold {MAX_KEYS_PER_ACCOUNT} API keys. Revoke one you no longer use first."
        ))
    }
}

/// Checks an `Idempotency-Key` header value: 1 to [`IDEMPOTENCY_KEY_MAX`] visible ASCII
/// characters (a UUID is the usual choice); `Err` is the message to show.
pub fn validate_idempotency_key(key: &str) -> Result<(), String> {
    if key.is_empty() || key.len() > IDEMPOTENCY_KEY_MAX {
        return Err(format!(
            "the Idempotency-Key header must have 1 to {IDEMPOTENCY_KEY_MAX} characters"
        ));
    }
    if !key.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(
            "the Idempotency-Key header may only hold visible ASCII characters (a UUID works)"
                .to_owned(),
        );
    }
    Ok(())
}

/// How long an `Idempotency-Key` names its analysis, in seconds: 24 hours, as Stripe keeps
/// its keys. A submission that repeats a key older than this is a new submission (a new
/// analysis, charged again); a client retrying a request retries within seconds or minutes.
pub const IDEMPOTENCY_KEY_TTL_SECONDS: i64 = 24 * 60 * 60;

/// How long the record of each API call (`api_usage`) is kept, in days. Older rows are
/// removed; the account's total (`users.apiCalls`) keeps counting them.
pub const API_USAGE_RETENTION_DAYS: i64 = 90;

/// The highest rate limit an operator may give an account, in requests per minute.
pub const MAX_RATE_LIMIT_PER_MINUTE: u32 = 1_000_000;

/// Reads a rate limit an operator typed: a whole number of requests per minute from 1 to
/// [`MAX_RATE_LIMIT_PER_MINUTE`]; `Err` is the message to show.
pub fn parse_rate_limit(text: &str) -> Result<u32, String> {
    text.trim()
        .parse::<u32>()
        .ok()
        .filter(|n| (1..=MAX_RATE_LIMIT_PER_MINUTE).contains(n))
        .ok_or_else(|| {
            format!(
                "the rate limit must be a whole number of requests per minute from 1 to {MAX_RATE_LIMIT_PER_MINUTE}, not '{}'",
                text.trim()
            )
        })
}

/// The fixed window a request at `now_unix_ms` is counted in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateWindow {
    /// The window's start, in seconds since the Unix epoch (a multiple of
    /// [`RATE_WINDOW_SECONDS`]).
    pub start: i64,
    /// Whole seconds until the next window starts (1 to [`RATE_WINDOW_SECONDS`]): the
    /// `RateLimit-Reset` and `Retry-After` values.
    pub reset_after: u64,
}

/// The window of a request made at `now_unix_ms` milliseconds since the Unix epoch.
pub fn rate_window(now_unix_ms: i64) -> RateWindow {
    let now = now_unix_ms.div_euclid(1000);
    let start = now - now.rem_euclid(RATE_WINDOW_SECONDS);
    let reset_after = u64::try_from(start + RATE_WINDOW_SECONDS - now).unwrap_or(1);
    RateWindow {
        start,
        reset_after: reset_after.max(1),
    }
}

/// The page of `GET /api/v1/analyses` the query asks for, as `(offset, limit)`; `Err` is the
/// message to show. `page` counts from 1.
pub fn page_bounds(page: Option<u32>, per_page: Option<u32>) -> Result<(u64, u64), String> {
    let page = page.unwrap_or(1);
    let per_page = per_page.unwrap_or(DEFAULT_PAGE_SIZE);
    if page == 0 {
        return Err("page counts from 1".to_owned());
    }
    if per_page == 0 || per_page > MAX_PAGE_SIZE {
        return Err(format!("perPage must be from 1 to {MAX_PAGE_SIZE}"));
    }
    Ok((
        u64::from(page - 1) * u64::from(per_page),
        u64::from(per_page),
    ))
}

/// The stable error codes of `/api/v1`: a program branches on these, never on a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ApiErrorCode {
    /// 401: no key, or an unknown or revoked one.
    Unauthorized,
    /// 400 or 422: a malformed body, header, query or value.
    InvalidRequest,
    /// 422: the address cannot be analysed.
    InvalidUrl,
    /// 422: the `callbackUrl` is not an address callbacks may be posted to.
    InvalidCallbackUrl,
    /// 402: the account's credits do not cover the report.
    InsufficientCredits,
    /// 404: no such analysis for this account, or no such endpoint.
    NotFound,
    /// 405: the endpoint does not take that method.
    MethodNotAllowed,
    /// 409: the `Idempotency-Key` was used before for a different request.
    IdempotencyKeyReused,
    /// 409: the analysis is queued or running; its report does not exist yet.
    AnalysisNotFinished,
    /// 409: the analysis failed; it has no report (its credits were given back).
    AnalysisFailed,
    /// 413: the body is too large.
    PayloadTooLarge,
    /// 415: the body is not JSON.
    UnsupportedMediaType,
    /// 429: the key's requests of this minute are used up; see `Retry-After`.
    RateLimited,
    /// 503: the service cannot serve now; try again shortly.
    Unavailable,
    /// 500: an unexpected failure on our side.
    Internal,
}

/// An error's code and message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ApiErrorDetail {
    /// What went wrong, for programs.
    pub code: ApiErrorCode,
    /// What went wrong, for people.
    pub message: String,
}

/// The body of every `/api/v1` error: `{"error": {"code": "rate_limited", "message": "…"}}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ApiErrorBody {
    /// The error.
    pub error: ApiErrorDetail,
}

/// `POST /api/account/api-keys`: a new key's name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct NewApiKey {
    /// What the key is for (a tool, a pipeline).
    pub name: String,
}

/// An API key as its owner's dashboard lists it: never the key itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ApiKeyView {
    /// Row id (to revoke the key).
    #[ts(type = "number")]
    pub id: i64,
    /// The owner's name for it.
    pub name: String,
    /// The key's first characters ([`KEY_SHOWN_CHARS`]).
    pub prefix: String,
    /// When it was created (RFC 3339).
    pub created_at: String,
    /// When it last authenticated a request (RFC 3339); `None` if never.
    pub last_used_at: Option<String>,
}

/// The answer to creating a key: the key itself, shown this once, and its listing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct CreatedApiKey {
    /// The whole key; the server keeps only its hash, so it cannot be shown again.
    pub secret: String,
    /// The key as the list shows it.
    pub key: ApiKeyView,
}

/// `POST /api/v1/analyses`: what to analyse, and where to be told when it ends. Unknown fields
/// are refused rather than ignored, so a misspelt `callbackUrl` is heard of at once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateAnalysisRequest {
    /// The site's address.
    pub url: String,
    /// The report to make; its price in credits is `commerce::report_cost`.
    pub report_type: ReportType,
    /// Where to post a signed callback when the analysis completes or fails (an http or https
    /// address, see `callbacks::validate_callback_url`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub callback_url: Option<String>,
}

/// Where an analysis is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum AnalysisStatus {
    /// Waiting for a worker.
    Queued,
    /// Being analysed.
    Running,
    /// Finished; the report can be read.
    Complete,
    /// Finished without a report; `error` says why.
    Failed,
}

/// An analysis as `/api/v1` shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ApiAnalysis {
    /// The analysis id.
    pub id: String,
    /// The analysed address (canonical form).
    pub url: String,
    /// The report it makes.
    pub report_type: ReportType,
    /// Where it is.
    pub status: AnalysisStatus,
    /// Percent done, 0 to 100.
    pub progress: u32,
    /// The current step, while running.
    pub step: Option<String>,
    /// What is happening, for a person.
    pub message: Option<String>,
    /// Why it failed.
    pub error: Option<String>,
    /// The credits it cost.
    pub cost: Credits,
    /// When it was queued (RFC 3339).
    pub created_at: String,
    /// When it completed or failed (RFC 3339).
    pub finished_at: Option<String>,
    /// Its callback, when it was submitted with a `callbackUrl`: where it is posted, its
    /// delivery and every attempt.
    pub callback: Option<ApiCallback>,
}

/// `GET /api/v1/analyses`: one page of the account's analyses, newest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ApiAnalysisPage {
    /// The analyses of this page.
    pub data: Vec<ApiAnalysis>,
    /// This page, from 1.
    pub page: u32,
    /// Analyses per page.
    pub per_page: u32,
    /// Analyses in all pages.
    #[ts(type = "number")]
    pub total: u64,
    /// Whether a later page has more.
    pub has_more: bool,
}

/// `GET /api/v1/usage`: what the account can spend and how much it used the API.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ApiUsage {
    /// Paid credits spendable now (the team owner's for a team member).
    pub paid_credits: Credits,
    /// The trial credit still valid now.
    pub trial_credits: Credits,
    /// Whether the plan covers paid reports whatever the credits.
    pub unlimited_reports: bool,
    /// API calls the account ever made.
    #[ts(type = "number")]
    pub api_calls: u64,
    /// API calls since `periodStart`.
    #[ts(type = "number")]
    pub calls_this_period: u64,
    /// Start of the period: the first day of this calendar month, 00:00 UTC (RFC 3339).
    pub period_start: String,
    /// Requests each key may make per minute.
    pub rate_limit_per_minute: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_prefixed_hex_and_recognised() {
        let key = format_key(&[0xab; KEY_BYTES]);
        assert_eq!(key.len(), KEY_PREFIX.len() + 64);
        assert!(key.starts_with("slk_abab"));
        assert!(is_well_formed_key(&key));
        assert_eq!(key_prefix(&key), "slk_abababab");
        for bad in [
            "",
            "slk_",
            "slk_ABAB",
            &key[..key.len() - 1],
            &format!("{key}0"),
            &key.replace("slk_", "sk_"),
            &key.replacen('a', "g", 1),
        ] {
            assert!(!is_well_formed_key(bad), "{bad}");
        }
    }

    #[test]
    fn key_names_are_trimmed_and_bounded() {
        assert_eq!(
            validate_key_name("  CI pipeline ").as_deref(),
            Ok("CI pipeline")
        );
        assert!(validate_key_name("   ").is_err());
        assert!(validate_key_name(&"é".repeat(KEY_NAME_MAX)).is_ok());
        assert!(validate_key_name(&"é".repeat(KEY_NAME_MAX + 1)).is_err());
        assert!(validate_key_name("a\u{0}b").is_err());
        assert!(check_key_count(MAX_KEYS_PER_ACCOUNT - 1).is_ok());
        assert!(check_key_count(MAX_KEYS_PER_ACCOUNT).is_err());
    }

    #[test]
    fn idempotency_keys_are_visible_ascii() {
        assert!(validate_idempotency_key("5f1c3c0e-6a3b-4bb8-9a52-0d1b2a3c4d5e").is_ok());
        assert!(validate_idempotency_key("").is_err());
        assert!(validate_idempotency_key("a b").is_err());
        assert!(validate_idempotency_key("ключ").is_err());
        assert!(validate_idempotency_key(&"k".repeat(IDEMPOTENCY_KEY_MAX)).is_ok());
        assert!(validate_idempotency_key(&"k".repeat(IDEMPOTENCY_KEY_MAX + 1)).is_err());
    }

    #[test]
    fn rate_limits_are_positive_and_bounded() {
        assert_eq!(parse_rate_limit(" 250 "), Ok(250));
        assert_eq!(parse_rate_limit("1"), Ok(1));
        assert_eq!(
            parse_rate_limit(&MAX_RATE_LIMIT_PER_MINUTE.to_string()),
            Ok(MAX_RATE_LIMIT_PER_MINUTE)
        );
        for bad in ["0", "-5", "1.5", "lots", "", "1000001"] {
            let message = parse_rate_limit(bad).err().unwrap_or_default();
            assert!(message.contains("from 1 to 1000000"), "{bad}: {message}");
        }
    }

    #[test]
    fn windows_are_whole_minutes() {
        assert_eq!(
            rate_window(120_000),
            RateWindow {
                start: 120,
                reset_after: 60
            }
        );
        assert_eq!(
            rate_window(179_999),
            RateWindow {
                start: 120,
                reset_after: 1
            }
        );
        assert_eq!(rate_window(150_500).reset_after, 30);
    }

    #[test]
    fn pages_are_bounded() {
        assert_eq!(page_bounds(None, None), Ok((0, 20)));
        assert_eq!(page_bounds(Some(3), Some(10)), Ok((20, 10)));
        assert!(page_bounds(Some(0), None).is_err());
        assert!(page_bounds(None, Some(0)).is_err());
        assert!(page_bounds(None, Some(MAX_PAGE_SIZE + 1)).is_err());
    }

    #[test]
    fn errors_have_one_shape_with_snake_case_codes() {
        let body = ApiErrorBody {
            error: ApiErrorDetail {
                code: ApiErrorCode::RateLimited,
                message: "slow down".to_owned(),
            },
        };
        assert_eq!(
            serde_json::to_value(&body).ok(),
            Some(serde_json::json!({"error": {"code": "rate_limited", "message": "slow down"}}))
        );
    }

    #[test]
    fn a_callback_url_is_optional_and_misspelt_fields_are_refused() {
        let parsed: Result<CreateAnalysisRequest, _> = serde_json::from_str(
            r#"{"url": "https://example.com", "reportType": "basic", "callbackUrl": "https://hook.example"}"#,
        );
        assert_eq!(
            parsed.ok().and_then(|r| r.callback_url).as_deref(),
            Some("https://hook.example")
        );
        let without: Result<CreateAnalysisRequest, _> =
            serde_json::from_str(r#"{"url": "https://example.com", "reportType": "basic"}"#);
        assert_eq!(without.ok().map(|r| r.callback_url), Some(None));
        let misspelt: Result<CreateAnalysisRequest, _> = serde_json::from_str(
            r#"{"url": "https://example.com", "reportType": "basic", "callbackURL": "https://hook.example"}"#,
        );
        assert!(misspelt.is_err());
    }
}
