//! The web app's pages: every route gets its own head, unknown paths get the app with HTTP
//! 404, the build's internal files stay private, and our `robots.txt` and `sitemap.xml`.

use crate::support::{Engine, WEB_ONLY, config, run_on, spawn_app};

/// Every route of the app gets its own head and the security headers.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn routes_get_their_heads_and_security_headers() {
    run_on(Engine::Sqlite, |db| async move {
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let (status, headers, html) = app.page("/pricing").await;
        assert_eq!(status, 200);
        assert!(html.contains("<title>Pricing | Sitelens</title>"));
        assert!(
            html.contains("Pre-rendered pricing"),
            "a page the build rendered whole (pre/pricing.html) is answered with it"
        );
        assert!(html.contains("<link rel=\"canonical\" href=\"https://sitelens.test/pricing\" />"));
        assert!(!html.contains("Template title"));
        assert_eq!(headers["x-content-type-options"], "nosniff");
        assert!(
            headers["content-security-policy"]
                .to_str()
                .expect("csp")
                .contains("frame-ancestors 'none'")
        );
        assert_eq!(
            headers["strict-transport-security"],
            "max-age=31536000; includeSubDomains"
        );
        assert!(headers.contains_key("x-request-id"));

        let (status, _, html) = app.page("/").await;
        assert_eq!(status, 200);
        assert!(
            html.contains("Pre-rendered hero"),
            "the home page uses home.html"
        );
        assert!(html.contains("<title>Sitelens — test home</title>"));

        let (status, _, html) = app
            .page("/results?id=00000000-0000-0000-0000-000000000000")
            .await;
        assert_eq!(status, 200);
        assert!(html.contains("noindex"));

        // A page with a first screen of its own (the home hero, a pre-rendered page, a content
        // page) leaves the domain rules' WebAssembly to the app, after its first paint; a page
        // the app renders from nothing preloads it with the page.
        for path in ["/", "/pricing", "/blog/robots-txt-mistakes"] {
            let (_, _, html) = app.page(path).await;
            assert!(!html.contains(".wasm"), "{path}: {html}");
            assert!(
                html.contains("/assets/main-abc123.js"),
                "{path}: other preloads stay"
            );
        }
        let (_, _, html) = app.page("/dashboard").await;
        assert!(
            html.contains("<link rel=\"preload\" href=\"/assets/domain_wasm_bg-abc123.wasm\""),
            "{html}"
        );
        app.running.shutdown().await;
    })
    .await;
}

/// Unknown paths get the app's not-found page with HTTP 404; the build's templates and hidden
/// folders are never served as files.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn unknown_and_internal_paths_are_not_found() {
    run_on(Engine::Sqlite, |db| async move {
        let app = spawn_app(config(&db), WEB_ONLY).await;
        for hidden in [
            "/.vite/manifest.json",
            "/route-meta.json",
            "/home.html",
            "/page.html",
            "/pre/pricing.html",
        ] {
            let (status, _, body) = app.page(hidden).await;
            assert_eq!(status, 404, "{hidden}");
            assert!(!body.contains("\"secret\""), "{hidden}");
        }
        let (status, _, html) = app.page("/no/such/page").await;
        assert_eq!(status, 404);
        assert!(
            html.contains("<div id=\"root\"></div>"),
            "the app renders its not-found page"
        );
        app.running.shutdown().await;
    })
    .await;
}

/// Our own robots.txt and sitemap.xml name the public address.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn robots_and_sitemap_use_the_public_address() {
    run_on(Engine::Sqlite, |db| async move {
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let (status, _, robots) = app.page("/robots.txt").await;
        assert_eq!(status, 200);
        assert!(robots.contains("Sitemap: https://sitelens.test/sitemap.xml"));
        let (status, _, sitemap) = app.page("/sitemap.xml").await;
        assert_eq!(status, 200);
        assert!(sitemap.contains("<loc>https://sitelens.test/pricing</loc>"));
        app.running.shutdown().await;
    })
    .await;
}

