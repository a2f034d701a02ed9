//! Serving the web app: hashed assets with immutable caching, every route of SPEC.md's route
//! table with its own head (title, description, canonical and social tags rendered here, so
//! crawlers that run no JavaScript see them), HTTP 404 for unknown paths, and our own
//! `robots.txt` and `sitemap.xml`.

use std::path::{Path, PathBuf};

use axum::extract::{Query, State};
use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::response::{Html, IntoResponse, Response};
use serde::Deserialize;

use crate::state::AppState;

/// The built web app.
pub struct WebApp {
    dir: PathBuf,
    index: Option<String>,
}

impl WebApp {
    /// Loads `index.html` from `dir` (the app may be missing: then pages say how to build it).
    pub fn load(dir: &Path) -> Self {
        let index = std::fs::read_to_string(dir.join("index.html")).ok();
        if index.is_none() {
            tracing::warn!(dir = %dir.display(), "web app not built: run `just web`");
        }
        Self {
            dir: dir.to_owned(),
            index,
        }
    }

    /// The folder of the built app.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

/// A page's head.
struct Head {
    title: String,
    description: String,
    index: bool,
}

/// What a route is, by path. `None`: not a route of the app (HTTP 404). Routes of the table
/// whose screens later issues build are treated as unknown until then.
fn route_head(path: &str) -> Option<Head> {
    let page = |title: &str, description: &str| {
        Some(Head {
            title: format!("{title} | Sitelens"),
            description: description.to_owned(),
            index: true,
        })
    };
    let hidden = |title: &str, description: &str| {
        Some(Head {
            title: format!("{title} | Sitelens"),
            description: description.to_owned(),
            index: false,
        })
    };
    let path = path.trim_end_matches('/');
    match path {
        "" | "/home" => Some(Head {
            title: "Sitelens — AI-powered website analysis and SEO audit".to_owned(),
            description: "Analyse any website in seconds: an overall score, SEO, design & UX, technical structure, performance and a prioritised action plan.".to_owned(),
            index: path.is_empty(),
        }),
        "/pricing" => page("Pricing", "Free basic reports, credits from $5, credit packs and plans for businesses and agencies."),
        "/features" => page("Features", "What a Sitelens report checks: SEO, design and UX, technical structure, performance and an action plan."),
        "/about" => page("About", "Why we build Sitelens: honest, measured website analysis you can host yourself."),
        "/faq" => page("FAQ", "Answers about Sitelens reports, credits, plans, privacy and self-hosting."),
        "/contact" => page("Contact", "Questions, feedback or a custom plan: write to the Sitelens team."),
        "/coming-soon" => page("Advanced Website Analysis Platform", "Intelligent analysis, performance insights, SEO analysis and design evaluation."),
        "/privacy" => page("Privacy Policy", "What Sitelens stores, why, and for how long."),
        "/terms" => page("Terms of Service", "The terms for using Sitelens."),
        "/cookies" => page("Cookie Policy", "The cookies and local storage Sitelens uses."),
        "/analyzing" => hidden("Analyzing your website", "Your website is being analysed."),
        "/results" => hidden("Website Analysis Results", "A Sitelens website analysis report."),
        p if p.starts_with("/results/") && p.matches('/').count() == 2 => {
            hidden("Website Analysis Results", "A Sitelens website analysis report.")
        }
        _ => None,
    }
}

fn escape(s: &str) -> String {
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
         <meta name=\"twitter:title\" content=\"{t}\" />\n    <meta name=\"twitter:description\" content=\"{d}\" />\n  "
    );
    match html.find("</head>") {
        Some(at) => html.insert_str(at, &tags),
        None => html.insert_str(0, &tags),
    }
    html
}

/// Query of the results route.
#[derive(Debug, Deserialize)]
pub struct ResultsQuery {
    id: Option<String>,
}

/// Fills the results page's head with the report's scores, when the report exists.
async fn results_head(state: &AppState, id: &str, head: &mut Head) {
    let Ok(id) = uuid::Uuid::parse_str(id) else {
        return;
    };
    if let Ok(row) = store::results::get_result(&state.db, id).await {
        head.title = format!("{} scored {}/100 | Sitelens", row.url, row.overall_score);
        head.description = format!(
            "Website analysis of {}: overall {}/100, SEO {}/100, performance {}/100.",
            row.url, row.overall_score, row.seo_score, row.performance_score
        );
    }
}

