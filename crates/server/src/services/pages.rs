//! The web app's pages: every route of docs/PRODUCT.md §2.1 gets its own head (title,
//! description, canonical and social tags rendered here, so crawlers that run no JavaScript see
//! them), unknown paths get the app's not-found page, and our own `robots.txt` and
//! `sitemap.xml`. No HTTP types here: `routes::pages` serves what this module renders.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use domain::report::AnalysisReport;
use serde::Deserialize;
use store::DatabaseConnection;

use crate::services::content::{Content, ContentPage, Lookup};
use crate::services::report_page::{self, View};

/// A public page's title and description, as the web app defines them in
/// `src/route-meta.json` (copied to the build), so both sides show the same head.
#[derive(Debug, Clone, Deserialize)]
struct PageMeta {
    title: String,
    description: String,
}

/// The built web app.
pub struct WebApp {
    dir: PathBuf,
    index: Option<String>,
    /// `index.html` without the wasm preload ([`without_wasm_preload`]): the fallback template of
    /// pages with a first screen of their own, and the branded reports' template.
    screen_index: Option<String>,
    /// `home.html`: the app with the home hero pre-rendered, served for `/` and `/home`.
    home: Option<String>,
    /// `page.html`: the app with the shared header and footer pre-rendered around an empty
    /// `<main>`, the template of the content pages (their body goes in at `BODY_MARKER`).
    shell: Option<String>,
    /// `pre/<name>.html`: the app's pages that need no request, rendered whole at build time
    /// (`web/src/prerender.tsx`), by route (`/pricing`).
    prerendered: HashMap<String, String>,
    meta: HashMap<String, PageMeta>,
    content: Content,
    /// The sample report of `/demo` (`services::demo`).
    demo: Option<AnalysisReport>,
}

/// Which report a results page shows. Whether it shows the paid view is the stored report's
/// (`AnalysisReport::paid`), never the address's `paid` and `type` (docs/PRODUCT.md §6.4).
#[derive(Debug, Clone, Copy, Default)]
pub struct ReportQuery<'a> {
    /// `?id=` of `/results`.
    pub id: Option<&'a str>,
}

/// Where `page.html` takes a content page's body.
const BODY_MARKER: &str = "<!--sitelens-body-->";

impl WebApp {
    /// Loads `index.html`, `home.html`, `page.html` and `route-meta.json` from `dir` (the app
    /// may be missing: then pages say how to build it), and the embedded content.
    pub async fn load(dir: &Path) -> Self {
        let read = |name: &str| tokio::fs::read_to_string(dir.join(name));
        let index = read("index.html").await.ok();
        if index.is_none() {
            tracing::warn!(dir = %dir.display(), "web app not built: run `just web`");
        }
        let meta = read("route-meta.json")
            .await
            .ok()
            .and_then(|text| match serde_json::from_str(&text) {
                Ok(m) => Some(m),
                Err(e) => {
                    tracing::warn!(error = %e, "route-meta.json is unreadable; default heads are used");
                    None
                }
            })
            .unwrap_or_default();
        let content = Content::embedded().unwrap_or_else(|e| {
            tracing::error!(error = %e, "content is unusable; its pages are not served");
            Content::default()
        });
        let mut prerendered = HashMap::new();
        if let Ok(mut files) = tokio::fs::read_dir(dir.join("pre")).await {
            while let Ok(Some(f)) = files.next_entry().await {
                let name = f.file_name().to_string_lossy().into_owned();
                if let Some(route) = name.strip_suffix(".html")
                    && let Ok(html) = tokio::fs::read_to_string(f.path()).await
                {
                    prerendered.insert(format!("/{route}"), without_wasm_preload(&html));
                }
            }
        }
        let demo = crate::services::demo::report()
            .map_err(|e| tracing::error!(error = %e, "the sample report is unreadable; /demo is not served"))
            .ok();
        Self {
            dir: dir.to_owned(),
            screen_index: index.as_deref().map(without_wasm_preload),
            index,
            home: read("home.html")
                .await
                .ok()
                .map(|h| without_wasm_preload(&h)),
            shell: read("page.html")
                .await
                .ok()
                .map(|h| without_wasm_preload(&h)),
            prerendered,
            meta,
            content,
            demo,
        }
    }

