//! Signed callbacks of the public API (issue 17): when an analysis submitted with a
//! `callbackUrl` completes or fails, Sitelens posts a [`CallbackEvent`] there, signed with the
//! account's secret, and retries on failure.
//!
//! The signature follows the scheme Stripe documents for its webhooks
//! (<https://docs.stripe.com/webhooks#verify-manually>), so receivers can reuse what they know:
//! the [`SIGNATURE_HEADER`] holds `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw
//! body>")>`. Each event has an id ([`EVENT_ID_HEADER`], and `id` in the body) that stays the
//! same on every retry, so a receiver deduplicates by it.
//!
//! A delivery is an attempt that got a 2xx answer within [`TIMEOUT_SECS`]; anything else
//! (another status, a redirect, which is never followed, a timeout, a refused address) is
//! retried after the waits of [`RETRY_DELAYS_SECS`], then given up.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use url::Url;

use crate::api::{AnalysisStatus, ApiErrorDetail};
use crate::report::{ReportType, Scores};

/// Longest `callbackUrl`, in bytes (the address limit browsers and servers share).
pub const CALLBACK_URL_MAX: usize = 2048;

/// What every callback secret starts with, so a leaked one is recognisable.
pub const SECRET_PREFIX: &str = "slwh_";

/// Random bytes in a secret: 256 bits.
pub const SECRET_BYTES: usize = 32;

/// The waits, in seconds, before each retry of a delivery that failed: 30 s, 2 min, 10 min,
/// 1 h, 6 h. After the last retry fails the delivery is given up, six attempts in all.
pub const RETRY_DELAYS_SECS: [u64; 5] = [30, 120, 600, 3_600, 21_600];

/// How long one attempt may take, seconds, connection included.
pub const TIMEOUT_SECS: u64 = 10;

/// Characters of a receiver's answer kept with an attempt; the rest is never read.
pub const RESPONSE_EXCERPT_MAX: usize = 200;

/// The header with the signature.
pub const SIGNATURE_HEADER: &str = "Sitelens-Signature";

/// The header with the event id (the same on every retry).
pub const EVENT_ID_HEADER: &str = "Sitelens-Event-Id";

/// The header with the event type.
pub const EVENT_TYPE_HEADER: &str = "Sitelens-Event-Type";

/// The header with the attempt's number, from 1.
pub const ATTEMPT_HEADER: &str = "Sitelens-Delivery-Attempt";

/// The `callbackUrl` as stored and posted to, or the message to show: an absolute http or
/// https address without credentials or fragment, at most [`CALLBACK_URL_MAX`] bytes. Whether
/// its host may be reached (private and loopback addresses) is the server's SSRF guard's
/// decision, the one it applies to analysed sites.
pub fn validate_callback_url(raw: &str) -> Result<String, String> {
    let raw = raw.trim();
    if raw.is_empty() {
        return Err("callbackUrl is empty: give an http or https address, or leave it out".into());
    }
    if raw.len() > CALLBACK_URL_MAX {
        return Err(format!(
            "callbackUrl is longer than {CALLBACK_URL_MAX} characters"
        ));
    }
    let url = Url::parse(raw).map_err(|_| {
        "callbackUrl is not an absolute address such as https://example.com/hooks/sitelens"
            .to_owned()
    })?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err("callbackUrl must be an http or https address".into());
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(
            "callbackUrl must not hold a user name or password: verify the signature instead"
                .into(),
        );
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err("callbackUrl has no host".into());
    }
    if url.fragment().is_some() {
        return Err("callbackUrl must not have a #fragment, which is never sent".into());
    }
    Ok(url.into())
}

/// The secret text for `random` bytes: [`SECRET_PREFIX`] and the bytes in lower-case hex.
pub fn format_secret(random: &[u8; SECRET_BYTES]) -> String {
    let mut secret = String::with_capacity(SECRET_PREFIX.len() + 2 * SECRET_BYTES);
    secret.push_str(SECRET_PREFIX);
    for b in random {
        secret.push(char::from_digit(u32::from(b >> 4), 16).unwrap_or('0'));
        secret.push(char::from_digit(u32::from(b & 0xf), 16).unwrap_or('0'));
    }
    secret
}

/// The wait before the next attempt of a delivery whose `attempts_made` attempts (at least
/// one) all failed, with `delays` the waits in seconds ([`RETRY_DELAYS_SECS`] unless an
/// operator changed them); `None` when the delivery is to be given up.
pub fn retry_delay(attempts_made: u32, delays: &[u64]) -> Option<u64> {
    let index = usize::try_from(attempts_made.checked_sub(1)?).ok()?;
    delays.get(index).copied()
}

/// What a callback tells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum CallbackEventType {
    /// The analysis completed: its report can be read.
    #[serde(rename = "analysis.completed")]
    AnalysisCompleted,
    /// The analysis failed: `error` says why; its credits were given back.
    #[serde(rename = "analysis.failed")]
    AnalysisFailed,
}

impl CallbackEventType {
    /// The stored and sent name.
    pub fn as_str(self) -> &'static str {
        match self {
            CallbackEventType::AnalysisCompleted => "analysis.completed",
            CallbackEventType::AnalysisFailed => "analysis.failed",
        }
    }

    /// The type with this stored name.
    pub fn parse(raw: &str) -> Option<CallbackEventType> {
        match raw {
            "analysis.completed" => Some(CallbackEventType::AnalysisCompleted),
            "analysis.failed" => Some(CallbackEventType::AnalysisFailed),
            _ => None,
        }
    }
}

