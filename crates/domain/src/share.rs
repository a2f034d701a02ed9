//! Share links for a report (docs/PRODUCT.md §2.6.4: Twitter, LinkedIn, Facebook, mail, copy).

use url::form_urlencoded::byte_serialize;

use crate::report::{ShareInputs, ShareLinks};

fn enc(s: &str) -> String {
    byte_serialize(s.as_bytes())
        .collect::<String>()
        .replace('+', "%20")
}

/// The link to share: the report URL, with `ref={affiliateCode}` appended when the sharer has an
/// affiliate code. A referral link, when given, wins over both.
fn shared_url(inputs: &ShareInputs) -> String {
    if let Some(link) = inputs
        .referral_link
        .as_deref()
        .filter(|l| !l.trim().is_empty())
    {
        return link.to_owned();
    }
    match inputs
        .affiliate_code
        .as_deref()
        .filter(|c| !c.trim().is_empty())
    {
        Some(code) => {
            let sep = if inputs.report_url.contains('?') {
                '&'
            } else {
                '?'
            };
            format!("{}{sep}ref={}", inputs.report_url, enc(code))
        }
        None => inputs.report_url.clone(),
    }
}

/// Builds the share text (the score out of 100) and every share target.
pub fn share_links(inputs: &ShareInputs) -> ShareLinks {
    let score = inputs.overall_score.min(100);
    let by = match inputs.brand_name.as_deref().map(str::trim) {
        Some(name) if !name.is_empty() => format!("a website analysis by {name}"),
        _ => "a Sitelens website analysis".to_owned(),
    };
    let text = format!(
        "{} scored {score}/100 in {by}. See the full report:",
        inputs.website_url
    );
    let url = shared_url(inputs);
    let subject = format!("Website analysis of {}: {score}/100", inputs.website_url);
    ShareLinks {
        twitter: format!(
            "https://twitter.com/intent/tweet?text={}&url={}",
            enc(&text),
            enc(&url)
        ),
        linkedin: format!(
            "https://www.linkedin.com/sharing/share-offsite/?url={}",
            enc(&url)
        ),
        facebook: format!("https://www.facebook.com/sharer/sharer.php?u={}", enc(&url)),
        email: format!(
            "mailto:?subject={}&body={}",
            enc(&subject),
            enc(&format!("{text} {url}"))
        ),
        text,
        url,
    }
}