    /// The site's articles and pages.
    pub fn content(&self) -> &Content {
        &self.content
    }

    /// The folder of the built app.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The page for `path` (with the results route's query and the knowledge base's `?q=`), or
    /// `None` when the app is not built.
    pub async fn page(
        &self,
        db: &DatabaseConnection,
        public_url: &str,
        path: &str,
        query: ReportQuery<'_>,
        search: Option<&str>,
    ) -> Option<Page> {
        let index = self.index.as_deref()?;
        let screen_index = self.screen_index.as_deref().unwrap_or(index);
        if path.trim_end_matches('/') == "/demo"
            && let (Some(report), Some(head)) = (&self.demo, route_head(self, "/demo"))
        {
            return Some(Page {
                found: true,
                html: self.demo_page(screen_index, report, head, public_url),
            });
        }
        let content = self.content.page(path, search);
        if let Lookup::Page(page) = content {
            return Some(Page {
                found: true,
                html: self.content_page(screen_index, &page, public_url, path),
            });
        }
        let route = match content {
            Lookup::NotFound => None,
            _ => route_head(self, path),
        };
        let (found, mut head) = match route {
            Some(head) => (true, head),
            None => (
                false,
                Head {
                    title: "Page Not Found | Sitelens".to_owned(),
                    description: "Oops! Page Not Found".to_owned(),
                    index: false,
                    extra: String::new(),
                },
            ),
        };
        let result_id = path.strip_prefix("/results/").or_else(|| {
            (path.trim_end_matches('/') == "/results")
                .then_some(query.id)
                .flatten()
        });
        let canonical = format!("{public_url}{}", if path == "/home" { "/" } else { path });
        if let Some(report) = match result_id {
            Some(id) => find_report(db, id).await,
            None => None,
        } {
            results_head(&report, &mut head);
            // Custom domains (issue 15 item 3): a report branded by an agency whose custom
            // domain is verified is canonical on that domain, wherever it is read.
            let canonical = match uuid::Uuid::parse_str(&report.id) {
                Ok(id) => crate::services::custom_domains::report_public_url(db, id)
                    .await
                    .unwrap_or(canonical),
                Err(_) => canonical,
            };
            let view = View {
                paid: report.paid,
                sample: false,
            };
            let body = report_page::render(&report, view);
            let html = match &report.branding {
                Some(brand) => branded_shell(screen_index, brand, &body, &head, &canonical),
                None => self.report_shell(screen_index, &body, &head, &canonical),
            };
            return Some(Page { found, html });
        }
        let is_home = matches!(path.trim_end_matches('/'), "" | "/home");
        let template = match (&self.home, is_home) {
            (Some(home), true) => home.as_str(),
            _ => self
                .prerendered
                .get(path.trim_end_matches('/'))
                .filter(|_| found)
                .map_or(index, String::as_str),
        };
        Some(Page {
            found,
            html: render(template, &head, &canonical),
        })
    }

    /// A report's page: the shell with the header and footer (or, before the app is rebuilt, the
    /// bare app) with the report's first screen in `<main>` (`services::report_page`), kept by
    /// the app until its own report is ready. Without the wasm preload, like every page with a
    /// first screen of its own ([`without_wasm_preload`]).
    fn report_shell(&self, index: &str, body: &str, head: &Head, canonical: &str) -> String {
        let body = format!("<div data-server-report=\"\">{body}</div>");
        let html = match self.shell.as_deref().filter(|s| s.contains(BODY_MARKER)) {
            Some(shell) => shell.replacen(BODY_MARKER, &body, 1),
            None => index.replacen(
                "<div id=\"root\"></div>",
                &format!("<div id=\"root\"><main id=\"main\">{body}</main></div>"),
                1,
            ),
        };
        render(&html, head, canonical)
    }

