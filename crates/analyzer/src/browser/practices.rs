//! Best practices as the browser saw them, as Lighthouse audits with Lighthouse 12.8's weights
//! (`is-on-https`, `deprecations` and `third-party-cookies` 5, `paste-preventing-inputs` 3,
//! the others 1). `redirects-http` needs a second, plain-http load and is left out of the
//! score, as Lighthouse leaves out audits that do not apply.

use domain::report::{Finding, FindingType};

use crate::checks::finding;

use super::lab::DeviceRun;
use super::{AuditOutcome, BestPracticesResult, category_score};

#[allow(clippy::too_many_arguments)]
fn audit(
    audits: &mut Vec<AuditOutcome>,
    findings: &mut Vec<Finding>,
    id: &str,
    weight: f64,
    passed: bool,
    title: String,
    description: String,
    solution: &str,
) {
    audits.push(AuditOutcome {
        id: id.to_owned(),
        passed,
        weight,
    });
    let kind = if passed {
        FindingType::Good
    } else if weight >= 5.0 {
        FindingType::Issue
    } else {
        FindingType::Warning
    };
    findings.push(finding(
        &format!("bp.{id}"),
        kind,
        title,
        description,
        Some(solution),
        Some(id),
    ));
}

fn list(items: &[String]) -> String {
    let shown: Vec<&str> = items.iter().take(5).map(String::as_str).collect();
    let more = items.len().saturating_sub(shown.len());
    if more > 0 {
        format!("{} and {more} more", shown.join("; "))
    } else {
        shown.join("; ")
    }
}

/// The DevTools issue kinds Lighthouse 12.8.2's `inspector-issues` audit reports: mixed
/// content, cookies, responses blocked by a cross-origin policy, heavy ads and Content Security
/// Policy. Every other kind (generic issues, quirks mode, low contrast, ...) it ignores.
const LIGHTHOUSE_ISSUE_KINDS: &[&str] = &[
    "MixedContentIssue",
    "CookieIssue",
    "BlockedByResponseIssue",
    "HeavyAdIssue",
    "ContentSecurityPolicyIssue",
];

/// Split recorded issue kinds into those Lighthouse counts and the rest.
fn lighthouse_issues(issues: &[String]) -> (Vec<String>, Vec<String>) {
    issues
        .iter()
        .cloned()
        .partition(|k| LIGHTHOUSE_ISSUE_KINDS.contains(&k.as_str()))
}

