//! Technical checks: status, security headers, delivery, document basics, page weight, and the
//! technology stack.

use super::{PageCtx, Section, Tagged, good, issue, list, short_url, warning};
use crate::crawl::SiteData;
use crate::tech::Technology;

const SECURITY: &str = "Security";
const DELIVERY: &str = "Server & Delivery";
const DOCUMENT: &str = "Document";
const STACK: &str = "Technology Stack";
const PERF: &str = "Page Weight & Loading";

/// Lighthouse's `server-response-time` threshold: 600 ms.
pub const TTFB_GOOD_MS: u128 = 600;
/// Page weight good range (docs/PRODUCT.md §9.7): under 3 MB.
pub fn page_size_good() -> u64 {
    super::good_range("pageSize").1 as u64
}
/// Request count good range (docs/PRODUCT.md §9.7): under 50.
pub fn requests_good() -> usize {
    super::good_range("requests").1
}

fn push(out: &mut Vec<Tagged>, section: Section, group: &'static str, f: domain::report::Finding) {
    out.push(Tagged {
        section,
        group,
        finding: f,
    });
}

/// Page-level technical checks.
pub fn run_page(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
    let Ok(f) = &ctx.page.fetched else { return };
    // Lighthouse `http-status-code`: 400 and above fails.
    let s = f.status;
    let finding = if s >= 400 {
        issue(
            "tech.http-status",
            Some("http-status-code"),
            format!("Page answers HTTP {s}"),
            format!(
                "{} returns status {s}; pages with an error status are dropped from search results.",
                f.final_url
            ),
            "Serve the page with status 200, or redirect it (301) to its replacement.",
        )
    } else {
        good(
            "tech.http-status",
            Some("http-status-code"),
            "Page answers successfully",
            format!("Status {s}."),
        )
    };
    push(out, Section::Technical, DELIVERY, finding);

    let finding = if ctx.doc.has_html5_doctype {
        good(
            "tech.doctype",
            Some("doctype"),
            "HTML5 doctype",
            "The page starts with <!DOCTYPE html>, so browsers render it in standards mode.",
        )
    } else if ctx.doc.has_doctype {
        warning(
            "tech.doctype",
            Some("doctype"),
            "Legacy doctype",
            "The page uses an old doctype; browsers may render it in limited-quirks mode.",
            "Start the page with <!DOCTYPE html>.",
        )
    } else {
        issue(
            "tech.doctype",
            Some("doctype"),
            "No doctype",
            "The page has no doctype, so browsers render it in quirks mode, with inconsistent layout.",
            "Start the page with <!DOCTYPE html>.",
        )
    };
    push(out, Section::Technical, DOCUMENT, finding);

    // Lighthouse `charset`: declared in Content-Type or a meta tag within the first 1024 bytes.
    let header_charset = f
        .header("content-type")
        .is_some_and(|c| c.to_ascii_lowercase().contains("charset="));
    let meta_early =
        ctx.doc.meta_charset.is_some() && ctx.doc.meta_charset_offset.is_some_and(|o| o < 1024);
    let finding = if header_charset || meta_early {
        good(
            "tech.charset",
            Some("charset"),
            "Character encoding is declared",
            if header_charset {
                "The Content-Type header names the charset."
            } else {
                "A <meta charset> appears in the first 1024 bytes."
            },
        )
    } else {
        warning(
            "tech.charset",
            Some("charset"),
            "Character encoding is not declared properly",
            "Neither the Content-Type header nor a <meta charset> in the first 1024 bytes declares the encoding; browsers may show garbled text.",
            "Add <meta charset=\"utf-8\"> as the first element of <head>, or send charset=utf-8 in Content-Type.",
        )
    };
    push(out, Section::Technical, DOCUMENT, finding);

    // Lighthouse `uses-text-compression` for the HTML itself.
    let enc = f
        .header("content-encoding")
        .unwrap_or("")
        .to_ascii_lowercase();
    let finding = if !enc.is_empty() && enc != "identity" {
        good(
            "tech.compression",
            Some("uses-text-compression"),
            "HTML is compressed",
            format!("Content-Encoding: {enc}."),
        )
    } else if f.body.len() < 1400 {
        good(
            "tech.compression",
            Some("uses-text-compression"),
            "HTML is too small to need compression",
            format!("{} bytes.", f.body.len()),
        )
    } else {
        warning(
            "tech.compression",
            Some("uses-text-compression"),
            "HTML is not compressed",
            format!(
                "The page's {} KB of HTML are sent uncompressed although the request accepted gzip and brotli.",
                f.body.len() / 1024
            ),
            "Enable gzip or brotli compression for text responses on the server or CDN.",
        )
    };
    push(out, Section::Performance, PERF, finding);

    let ms = f.ttfb.as_millis();
    let finding = if ms <= TTFB_GOOD_MS {
        good(
            "tech.ttfb",
            Some("server-response-time"),
            "Server responds quickly",
            format!("Time to first byte: {ms} ms (good: under {TTFB_GOOD_MS} ms)."),
        )
    } else {
        warning(
            "tech.ttfb",
            Some("server-response-time"),
            "Slow server response",
            format!("Time to first byte: {ms} ms; over {TTFB_GOOD_MS} ms delays everything else."),
            "Cache rendered pages, speed up database queries, or put a CDN in front of the server.",
        )
    };
    push(out, Section::Performance, PERF, finding);

    let finding = match f.hops.len() {
        0 => good(
            "tech.redirects",
            Some("redirects"),
            "No redirects",
            "The page answers directly.",
        ),
        1 => good(
            "tech.redirects",
            Some("redirects"),
            "One redirect",
            format!(
                "{} → {} ({}).",
                f.hops[0].url, f.final_url, f.hops[0].status
            ),
        ),
        n => warning(
            "tech.redirects",
            Some("redirects"),
            "Redirect chain",
            format!(
                "Reaching the page takes {n} redirects: {} → {}. Each costs a round trip.",
                f.hops
                    .iter()
                    .map(|h| format!("{} ({})", h.url, h.status))
                    .collect::<Vec<_>>()
                    .join(" → "),
                f.final_url
            ),
            "Link and redirect straight to the final address.",
        ),
    };
    push(out, Section::Technical, DELIVERY, finding);

    let https = f.final_url.scheme() == "https";
    if https {
        let insecure: Vec<String> = ctx
            .doc
            .subresources
            .iter()
            .chain(ctx.doc.form_actions.iter())
            .filter(|u| u.starts_with("http://"))
            .cloned()
            .collect();
        let finding = if insecure.is_empty() {
            good(
                "tech.mixed-content",
                Some("is-on-https"),
                "No mixed content",
                "Every resource loads over HTTPS.",
            )
        } else {
            issue(
                "tech.mixed-content",
                Some("is-on-https"),
                "Mixed content",
                format!(
                    "This HTTPS page loads {} resources over plain HTTP, which browsers block or flag: {}.",
                    insecure.len(),
                    list(&insecure, 4)
                ),
                "Load every script, style, image, frame and form target over https://.",
            )
        };
        push(out, Section::Technical, SECURITY, finding);
    }
    security_headers(f, https, out);
    render_blocking(ctx, out);
}

