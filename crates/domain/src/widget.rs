//! The embeddable audit widget (issue 15 item 5; docs/PRODUCT.md §3.3 `embedCode`, §3.16 and
//! §5.2 the lead form): an agency puts one script tag with its public widget key on its own
//! site; a visitor fills the lead form there and gets a basic report branded for the agency,
//! and the agency gets the lead.
//!
//! - A widget key is public (it sits in the agency's HTML): `slw_` and 32 lower-case hex digits
//!   ([`format_key`]). It is stored as it is; what protects the agency is the key's list of
//!   allowed origins (CORS: only pages on those origins may send leads with it), the rate limits
//!   ([`REQUESTS_PER_KEY_PER_HOUR`], [`REQUESTS_PER_VISITOR_PER_HOUR`]) and the agency's credits.
//! - An allowed origin is what a browser sends in `Origin`: `scheme://host[:port]`, `http` or
//!   `https` only, no path, query or fragment, the default port left out ([`parse_origin`]).
//! - The embed code is one `async` script tag ([`embed_snippet`]), so the host page never waits
//!   for it.
//! - The leads export is CSV (RFC 4180) with every cell that a spreadsheet would read as a
//!   formula prefixed with `'` ([`csv_cell`], OWASP "CSV injection").

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use url::Url;

use crate::api::AnalysisStatus;
use crate::forms::{FieldError, LeadForm, validate_lead};

/// What every widget key starts with, so a key in a page is recognisable.
pub const KEY_PREFIX: &str = "slw_";

/// Random bytes in a widget key: 128 bits, far beyond guessing (the key is public, but a key
/// that could be guessed would let anyone spend an agency's credits from an allowed origin).
pub const KEY_BYTES: usize = 16;

/// Origins one key may allow.
pub const MAX_ORIGINS_PER_KEY: usize = 10;

/// Unrevoked widget keys an account may hold.
pub const MAX_KEYS_PER_ACCOUNT: usize = 10;

/// Lead submissions one key accepts per hour, whatever their outcome: an agency's busiest page
/// sees far fewer visitors filling an audit form, and each accepted one spends half a credit.
pub const REQUESTS_PER_KEY_PER_HOUR: u32 = 100;

/// Lead submissions one visitor address (an IPv6 visitor by its /64) may make per key and hour,
/// whatever their outcome: room for a few corrected mistakes, not for draining the agency's
/// credits.
pub const REQUESTS_PER_VISITOR_PER_HOUR: u32 = 10;

/// The length of a rate-limit window, in seconds (the limits above are counted over the last
/// hour, a sliding window).
pub const RATE_WINDOW_SECONDS: i64 = 60 * 60;

/// Leads per page of the dashboard's list unless `perPage` says otherwise.
pub const DEFAULT_LEADS_PAGE_SIZE: u32 = 25;

/// Most leads per page.
pub const MAX_LEADS_PAGE_SIZE: u32 = 100;

/// How long a browser may keep `/widget.js` before asking again, in seconds: a fixed address
/// every agency's page names, so it cannot be cached for ever, yet it should not be fetched
/// on every page view.
pub const SCRIPT_MAX_AGE_SECONDS: u32 = 300;

/// The largest the built script may be, gzipped (issue 15: "at most 15 KB gzipped").
pub const SCRIPT_MAX_GZIP_BYTES: usize = 15 * 1024;

/// Refusal of a key for an account whose plan does not include white-label.
pub const NOT_ENTITLED: &str = "The audit widget is part of the Agency and Enterprise plans (white-label). Upgrade your plan to create widget keys.";

/// The answer to an unknown or revoked key (the visitor sees it in the widget).
pub const KEY_UNKNOWN: &str = "This audit form is no longer available.";

/// What a visitor reads when the agency's credits do not cover another report; the lead is not
/// recorded.
pub const AGENCY_OUT_OF_CREDITS: &str = "This audit form cannot take new requests right now. Please try again later or contact the site owner directly.";

/// Most characters of a lead's first name kept (longer ones are cut: the spec asks only that
/// one is given).
pub const FIRST_NAME_MAX: usize = 100;

/// A lead's first name as it is stored and mailed: trimmed, without control characters (a line
/// break in a mail's subject would start a header), at most [`FIRST_NAME_MAX`] characters.
pub fn clean_first_name(name: &str) -> String {
    name.trim()
        .chars()
        .filter(|c| !c.is_control())
        .take(FIRST_NAME_MAX)
        .collect()
}