/// The content pages: server-rendered bodies with their heads and structured data, a real 404
/// for unknown slugs and categories, listed in the sitemap, and the blog's Atom feed.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn content_pages_are_rendered_by_the_server() {
    run_on(Engine::Sqlite, |db| async move {
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let (status, _, html) = app.page("/blog/robots-txt-mistakes").await;
        assert_eq!(status, 200);
        assert!(
            html.contains(
                "<title>Five robots.txt mistakes that hide your pages | Sitelens</title>"
            )
        );
        assert!(
            html.contains("<h1 class=\"mt-6 text-4xl"),
            "the body is in the HTML"
        );
        assert!(html.contains("data-server-body"));
        assert!(html.contains("\"@type\":\"BlogPosting\""));
        assert!(html.contains("\"@type\":\"FAQPage\""));
        assert!(html.contains("<meta property=\"og:type\" content=\"article\" />"));
        assert!(html.contains(
            "<link rel=\"canonical\" href=\"https://sitelens.test/blog/robots-txt-mistakes\" />"
        ));
        assert!(
            html.contains("Pre-rendered header"),
            "the page uses page.html"
        );

        let (status, _, html) = app.page("/knowledge-base?q=weights").await;
        assert_eq!(status, 200);
        assert!(html.contains("/knowledge-base/scores/overall-score"));
        assert!(html.contains("noindex"));

        for missing in [
            "/blog/no-such-post",
            "/blog/category/nothing",
            "/knowledge-base/scores/nothing",
            "/resources/nothing",
        ] {
            let (status, _, html) = app.page(missing).await;
            assert_eq!(status, 404, "{missing}");
            assert!(html.contains("Page Not Found"), "{missing}");
        }

        let (_, _, sitemap) = app.page("/sitemap.xml").await;
        assert!(sitemap.contains("<loc>https://sitelens.test/blog/robots-txt-mistakes</loc>"));
        assert!(
            sitemap.contains("<loc>https://sitelens.test/knowledge-base/api/follow-progress</loc>")
        );
        let (status, headers, feed) = app.page("/blog/feed.xml").await;
        assert_eq!(status, 200);
        assert!(
            headers["content-type"]
                .to_str()
                .is_ok_and(|t| t.starts_with("application/atom+xml"))
        );
        assert!(feed.contains("<feed xmlns=\"http://www.w3.org/2005/Atom\">"));
        app.running.shutdown().await;
    })
    .await;
}

/// `/api-docs` is the public API's guide, rendered by the server for people and crawlers: its
/// head, its sections, examples in curl, JavaScript and Python against the `/api/v1` routes,
/// the error codes of `domain::api` and the rate limit quoted from `domain`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_guide_is_rendered_by_the_server() {
    run_on(Engine::Sqlite, |db| async move {
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let (status, _, html) = app.page("/api-docs").await;
        assert_eq!(status, 200);
        assert!(html.contains("<title>Sitelens API: analyses over HTTP with an API key</title>"));
        assert!(
            html.contains("<link rel=\"canonical\" href=\"https://sitelens.test/api-docs\" />")
        );
        assert!(html.contains("data-server-body"));
        for heading in [
            "Quick start",
            "Authentication",
            "Safe retries: Idempotency-Key",
            "Rate limits",
            "Errors",
            "Pagination",
            "JavaScript",
            "Python",
        ] {
            assert!(html.contains(&format!(">{heading}</h2>")), "{heading}");
        }
        for text in [
            "curl -s -X POST \"$BASE/analyses\"",
            "Idempotency-Key",
            "RateLimit-Remaining",
            "Retry-After",
            "await fetch(",
            "urllib.request",
            "may make 100 requests a minute",
            "/api/v1/openapi.json",
        ] {
            assert!(html.contains(text), "{text}");
        }
        // Every stable error code is in the table.
        for code in [
            "unauthorized",
            "invalid_request",
            "invalid_url",
            "insufficient_credits",
            "not_found",
            "method_not_allowed",
            "idempotency_key_reused",
            "analysis_not_finished",
            "analysis_failed",
            "payload_too_large",
            "unsupported_media_type",
            "rate_limited",
            "unavailable",
            "internal",
        ] {
            let value = serde_json::to_value(
                serde_json::from_value::<domain::api::ApiErrorCode>(code.into()).expect(code),
            )
            .expect("json");
            assert_eq!(value, code);
            assert!(
                html.contains(&format!("<code>{code}</code>")),
                "{code} is not in the table"
            );
        }
        let (_, _, sitemap) = app.page("/sitemap.xml").await;
        assert!(sitemap.contains("<loc>https://sitelens.test/api-docs</loc>"));
        app.running.shutdown().await;
    })
    .await;
}