/// HSTS, CSP, framing and other headers. Lighthouse reports `has-hsts`, `csp-xss` and
/// `clickjacking-mitigation` as informative (never pass or fail), so these findings are our own
/// verdicts and carry no Lighthouse audit id.
fn security_headers(f: &crate::fetch::Fetched, https: bool, out: &mut Vec<Tagged>) {
    if https {
        let finding = match f.header("strict-transport-security") {
            Some(v) => {
                let max_age = v
                    .split(';')
                    .find_map(|p| p.trim().strip_prefix("max-age="))
                    .and_then(|n| n.trim_matches('"').parse::<u64>().ok())
                    .unwrap_or(0);
                if max_age >= 31_536_000 {
                    good(
                        "tech.hsts",
                        None,
                        "HSTS is enabled",
                        format!("Strict-Transport-Security: {v}."),
                    )
                } else {
                    warning(
                        "tech.hsts",
                        None,
                        "HSTS max-age is short",
                        format!(
                            "Strict-Transport-Security: {v}; at least one year (31536000) is recommended."
                        ),
                        "Send Strict-Transport-Security: max-age=31536000; includeSubDomains.",
                    )
                }
            }
            None => warning(
                "tech.hsts",
                None,
                "No HSTS header",
                "Without Strict-Transport-Security, a visitor's first request can be downgraded to plain HTTP.",
                "Send Strict-Transport-Security: max-age=31536000; includeSubDomains.",
            ),
        };
        push(out, Section::Technical, SECURITY, finding);
    }
    let csp = f.header("content-security-policy");
    let finding = match csp {
        Some(v) => good(
            "tech.csp",
            None,
            "Content Security Policy is set",
            format!("Content-Security-Policy: {}.", truncate(v, 120)),
        ),
        None => warning(
            "tech.csp",
            None,
            "No Content Security Policy",
            "Without a Content-Security-Policy header, an injected script runs with the page's full rights.",
            "Send a Content-Security-Policy header; start with default-src 'self' and allow what the site needs.",
        ),
    };
    push(out, Section::Technical, SECURITY, finding);
    let finding = match f.header("x-content-type-options") {
        Some(v) if v.trim().eq_ignore_ascii_case("nosniff") => good(
            "tech.nosniff",
            None,
            "MIME sniffing is disabled",
            "X-Content-Type-Options: nosniff.",
        ),
        _ => warning(
            "tech.nosniff",
            None,
            "MIME sniffing is allowed",
            "X-Content-Type-Options: nosniff is not sent, so browsers may guess content types.",
            "Send X-Content-Type-Options: nosniff.",
        ),
    };
    push(out, Section::Technical, SECURITY, finding);
    let frame_ancestors = csp.is_some_and(|c| c.to_ascii_lowercase().contains("frame-ancestors"));
    let finding = match f.header("x-frame-options") {
        _ if frame_ancestors => good(
            "tech.clickjacking",
            None,
            "Framing is restricted",
            "The CSP sets frame-ancestors.",
        ),
        Some(v) => good(
            "tech.clickjacking",
            None,
            "Framing is restricted",
            format!("X-Frame-Options: {v}."),
        ),
        None => warning(
            "tech.clickjacking",
            None,
            "Page can be framed by any site",
            "Neither X-Frame-Options nor CSP frame-ancestors is set, so other sites can embed the page (clickjacking).",
            "Send X-Frame-Options: SAMEORIGIN or Content-Security-Policy: frame-ancestors 'self'.",
        ),
    };
    push(out, Section::Technical, SECURITY, finding);
    let finding = match f.header("referrer-policy") {
        Some(v) if v.to_ascii_lowercase().contains("unsafe-url") => warning(
            "tech.referrer-policy",
            None,
            "Referrer policy leaks full addresses",
            format!(
                "Referrer-Policy: {v} sends full URLs, query strings included, to other sites."
            ),
            "Use Referrer-Policy: strict-origin-when-cross-origin.",
        ),
        Some(v) => good(
            "tech.referrer-policy",
            None,
            "Referrer policy is set",
            format!("Referrer-Policy: {v}."),
        ),
        None => warning(
            "tech.referrer-policy",
            None,
            "No Referrer-Policy header",
            "Browsers fall back to their default; setting it explicitly keeps private paths from leaking.",
            "Send Referrer-Policy: strict-origin-when-cross-origin.",
        ),
    };
    push(out, Section::Technical, SECURITY, finding);
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_owned()
    } else {
        format!("{}…", s.chars().take(n).collect::<String>())
    }
}

