//! Custom domains (docs/PRODUCT.md §3.3 `customDomain`; issue 15 item 3): an agency points a
//! domain of its own at Sitelens and proves it controls it with a DNS TXT record; once verified,
//! that domain serves the agency's branded report pages.
//!
//! - [`normalize_domain`] turns what the agency typed into the one stored form: lower case,
//!   internationalised names as punycode (UTS #46, through the `url` crate's IDNA), no scheme,
//!   port or path, at least two labels, never an IP address, `localhost` or our own host.
//! - The proof is a TXT record named [`record_name`] holding [`record_value`]; [`judge_txt`]
//!   reads the TXT records a resolver returned, each the concatenation of its character-strings
//!   (RFC 7208 §3.3 reads multi-string TXT records the same way), and finds the value among them.
//! - [`settings`] is what the dashboard shows: the domain's state, the records to add and the
//!   instructions.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use url::Host;

/// The label in front of the agency's domain that holds the proof (`_sitelens-verify.{domain}`).
/// An underscore label, as RFC 8552 reserves for such attribute records, so it never collides
/// with a host name.
pub const RECORD_LABEL: &str = "_sitelens-verify";
/// What the TXT record's value starts with: `sitelens-verify={token}`.
pub const VALUE_PREFIX: &str = "sitelens-verify=";
/// The verification token's length: 32 lower-case hex digits (16 random bytes).
pub const TOKEN_LEN: usize = 32;
/// Longest domain name, in characters of its ASCII form (RFC 1035 §2.3.4, less the final dot).
pub const DOMAIN_MAX: usize = 253;
/// Longest label (RFC 1035 §2.3.4).
pub const LABEL_MAX: usize = 63;

/// Refusal when an account whose plan lacks white-label asks for a custom domain.
pub const NOT_ENTITLED: &str = "Custom domains are part of the Agency and Enterprise plans.";
/// Refusal of a domain before the agency saved its brand: the reports its domain serves wear it.
pub const NO_BRAND: &str =
    "Save your brand on the white-label page first: the reports on your domain wear it.";
/// Refusal when another agency already uses the domain.
pub const TAKEN: &str = "Another account already uses this domain. If it is yours, remove it there first or contact support.";
/// The text when the check could not be made (the resolver timed out or failed).
pub const COULD_NOT_CHECK: &str = "We could not check your DNS just now: the DNS server did not answer in time. Nothing was changed; try again in a few minutes.";

/// Why what was typed is not a domain Sitelens can serve.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DomainError {
    /// Nothing was typed.
    #[error("Enter your domain, like reports.youragency.com")]
    Empty,
    /// `https://…`: only the name is wanted.
    #[error("Enter the domain alone, without http:// or https://")]
    Scheme,
    /// `name:8080`.
    #[error("Enter the domain without a port")]
    Port,
    /// `name/path`, `name?query` or `name#fragment`.
    #[error("Enter the domain alone, with nothing after it (no / or ?)")]
    Path,
    /// An IPv4 or IPv6 address.
    #[error("Enter a domain name, not an IP address")]
    IpAddress,
    /// `localhost` or a name under it (RFC 6761 §6.3).
    #[error("localhost cannot be a custom domain")]
    Localhost,
    /// A single label such as `reports`.
    #[error("Enter a full domain with a dot, like reports.youragency.com")]
    OneLabel,
    /// Our own host, or a name under it.
    #[error("That is this service's own address: enter a domain of your agency")]
    OwnHost,
    /// Over [`DOMAIN_MAX`] characters, or a label over [`LABEL_MAX`].
    #[error("That domain is too long: at most 253 characters, 63 between dots")]
    TooLong,
    /// Characters a host name cannot have, an empty label, a label that starts or ends with a
    /// hyphen, or a name the IDNA rules refuse.
    #[error(
        "That is not a valid domain: use letters, digits, hyphens and dots, like reports.youragency.com"
    )]
    Invalid,
}