    /// `/demo`: the sample report with its notice, indexed, with WebPage and BreadcrumbList
    /// structured data.
    fn demo_page(
        &self,
        index: &str,
        report: &AnalysisReport,
        mut head: Head,
        public_url: &str,
    ) -> String {
        let canonical = format!("{public_url}/demo");
        let data = serde_json::json!({
            "@context": "https://schema.org",
            "@graph": [
                {
                    "@type": "WebPage",
                    "@id": canonical,
                    "url": canonical,
                    "name": head.title,
                    "description": head.description,
                    "isPartOf": {"@type": "WebSite", "name": "Sitelens", "url": format!("{public_url}/")},
                    "primaryImageOfPage": {"@type": "ImageObject", "url": format!("{public_url}{}desktop.png", crate::services::demo::SCREENSHOT_PREFIX), "width": 1280, "height": 800},
                    "dateModified": report.created_at,
                },
                {
                    "@type": "BreadcrumbList",
                    "itemListElement": [
                        {"@type": "ListItem", "position": 1, "name": "Home", "item": format!("{public_url}/")},
                        {"@type": "ListItem", "position": 2, "name": "Sample report", "item": canonical},
                    ],
                },
            ],
        });
        // `<` never appears raw inside the script, so no text can close it.
        let data = data.to_string().replace('<', "\\u003c");
        head.extra = format!(
            "<script type=\"application/ld+json\" id=\"structured-data\">{data}</script>\n    "
        );
        let view = View {
            paid: true,
            sample: true,
        };
        self.report_shell(index, &report_page::render(report, view), &head, &canonical)
    }

    /// A content page: the shell with the header and footer (or, before the app is rebuilt,
    /// the bare app) with the body in `<main>`, its head and its structured data.
    fn content_page(
        &self,
        index: &str,
        page: &ContentPage,
        public_url: &str,
        path: &str,
    ) -> String {
        let canonical = format!("{public_url}{}", path.trim_end_matches('/'));
        let mut graph = page.structured_data.clone();
        for v in &mut graph {
            crate::services::content::absolutize(v, public_url);
        }
        let data = serde_json::json!({"@context": "https://schema.org", "@graph": graph});
        // `<` never appears raw inside the script, so no text can close it.
        let data = data.to_string().replace('<', "\\u003c");
        let mut extra = format!(
            "<script type=\"application/ld+json\" id=\"structured-data\">{data}</script>\n    "
        );
        if let Some(date) = page.published {
            extra.push_str(&format!(
                "<meta property=\"article:published_time\" content=\"{date}\" />\n    "
            ));
        }
        if page.feed {
            extra.push_str(&format!(
                "<link rel=\"alternate\" type=\"application/atom+xml\" title=\"Sitelens blog\" href=\"{}/blog/feed.xml\" />\n    ",
                escape(public_url)
            ));
        }
        let head = Head {
            title: full_title(&page.title),
            description: page.description.clone(),
            index: page.index,
            extra,
        };
        let body = format!("<div data-server-body=\"\">{}</div>", page.body);
        let html = match self.shell.as_deref().filter(|s| s.contains(BODY_MARKER)) {
            Some(shell) => shell.replacen(BODY_MARKER, &body, 1),
            None => index.replacen(
                "<div id=\"root\"></div>",
                &format!("<div id=\"root\"><main id=\"main\">{body}</main></div>"),
                1,
            ),
        };
        render(&html, &head, &canonical).replacen(
            "<meta property=\"og:type\" content=\"website\" />",
            &format!("<meta property=\"og:type\" content=\"{}\" />", page.og_type),
            1,
        )
    }
}

/// A rendered page of the app.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    /// Whether the path is a route of the app (otherwise the app shows its not-found page and
    /// the answer is HTTP 404).
    pub found: bool,
    /// The app's HTML with the route's head.
    pub html: String,
}

/// The template without its preload of the domain rules' WebAssembly, for every page whose first
/// screen comes from the server (the home hero, prerendered pages, content pages, reports): that
/// screen needs no rule, so a slow connection should not spend its first seconds on 200 KB of
/// WebAssembly in competition with the stylesheet the first paint waits for. Lighthouse counts
/// every non-image download that finishes before the largest paint as part of it: with the
/// preload, its simulated mobile LCP was a second later than its FCP on home, pricing, tools and
/// results. The app fetches the wasm itself once it runs, after the first paint; only the bare
/// app template (pages the app renders from nothing) keeps the preload.
fn without_wasm_preload(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(at) = rest.find("<link rel=\"preload\"") {
        let Some(len) = rest[at..].find('>') else {
            break;
        };
        out.push_str(&rest[..at]);
        let link = &rest[at..=at + len];
        if !link.contains(".wasm") {
            out.push_str(link);
        }
        rest = &rest[at + len + 1..];
    }
    out.push_str(rest);
    out
}