/// The analysis a callback is about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct CallbackAnalysis {
    /// The analysis id.
    pub id: String,
    /// `complete` or `failed`.
    pub status: AnalysisStatus,
    /// The analysed address (canonical form).
    pub url: String,
    /// The report it made.
    pub report_type: ReportType,
    /// When it completed or failed (RFC 3339).
    pub finished_at: Option<String>,
}

/// Where to read more about the analysis through the API (with the API key).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct CallbackLinks {
    /// `GET /api/v1/analyses/{id}`.
    pub analysis: String,
    /// `GET /api/v1/analyses/{id}/report`.
    pub report: String,
}

/// The body of a callback, posted as JSON.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct CallbackEvent {
    /// The event id, the same on every retry: deduplicate by it.
    pub id: String,
    /// What happened.
    #[serde(rename = "type")]
    pub event_type: CallbackEventType,
    /// When it happened (RFC 3339): the analysis's end.
    pub created_at: String,
    /// The analysis.
    pub analysis: CallbackAnalysis,
    /// The report's scores, for a completed analysis.
    pub scores: Option<Scores>,
    /// Why it failed, for a failed analysis (code `analysis_failed`).
    pub error: Option<ApiErrorDetail>,
    /// The API addresses of the analysis and its report.
    pub links: CallbackLinks,
}

/// Where an analysis's callback is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum CallbackState {
    /// The analysis is not finished; nothing to send yet.
    Waiting,
    /// To be sent, or sent again after a failed attempt, at `nextAttemptAt`.
    Pending,
    /// A 2xx answer came back.
    Delivered,
    /// Every attempt failed; no more will be made.
    Failed,
}

/// One attempt to deliver a callback.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct CallbackAttempt {
    /// When it was sent (RFC 3339).
    pub at: String,
    /// The receiver's HTTP status, when it answered.
    pub status_code: Option<u16>,
    /// Why no answer counted, when none came (timeout, refused address, connection error).
    pub error: Option<String>,
    /// How long it took, milliseconds.
    pub duration_ms: u32,
    /// The first characters of the receiver's answer ([`RESPONSE_EXCERPT_MAX`]), when it
    /// answered with a body.
    pub response_excerpt: Option<String>,
}

/// An analysis's callback as `/api/v1` shows it to its owner.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ApiCallback {
    /// Where it is posted.
    pub url: String,
    /// Where its delivery is.
    pub state: CallbackState,
    /// The event id, once the analysis ended.
    pub event_id: Option<String>,
    /// When the next attempt is due, while pending (RFC 3339).
    pub next_attempt_at: Option<String>,
    /// Every attempt so far, oldest first.
    pub attempts: Vec<CallbackAttempt>,
}

/// `GET /api/account/callback-secret`: the secret that signs the callbacks of the caller's
/// analyses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct CallbackSecretView {
    /// The secret.
    pub secret: String,
    /// When it was made (RFC 3339).
    pub created_at: String,
    /// Whether it is the team owner's (a team member's analyses are signed with it, as the
    /// owner's credits pay for them).
    pub team_secret: bool,
    /// Whether the caller may rotate it: only the account it belongs to.
    pub can_rotate: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn callback_urls_are_absolute_http_without_credentials() {
        assert_eq!(
            validate_callback_url(" https://hooks.example.com/sitelens?x=1 ").as_deref(),
            Ok("https://hooks.example.com/sitelens?x=1")
        );
        assert_eq!(
            validate_callback_url("http://127.0.0.1:9000").as_deref(),
            Ok("http://127.0.0.1:9000/")
        );
        for bad in [
            "",
            "hooks.example.com/x",
            "ftp://example.com/",
            "javascript:alert(1)",
            "https://user:pass@example.com/",
            "https://token@example.com/",
            "https://example.com/#frag",
            "http://",
            "https://?x=1",
        ] {
            assert!(validate_callback_url(bad).is_err(), "{bad}");
        }
        let long = format!("https://example.com/{}", "a".repeat(CALLBACK_URL_MAX));
        assert!(validate_callback_url(&long).is_err());
    }

    #[test]
    fn secrets_are_prefixed_hex() {
        let secret = format_secret(&[0x0f; SECRET_BYTES]);
        assert!(secret.starts_with("slwh_0f0f"));
        assert_eq!(secret.len(), SECRET_PREFIX.len() + 64);
    }

    #[test]
    fn retries_follow_the_schedule_then_give_up() {
        let waits: Vec<Option<u64>> = (1..=6)
            .map(|n| retry_delay(n, &RETRY_DELAYS_SECS))
            .collect();
        assert_eq!(
            waits,
            vec![
                Some(30),
                Some(120),
                Some(600),
                Some(3_600),
                Some(21_600),
                None
            ]
        );
        assert_eq!(retry_delay(0, &RETRY_DELAYS_SECS), None);
    }

    #[test]
    fn events_serialise_with_dotted_types() {
        assert_eq!(
            serde_json::to_value(CallbackEventType::AnalysisFailed).ok(),
            Some(serde_json::json!("analysis.failed"))
        );
        for t in [
            CallbackEventType::AnalysisCompleted,
            CallbackEventType::AnalysisFailed,
        ] {
            assert_eq!(CallbackEventType::parse(t.as_str()), Some(t));
        }
    }
}