/// Paths written as string literals in a source file of the web app (`"/…"`).
fn literal_paths(file: &str) -> Vec<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../web/src")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
    text.split('"')
        .skip(1)
        .step_by(2)
        .filter(|s| s.starts_with('/') && !s.starts_with("//") && !s.contains(' '))
        .map(str::to_owned)
        .collect()
}

/// A test build of the web app (the fixture templates with the real list of public routes) in
/// the test's folder.
fn test_web_dir(db: &crate::support::TestDb) -> std::path::PathBuf {
    let web = db.dir().join("web");
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/server/webapp");
    std::fs::create_dir_all(&web).expect("web dir");
    for f in ["index.html", "home.html", "page.html"] {
        std::fs::copy(fixture.join(f), web.join(f)).expect("copy");
    }
    std::fs::copy(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/src/route-meta.json"),
        web.join("route-meta.json"),
    )
    .expect("route meta");
    web
}

/// `/demo`: the sample report's first screen rendered by the server, with its head, structured
/// data and notice, its JSON and screenshots, and a place in the sitemap.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_sample_report_is_served_without_a_browser() {
    run_on(Engine::Sqlite, |db| async move {
        let mut cfg = config(&db);
        cfg.web_dir = test_web_dir(&db);
        let app = spawn_app(cfg, WEB_ONLY).await;
        let (status, _, html) = app.page("/demo").await;
        assert_eq!(status, 200);
        assert!(html.contains("<title>Sample report — a real Sitelens website audit</title>"));
        assert!(html.contains("<link rel=\"canonical\" href=\"https://sitelens.test/demo\" />"));
        assert!(html.contains("index, follow"));
        assert!(html.contains("\"@type\":\"WebPage\""));
        assert!(html.contains("\"@type\":\"BreadcrumbList\""));
        assert!(html.contains("data-server-report"));
        assert!(
            !html.contains(".wasm"),
            "a report's first screen needs no rule"
        );
        assert!(html.contains("<strong>Sample report.</strong>"));
        assert!(html.contains(">Website Analysis Results</h1>"));

        let data = app.get("/api/demo").await;
        assert_eq!(data.status, 200);
        assert_eq!(data.json["data"]["id"], "sample");
        let desktop = data.json["data"]["screenshots"]["desktop"]
            .as_str()
            .expect("a desktop screenshot")
            .to_owned();
        let shot = app
            .http
            .get(format!("{}{desktop}", app.base))
            .send()
            .await
            .expect("screenshot");
        assert_eq!(shot.status(), 200);
        assert_eq!(shot.headers()["content-type"], "image/png");
        let (status, _, _) = app.page("/demo/nothing.png").await;
        assert_eq!(status, 404);

        let (_, _, sitemap) = app.page("/sitemap.xml").await;
        assert!(sitemap.contains("<loc>https://sitelens.test/demo</loc>"));
        app.running.shutdown().await;
    })
    .await;
}