/// Paths that are files of the build but never served as they are: the templates this module
/// renders and hidden folders (the bundler's `.vite` manifest).
pub fn is_internal_file(path: &str) -> bool {
    matches!(
        path,
        "/index.html" | "/home.html" | "/page.html" | "/route-meta.json"
    ) || path.starts_with("/pre/")
        || path.split('/').any(|seg| seg.starts_with('.'))
}

/// A page's head.
struct Head {
    title: String,
    description: String,
    index: bool,
    /// More tags for the head (structured data, feed link), already HTML.
    extra: String,
}

/// Titles and descriptions of the routes the app does not list in its route-meta.json.
const DEFAULT_DESCRIPTION: &str = "Analyse any website in seconds: SEO, design and UX, technical structure and performance scores with a prioritised action plan.";

pub(crate) fn full_title(title: &str) -> String {
    if title.contains("Sitelens") {
        title.to_owned()
    } else {
        format!("{title} | Sitelens")
    }
}

/// What a route is, by path. `None`: not a route of the app (HTTP 404). Routes of
/// docs/PRODUCT.md §2.1 whose screens are not built yet are treated as unknown until they are.
fn route_head(web: &WebApp, path: &str) -> Option<Head> {
    let path = match path.trim_end_matches('/') {
        "" | "/home" => "/",
        p => p,
    };
    if let Some(m) = web.meta.get(path) {
        return Some(Head {
            title: full_title(&m.title),
            description: m.description.clone(),
            index: true,
            extra: String::new(),
        });
    }
    let hidden = |title: &str, description: &str| {
        Some(Head {
            title: full_title(title),
            description: description.to_owned(),
            index: false,
            extra: String::new(),
        })
    };
    match path {
        "/" => Some(Head {
            title: "Sitelens — website analysis and SEO audit".to_owned(),
            description: DEFAULT_DESCRIPTION.to_owned(),
            index: true,
            extra: String::new(),
        }),
        "/analyzing" => hidden("Analyzing your website", "Your website is being analysed."),
        // docs/PRODUCT.md §2.2: these only send the browser on to the sign-in service.
        "/sign-in" => hidden("Sign in", "Redirecting to Sign In"),
        "/sign-up" => hidden("Sign up", "Redirecting to Sign Up"),
        "/results" => hidden(
            "Website Analysis Results",
            "A Sitelens website analysis report.",
        ),
        "/dashboard" => hidden("Dashboard", "Your Sitelens reports and credits."),
        // docs/PRODUCT.md §6.6: the admin area (the app shows the not-found page to anyone
        // who is not an administrator).
        "/admin" | "/admin-dashboard" => hidden("Admin", "The Sitelens admin area."),
        // Issue 16: the affiliate's own pages (signed in).
        "/affiliate-signup" => hidden(
            "Become a Sitelens affiliate",
            "Apply to the Sitelens affiliate programme.",
        ),
        "/affiliate-dashboard" => hidden("Affiliate dashboard", "Your Sitelens affiliate account."),
        "/marketing-materials" => hidden(
            "Marketing materials",
            "Banners and links for Sitelens affiliates.",
        ),
        // docs/PRODUCT.md §7.10: the checkout and payment pages (Stripe, or test payments).
        "/stripe-checkout"
        | "/checkout"
        | "/payment"
        | "/payment-success"
        | "/thank-you"
        | "/test-checkout"
        | "/test-credit-checkout"
        | "/test-checkout-flows" => hidden("Checkout", "Buy Sitelens credits or a plan."),
        "/accounts/sign-in"
        | "/accounts/sign-up"
        | "/accounts/forgot-password"
        | "/accounts/reset-password"
        | "/accounts/verify"
        | "/accounts/join"
        | "/accounts/settings" => hidden("Your account", "Sign in to your Sitelens account."),
        p if p.starts_with("/results/") && p.matches('/').count() == 2 => hidden(
            "Website Analysis Results",
            "A Sitelens website analysis report.",
        ),
        _ => None,
    }
}