/// What a visitor reads past a rate limit.
pub fn rate_limited_message(per_visitor: bool) -> String {
    if per_visitor {
        format!(
            "You have sent this form {REQUESTS_PER_VISITOR_PER_HOUR} times in the last hour. Please try again later."
        )
    } else {
        "This audit form is busy right now. Please try again later.".to_owned()
    }
}

/// The refusal of a request from a page whose origin the key does not allow.
pub fn origin_refused_message(origin: Option<&str>) -> String {
    match origin {
        Some(origin) => format!(
            "This widget key does not allow the origin {origin}: add it to the key's allowed origins on your dashboard"
        ),
        None => "A widget request must come from a web page whose origin the key allows (the Origin header is missing)".to_owned(),
    }
}

/// The key text for `random` bytes: [`KEY_PREFIX`] and the bytes in lower-case hex.
pub fn format_key(random: &[u8; KEY_BYTES]) -> String {
    crate::api::prefixed_hex(KEY_PREFIX, random)
}

/// Whether `text` has the form of a widget key; anything else is "not found" before the
/// database is asked.
pub fn is_well_formed_key(text: &str) -> bool {
    crate::api::is_prefixed_hex(text, KEY_PREFIX, KEY_BYTES)
}

/// An allowed origin as a browser sends it in `Origin`, or the message to show.
///
/// `https://Shop.Example:443/` becomes `https://shop.example`; a path other than `/`, a query,
/// a fragment, a user name or a scheme other than `http`/`https` is refused, since a browser's
/// `Origin` never has them (<https://html.spec.whatwg.org/multipage/browsers.html#ascii-serialisation-of-an-origin>).
pub fn parse_origin(text: &str) -> Result<String, String> {
    let text = text.trim();
    let refused = |why: &str| Err(format!("{text} is not an origin: {why}"));
    if text.is_empty() {
        return Err("Enter an origin such as https://www.example.com".to_owned());
    }
    let Ok(url) = Url::parse(text) else {
        return refused("write it as https://host or https://host:port");
    };
    if !matches!(url.scheme(), "http" | "https") {
        return refused("only http and https pages can embed the widget");
    }
    if url.host_str().is_none_or(str::is_empty) {
        return refused("it has no host");
    }
    if !url.username().is_empty() || url.password().is_some() {
        return refused("it must not hold a user name or password");
    }
    if url.path() != "/" || url.query().is_some() || url.fragment().is_some() {
        return refused("leave out the path, query and fragment (https://host[:port] only)");
    }
    Ok(url.origin().ascii_serialization())
}

/// Parses a key's allowed origins: each one normalised ([`parse_origin`]), duplicates dropped,
/// order kept; at least one and at most [`MAX_ORIGINS_PER_KEY`]. `Err` holds every problem for
/// the field `allowedOrigins`.
pub fn parse_origins(list: &[String]) -> Result<Vec<String>, FieldError> {
    let problem = |message: String| FieldError {
        field: "allowedOrigins".to_owned(),
        message,
    };
    let mut origins: Vec<String> = Vec::new();
    let mut errors = Vec::new();
    for item in list.iter().filter(|s| !s.trim().is_empty()) {
        match parse_origin(item) {
            Ok(origin) if !origins.contains(&origin) => origins.push(origin),
            Ok(_) => {}
            Err(message) => errors.push(message),
        }
    }
    if !errors.is_empty() {
        return Err(problem(errors.join("; ")));
    }
    if origins.is_empty() {
        return Err(problem(
            "Add at least one origin the widget will be embedded on, such as https://www.example.com".to_owned(),
        ));
    }
    if origins.len() > MAX_ORIGINS_PER_KEY {
        return Err(problem(format!(
            "A widget key allows at most {MAX_ORIGINS_PER_KEY} origins"
        )));
    }
    Ok(origins)
}

/// Whether a request's `Origin` header is one of `allowed` (stored normalised). `null` and
/// anything that is not an origin never match.
pub fn origin_allowed(allowed: &[String], origin: &str) -> bool {
    parse_origin(origin).is_ok_and(|o| allowed.contains(&o))
}

/// Whether an account holding `active` widget keys may create another; `Err` is the message.
pub fn check_key_count(active: usize) -> Result<(), String> {
    if active < MAX_KEYS_PER_ACCOUNT {
        Ok(())
    } else {
        Err(format!(
            "An account can hold {MAX_KEYS_PER_ACCOUNT} widget keys. Revoke one you no longer use first."
        ))
    }
}

