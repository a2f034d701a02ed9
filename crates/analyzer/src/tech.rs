//! Technology detection: CMSs, frameworks, analytics, CDNs, servers and libraries, each with
//! the evidence it was recognised by (a header, a generator tag, a script address, a marker in
//! the HTML).

use reqwest::header::HeaderMap;
use serde::Serialize;

use crate::page::PageDoc;

/// A detected technology.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Technology {
    /// Product name, for example "WordPress".
    pub name: String,
    /// Category, for example "CMS".
    pub category: &'static str,
    /// What gave it away.
    pub evidence: String,
    /// Version, when the evidence states one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
}

/// Where a signature looks.
enum Place {
    /// In the raw HTML (lower-case comparison).
    Html(&'static str),
    /// In a script or stylesheet address.
    Asset(&'static str),
    /// In `<meta name=generator>` (prefix, case-insensitive).
    Generator(&'static str),
    /// A response header exists (lower-case name), optionally containing a value.
    Header(&'static str, &'static str),
    /// A cookie name prefix in Set-Cookie.
    Cookie(&'static str),
}

use Place::*;

const SIGNATURES: &[(&str, &str, Place)] = &[
    // CMS
    ("WordPress", "CMS", Generator("wordpress")),
    ("WordPress", "CMS", Html("/wp-content/")),
    ("WordPress", "CMS", Html("/wp-includes/")),
    ("WordPress", "CMS", Header("link", "api.w.org")),
    ("Shopify", "CMS", Html("cdn.shopify.com")),
    ("Shopify", "CMS", Header("x-shopid", "")),
    ("Shopify", "CMS", Html("shopify.theme")),
    ("Wix", "CMS", Generator("wix.com")),
    ("Wix", "CMS", Html("static.wixstatic.com")),
    ("Wix", "CMS", Header("x-wix-request-id", "")),
    ("Squarespace", "CMS", Html("static1.squarespace.com")),
    ("Squarespace", "CMS", Generator("squarespace")),
    ("Drupal", "CMS", Generator("drupal")),
    ("Drupal", "CMS", Header("x-drupal-cache", "")),
    ("Drupal", "CMS", Html("drupal-settings-json")),
    ("Drupal", "CMS", Html("/sites/default/files/")),
    ("Joomla", "CMS", Generator("joomla")),
    ("Joomla", "CMS", Html("/media/jui/")),
    ("Ghost", "CMS", Generator("ghost")),
    ("Ghost", "CMS", Html("ghost-portal")),
    ("Webflow", "CMS", Generator("webflow")),
    ("Hugo", "Static site generator", Generator("hugo")),
    ("Jekyll", "Static site generator", Generator("jekyll")),
    // Frameworks
    ("Next.js", "JavaScript framework", Html("__next_data__")),
    ("Next.js", "JavaScript framework", Asset("/_next/")),
    (
        "Next.js",
        "JavaScript framework",
        Header("x-powered-by", "next.js"),
    ),
    ("Nuxt", "JavaScript framework", Html("window.__nuxt__")),
    ("Nuxt", "JavaScript framework", Asset("/_nuxt/")),
    ("Gatsby", "JavaScript framework", Html("id=\"___gatsby\"")),
    ("Gatsby", "JavaScript framework", Generator("gatsby")),
    ("React", "JavaScript framework", Html("data-reactroot")),
    (
        "React",
        "JavaScript framework",
        Asset("react.production.min.js"),
    ),
    ("React", "JavaScript framework", Asset("react-dom")),
    ("Vue.js", "JavaScript framework", Html("data-v-app")),
    ("Vue.js", "JavaScript framework", Asset("vue.global")),
    ("Vue.js", "JavaScript framework", Asset("/vue@")),
    ("Angular", "JavaScript framework", Html("ng-version=")),
    ("AngularJS", "JavaScript framework", Html("ng-app")),
    ("Svelte", "JavaScript framework", Html("class=\"svelte-")),
    ("SvelteKit", "JavaScript framework", Html("__sveltekit")),
    ("Astro", "JavaScript framework", Generator("astro")),
    ("Astro", "JavaScript framework", Html("astro-island")),
    // Analytics and tag managers
    (
        "Google Tag Manager",
        "Tag manager",
        Html("googletagmanager.com/gtm.js"),
    ),
    (
        "Google Analytics",
        "Analytics",
        Html("googletagmanager.com/gtag/js"),
    ),
    (
        "Google Analytics",
        "Analytics",
        Html("google-analytics.com/analytics.js"),
    ),
    ("Plausible", "Analytics", Html("plausible.io/js")),
    ("Matomo", "Analytics", Html("matomo.js")),
    ("Matomo", "Analytics", Html("piwik.js")),
    ("Fathom", "Analytics", Html("cdn.usefathom.com")),
    ("Hotjar", "Analytics", Html("static.hotjar.com")),
    ("Meta Pixel", "Analytics", Html("connect.facebook.net")),
    ("Segment", "Analytics", Html("cdn.segment.com")),
    ("Microsoft Clarity", "Analytics", Html("clarity.ms/tag")),
    // CDNs
    ("Cloudflare", "CDN", Header("cf-ray", "")),
    ("Cloudflare", "CDN", Header("server", "cloudflare")),
    ("Amazon CloudFront", "CDN", Header("x-amz-cf-id", "")),
    ("Fastly", "CDN", Header("x-served-by", "cache-")),
    ("Fastly", "CDN", Header("x-fastly-request-id", "")),
    ("Akamai", "CDN", Header("x-akamai-transformed", "")),
    ("Vercel", "Hosting", Header("x-vercel-id", "")),
    ("Netlify", "Hosting", Header("x-nf-request-id", "")),
    ("Netlify", "Hosting", Header("server", "netlify")),
    ("GitHub Pages", "Hosting", Header("server", "github.com")),
    ("jsDelivr", "CDN", Asset("cdn.jsdelivr.net")),
    ("cdnjs", "CDN", Asset("cdnjs.cloudflare.com")),
    ("unpkg", "CDN", Asset("unpkg.com")),
    // Servers and languages
    ("Nginx", "Web server", Header("server", "nginx")),
    ("Apache", "Web server", Header("server", "apache")),
    ("LiteSpeed", "Web server", Header("server", "litespeed")),
    ("Microsoft IIS", "Web server", Header("server", "iis")),
    ("Caddy", "Web server", Header("server", "caddy")),
    ("PHP", "Language", Header("x-powered-by", "php")),
    ("PHP", "Language", Cookie("phpsessid")),
    ("ASP.NET", "Language", Header("x-powered-by", "asp.net")),
    (
        "Express",
        "Web framework",
        Header("x-powered-by", "express"),
    ),
    // Libraries
    ("jQuery", "JavaScript library", Asset("jquery")),
    ("Bootstrap", "UI framework", Asset("bootstrap")),
    ("Tailwind CSS", "UI framework", Asset("tailwind")),
    ("Font Awesome", "Font library", Asset("font-awesome")),
    ("Font Awesome", "Font library", Asset("fontawesome")),
    (
        "Google Fonts",
        "Font library",
        Asset("fonts.googleapis.com"),
    ),
    ("Alpine.js", "JavaScript library", Html("x-data=")),
    ("htmx", "JavaScript library", Asset("htmx")),
    ("Lodash", "JavaScript library", Asset("lodash")),
    ("Stripe", "Payments", Asset("js.stripe.com")),
    ("reCAPTCHA", "Security", Asset("recaptcha")),
];

/// Detect technologies from the page and its response headers.
pub fn detect(html: &str, doc: &PageDoc, headers: &HeaderMap) -> Vec<Technology> {
    let lower = html.to_ascii_lowercase();
    let assets: Vec<String> = doc
        .scripts
        .iter()
        .filter_map(|s| s.src.clone())
        .chain(doc.stylesheets.iter().map(|s| s.href.clone()))
        .map(|s| s.to_ascii_lowercase())
        .collect();
    let header = |name: &str| -> Vec<String> {
        headers
            .get_all(name)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .map(str::to_owned)
            .collect()
    };
    let mut found: Vec<Technology> = Vec::new();
    for (name, category, place) in SIGNATURES {
        if found.iter().any(|t| t.name == *name) {
            continue;
        }
        let hit: Option<(String, Option<String>)> = match place {
            Html(needle) => lower
                .contains(needle)
                .then(|| (format!("the HTML contains \"{needle}\""), None)),
            Asset(needle) => assets
                .iter()
                .find(|a| a.contains(needle))
                .map(|a| (format!("loads {a}"), None)),
            Generator(prefix) => doc
                .generators
                .iter()
                .find(|g| g.to_ascii_lowercase().starts_with(prefix))
                .map(|g| {
                    let version = g
                        .split_whitespace()
                        .nth(1)
                        .filter(|v| v.chars().next().is_some_and(|c| c.is_ascii_digit()))
                        .map(str::to_owned);
                    (
                        format!("<meta name=\"generator\" content=\"{g}\">"),
                        version,
                    )
                }),
            Header(h, needle) => header(h)
                .into_iter()
                .find(|v| v.to_ascii_lowercase().contains(needle))
                .map(|v| {
                    let version = v
                        .split('/')
                        .nth(1)
                        .map(|x| x.split_whitespace().next().unwrap_or("").to_owned())
                        .filter(|x| x.chars().next().is_some_and(|c| c.is_ascii_digit()));
                    (format!("response header {h}: {v}"), version)
                }),
            Cookie(prefix) => header("set-cookie")
                .into_iter()
                .find(|c| c.to_ascii_lowercase().starts_with(prefix))
                .map(|_| (format!("sets the {prefix} cookie"), None)),
        };
        if let Some((evidence, version)) = hit {
            found.push(Technology {
                name: (*name).to_owned(),
                category,
                evidence,
                version,
            });
        }
    }
    found
}