pub(crate) fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Replaces the template's own title and description with the route's head.
fn render(index: &str, head: &Head, canonical: &str) -> String {
    let mut html = index.to_owned();
    if let (Some(a), Some(b)) = (html.find("<title>"), html.find("</title>")) {
        html.replace_range(a..b + "</title>".len(), "");
    }
    while let Some(a) = html.find("<meta name=\"description\"") {
        match html[a..].find('>') {
            Some(end) => html.replace_range(a..a + end + 1, ""),
            None => break,
        }
    }
    let (t, d, c) = (
        escape(&head.title),
        escape(&head.description),
        escape(canonical),
    );
    let robots = if head.index {
        "index, follow"
    } else {
        "noindex, nofollow"
    };
    let tags = format!(
        "<title>{t}</title>\n    <meta name=\"description\" content=\"{d}\" />\n    \
         <meta name=\"robots\" content=\"{robots}\" />\n    <link rel=\"canonical\" href=\"{c}\" />\n    \
         <meta property=\"og:type\" content=\"website\" />\n    <meta property=\"og:site_name\" content=\"Sitelens\" />\n    \
         <meta property=\"og:title\" content=\"{t}\" />\n    <meta property=\"og:description\" content=\"{d}\" />\n    \
         <meta property=\"og:url\" content=\"{c}\" />\n    <meta name=\"twitter:card\" content=\"summary_large_image\" />\n    \
         <meta name=\"twitter:title\" content=\"{t}\" />\n    <meta name=\"twitter:description\" content=\"{d}\" />\n    {extra}",
        extra = head.extra
    );
    match html.find("</head>") {
        Some(at) => html.insert_str(at, &tags),
        None => html.insert_str(0, &tags),
    }
    html
}

/// The stored report a results address names (by report or analysis id), if it is finished.
async fn find_report(db: &DatabaseConnection, id: &str) -> Option<AnalysisReport> {
    let id = uuid::Uuid::parse_str(id).ok()?;
    crate::services::reports::find_report(db, id).await.ok()
}

/// A branded report's page: the bare app with the agency's frame around the report's first
/// screen (`report_page::branded_frame`) instead of Sitelens' header and footer, and a head that
/// names the agency; the app keeps the frame (`BrandedFrame`) when it takes over.
fn branded_shell(
    index: &str,
    brand: &domain::whitelabel::Branding,
    body: &str,
    head: &Head,
    canonical: &str,
) -> String {
    let main = format!("<div data-server-report=\"\">{body}</div>");
    let html = index.replacen(
        "<div id=\"root\"></div>",
        &format!(
            "<div id=\"root\">{}</div>{}",
            report_page::branded_frame(brand, &main),
            report_page::brand_script(brand)
        ),
        1,
    );
    let mut html = render(&html, head, canonical).replacen(
        "<meta property=\"og:site_name\" content=\"Sitelens\" />",
        &format!(
            "<meta property=\"og:site_name\" content=\"{}\" />",
            escape(&brand.company_name)
        ),
        1,
    );
    // Nothing of Sitelens: the theme colour and icon are the agency's (its logo, or none), and
    // the no-script line names nobody.
    let icon = brand.logo_url.as_deref().map_or(String::new(), |logo| {
        format!(
            "<link rel=\"icon\" type=\"image/png\" href=\"{}\" />",
            escape(logo)
        )
    });
    for (from, to) in [
        (
            "<link rel=\"icon\" type=\"image/svg+xml\" href=\"/favicon.svg\" />".to_owned(),
            icon,
        ),
        (
            "<meta name=\"theme-color\" content=\"#4f46e5\" />".to_owned(),
            format!(
                "<meta name=\"theme-color\" content=\"{}\" />",
                escape(&brand.primary_color)
            ),
        ),
    ] {
        html = html.replacen(&from, &to, 1);
    }
    if let (Some(a), Some(b)) = (html.find("<noscript>"), html.find("</noscript>")) {
        html.replace_range(
            a..b,
            "<noscript>This report's interactive parts need JavaScript.",
        );
    }
    html
}