/// The stored form of a domain the agency typed, or why it cannot be one. `own_host` is the
/// host of our public address (lower case); it and the names under it are refused, as are
/// `localhost` and IP addresses.
pub fn normalize_domain(input: &str, own_host: &str) -> Result<String, DomainError> {
    let typed = input.trim();
    if typed.is_empty() {
        return Err(DomainError::Empty);
    }
    if typed.contains("://") {
        return Err(DomainError::Scheme);
    }
    if typed.contains(['/', '?', '#']) {
        return Err(DomainError::Path);
    }
    if typed.starts_with('[') || typed.parse::<std::net::Ipv6Addr>().is_ok() {
        return Err(DomainError::IpAddress);
    }
    if typed.contains(':') {
        return Err(DomainError::Port);
    }
    // `url` percent-decodes a host before IDNA; a domain never needs a percent sign.
    if typed.contains(['%', '@', '*', '_', ' ', '\\']) {
        return Err(DomainError::Invalid);
    }
    // One final dot is the fully qualified spelling of the same name.
    let typed = typed.strip_suffix('.').unwrap_or(typed);
    let ascii = match Host::parse(typed) {
        Ok(Host::Domain(d)) => d,
        Ok(Host::Ipv4(_) | Host::Ipv6(_)) => return Err(DomainError::IpAddress),
        Err(_) => return Err(DomainError::Invalid),
    };
    if ascii.len() > DOMAIN_MAX {
        return Err(DomainError::TooLong);
    }
    let labels: Vec<&str> = ascii.split('.').collect();
    for label in &labels {
        if label.len() > LABEL_MAX {
            return Err(DomainError::TooLong);
        }
        if label.is_empty()
            || label.starts_with('-')
            || label.ends_with('-')
            || !label
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        {
            return Err(DomainError::Invalid);
        }
    }
    if ascii == "localhost" || ascii.ends_with(".localhost") {
        return Err(DomainError::Localhost);
    }
    if labels.len() < 2 {
        return Err(DomainError::OneLabel);
    }
    let own = own_host.trim_end_matches('.').to_ascii_lowercase();
    if !own.is_empty() && (ascii == own || ascii.ends_with(&format!(".{own}"))) {
        return Err(DomainError::OwnHost);
    }
    Ok(ascii)
}

/// Whether `token` has the form Sitelens makes: [`TOKEN_LEN`] lower-case hex digits.
pub fn is_token(token: &str) -> bool {
    token.len() == TOKEN_LEN
        && token
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// The token for 16 random bytes the caller drew: lower-case hex.
pub fn token_from_bytes(bytes: &[u8; 16]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The name of the TXT record that proves control of `domain`: `_sitelens-verify.{domain}`.
pub fn record_name(domain: &str) -> String {
    format!("{RECORD_LABEL}.{domain}")
}

/// The value that record must hold: `sitelens-verify={token}`.
pub fn record_value(token: &str) -> String {
    format!("{VALUE_PREFIX}{token}")
}

/// The address of the domain's pages: always HTTPS.
pub fn public_base(domain: &str) -> String {
    format!("https://{domain}")
}

/// Why a check did not verify the domain.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerifyFailure {
    /// The name has no TXT record (NXDOMAIN, or no TXT among its records).
    #[error(
        "No TXT record was found at {name}. Add it as shown below; DNS changes can take a few minutes (at most 48 hours) to be seen."
    )]
    NoRecord {
        /// The record's name.
        name: String,
    },
    /// TXT records exist at the name, but none holds the value.
    #[error(
        "The TXT record at {name} does not hold the expected value. Found: {found}. Expected: {expected}."
    )]
    WrongValue {
        /// The record's name.
        name: String,
        /// What was found, quoted, shortened.
        found: String,
        /// What should be there.
        expected: String,
    },
    /// The resolver did not answer in time or failed; nothing is known.
    #[error("{COULD_NOT_CHECK}")]
    CouldNotCheck,
}

