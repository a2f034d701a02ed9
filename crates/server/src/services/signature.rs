//! Timestamped HMAC-SHA256 signatures: the scheme Stripe documents for its webhooks
//! (<https://docs.stripe.com/webhooks#verify-manually>), which Stripe's deliveries to us carry and
//! which our own callbacks carry to our customers.
//!
//! The header value is `t=<unix seconds>` and one or more `v1=<hex>`; a `v1` must equal
//! HMAC-SHA256 of `"{t}.{raw body}"` under the shared secret, compared in constant time, and `t`
//! must be within [`TOLERANCE_SECS`] of now, so a captured delivery cannot be replayed later.

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// How far a signature's timestamp may be from now, seconds (Stripe's libraries' default).
pub const TOLERANCE_SECS: i64 = 300;

/// Why a signature was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SignatureError(pub String);

/// Signs `payload` at `timestamp` under `secret`: the header value a receiver verifies.
pub fn sign(payload: &[u8], secret: &str, timestamp: i64) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes())
        .unwrap_or_else(|_| unreachable!("HMAC takes a key of any length"));
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(payload);
    let hex: String = mac
        .finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("t={timestamp},v1={hex}")
}

/// Checks a signature header against the raw body at `now` (unix seconds).
pub fn verify(payload: &[u8], header: &str, secret: &str, now: i64) -> Result<(), SignatureError> {
    let bad = |m: &str| Err(SignatureError(m.to_owned()));
    let mut timestamp = None;
    let mut signatures = Vec::new();
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", t)) => timestamp = t.parse::<i64>().ok(),
            Some(("v1", sig)) => {
                if let Ok(bytes) = hex_decode(sig) {
                    signatures.push(bytes);
                }
            }
            _ => {}
        }
    }
    let Some(timestamp) = timestamp else {
        return bad("the signature header has no timestamp");
    };
    if signatures.is_empty() {
        return bad("the signature header has no v1 signature");
    }
    if (now - timestamp).abs() > TOLERANCE_SECS {
        return bad("the signature's timestamp is outside the tolerance");
    }
    for signature in signatures {
        let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(secret.as_bytes()) else {
            return bad("unusable signing secret");
        };
        mac.update(timestamp.to_string().as_bytes());
        mac.update(b".");
        mac.update(payload);
        if mac.verify_slice(&signature).is_ok() {
            return Ok(());
        }
    }
    bad("no signature matches the payload")
}

fn hex_decode(s: &str) -> Result<Vec<u8>, ()> {
    let s = s.trim();
    if !s.len().is_multiple_of(2) {
        return Err(());
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2).ok_or(())?, 16).map_err(|_| ()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_verify_only_untampered_and_recent() {
        let body = br#"{"id":"evt_1"}"#;
        let header = sign(body, "whsec_x", 1_700_000_000);
        assert!(verify(body, &header, "whsec_x", 1_700_000_100).is_ok());
        assert!(verify(br#"{"id":"evt_2"}"#, &header, "whsec_x", 1_700_000_100).is_err());
        assert!(verify(body, &header, "whsec_y", 1_700_000_100).is_err());
        assert!(verify(body, &header, "whsec_x", 1_700_000_301).is_err());
        // Several v1 values may be sent while a secret is rolled: any may match.
        let rolled = format!("t=1700000000,v1=00ff,{}", &header[13..]);
        assert!(verify(body, &rolled, "whsec_x", 1_700_000_000).is_ok());
        assert!(verify(body, "v1=abcd", "whsec_x", 1_700_000_000).is_err());
        assert!(verify(body, "t=1700000000,v1=zz", "whsec_x", 1_700_000_000).is_err());
    }
}