/// Fills the results page's head with the report's scores, under the agency's name when the
/// report wears its brand.
fn results_head(report: &AnalysisReport, head: &mut Head) {
    let (url, scores) = (&report.url, report.scores);
    let by = report
        .branding
        .as_ref()
        .map_or("Sitelens", |b| b.company_name.as_str());
    head.title = format!("{url} scored {}/100 | {by}", scores.overall);
    head.description = format!(
        "Website analysis of {url}: overall {}/100, SEO {}/100, performance {}/100.",
        scores.overall, scores.seo, scores.performance
    );
}

/// Our own robots.txt.
pub fn robots_txt(public_url: &str) -> String {
    format!(
        "User-agent: *\nDisallow: /api/\nDisallow: /results\nDisallow: /analyzing\nDisallow: /admin\nDisallow: /dashboard\nAllow: /\n\nSitemap: {}/sitemap.xml\n",
        public_url
    )
}

/// Public pages listed in our sitemap.
const SITEMAP: &[&str] = &[
    "/",
    "/demo",
    "/pricing",
    "/features",
    "/about",
    "/faq",
    "/contact",
    "/enterprise-contact",
    "/agency-contact",
    "/privacy",
    "/terms",
    "/cookies",
];

/// Our own sitemap.xml: the app's public pages and every content page.
pub fn sitemap_xml(public_url: &str, content: &Content) -> String {
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for p in SITEMAP {
        xml.push_str(&format!(
            "  <url><loc>{}{}</loc></url>\n",
            escape(public_url),
            p
        ));
    }
    for (p, changed) in content.sitemap() {
        let lastmod = changed.map_or(String::new(), |d| format!("<lastmod>{d}</lastmod>"));
        xml.push_str(&format!(
            "  <url><loc>{}{}</loc>{lastmod}</url>\n",
            escape(public_url),
            escape(&p)
        ));
    }
    xml.push_str("</urlset>\n");
    xml
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn head_replaces_the_template_title() {
        let index = "<html><head><title>Old</title><meta name=\"description\" content=\"old\" /></head><body></body></html>";
        let web = WebApp::load(Path::new("/nonexistent")).await;
        let head = route_head(&web, "/results").expect("results is a route");
        let html = render(index, &head, "https://example.com/pricing");
        assert!(!html.contains("<title>Old</title>"));
        assert!(!html.contains("content=\"old\""));
        assert!(html.contains("<title>Website Analysis Results | Sitelens</title>"));
        assert!(html.contains("noindex, nofollow"));
        assert!(html.contains("<link rel=\"canonical\" href=\"https://example.com/pricing\" />"));
    }

    #[test]
    fn first_screens_drop_only_the_wasm_preload() {
        let html = "<head><link rel=\"preload\" href=\"/assets/d.wasm\" as=\"fetch\"><link rel=\"stylesheet\" href=\"/a.css\"></head>";
        let out = without_wasm_preload(html);
        assert!(!out.contains(".wasm"));
        assert!(out.contains("<link rel=\"stylesheet\" href=\"/a.css\">"));
        // Wherever it stands among other preloads, which stay.
        let html = "<head><link rel=\"preload\" href=\"/f.woff2\" as=\"font\"><link rel=\"preload\" href=\"/d.wasm\" as=\"fetch\"></head>";
        assert_eq!(
            without_wasm_preload(html),
            "<head><link rel=\"preload\" href=\"/f.woff2\" as=\"font\"></head>"
        );
    }

    #[tokio::test]
    async fn unknown_and_unbuilt_routes_are_not_found() {
        let web = WebApp::load(Path::new("/nonexistent")).await;
        assert!(route_head(&web, "/nope").is_none());
        assert!(route_head(&web, "/dashboard").is_some_and(|h| !h.index));
        assert!(route_head(&web, "/accounts/sign-in").is_some_and(|h| !h.index));
        assert!(route_head(&web, "/accounts/nope").is_none());
        assert!(route_head(&web, "/results/abc").is_some_and(|h| !h.index));
        assert!(route_head(&web, "/home").is_some_and(|h| h.index));
    }
}