/// The embed code of a key: one `async` script tag, so the host page renders without waiting for
/// it. `public_url` is the server's public address (`SITELENS_PUBLIC_URL`, no trailing slash
/// needed). The widget appears right after the tag, or inside `<div data-sitelens-widget>` when
/// the page has one.
pub fn embed_snippet(public_url: &str, key: &str) -> String {
    let base = public_url.trim_end_matches('/');
    format!(
        "<script async src=\"{}/widget.js\" data-key=\"{}\"></script>",
        html_attr(base),
        html_attr(key)
    )
}

fn html_attr(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// One CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line break (quotes
/// doubled); a cell a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, a
/// tab or a carriage return) gets a leading `'` so it is shown as text
/// (<https://owasp.org/www-community/attacks/CSV_Injection>).
pub fn csv_cell(value: &str) -> String {
    let guarded = if value.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{value}")
    } else {
        value.to_owned()
    };
    if guarded.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", guarded.replace('"', "\"\""))
    } else {
        guarded
    }
}

/// The header row of the leads export.
pub const CSV_HEADER: [&str; 6] = [
    "Date (UTC)",
    "First name",
    "Email",
    "Website",
    "Report",
    "Widget key",
];

/// The leads export: the header and one row per lead, lines ended by CRLF (RFC 4180).
pub fn leads_csv(leads: &[WidgetLeadView]) -> String {
    let mut out = String::new();
    let mut line = |cells: &[&str]| {
        let row: Vec<String> = cells.iter().map(|c| csv_cell(c)).collect();
        out.push_str(&row.join(","));
        out.push_str("\r\n");
    };
    line(&CSV_HEADER);
    for lead in leads {
        line(&[
            &lead.created_at,
            &lead.first_name,
            &lead.email,
            &lead.website_url,
            &lead.report_url,
            &lead.key,
        ]);
    }
    out
}

/// The lead form's messages (docs/PRODUCT.md §5.2) by field, for the widget to show the spec's
/// texts without a copy of them: the answers of [`validate_lead`] to an empty form.
pub fn lead_messages() -> LeadMessages {
    let errors = validate_lead(&LeadForm::default());
    let message = |field: &str| {
        errors
            .iter()
            .find(|e| e.field == field)
            .map(|e| e.message.clone())
            .unwrap_or_default()
    };
    LeadMessages {
        first_name: message("firstName"),
        email: message("email"),
        website_url: message("websiteUrl"),
    }
}

/// The page of the dashboard's lead list the query asks for, as `(offset, limit)`; `Err` is the
/// message to show. `page` counts from 1.
pub fn leads_page_bounds(page: Option<u32>, per_page: Option<u32>) -> Result<(u64, u64), String> {
    let page = page.unwrap_or(1);
    let per_page = per_page.unwrap_or(DEFAULT_LEADS_PAGE_SIZE);
    if page == 0 {
        return Err("page counts from 1".to_owned());
    }
    if per_page == 0 || per_page > MAX_LEADS_PAGE_SIZE {
        return Err(format!("perPage must be from 1 to {MAX_LEADS_PAGE_SIZE}"));
    }
    Ok((
        u64::from(page - 1) * u64::from(per_page),
        u64::from(per_page),
    ))
}

/// The lead form's messages by field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct LeadMessages {
    /// When the first name is empty.
    pub first_name: String,
    /// When the e-mail is not valid.
    pub email: String,
    /// When the website address is not valid.
    pub website_url: String,
}

/// `GET /api/widget/{key}/config`: what the script needs to draw the form in the agency's
/// brand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct WidgetConfig {
    /// The agency's company name (its account's name when it saved no brand).
    pub company_name: String,
    /// `#RRGGBB`: buttons and focus rings.
    pub primary_color: String,
    /// `#RRGGBB`: the progress bar and the report link.
    pub secondary_color: String,
    /// The lead form's messages (docs/PRODUCT.md §5.2).
    pub messages: LeadMessages,
}

/// `POST /api/widget/{key}/leads` accepted: the analysis started for the visitor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct WidgetLeadAccepted {
    /// Always true.
    pub success: bool,
    /// The analysis; its progress is `GET /api/widget/{key}/analyses/{analysisId}`.
    pub analysis_id: String,
    /// The branded report's address on the public URL, readable once the analysis is complete.
    pub report_url: String,
}

