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
        for hidden in ["/.vite/manifest.json", "/route-meta.json", "/home.html"] {
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
