//! Serving the web app: hashed assets with immutable caching, every route of SPEC.md's route
//! table with its own head (title, description, canonical and social tags rendered here, so
//! crawlers that run no JavaScript see them), HTTP 404 for unknown paths, and our own
//! `robots.txt` and `sitemap.xml`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use axum::extract::{Query, State};
use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::response::{Html, IntoResponse, Response};
use serde::Deserialize;

use crate::state::AppState;

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
    /// `home.html`: the app with the home hero pre-rendered, served for `/` and `/home`.
    home: Option<String>,
    meta: HashMap<String, PageMeta>,
}

impl WebApp {
    /// Loads `index.html`, `home.html` and `route-meta.json` from `dir` (the app may be
    /// missing: then pages say how to build it).
    pub fn load(dir: &Path) -> Self {
        let index = std::fs::read_to_string(dir.join("index.html")).ok();
        if index.is_none() {
            tracing::warn!(dir = %dir.display(), "web app not built: run `just web`");
        }
        let meta = std::fs::read_to_string(dir.join("route-meta.json"))
            .ok()
            .and_then(|text| match serde_json::from_str(&text) {
                Ok(m) => Some(m),
                Err(e) => {
                    tracing::warn!(error = %e, "route-meta.json is unreadable; default heads are used");
                    None
                }
            })
            .unwrap_or_default();
        Self {
            dir: dir.to_owned(),
            index,
            home: std::fs::read_to_string(dir.join("home.html")).ok(),
            meta,
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

/// Titles and descriptions of the routes the app does not list in its route-meta.json.
const DEFAULT_DESCRIPTION: &str = "Analyse any website in seconds: SEO, design and UX, technical structure and performance scores with a prioritised action plan.";

fn full_title(title: &str) -> String {
    if title.contains("Sitelens") {
        title.to_owned()
    } else {
        format!("{title} | Sitelens")
    }
}

/// What a route is, by path. `None`: not a route of the app (HTTP 404). Routes of the table
/// whose screens later issues build are treated as unknown until then.
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
        });
    }
    let hidden = |title: &str, description: &str| {
        Some(Head {
            title: full_title(title),
            description: description.to_owned(),
            index: false,
        })
    };
    match path {
        "/" => Some(Head {
            title: "Sitelens — website analysis and SEO audit".to_owned(),
            description: DEFAULT_DESCRIPTION.to_owned(),
            index: true,
        }),
        "/analyzing" => hidden("Analyzing your website", "Your website is being analysed."),
        "/results" => hidden(
            "Website Analysis Results",
            "A Sitelens website analysis report.",
        ),
        p if p.starts_with("/results/") && p.matches('/').count() == 2 => hidden(
            "Website Analysis Results",
            "A Sitelens website analysis report.",
        ),
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
    if let Ok(summary) = store::results::get_summary(&state.db, id).await {
        let (url, scores) = (&summary.url, summary.scores);
        head.title = format!("{url} scored {}/100 | Sitelens", scores.overall);
        head.description = format!(
            "Website analysis of {url}: overall {}/100, SEO {}/100, performance {}/100.",
            scores.overall, scores.seo, scores.performance
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
    // A public file of the build (favicon, images) is served as it is. Hidden folders (the
    // bundler's `.vite` manifest) and the templates this handler renders are not files to serve.
    let internal = matches!(path, "/index.html" | "/home.html" | "/route-meta.json")
        || path.split('/').any(|seg| seg.starts_with('.'));
    if path.len() > 1 && !internal {
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
    let (status, mut head) = match route_head(&state.web, path) {
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
    let is_home = matches!(path.trim_end_matches('/'), "" | "/home");
    let template = match (&state.web.home, is_home) {
        (Some(home), true) => home.as_str(),
        _ => index,
    };
    let html = render(template, &head, &canonical);
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
        let web = WebApp::load(Path::new("/nonexistent"));
        let head = route_head(&web, "/results").expect("results is a route");
        let html = render(index, &head, "https://example.com/pricing");
        assert!(!html.contains("<title>Old</title>"));
        assert!(!html.contains("content=\"old\""));
        assert!(html.contains("<title>Website Analysis Results | Sitelens</title>"));
        assert!(html.contains("noindex, nofollow"));
        assert!(html.contains("<link rel=\"canonical\" href=\"https://example.com/pricing\" />"));
    }

    #[test]
    fn unknown_and_unbuilt_routes_are_not_found() {
        let web = WebApp::load(Path::new("/nonexistent"));
        assert!(route_head(&web, "/nope").is_none());
        assert!(route_head(&web, "/dashboard").is_none());
        assert!(route_head(&web, "/results/abc").is_some_and(|h| !h.index));
        assert!(route_head(&web, "/home").is_some_and(|h| h.index));
    }
}