/// Where a widget's analysis stands: `GET /api/widget/{key}/analyses/{id}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct WidgetProgress {
    /// Queued, running, complete or failed.
    pub status: AnalysisStatus,
    /// Percent done, 0-100.
    pub progress: u32,
    /// What is happening, or why it failed.
    pub message: String,
    /// The report's address once complete.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report_url: Option<String>,
}

/// A widget key as the agency's dashboard shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct WidgetKeyView {
    /// Row id, for updating and revoking.
    #[ts(type = "number")]
    pub id: i64,
    /// The public key (`slw_…`).
    pub key: String,
    /// The origins whose pages may use it.
    pub allowed_origins: Vec<String>,
    /// The embed code to paste into those pages ([`embed_snippet`]).
    pub embed_code: String,
    /// When it was created (RFC 3339).
    pub created_at: String,
    /// Leads it brought in.
    #[ts(type = "number")]
    pub leads: u64,
}

/// `GET /api/account/widget`: whether the account may create keys, and its unrevoked keys.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct WidgetOverview {
    /// Whether the plan includes the widget (white-label); keys made before a downgrade are
    /// still listed and can be revoked, but take no lead until the plan includes it again.
    pub enabled: bool,
    /// The unrevoked keys, newest first.
    pub keys: Vec<WidgetKeyView>,
}

/// The body of creating a key or changing its origins.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct WidgetOrigins {
    /// The origins whose pages may use the key (see [`parse_origins`]).
    pub allowed_origins: Vec<String>,
}

/// A lead as the agency's dashboard and export show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct WidgetLeadView {
    /// Row id.
    #[ts(type = "number")]
    pub id: i64,
    /// The visitor's first name.
    pub first_name: String,
    /// The visitor's e-mail address.
    pub email: String,
    /// The site the visitor asked about (normalised).
    pub website_url: String,
    /// The analysis started for it.
    pub analysis_id: String,
    /// The branded report's address.
    pub report_url: String,
    /// The key (`slw_…`) of the widget it came through.
    pub key: String,
    /// When it came in (RFC 3339).
    pub created_at: String,
}