/// Assess the measured load (its phone design probe for `viewport` and `font-size`), as
/// Lighthouse's mobile test assesses its mobile-emulated load.
pub fn assess(run: &DeviceRun) -> BestPracticesResult {
    let mobile_design = run.design.as_ref();
    let c = &run.collected;
    let log = &run.log;
    let mut audits = Vec::new();
    let mut findings = Vec::new();

    // Lighthouse: every request without TLS (plain HTTP, or a scheme such as `file:`) to a host
    // other than localhost fails the audit, the page's own included, answered or not.
    let insecure = &run.metrics.insecure;
    let secure = c.secure_context && log.mixed_content.is_empty() && insecure.is_empty();
    audit(
        &mut audits,
        &mut findings,
        "is-on-https",
        5.0,
        secure,
        if secure {
            "Served securely".into()
        } else if !c.secure_context {
            "Not served over HTTPS".into()
        } else if log.mixed_content.is_empty() {
            format!("{} insecure request(s)", insecure.len())
        } else {
            "Mixed content".into()
        },
        if !c.secure_context {
            format!(
                "The page loaded over {} without TLS; browsers mark it as not secure.",
                c.protocol
            )
        } else if log.mixed_content.is_empty() && insecure.is_empty() {
            "The page and all its resources loaded over HTTPS.".into()
        } else if log.mixed_content.is_empty() {
            format!(
                "Requested without TLS (plain HTTP or another insecure scheme): {}.",
                list(insecure)
            )
        } else {
            format!(
                "Resources loaded over plain HTTP on an HTTPS page: {}.",
                list(&log.mixed_content)
            )
        },
        "Serve the page and every resource over HTTPS, and redirect HTTP to HTTPS.",
    );

    audit(
        &mut audits,
        &mut findings,
        "deprecations",
        5.0,
        log.deprecations.is_empty(),
        if log.deprecations.is_empty() {
            "No deprecated APIs".into()
        } else {
            format!("{} deprecated API(s) used", log.deprecations.len())
        },
        if log.deprecations.is_empty() {
            "Chromium reported no use of deprecated features.".into()
        } else {
            format!("Chromium reported: {}.", list(&log.deprecations))
        },
        "Replace deprecated browser APIs before browsers remove them.",
    );

    audit(
        &mut audits,
        &mut findings,
        "errors-in-console",
        1.0,
        log.errors.is_empty(),
        if log.errors.is_empty() {
            "No console errors".into()
        } else {
            format!("{} console error(s)", log.errors.len())
        },
        if log.errors.is_empty() {
            "Nothing was logged as an error while the page loaded.".into()
        } else {
            format!("Logged while loading: {}.", list(&log.errors))
        },
        "Fix the scripts and missing resources behind each console error.",
    );

    let (mut counted, others) = lighthouse_issues(&log.issues);
    if log.third_party_cookies > 0 {
        counted.push(format!(
            "CookieIssue (third-party, {})",
            log.third_party_cookies
        ));
    }
    audit(
        &mut audits,
        &mut findings,
        "inspector-issues",
        1.0,
        counted.is_empty(),
        if counted.is_empty() {
            "No browser issues".into()
        } else {
            format!("{} issue(s) in the DevTools Issues panel", counted.len())
        },
        if counted.is_empty() {
            "Chromium raised no issue (cookies, CSP, CORS, mixed content).".into()
        } else {
            format!("Issue kinds: {}.", list(&counted))
        },
        "Open the Issues panel of Chrome DevTools and resolve each issue.",
    );
    if !others.is_empty() {
        // Our own advice: Lighthouse ignores these kinds, so they neither fail its audit nor
        // count in the score.
        findings.push(finding(
            "bp.other-browser-issues",
            FindingType::Warning,
            format!("{} other issue(s) in the DevTools Issues panel", others.len()),
            format!("Issue kinds: {}.", list(&others)),
            Some("Open the Issues panel of Chrome DevTools to see each issue (for example a form field without a name)."),
            None,
        ));
    }

    audit(
        &mut audits,
        &mut findings,
        "third-party-cookies",
        5.0,
        log.third_party_cookies == 0,
        if log.third_party_cookies == 0 {
            "No third-party cookies".into()
        } else {
            format!("{} third-party cookie(s)", log.third_party_cookies)
        },
        "Browsers are phasing out cookies set in a third-party context.".into(),
        "Replace third-party cookies with first-party storage or partitioned cookies (CHIPS).",
    );

    audit(
        &mut audits,
        &mut findings,
        "geolocation-on-start",
        1.0,
        !c.geolocation_on_start,
        if c.geolocation_on_start {
            "Asks for the location on load".into()
        } else {
            "No location request on load".into()
        },
        "Asking for the position before the visitor does anything is distrusted and often refused."
            .into(),
        "Ask for the location only after a visitor action that needs it.",
    );

    audit(
        &mut audits,
        &mut findings,
        "notification-on-start",
        1.0,
        !c.notification_on_start,
        if c.notification_on_start { "Asks to send notifications on load".into() } else { "No notification request on load".into() },
        "Asking to send notifications before the visitor does anything is distrusted and often refused.".into(),
        "Offer notifications after a visitor action, with a clear reason.",
    );

    audit(
        &mut audits,
        &mut findings,
        "paste-preventing-inputs",
        3.0,
        c.paste_prevented == 0,
        if c.paste_prevented == 0 {
            "Inputs allow pasting".into()
        } else {
            format!("{} input(s) block pasting", c.paste_prevented)
        },
        "Blocking paste breaks password managers and makes forms harder to use.".into(),
        "Remove the paste handlers that cancel the event.",
    );

    let distorted: Vec<String> = run
        .metrics
        .images
        .iter()
        .filter(|i| i.distorted)
        .map(|i| i.url.clone())
        .collect();
    audit(
        &mut audits,
        &mut findings,
        "image-aspect-ratio",
        1.0,
        distorted.is_empty(),
        if distorted.is_empty() {
            "Images have correct aspect ratios".into()
        } else {
            format!("{} image(s) distorted", distorted.len())
        },
        if distorted.is_empty() {
            "Every image is displayed in its natural proportions.".into()
        } else {
            format!("Stretched images: {}.", list(&distorted))
        },
        "Keep images in proportion: set one dimension, or use object-fit.",
    );

    let upscaled: Vec<String> = run
        .metrics
        .images
        .iter()
        .filter(|i| i.upscaled)
        .map(|i| i.url.clone())
        .collect();
    audit(
        &mut audits,
        &mut findings,
        "image-size-responsive",
        1.0,
        upscaled.is_empty(),
        if upscaled.is_empty() {
            "Images have enough resolution".into()
        } else {
            format!("{} image(s) with too low a resolution", upscaled.len())
        },
        if upscaled.is_empty() {
            "No image is displayed larger than its natural size.".into()
        } else {
            format!("Upscaled images: {}.", list(&upscaled))
        },
        "Serve images at least at their displayed size, with srcset for high-density screens.",
    );

    let doctype_ok = c
        .doctype
        .as_deref()
        .is_some_and(|d| d.eq_ignore_ascii_case("html"))
        && c.compat_mode == "CSS1Compat";
    audit(
        &mut audits,
        &mut findings,
        "doctype",
        1.0,
        doctype_ok,
        if doctype_ok {
            "HTML doctype declared".into()
        } else {
            "Missing or wrong doctype".into()
        },
        if doctype_ok {
            "<!DOCTYPE html> puts the browser in standards mode.".into()
        } else {
            format!(
                "The page renders in {} mode; <!DOCTYPE html> must be the first line.",
                if c.compat_mode == "BackCompat" {
                    "quirks"
                } else {
                    "limited-quirks"
                }
            )
        },
        "Start the document with <!DOCTYPE html>.",
    );

    let header_charset = run
        .document_headers
        .iter()
        .any(|(k, v)| k == "content-type" && v.to_ascii_lowercase().contains("charset="));
    let meta_early = (0..=2).contains(&c.meta_charset_index);
    let charset_ok = header_charset || meta_early;
    audit(
        &mut audits,
        &mut findings,
        "charset",
        1.0,
        charset_ok,
        if charset_ok {
            format!("Character set declared ({})", c.character_set)
        } else {
            "Character set not declared early".into()
        },
        if charset_ok {
            "The encoding is declared in the Content-Type header or at the top of the head.".into()
        } else {
            "Neither the Content-Type header nor an early <meta charset> declares the encoding, so browsers may guess.".into()
        },
        "Put <meta charset=\"utf-8\"> first in the head, or send charset=utf-8 in Content-Type.",
    );

    let viewport_ok = crate::checks::seo::mobile_optimized(c.viewport.as_deref());
    audit(
        &mut audits,
        &mut findings,
        "viewport",
        1.0,
        viewport_ok,
        if viewport_ok { "Has a mobile viewport".into() } else { "No mobile viewport".into() },
        "A viewport meta tag with width=device-width lets phones lay the page out for their screen.".into(),
        "Add <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">.",
    );

    if let Some(m) = mobile_design {
        let share = m.legible_share();
        audit(
            &mut audits,
            &mut findings,
            "font-size",
            1.0,
            // Lighthouse fails the audit outright without a viewport for phones.
            share >= 0.6 && viewport_ok,
            if viewport_ok {
                format!("{:.0}% of text legible on phones", share * 100.0)
            } else {
                "Text is illegible on phones: no mobile viewport".to_owned()
            },
            "At least 60% of text should be 12 px or larger at phone width.".into(),
            "Raise small text to at least 12 px on phones.",
        );
    }

    BestPracticesResult {
        score: category_score(&audits),
        findings,
        audits,
        console_errors: log.errors.clone(),
        deprecations: log.deprecations.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inspector_issues_counts_only_the_kinds_lighthouse_reports() {
        let kinds: Vec<String> = [
            "GenericIssue",
            "MixedContentIssue",
            "QuirksModeIssue",
            "ContentSecurityPolicyIssue",
        ]
        .map(str::to_owned)
        .to_vec();
        let (counted, others) = lighthouse_issues(&kinds);
        assert_eq!(
            counted,
            vec!["MixedContentIssue", "ContentSecurityPolicyIssue"]
        );
        assert_eq!(others, vec!["GenericIssue", "QuirksModeIssue"]);
        let (counted, _) = lighthouse_issues(&["GenericIssue".to_owned()]);
        assert!(counted.is_empty());
    }

    #[test]
    fn a_viewport_is_mobile_optimized_as_lighthouse_decides() {
        use crate::checks::seo::mobile_optimized;
        assert!(mobile_optimized(Some(
            "width=device-width, initial-scale=1"
        )));
        assert!(mobile_optimized(Some("width=device-width")));
        assert!(mobile_optimized(Some("initial-scale=1")));
        assert!(mobile_optimized(Some("width=600")));
        // Zoom disabled still lays the page out for phones.
        assert!(mobile_optimized(Some(
            "width=device-width, initial-scale=1, user-scalable=no"
        )));
        assert!(!mobile_optimized(None));
        assert!(!mobile_optimized(Some("user-scalable=yes")));
        assert!(!mobile_optimized(Some(
            "width=device-width, initial-scale=0.5"
        )));
        assert!(!mobile_optimized(Some("minimum-scale=1")));
    }
}