/// Lighthouse `render-blocking-resources`: synchronous scripts and screen stylesheets in the head.
fn render_blocking(ctx: &PageCtx<'_>, out: &mut Vec<Tagged>) {
    let mut blocking: Vec<String> = ctx
        .doc
        .scripts
        .iter()
        .filter(|s| s.in_head && !s.non_blocking && !s.is_data)
        .filter_map(|s| s.src.clone())
        .collect();
    blocking.extend(
        ctx.doc
            .stylesheets
            .iter()
            .filter(|s| s.in_head && !s.non_blocking_media)
            .map(|s| s.href.clone()),
    );
    let scripts = ctx
        .doc
        .scripts
        .iter()
        .filter(|s| s.in_head && !s.non_blocking && !s.is_data && s.src.is_some())
        .count();
    let finding = if scripts == 0 && blocking.len() <= 2 {
        good(
            "tech.render-blocking",
            Some("render-blocking-resources"),
            "Little render-blocking",
            format!(
                "{} stylesheet(s) and no synchronous script in the head.",
                blocking.len()
            ),
        )
    } else {
        warning(
            "tech.render-blocking",
            Some("render-blocking-resources"),
            "Render-blocking resources",
            format!(
                "{} resources in the head block the first paint ({scripts} synchronous scripts): {}.",
                blocking.len(),
                list(
                    &blocking.iter().map(|u| short_url(u)).collect::<Vec<_>>(),
                    4
                )
            ),
            "Add defer (or async) to scripts in the head, inline the critical CSS and load the rest without blocking.",
        )
    };
    push(out, Section::Performance, PERF, finding);
}