/// One page of leads, newest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct WidgetLeadPage {
    /// The leads of this page.
    pub leads: Vec<WidgetLeadView>,
    /// Leads in all.
    #[ts(type = "number")]
    pub total: u64,
    /// This page, from 1.
    pub page: u32,
    /// Leads per page.
    pub per_page: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_have_one_form() {
        let key = format_key(&[0xab; KEY_BYTES]);
        assert_eq!(key, format!("slw_{}", "ab".repeat(KEY_BYTES)));
        assert!(is_well_formed_key(&key));
        assert!(!is_well_formed_key(&key.to_uppercase()));
        assert!(!is_well_formed_key(&key[..key.len() - 1]));
        assert!(!is_well_formed_key(&format!(
            "slk_{}",
            "ab".repeat(KEY_BYTES)
        )));
        assert!(!is_well_formed_key(""));
    }

    #[test]
    fn origins_are_normalised_as_browsers_send_them() {
        for (input, origin) in [
            ("https://www.example.com", "https://www.example.com"),
            (" https://Shop.Example:443/ ", "https://shop.example"),
            ("http://127.0.0.1:8081", "http://127.0.0.1:8081"),
            ("http://localhost:80", "http://localhost"),
            ("https://bücher.example", "https://xn--bcher-kva.example"),
            ("http://[::1]:3000/", "http://[::1]:3000"),
        ] {
            assert_eq!(parse_origin(input).as_deref(), Ok(origin), "{input}");
        }
    }

    #[test]
    fn what_is_not_an_origin_is_refused_with_a_reason() {
        for (input, why) in [
            ("", "Enter an origin"),
            ("www.example.com", "write it as https://host"),
            ("ftp://example.com", "only http and https"),
            ("https://example.com/shop", "leave out the path"),
            ("https://example.com/?a=1", "leave out the path"),
            ("https://example.com/#top", "leave out the path"),
            ("https://user:pw@example.com", "user name or password"),
            ("javascript:alert(1)", "only http and https"),
            ("null", "write it as https://host"),
        ] {
            let message = parse_origin(input).expect_err(input);
            assert!(message.contains(why), "{input}: {message}");
        }
    }

    #[test]
    fn an_origin_list_is_deduplicated_and_bounded() {
        let list = |items: &[&str]| items.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            parse_origins(&list(&[
                "https://a.example",
                "",
                "https://A.example:443",
                "http://a.example"
            ])),
            Ok(vec![
                "https://a.example".to_owned(),
                "http://a.example".to_owned()
            ])
        );
        let none = parse_origins(&list(&["  "])).expect_err("empty");
        assert_eq!(none.field, "allowedOrigins");
        let bad =
            parse_origins(&list(&["https://a.example/x", "ftp://b.example"])).expect_err("bad");
        assert!(
            bad.message.contains("https://a.example/x"),
            "{}",
            bad.message
        );
        assert!(bad.message.contains("ftp://b.example"), "{}", bad.message);
        let many: Vec<String> = (0..=MAX_ORIGINS_PER_KEY)
            .map(|i| format!("https://s{i}.example"))
            .collect();
        assert!(parse_origins(&many).is_err());
        assert!(parse_origins(&many[..MAX_ORIGINS_PER_KEY]).is_ok());
    }

    #[test]
    fn only_listed_origins_match() {
        let allowed = vec!["https://shop.example".to_owned()];
        assert!(origin_allowed(&allowed, "https://shop.example"));
        assert!(origin_allowed(&allowed, "https://SHOP.example:443"));
        assert!(!origin_allowed(&allowed, "http://shop.example"));
        assert!(!origin_allowed(&allowed, "https://evil.example"));
        assert!(!origin_allowed(
            &allowed,
            "https://shop.example.evil.example"
        ));
        assert!(!origin_allowed(&allowed, "null"));
    }

    #[test]
    fn the_snippet_is_one_async_tag() {
        assert_eq!(
            embed_snippet("https://sitelens.example/", "slw_00"),
            r#"<script async src="https://sitelens.example/widget.js" data-key="slw_00"></script>"#
        );
        assert!(embed_snippet("https://a.example/\"><x", "k").contains("&quot;&gt;&lt;x"));
    }

    #[test]
    fn csv_cells_never_run_as_formulas() {
        for (value, cell) in [
            ("Ada", "Ada"),
            (
                "=HYPERLINK(\"http://x\")",
                "\"'=HYPERLINK(\"\"http://x\"\")\"",
            ),
            ("+1 555", "'+1 555"),
            ("-2", "'-2"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\tcmd", "'\tcmd"),
            ("\rcmd", "\"'\rcmd\""),
            ("Smith, Jr.", "\"Smith, Jr.\""),
            ("line\nbreak", "\"line\nbreak\""),
            ("a=b", "a=b"),
            ("", ""),
        ] {
            assert_eq!(csv_cell(value), cell, "{value:?}");
        }
    }

    #[test]
    fn the_export_has_a_header_and_crlf_rows() {
        let lead = WidgetLeadView {
            id: 1,
            first_name: "=cmd".into(),
            email: "ada@example.com".into(),
            website_url: "https://ada.example/".into(),
            analysis_id: "a".into(),
            report_url: "https://sitelens.example/results?id=a".into(),
            key: "slw_1".into(),
            created_at: "2026-11-29T05:00:00+00:00".into(),
        };
        let csv = leads_csv(&[lead]);
        assert_eq!(
            csv,
            "Date (UTC),First name,Email,Website,Report,Widget key\r\n2026-11-29T05:00:00+00:00,'=cmd,ada@example.com,https://ada.example/,https://sitelens.example/results?id=a,slw_1\r\n"
        );
    }

    #[test]
    fn the_widget_shows_the_spec_messages() {
        let m = lead_messages();
        assert_eq!(m.first_name, "Please enter your first name");
        assert_eq!(m.email, "Please enter a valid email address");
        assert_eq!(m.website_url, "Please enter a valid website URL");
    }

    #[test]
    fn first_names_are_kept_on_one_short_line() {
        assert_eq!(
            clean_first_name("  Ada\r\nBcc: x@evil.example "),
            "AdaBcc: x@evil.example"
        );
        assert_eq!(
            clean_first_name(&"é".repeat(150)).chars().count(),
            FIRST_NAME_MAX
        );
    }

    #[test]
    fn lead_pages_are_bounded() {
        assert_eq!(leads_page_bounds(None, None), Ok((0, 25)));
        assert_eq!(leads_page_bounds(Some(3), Some(10)), Ok((20, 10)));
        assert!(leads_page_bounds(Some(0), None).is_err());
        assert!(leads_page_bounds(None, Some(101)).is_err());
    }

    #[test]
    fn limits_leave_room_for_a_few_mistakes() {
        const { assert!(REQUESTS_PER_VISITOR_PER_HOUR >= 5) };
        const { assert!(REQUESTS_PER_KEY_PER_HOUR > REQUESTS_PER_VISITOR_PER_HOUR) };
    }
}
