//! Site addresses: what the address form accepts, and the canonical form used for storage and
//! de-duplication ("parse, don't validate": a [`SiteUrl`] is always analysable).

use std::fmt;

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use url::{Host, Url};

/// Why an address was refused. The display texts are the spec's
/// (docs/PRODUCT.md §5.1) where it gives one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize, TS)]
#[serde(tag = "code", rename_all = "camelCase")]
pub enum UrlError {
    /// Nothing was typed.
    #[error("Please enter a URL")]
    Empty,
    /// It does not parse as a web address.
    #[error("Please enter a valid URL")]
    Invalid,
    /// A scheme other than http or https.
    #[error("Only http:// and https:// addresses can be analysed")]
    UnsupportedScheme,
    /// User name or password in the address.
    #[error("Addresses with a user name or password cannot be analysed")]
    Credentials,
}

/// Matches a leading `scheme://` (RFC 3986 scheme syntax).
fn explicit_scheme(input: &str) -> Option<&str> {
    let end = input.find("://")?;
    let scheme = &input[..end];
    let mut chars = scheme.chars();
    let first = chars.next()?;
    (first.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
    .then_some(scheme)
}

/// Whether a host is something a person could mean as a website: an IP address, `localhost`,
/// or a domain name with at least two labels, none empty.
fn plausible_host(host: &Host<&str>) -> bool {
    match host {
        Host::Ipv4(_) | Host::Ipv6(_) => true,
        Host::Domain(d) => {
            // One trailing dot names the DNS root and is allowed; every other label must be present.
            let d = d.strip_suffix('.').unwrap_or(d);
            d == "localhost" || (d.contains('.') && d.split('.').all(|label| !label.is_empty()))
        }
    }
}

/// Parses what a visitor typed into an analysable address.
///
/// The input is trimmed; without `http://` or `https://` it gets `https://`; it must then parse
/// as an http(s) URL with a plausible host and no credentials.
fn parse(raw: &str) -> Result<Url, UrlError> {
    let trimmed = raw.trim();
    if trimmed.is_empty() {
        return Err(UrlError::Empty);
    }
    let with_scheme = match explicit_scheme(trimmed) {
        Some(scheme) => {
            let scheme = scheme.to_ascii_lowercase();
            if scheme != "http" && scheme != "https" {
                return Err(UrlError::UnsupportedScheme);
            }
            trimmed.to_owned()
        }
        None => format!("https://{trimmed}"),
    };
    let url = Url::parse(&with_scheme).map_err(|_| UrlError::Invalid)?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(UrlError::UnsupportedScheme);
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(UrlError::Credentials);
    }
    match url.host() {
        Some(host) if plausible_host(&host) => Ok(url),
        _ => Err(UrlError::Invalid),
    }
}

/// The address form's rule (docs/PRODUCT.md §5.1): trim, add `https://` when no scheme is given,
/// and return the address as it will be submitted. The fragment is kept here; see [`canonicalize`]
/// for the stored form.
pub fn normalize_input(raw: &str) -> Result<String, UrlError> {
    parse(raw).map(String::from)
}

/// A canonical, analysable http(s) address.
///
/// Lower-case scheme and host, international domain names in punycode, default port removed,
/// fragment removed, an empty path written as `/`. Canonicalising a canonical address returns it
/// unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct SiteUrl(Url);

impl SiteUrl {
    /// Parses and canonicalises.
    pub fn parse(raw: &str) -> Result<Self, UrlError> {
        let mut url = parse(raw)?;
        url.set_fragment(None);
        // A trailing dot on the host names the same site; drop it so both forms de-duplicate.
        if let Some(Host::Domain(d)) = url.host()
            && d.ends_with('.')
            && d.len() > 1
        {
            let trimmed = d.trim_end_matches('.').to_owned();
            url.set_host(Some(&trimmed))
                .map_err(|_| UrlError::Invalid)?;
        }
        Ok(Self(url))
    }

    /// The canonical address.
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }

    /// The parsed URL.
    pub fn url(&self) -> &Url {
        &self.0
    }

    /// The host, lower-case (punycode for international names).
    pub fn host(&self) -> &str {
        self.0.host_str().unwrap_or_default()
    }
}

impl fmt::Display for SiteUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl TryFrom<String> for SiteUrl {
    type Error = UrlError;
    fn try_from(value: String) -> Result<Self, Self::Error> {
        Self::parse(&value)
    }
}

impl From<SiteUrl> for String {
    fn from(value: SiteUrl) -> Self {
        value.0.into()
    }
}

/// The canonical form of an address, as a string (see [`SiteUrl`]).
pub fn canonicalize(raw: &str) -> Result<String, UrlError> {
    SiteUrl::parse(raw).map(String::from)
}

/// The address form's verdict: the message to show under the field, or the address to submit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AddressCheck {
    /// The address to submit, when valid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub url: Option<String>,
    /// The message to show, when invalid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub error: Option<String>,
}

/// Validates the address form and returns either the address to submit or the field message.
pub fn check_address(raw: &str) -> AddressCheck {
    match normalize_input(raw) {
        Ok(url) => AddressCheck {
            url: Some(url),
            error: None,
        },
        Err(e) => AddressCheck {
            url: None,
            error: Some(e.to_string()),
        },
    }
}

/// Toast title shown when the address is empty at submit (docs/PRODUCT.md §5.1).
pub const INVALID_URL_TOAST_TITLE: &str = "Invalid URL";
/// Toast text shown when the address is empty at submit (docs/PRODUCT.md §5.1).
pub const INVALID_URL_TOAST_TEXT: &str = "Please enter a valid website URL.";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds_https_and_lowercases_host() {
        assert_eq!(
            canonicalize("  Example.COM ").as_deref(),
            Ok("https://example.com/")
        );
        assert_eq!(
            canonicalize("HTTP://Example.com:80/a#x").as_deref(),
            Ok("http://example.com/a")
        );
    }

    #[test]
    fn refuses_what_cannot_be_analysed() {
        assert_eq!(canonicalize(""), Err(UrlError::Empty));
        assert_eq!(
            canonicalize("ftp://example.com"),
            Err(UrlError::UnsupportedScheme)
        );
        assert_eq!(
            canonicalize("https://u:p@example.com"),
            Err(UrlError::Credentials)
        );
        assert_eq!(canonicalize("example"), Err(UrlError::Invalid));
    }
}