/// Every page the server renders itself (the content pages and `/demo`, everything in the
/// sitemap that arrives with its body) passes our own analyzer's SEO checks with no issue.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn our_server_rendered_pages_pass_our_own_seo_checks() {
    run_on(Engine::Sqlite, |db| async move {
        let mut cfg = config(&db);
        cfg.web_dir = test_web_dir(&db);
        // The address really bound: canonicals and the sitemap name the pages analysed.
        cfg.public_url = String::new();
        let app = spawn_app(cfg, WEB_ONLY).await;
        let (_, _, sitemap) = app.page("/sitemap.xml").await;
        let analyzer =
            analyzer::Analyzer::new(analyzer::AnalyzerConfig::allowing_private_targets())
                .expect("analyzer");
        let mut issues = Vec::new();
        let mut analysed = Vec::new();
        for loc in sitemap.split("<loc>").skip(1) {
            let url = loc
                .split("</loc>")
                .next()
                .unwrap_or_default()
                .replace("&amp;", "&");
            let path = url
                .strip_prefix(&app.base)
                .expect("a page of ours")
                .to_owned();
            let (_, _, html) = app.page(&path).await;
            if !html.contains("data-server-body") && !html.contains("data-server-report") {
                // The app renders this page's body in the browser (measured with Lighthouse).
                continue;
            }
            let report = analyzer
                .analyze(&url, &analyzer::AnalyzeOptions::basic(), &|_| {})
                .await
                .unwrap_or_else(|e| panic!("{url}: {e}"));
            analysed.push(path.clone());
            for f in report.seo_analysis.iter().flat_map(|g| &g.findings) {
                if f.kind == domain::report::FindingType::Issue {
                    issues.push(format!("{path}: {} ({}): {}", f.title, f.id, f.description));
                }
            }
        }
        assert!(
            issues.is_empty(),
            "SEO issues on our own pages:\n{}",
            issues.join("\n")
        );
        // 8 posts, their 3 categories, 12 articles and 4 categories, the listings, the pages of
        // content/pages and /demo.
        assert!(
            analysed.len() >= 35 && analysed.iter().any(|p| p == "/demo"),
            "the content pages and /demo: {analysed:?}"
        );
        app.running.shutdown().await;
    })
    .await;
}

/// Our own site has no dead internal link: starting from `/` and from every link the header,
/// the footer and the home page write, each internal link of every page the server renders is
/// followed (links read with the analyzer's own parser) and none answers 404.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn no_internal_link_is_dead() {
    run_on(Engine::Sqlite, |db| async move {
        // The test build, with the real list of the app's public routes.
        let mut cfg = config(&db);
        cfg.web_dir = test_web_dir(&db);
        let app = spawn_app(cfg, WEB_ONLY).await;

        // Signed-in links (the header's Dashboard) are not reachable by a signed-out crawl.
        let signed_in_only = ["/dashboard"];
        let mut queue: std::collections::VecDeque<(String, String)> =
            std::collections::VecDeque::from([("/".to_owned(), "start".to_owned())]);
        for file in [
            "components/layout/header.tsx",
            "components/layout/footer.tsx",
            "features/home/home-page.tsx",
        ] {
            for p in literal_paths(file) {
                if !signed_in_only.contains(&p.as_str()) {
                    queue.push_back((p, file.to_owned()));
                }
            }
        }
        let base = url::Url::parse(&format!("{}/", app.base)).expect("base");
        let mut seen = std::collections::HashSet::new();
        let mut dead = Vec::new();
        let mut crawled = 0;
        while let Some((path, from)) = queue.pop_front() {
            let path = path.split('#').next().unwrap_or("/").to_owned();
            let path = if path.is_empty() {
                "/".to_owned()
            } else {
                path
            };
            if !seen.insert(path.clone()) {
                continue;
            }
            let (status, headers, body) = app.page(&path).await;
            crawled += 1;
            if status == 404 {
                dead.push(format!("{path} (linked from {from})"));
                continue;
            }
            let html = headers
                .get("content-type")
                .and_then(|v| v.to_str().ok())
                .is_some_and(|t| t.starts_with("text/html"));
            if !html {
                continue;
            }
            let page_url = base.join(&path).expect("page url");
            let doc = analyzer::page::parse(&body, &page_url);
            for a in doc.anchors {
                let Some(u) = a.url else { continue };
                if u.origin() != base.origin() {
                    continue;
                }
                let mut next = u.path().to_owned();
                if let Some(q) = u.query() {
                    next = format!("{next}?{q}");
                }
                queue.push_back((next, path.clone()));
            }
        }
        assert!(dead.is_empty(), "dead internal links:\n{}", dead.join("\n"));
        // The app's pages, 8 blog posts, their categories, 12 articles and the other pages.
        assert!(
            crawled >= 40,
            "the crawl reached the content ({crawled} pages)"
        );
        app.running.shutdown().await;
    })
    .await;
}