/// Site-level technical checks: HTTPS, assets, page weight, technology stack.
pub fn run_site(site: &SiteData, tech: &[Technology], out: &mut Vec<Tagged>) {
    let start = site.start_page();
    let final_url = start.final_url();
    let finding = if final_url.scheme() == "https" {
        good(
            "tech.https",
            Some("is-on-https"),
            "Site uses HTTPS",
            format!("{final_url} is served over HTTPS."),
        )
    } else {
        // Lighthouse counts localhost and 127.0.0.1 as secure; a site that visitors reach over
        // plain HTTP is still not, so there the verdict is ours alone.
        let host = final_url.host_str().unwrap_or("");
        let local = host == "localhost" || host == "127.0.0.1" || host.ends_with(".localhost");
        issue(
            "tech.https",
            (!local).then_some("is-on-https"),
            "Site is not on HTTPS",
            "The page is served over plain HTTP: browsers mark it \"Not secure\" and search engines prefer HTTPS pages.",
            "Install a TLS certificate (free from Let's Encrypt) and redirect all HTTP traffic to HTTPS.",
        )
    };
    push(out, Section::Technical, SECURITY, finding);
    if let Some(v) = &site.http_version {
        let finding = match v {
            Ok((to, hops)) if to.starts_with("https://") => good(
                "tech.http-redirect",
                Some("redirects-http"),
                "HTTP redirects to HTTPS",
                format!("http:// reaches {to} after {hops} redirect(s)."),
            ),
            Ok((to, _)) => issue(
                "tech.http-redirect",
                Some("redirects-http"),
                "HTTP does not redirect to HTTPS",
                format!("The http:// address answers at {to} without moving visitors to HTTPS."),
                "Redirect every http:// request to https:// with a 301.",
            ),
            Err(e) => warning(
                "tech.http-redirect",
                Some("redirects-http"),
                "HTTP version could not be checked",
                format!("Requesting http:// failed: {e}."),
                "Make sure port 80 answers with a redirect to HTTPS.",
            ),
        };
        push(out, Section::Technical, SECURITY, finding);
    }

    // Page weight and request count (docs/PRODUCT.md §9.7): HTML plus referenced assets.
    if let Ok(html) = &start.fetched {
        let assets_bytes: u64 = site.assets.iter().map(|a| a.transfer_bytes).sum();
        let total = html.transfer_bytes + assets_bytes;
        let requests = 1 + site.assets.len();
        let finding = if total < page_size_good() {
            good(
                "perf.page-weight",
                Some("total-byte-weight"),
                "Page weight is reasonable",
                format!(
                    "{} KB transferred for the HTML and {} referenced assets (good: under 3 MB).",
                    total / 1024,
                    site.assets.len()
                ),
            )
        } else {
            warning(
                "perf.page-weight",
                Some("total-byte-weight"),
                "Page is heavy",
                format!(
                    "{:.1} MB transferred for the HTML and its assets; under 3 MB loads well on mobile.",
                    total as f64 / 1_000_000.0
                ),
                "Compress and resize images, serve WebP/AVIF, and drop unused scripts and styles.",
            )
        };
        push(out, Section::Performance, PERF, finding);
        let finding = if requests < requests_good() {
            good(
                "perf.requests",
                None,
                "Few requests",
                format!("{requests} requests (HTML and referenced assets; good: under 50)."),
            )
        } else {
            warning(
                "perf.requests",
                None,
                "Many requests",
                format!(
                    "{requests} requests for the HTML and referenced assets; under 50 is good."
                ),
                "Bundle scripts and styles, use sprites or inline SVG for icons, and lazy-load images below the fold.",
            )
        };
        push(out, Section::Performance, PERF, finding);
    }
    let broken: Vec<String> = site
        .assets
        .iter()
        .filter(|a| a.status.is_none_or(|s| s >= 400))
        .map(|a| short_url(&a.url))
        .collect();
    if !broken.is_empty() {
        push(
            out,
            Section::Technical,
            DELIVERY,
            issue(
                "tech.broken-assets",
                None,
                "Broken resources",
                format!(
                    "{} referenced scripts, styles or images fail to load: {}.",
                    broken.len(),
                    list(&broken, 4)
                ),
                "Fix or remove the references to missing files.",
            ),
        );
    }
    let static_assets: Vec<&crate::crawl::Asset> = site
        .assets
        .iter()
        .filter(|a| a.status.is_some_and(|s| s < 400))
        .collect();
    if !static_assets.is_empty() {
        let short: Vec<String> = static_assets
            .iter()
            .filter(|a| {
                let cc = a
                    .cache_control
                    .as_deref()
                    .unwrap_or("")
                    .to_ascii_lowercase();
                let max_age = cc
                    .split(',')
                    .find_map(|p| p.trim().strip_prefix("max-age="))
                    .and_then(|n| n.parse::<u64>().ok());
                !(cc.contains("immutable")
                    || max_age.is_some_and(|m| m >= 86_400 * 30)
                    || (max_age.is_none() && a.has_expires && !cc.contains("no-")))
            })
            .map(|a| short_url(&a.url))
            .collect();
        let finding = if short.is_empty() {
            good(
                "perf.cache",
                Some("uses-long-cache-ttl"),
                "Static assets are cached",
                format!(
                    "All {} assets have a long cache lifetime.",
                    static_assets.len()
                ),
            )
        } else {
            warning(
                "perf.cache",
                Some("uses-long-cache-ttl"),
                "Static assets are not cached long",
                format!(
                    "{} of {} assets have no or a short (under 30 days) cache lifetime: {}.",
                    short.len(),
                    static_assets.len(),
                    list(&short, 4)
                ),
                "Serve versioned static files with Cache-Control: public, max-age=31536000, immutable.",
            )
        };
        push(out, Section::Performance, PERF, finding);
        let uncompressed: Vec<String> = static_assets
            .iter()
            .filter(|a| {
                let text = a.content_type.contains("javascript")
                    || a.content_type.contains("css")
                    || a.content_type.contains("svg")
                    || a.content_type.contains("json");
                text && a.decoded_bytes > 1400
                    && a.content_encoding
                        .as_deref()
                        .is_none_or(|e| e == "identity")
            })
            .map(|a| short_url(&a.url))
            .collect();
        if !uncompressed.is_empty() {
            push(
                out,
                Section::Performance,
                PERF,
                warning(
                    "perf.asset-compression",
                    Some("uses-text-compression"),
                    "Text assets are not compressed",
                    format!(
                        "{} scripts or styles are sent uncompressed: {}.",
                        uncompressed.len(),
                        list(&uncompressed, 4)
                    ),
                    "Enable gzip or brotli for JavaScript, CSS and SVG.",
                ),
            );
        }
    }

    // The Technology Stack group: one finding per technology, with its evidence.
    if tech.is_empty() {
        push(
            out,
            Section::Technical,
            STACK,
            good(
                "tech.stack",
                None,
                "No known technology detected",
                "No CMS, framework, analytics, CDN or server signature was found; the site may be hand-built or hide its stack.",
            ),
        );
    }
    for t in tech {
        let version = t
            .version
            .as_deref()
            .map(|v| format!(" {v}"))
            .unwrap_or_default();
        let mut f = good(
            &format!("tech.stack.{}", slug(&t.name)),
            None,
            format!("{}{version} ({})", t.name, t.category),
            format!("Detected {}: {}.", t.name, t.evidence),
        );
        if t.name == "WordPress" {
            f.description.push_str(" Keep WordPress core, themes and plugins updated; a lightweight theme and a caching plugin help performance.");
        }
        push(out, Section::Technical, STACK, f);
    }
}