/// Serves a route of the app, a static file of the build, or the app with HTTP 404.
pub async fn spa(
    State(state): State<AppState>,
    uri: Uri,
    Query(q): Query<ResultsQuery>,
) -> Response {
    let path = uri.path();
    // A file of the build (favicon, manifest, images) is served as it is.
    if path.len() > 1 && !path.contains("..") {
        let file = state.web.dir().join(path.trim_start_matches('/'));
        if file.is_file() {
            let mut res = tower_http::services::ServeFile::new(file)
                .try_call(axum::http::Request::new(axum::body::Body::empty()))
                .await
                .map(IntoResponse::into_response)
                .unwrap_or_else(|_| StatusCode::NOT_FOUND.into_response());
            res.headers_mut().insert(
                header::CACHE_CONTROL,
                HeaderValue::from_static("public, max-age=3600"),
            );
            return res;
        }
    }
    let Some(index) = state.web.index.as_deref() else {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            Html("<!doctype html><title>Sitelens</title><p>The web app is not built yet: run <code>just web</code>, then reload.</p>"),
        )
            .into_response();
    };
    let (status, mut head) = match route_head(path) {
        Some(head) => (StatusCode::OK, head),
        None => (
            StatusCode::NOT_FOUND,
            Head {
                title: "Page Not Found | Sitelens".to_owned(),
                description: "Oops! Page Not Found".to_owned(),
                index: false,
            },
        ),
    };
    let result_id = path
        .strip_prefix("/results/")
        .map(str::to_owned)
        .or_else(|| {
            (path.trim_end_matches('/') == "/results")
                .then(|| q.id.clone())
                .flatten()
        });
    if let Some(id) = result_id {
        results_head(&state, &id, &mut head).await;
    }
    let canonical = format!(
        "{}{}",
        state.config.public_url,
        if path == "/home" { "/" } else { path }
    );
    let html = render(index, &head, &canonical);
    (
        status,
        [(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"))],
        Html(html),
    )
        .into_response()
}

/// Our own robots.txt.
pub async fn robots(State(state): State<AppState>) -> impl IntoResponse {
    let body = format!(
        "User-agent: *\nDisallow: /api/\nDisallow: /results\nDisallow: /analyzing\nDisallow: /admin\nDisallow: /dashboard\nAllow: /\n\nSitemap: {}/sitemap.xml\n",
        state.config.public_url
    );
    ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], body)
}

/// Public pages listed in our sitemap.
const SITEMAP: &[&str] = &[
    "/",
    "/pricing",
    "/features",
    "/about",
    "/faq",
    "/contact",
    "/privacy",
    "/terms",
    "/cookies",
];

/// Our own sitemap.xml.
pub async fn sitemap(State(state): State<AppState>) -> impl IntoResponse {
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for p in SITEMAP {
        xml.push_str(&format!(
            "  <url><loc>{}{}</loc></url>\n",
            escape(&state.config.public_url),
            p
        ));
    }
    xml.push_str("</urlset>\n");
    (
        [(header::CONTENT_TYPE, "application/xml; charset=utf-8")],
        xml,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_replaces_the_template_title() {
        let index = "<html><head><title>Old</title><meta name=\"description\" content=\"old\" /></head><body></body></html>";
        let head = route_head("/pricing").expect("pricing is a route");
        let html = render(index, &head, "https://example.com/pricing");
        assert!(!html.contains("<title>Old</title>"));
        assert!(!html.contains("content=\"old\""));
        assert!(html.contains("<title>Pricing | Sitelens</title>"));
        assert!(html.contains("<link rel=\"canonical\" href=\"https://example.com/pricing\" />"));
    }

    #[test]
    fn unknown_and_unbuilt_routes_are_not_found() {
        assert!(route_head("/nope").is_none());
        assert!(route_head("/dashboard").is_none());
        assert!(route_head("/results/abc").is_some_and(|h| !h.index));
    }
}