impl VerifyFailure {
    /// Whether the failure is an answer about the record (so the domain is not verified), not
    /// a failure to ask (which leaves the stored state as it was).
    pub fn is_definitive(&self) -> bool {
        !matches!(self, VerifyFailure::CouldNotCheck)
    }
}

/// A TXT record as one string: its character-strings concatenated without separators (RFC 7208
/// §3.3), bytes that are not UTF-8 replaced.
pub fn txt_text(strings: &[&[u8]]) -> String {
    let bytes: Vec<u8> = strings.iter().flat_map(|s| s.iter().copied()).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Judges the TXT records found at [`record_name`] (each already joined by [`txt_text`]):
/// verified when one of them is exactly [`record_value`]; otherwise why not. An empty list is
/// "no record".
pub fn judge_txt(domain: &str, token: &str, records: &[String]) -> Result<(), VerifyFailure> {
    let expected = record_value(token);
    if records.contains(&expected) {
        return Ok(());
    }
    let name = record_name(domain);
    if records.is_empty() {
        return Err(VerifyFailure::NoRecord { name });
    }
    let found = records
        .iter()
        .take(3)
        .map(|r| {
            let short: String = r.chars().take(80).collect();
            if short.len() < r.len() {
                format!("\"{short}…\"")
            } else {
                format!("\"{short}\"")
            }
        })
        .collect::<Vec<_>>()
        .join(", ");
    Err(VerifyFailure::WrongValue {
        name,
        found,
        expected,
    })
}

/// What an agency asks to use as its custom domain (`PUT /api/white-label/domain`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CustomDomainInput {
    /// The domain as typed; normalised by [`normalize_domain`].
    pub domain: String,
}

/// A DNS record the agency adds at its DNS provider.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DnsRecordStep {
    /// `TXT` or `CNAME`.
    pub kind: String,
    /// The record's name (host).
    pub name: String,
    /// The record's value (target).
    pub value: String,
    /// What it is for.
    pub purpose: String,
}

/// The agency's custom domain as the dashboard shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CustomDomainStatus {
    /// The domain, normalised (punycode for an internationalised name).
    pub domain: String,
    /// Whether the TXT record was found: only then does the domain serve reports.
    pub verified: bool,
    /// When it was verified (RFC 3339).
    pub verified_at: Option<String>,
    /// The TXT record's name.
    pub record_name: String,
    /// The TXT record's value.
    pub record_value: String,
    /// When it was last checked (RFC 3339).
    pub checked_at: Option<String>,
    /// Why the last check did not verify it, if it did not.
    pub last_error: Option<String>,
    /// The address branded reports get once it is verified: `https://{domain}`.
    pub public_base: String,
}

/// `GET /api/white-label/domain`: the domain (if any), the records to add and how.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CustomDomainSettings {
    /// The agency's domain, or `null` before one is entered.
    pub custom_domain: Option<CustomDomainStatus>,
    /// Where the domain must point (our public host), for the CNAME record.
    pub target_host: String,
    /// The records to add, in order (empty before a domain is entered).
    pub records: Vec<DnsRecordStep>,
    /// The steps, as sentences.
    pub instructions: Vec<String>,
}