fn slug(name: &str) -> String {
    name.to_ascii_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect::<String>()
        .trim_matches('-')
        .to_owned()
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::time::Duration;

    use domain::report::FindingType;
    use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
    use url::Url;

    use super::*;
    use crate::checks::PageCtx;
    use crate::crawl::CrawledPage;
    use crate::fetch::Fetched;

    /// A one-page crawl of an HTTPS page, built by hand: the fixture server speaks plain HTTP,
    /// so the HTTPS-only branches are checked here.
    fn https_site(
        html: &str,
        headers: &[(&str, &str)],
        http: Result<(String, usize), String>,
    ) -> SiteData {
        let url = Url::parse("https://shop.example/").expect("url");
        let mut map = HeaderMap::new();
        for (k, v) in headers {
            if let (Ok(k), Ok(v)) = (
                HeaderName::from_bytes(k.as_bytes()),
                HeaderValue::from_str(v),
            ) {
                map.insert(k, v);
            }
        }
        let fetched = Fetched {
            requested: url.clone(),
            final_url: url.clone(),
            status: 200,
            headers: map,
            body: html.as_bytes().to_vec(),
            transfer_bytes: html.len() as u64,
            truncated: false,
            hops: Vec::new(),
            ttfb: Duration::from_millis(5),
            elapsed: Duration::from_millis(6),
        };
        let doc = crate::page::parse(html, &url);
        SiteData {
            http_version: Some(http),
            ..SiteData::of_page(CrawledPage {
                url,
                depth: Some(0),
                fetched: Ok(fetched),
                doc: Some(doc),
            })
        }
    }

    fn verdicts(site: &SiteData) -> BTreeMap<String, FindingType> {
        let page = site.start_page();
        let doc = page.doc.as_ref().expect("doc");
        let mut out = Vec::new();
        run_page(&PageCtx { page, doc, site }, &mut out);
        run_site(site, &[], &mut out);
        out.into_iter()
            .map(|t| (t.finding.id, t.finding.kind))
            .collect()
    }

    #[test]
    fn https_pages_pass_with_hsts_and_no_mixed_content() {
        let site = https_site(
            "<!DOCTYPE html><html><head><script src=\"https://cdn.example/a.js\" defer></script></head><body><img src=\"/x.png\" alt=\"x\"></body></html>",
            &[(
                "strict-transport-security",
                "max-age=63072000; includeSubDomains",
            )],
            Ok(("https://shop.example/".to_owned(), 1)),
        );
        let v = verdicts(&site);
        assert_eq!(v["tech.https"], FindingType::Good);
        assert_eq!(v["tech.hsts"], FindingType::Good);
        assert_eq!(v["tech.mixed-content"], FindingType::Good);
        assert_eq!(v["tech.http-redirect"], FindingType::Good);
    }

    #[test]
    fn mixed_content_short_hsts_and_no_https_redirect_fail() {
        let site = https_site(
            "<!DOCTYPE html><html><head></head><body><img src=\"http://cdn.example/x.png\" alt=\"x\"><form action=\"http://shop.example/login\"></form></body></html>",
            &[("strict-transport-security", "max-age=600")],
            Ok(("http://shop.example/".to_owned(), 0)),
        );
        let v = verdicts(&site);
        assert_eq!(v["tech.mixed-content"], FindingType::Issue);
        assert_eq!(v["tech.hsts"], FindingType::Warning);
        assert_eq!(v["tech.http-redirect"], FindingType::Issue);
        let site = https_site(
            "<!DOCTYPE html><html></html>",
            &[],
            Err("refused".to_owned()),
        );
        let v = verdicts(&site);
        assert_eq!(v["tech.hsts"], FindingType::Warning);
        assert_eq!(v["tech.http-redirect"], FindingType::Warning);
    }

    proptest::proptest! {
        /// Truncation keeps whole characters: at most `n` of them, a prefix of the text, and an
        /// ellipsis exactly when something was cut.
        #[test]
        fn truncate_is_a_character_prefix(s in "\\PC{0,80}", n in 0usize..40) {
            let t = truncate(&s, n);
            let kept = t.strip_suffix('…').unwrap_or(&t);
            proptest::prop_assert!(s.starts_with(kept));
            proptest::prop_assert!(kept.chars().count() <= n);
            proptest::prop_assert_eq!(t == s, s.chars().count() <= n);
        }

        /// Slugs are lower-case ASCII letters, digits and inner dashes, and stable.
        #[test]
        fn slugs_are_ascii(s in "\\PC{0,40}") {
            let g = slug(&s);
            proptest::prop_assert!(g.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'));
            proptest::prop_assert!(!g.starts_with('-') && !g.ends_with('-'));
            proptest::prop_assert_eq!(slug(&g), g.clone());
        }
    }
}