/// The records and instructions for `status` (or for no domain yet), pointing at `target_host`:
/// a CNAME to our host name, or an A (AAAA) record when our public address is an IP address,
/// which a CNAME cannot name.
pub fn settings(status: Option<CustomDomainStatus>, target_host: &str) -> CustomDomainSettings {
    let pointer = match target_host.parse::<std::net::IpAddr>() {
        Ok(std::net::IpAddr::V4(_)) => "A",
        Ok(std::net::IpAddr::V6(_)) => "AAAA",
        Err(_) => "CNAME",
    };
    let (records, instructions) = match &status {
        None => (
            Vec::new(),
            vec![
                "Enter a domain or subdomain you control, such as reports.youragency.com; a subdomain is easiest.".to_owned(),
                "You will then add a TXT record that proves the domain is yours, and a CNAME record that points it here.".to_owned(),
            ],
        ),
        Some(s) => (
            vec![
                DnsRecordStep {
                    kind: "TXT".to_owned(),
                    name: s.record_name.clone(),
                    value: s.record_value.clone(),
                    purpose: "Proves the domain is yours. Keep it: a later check without it turns the domain off.".to_owned(),
                },
                DnsRecordStep {
                    kind: pointer.to_owned(),
                    name: s.domain.clone(),
                    value: target_host.to_owned(),
                    purpose: "Sends your visitors here.".to_owned(),
                },
            ],
            vec![
                format!(
                    "At your DNS provider, add a TXT record named {} with the value {}.",
                    s.record_name, s.record_value
                ),
                if pointer == "CNAME" {
                    format!(
                        "Point {} here with a CNAME record to {target_host}. For a root domain (no subdomain), where a CNAME is not allowed, use your provider's ALIAS or ANAME record, or an A record to the address {target_host} has.",
                        s.domain
                    )
                } else {
                    format!("Point {} here with an {pointer} record to {target_host}.", s.domain)
                },
                "Press Verify now. DNS changes are usually seen within minutes, at most 48 hours.".to_owned(),
                format!(
                    "Once verified, your branded reports are shared at {}/results/ followed by the report's id.",
                    s.public_base
                ),
            ],
        ),
    };
    CustomDomainSettings {
        custom_domain: status,
        target_host: target_host.to_owned(),
        records,
        instructions,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OWN: &str = "sitelens.example";

    #[track_caller]
    fn check(input: &str, expected: Result<&str, DomainError>) {
        assert_eq!(
            normalize_domain(input, OWN),
            expected.map(str::to_owned),
            "{input:?}"
        );
    }

    #[test]
    fn domains_are_normalised_to_one_form() {
        check("reports.agency.example", Ok("reports.agency.example"));
        check("  Reports.AGENCY.example. ", Ok("reports.agency.example"));
        check("agency.co.uk", Ok("agency.co.uk"));
        check(
            "rapports.bücher.example",
            Ok("rapports.xn--bcher-kva.example"),
        );
        check("ÉTUDE.example", Ok("xn--tude-9oa.example"));
        check("xn--bcher-kva.example", Ok("xn--bcher-kva.example"));
        check("a-b.c1.example", Ok("a-b.c1.example"));
    }

    #[test]
    fn what_is_not_a_servable_domain_says_why() {
        check("", Err(DomainError::Empty));
        check("   ", Err(DomainError::Empty));
        check("https://reports.agency.example", Err(DomainError::Scheme));
        check("reports.agency.example/", Err(DomainError::Path));
        check("reports.agency.example/results", Err(DomainError::Path));
        check("reports.agency.example?x=1", Err(DomainError::Path));
        check("reports.agency.example:8443", Err(DomainError::Port));
        check("192.0.2.10", Err(DomainError::IpAddress));
        check("[2001:db8::1]", Err(DomainError::IpAddress));
        check("2001:db8::1", Err(DomainError::IpAddress));
        check("127.1", Err(DomainError::IpAddress));
        check("localhost", Err(DomainError::Localhost));
        check("app.localhost", Err(DomainError::Localhost));
        check("reports", Err(DomainError::OneLabel));
        check("sitelens.example", Err(DomainError::OwnHost));
        check("SiteLens.Example.", Err(DomainError::OwnHost));
        check("x.sitelens.example", Err(DomainError::OwnHost));
        check("notsitelens.example", Ok("notsitelens.example"));
        check("*.agency.example", Err(DomainError::Invalid));
        check("my_host.agency.example", Err(DomainError::Invalid));
        check("a..example", Err(DomainError::Invalid));
        check("-a.example", Err(DomainError::Invalid));
        check("a-.example", Err(DomainError::Invalid));
        check("a%2eexample", Err(DomainError::Invalid));
        check("user@agency.example", Err(DomainError::Invalid));
        check("two words.example", Err(DomainError::Invalid));
        check(
            &format!("{}.example", "a".repeat(64)),
            Err(DomainError::TooLong),
        );
        check(
            &format!("{}.example", vec!["a".repeat(60); 5].join(".")),
            Err(DomainError::TooLong),
        );
    }

    #[test]
    fn the_record_and_its_value() {
        let token = token_from_bytes(&[0xab; 16]);
        assert!(is_token(&token), "{token}");
        assert!(!is_token("ABABABABABABABABABABABABABABABAB"));
        assert!(!is_token("abc"));
        assert_eq!(
            record_name("reports.agency.example"),
            "_sitelens-verify.reports.agency.example"
        );
        assert_eq!(record_value("0123"), "sitelens-verify=0123");
        assert_eq!(
            public_base("reports.agency.example"),
            "https://reports.agency.example"
        );
    }

    #[test]
    fn txt_answers_are_judged_by_exact_match_among_records() {
        let domain = "reports.agency.example";
        let token = "0123456789abcdef0123456789abcdef";
        let value = record_value(token);
        // Split into character-strings, joined with nothing between them.
        let joined = txt_text(&[b"sitelens-verify=0123456789abcdef", b"0123456789abcdef"]);
        assert_eq!(joined, value);
        // Found among other TXT records at the same name.
        let others = vec!["v=spf1 -all".to_owned(), value.clone()];
        assert_eq!(judge_txt(domain, token, &others), Ok(()));
        // Nothing there.
        let none = judge_txt(domain, token, &[]).expect_err("no record");
        assert!(none.is_definitive());
        assert!(
            none.to_string()
                .contains("_sitelens-verify.reports.agency.example"),
            "{none}"
        );
        // Close is not enough: case, spaces, quotes and another token all fail.
        for wrong in [
            value.to_uppercase(),
            format!(" {value}"),
            format!("\"{value}\""),
            record_value("ffffffffffffffffffffffffffffffff"),
        ] {
            let failure = judge_txt(domain, token, std::slice::from_ref(&wrong)).expect_err(&wrong);
            assert!(
                matches!(failure, VerifyFailure::WrongValue { .. }),
                "{wrong}"
            );
            assert!(failure.to_string().contains(&value), "{failure}");
        }
        let long = "x".repeat(500);
        let shown = judge_txt(domain, token, &[long])
            .expect_err("long")
            .to_string();
        assert!(shown.len() < 400, "{shown}");
        assert!(!VerifyFailure::CouldNotCheck.is_definitive());
        assert_eq!(VerifyFailure::CouldNotCheck.to_string(), COULD_NOT_CHECK);
    }

    #[test]
    fn the_settings_list_the_records_to_add() {
        let empty = settings(None, "sitelens.example");
        assert!(empty.records.is_empty());
        assert!(!empty.instructions.is_empty());
        let status = CustomDomainStatus {
            domain: "reports.agency.example".into(),
            verified: false,
            verified_at: None,
            record_name: record_name("reports.agency.example"),
            record_value: record_value("0123"),
            checked_at: None,
            last_error: None,
            public_base: public_base("reports.agency.example"),
        };
        let s = settings(Some(status), "sitelens.example");
        let kinds: Vec<&str> = s.records.iter().map(|r| r.kind.as_str()).collect();
        assert_eq!(kinds, ["TXT", "CNAME"]);
        assert_eq!(s.records[0].name, "_sitelens-verify.reports.agency.example");
        assert_eq!(s.records[0].value, "sitelens-verify=0123");
        assert_eq!(s.records[1].value, "sitelens.example");
        assert!(s.instructions[0].contains("sitelens-verify=0123"));
        // A public address that is an IP address cannot be a CNAME's target.
        let by_ip = settings(s.custom_domain.clone(), "203.0.113.9");
        assert_eq!(by_ip.records[1].kind, "A");
        assert!(by_ip.instructions[1].contains("an A record to 203.0.113.9"));
        assert_eq!(
            settings(s.custom_domain, "2001:db8::9").records[1].kind,
            "AAAA"
        );
    }
}
