//! Every page check against a fixture page that passes and one that fails, and Lighthouse's
//! verdict on small pages for the audits that correspond.

use std::io::Write;

use analyzer::AnalyzeOptions;
use domain::report::FindingType::{self, Good, Issue, Warning};

use crate::support::server::{Reply, Site, TestServer, fixture};
use crate::support::util::{analyze, findings, kind_of};

fn gzip(text: &str) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(text.as_bytes()).expect("gzip");
    gz.finish().expect("gzip")
}

const SECURITY: [(&str, &str); 4] = [
    (
        "Content-Security-Policy",
        "default-src 'self'; frame-ancestors 'self'",
    ),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "strict-origin-when-cross-origin"),
    ("X-Frame-Options", "SAMEORIGIN"),
];

fn asset(content_type: &str, body: &str) -> Reply {
    Reply::text(content_type, body).header("Cache-Control", "public, max-age=31536000, immutable")
}

/// A site whose start page passes every page check.
pub fn good_site(base: &str) -> Site {
    let mut page = Reply {
        status: 200,
        headers: vec![
            ("Content-Type".into(), "text/html; charset=utf-8".into()),
            ("Content-Encoding".into(), "gzip".into()),
        ],
        body: gzip(&fixture("good.html", base)),
    };
    for (k, v) in SECURITY {
        page = page.header(k, v);
    }
    let sitemap = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>{base}/</loc></url><url><loc>{base}/tables</loc></url></urlset>"#
    );
    Site::new()
        .route("/", page)
        .route(
            "/robots.txt",
            Reply::text(
                "text/plain",
                format!("User-agent: *\nDisallow: /admin/\n\nSitemap: {base}/sitemap.xml\n"),
            ),
        )
        .route("/sitemap.xml", Reply::text("application/xml", sitemap))
        .route(
            "/llms.txt",
            Reply::text("text/plain", "# Acme\n> Handmade oak furniture.\n"),
        )
        .route(
            "/style.css",
            asset(
                "text/css",
                "body{margin:0;color:#222;font-family:Inter,sans-serif}a{color:#0d6efd}",
            ),
        )
        .route("/app.js", asset("application/javascript", "console.log(1)"))
        .route("/images/table.jpg", asset("image/jpeg", "jpeg"))
        .route("/images/divider.png", asset("image/png", "png"))
        .route("/favicon.svg", asset("image/svg+xml", "<svg/>"))
}

#[tokio::test]
async fn the_good_page_passes_every_page_check() {
    let server = TestServer::start(good_site).await;
    let report = analyze(&server.url("/"), AnalyzeOptions::basic()).await;
    let all = findings(&report);
    for id in [
        "seo.title",
        "seo.title.length",
        "seo.description",
        "seo.description.length",
        "seo.h1",
        "seo.headings.hierarchy",
        "seo.canonical",
        "seo.indexable",
        "seo.hreflang",
        "seo.hreflang.x-default",
        "a11y.html-lang",
        "design.viewport",
        "seo.open-graph",
        "seo.twitter-card",
        "seo.structured-data",
        "seo.image-alt",
        "seo.image-alt.length",
        "seo.link-text",
        "seo.crawlable-anchors",
        "seo.internal-links",
        "seo.url",
        "design.favicon",
        "tech.http-status",
        "tech.doctype",
        "tech.charset",
        "tech.compression",
        "tech.csp",
        "tech.nosniff",
        "tech.clickjacking",
        "tech.referrer-policy",
        "tech.render-blocking",
        "tech.redirects",
        "seo.robots-txt",
        "seo.sitemap",
        "seo.sitemap.entries",
        "seo.sitemap.coverage",
        "seo.llms-txt",
        "content.word-count",
        "content.keywords",
        "perf.page-weight",
        "perf.requests",
        "perf.cache",
    ] {
        let f = all.get(id).unwrap_or_else(|| panic!("no finding {id}"));
        assert_eq!(f.kind, Good, "{id}: {} — {}", f.title, f.description);
    }
    // Without a browser, colours and fonts come from the declared CSS.
    assert_eq!(report.website_colors, vec!["#222222", "#0d6efd"]);
    assert_eq!(report.website_fonts, vec!["Inter"]);
    // Served over plain http by the fixture server: the HTTPS check must say so.
    assert_eq!(kind_of(&report, "tech.https"), Issue);
    // No problem findings beyond HTTPS, HSTS-free http and the stack.
    let problems: Vec<String> = all
        .values()
        .filter(|f| f.kind != Good && f.id != "tech.https")
        .map(|f| format!("{}: {}", f.id, f.title))
        .collect();
    assert!(problems.is_empty(), "{problems:?}");
}

#[tokio::test]
async fn the_bad_page_fails_every_page_check() {
    let server = TestServer::start(|base| {
        Site::new().route("/", Reply::text("text/html", fixture("bad.html", base)))
    })
    .await;
    let report = analyze(&server.url("/"), AnalyzeOptions::basic()).await;
    let expect: &[(&str, FindingType, Option<&str>)] = &[
        ("seo.title", Issue, Some("document-title")),
        ("seo.description", Issue, Some("meta-description")),
        ("seo.h1", Warning, None),
        ("seo.headings.hierarchy", Warning, None),
        ("seo.canonical", Issue, Some("canonical")),
        ("seo.indexable", Issue, Some("is-crawlable")),
        ("seo.robots.directives", Warning, None),
        ("seo.hreflang", Issue, Some("hreflang")),
        ("seo.hreflang.x-default", Warning, None),
        ("a11y.html-lang", Issue, Some("html-has-lang")),
        ("design.viewport", Issue, Some("viewport")),
        ("seo.open-graph", Warning, None),
        ("seo.twitter-card", Warning, None),
        ("seo.structured-data", Issue, None),
        ("seo.image-alt", Issue, Some("image-alt")),
        ("seo.image-alt.empty", Warning, None),
        ("seo.image-alt.length", Warning, None),
        ("seo.link-text", Issue, Some("link-text")),
        ("seo.crawlable-anchors", Issue, Some("crawlable-anchors")),
        ("seo.internal-links", Warning, None),
        ("design.favicon", Warning, None),
        ("tech.doctype", Issue, Some("doctype")),
        ("tech.charset", Warning, Some("charset")),
        ("tech.csp", Warning, None),
        ("tech.nosniff", Warning, None),
        ("tech.clickjacking", Warning, None),
        ("tech.referrer-policy", Warning, None),
        (
            "tech.render-blocking",
            Warning,
            Some("render-blocking-resources"),
        ),
        ("tech.broken-assets", Issue, None),
        ("seo.sitemap", Warning, None),
        ("seo.llms-txt", Warning, None),
        ("content.word-count", Warning, None),
    ];
    let all = findings(&report);
    for (id, kind, audit) in expect {
        let f = all.get(*id).unwrap_or_else(|| panic!("no finding {id}"));
        assert_eq!(f.kind, *kind, "{id}: {} — {}", f.title, f.description);
        assert_eq!(f.audit.as_deref(), *audit, "{id}");
        if f.kind != Good {
            assert!(
                f.solution.as_deref().is_some_and(|s| !s.is_empty()),
                "{id} has a solution"
            );
        }
    }
    // A missing robots.txt allows everything: Lighthouse passes robots-txt.
    assert_eq!(kind_of(&report, "seo.robots-txt"), Good);
}

/// A page of the Lighthouse table: path, HTML, extra headers, audit id, Lighthouse passes?
type Case = (
    &'static str,
    String,
    Vec<(&'static str, &'static str)>,
    &'static str,
    bool,
);

/// One small page per case.
fn lighthouse_cases(base: &str) -> Vec<Case> {
    let page = |head: &str, body: &str| {
        format!(
            "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">{head}</head><body>{body}</body></html>"
        )
    };
    vec![
        (
            "/t1",
            page("<title>A</title>", ""),
            vec![],
            "document-title",
            true,
        ),
        (
            "/t2",
            page("<title>  </title>", ""),
            vec![],
            "document-title",
            false,
        ),
        (
            "/d1",
            page("<meta name=description content=\"x\">", ""),
            vec![],
            "meta-description",
            true,
        ),
        (
            "/d2",
            page("<meta name=description content=\"\">", ""),
            vec![],
            "meta-description",
            false,
        ),
        (
            "/c1",
            page(&format!("<link rel=canonical href=\"{base}/c1\">"), ""),
            vec![],
            "canonical",
            true,
        ),
        (
            "/deep/c2",
            page(&format!("<link rel=canonical href=\"{base}/\">"), ""),
            vec![],
            "canonical",
            false,
        ),
        (
            "/c3",
            page(
                &format!(
                    "<link rel=canonical href=\"{base}/a\"><link rel=canonical href=\"{base}/b\">"
                ),
                "",
            ),
            vec![],
            "canonical",
            false,
        ),
        (
            "/c4",
            page(
                &format!(
                    "<link rel=canonical href=\"{base}/de\"><link rel=alternate hreflang=de href=\"{base}/de\"><link rel=alternate hreflang=en href=\"{base}/c4\">"
                ),
                "",
            ),
            vec![],
            "canonical",
            false,
        ),
        (
            "/c5",
            page("<link rel=canonical href=\"/relative\">", ""),
            vec![],
            "canonical",
            false,
        ),
        // No canonical at all: Lighthouse finds its audit not applicable (no verdict); checked
        // in `stricter_rules_of_our_own_carry_no_lighthouse_audit_id`.
        (
            "/r1",
            page("<meta name=robots content=\"nofollow\">", ""),
            vec![],
            "is-crawlable",
            true,
        ),
        (
            "/r2",
            page("<meta name=googlebot content=\"noindex\">", ""),
            vec![],
            "is-crawlable",
            false,
        ),
        (
            "/r3",
            page("<meta name=bingbot content=\"noindex\">", ""),
            vec![],
            "is-crawlable",
            true,
        ),
        (
            "/r4",
            page("", ""),
            vec![("X-Robots-Tag", "none")],
            "is-crawlable",
            false,
        ),
        (
            "/r5",
            page("", ""),
            vec![("X-Robots-Tag", "otherbot: noindex")],
            "is-crawlable",
            true,
        ),
        (
            "/r6",
            page(
                "<meta name=robots content=\"unavailable_after: 2001-01-01T00:00:00Z\">",
                "",
            ),
            vec![],
            "is-crawlable",
            false,
        ),
        (
            "/h1",
            page(
                &format!(
                    "<link rel=alternate hreflang=en-GB href=\"{base}/h1\"><link rel=alternate hreflang=x-default href=\"{base}/\">"
                ),
                "",
            ),
            vec![],
            "hreflang",
            true,
        ),
        (
            "/h2",
            page(
                &format!("<link rel=alternate hreflang=english href=\"{base}/h2\">"),
                "",
            ),
            vec![],
            "hreflang",
            false,
        ),
        (
            "/h3",
            page("<link rel=alternate hreflang=fr href=\"/fr\">", ""),
            vec![],
            "hreflang",
            false,
        ),
        (
            // Lighthouse reads hreflang links in the head only.
            "/h4",
            page(
                &format!("<link rel=alternate hreflang=en href=\"{base}/h4\">"),
                "<link rel=alternate hreflang=english href=\"/relative\">",
            ),
            vec![],
            "hreflang",
            true,
        ),
        (
            "/l1",
            page("", "<a href=\"/pricing\">Pricing for teams</a>"),
            vec![],
            "link-text",
            true,
        ),
        (
            "/l2",
            page("", "<a href=\"/x\">Read more</a>"),
            vec![],
            "link-text",
            false,
        ),
        (
            "/l3",
            // Lighthouse matches a link against the list of its own language.
            page("", "<a href=\"/x\" lang=\"de\">mehr</a>"),
            vec![],
            "link-text",
            false,
        ),
        (
            "/l5",
            page("", "<a href=\"/x\">mehr</a>"),
            vec![],
            "link-text",
            true,
        ),
        (
            "/l6",
            page(
                "",
                "<a href=\"/x\" rel=\"nofollow\">here</a><a href=\"mailto:a@example.com\">here</a>",
            ),
            vec![],
            "link-text",
            true,
        ),
        (
            "/l7",
            page(
                "",
                "<a href=\"/l7\">click here</a><a href=\"/x\">Read more »</a>",
            ),
            vec![],
            "link-text",
            true,
        ),
        (
            "/l4",
            page("", "<a href=\"#top\">here</a>"),
            vec![],
            "link-text",
            true,
        ),
        (
            "/a1",
            page(
                "",
                "<a href=\"/ok\">ok</a><a name=\"anchor\"></a><a role=\"button\">b</a>",
            ),
            vec![],
            "crawlable-anchors",
            true,
        ),
        (
            "/a2",
            page("", "<a href=\"javascript:void(0)\">go somewhere</a>"),
            vec![],
            "crawlable-anchors",
            false,
        ),
        (
            "/a3",
            page("", "<a onclick=\"go()\">go somewhere</a>"),
            vec![],
            "crawlable-anchors",
            false,
        ),
        (
            "/a4",
            page("", "<a href=\"file:///etc/passwd\">local file</a>"),
            vec![],
            "crawlable-anchors",
            false,
        ),
        (
            // Lighthouse fails only javascript:void(0), and anchors without href only when
            // something (a handler, a link attribute) makes them act as links.
            "/a5",
            page(
                "",
                "<a href=\"javascript:openMenu()\">menu</a><a>placeholder</a><a href=\"mailto:a@example.com\">mail</a>",
            ),
            vec![],
            "crawlable-anchors",
            true,
        ),
        (
            "/a6",
            page("", "<a target=\"_blank\">new window</a>"),
            vec![],
            "crawlable-anchors",
            false,
        ),
        (
            // A handler on an element around an anchor without href counts as the anchor's
            // (Lighthouse reads its ancestors' listeners; a Jekyll theme's mode switch).
            "/a7",
            page(
                "",
                "<div class=\"switch\" onclick=\"modeSwitcher()\"><a class=\"button\"><img src=\"/sun.svg\" alt=\"\"></a></div>",
            ),
            vec![],
            "crawlable-anchors",
            false,
        ),
        (
            // An anchor with an id is a fragment target, handler or not.
            "/a8",
            page(
                "",
                "<a id=\"menu\" onclick=\"go()\"></a><a id=\"top\" href=\"\"></a>",
            ),
            vec![],
            "crawlable-anchors",
            true,
        ),
        (
            "/i1",
            page(
                "",
                "<img src=\"/a.png\" alt=\"\"><img src=\"/b.png\" role=\"presentation\"><img src=\"/c.png\" aria-label=\"C\">",
            ),
            vec![],
            "image-alt",
            true,
        ),
        (
            "/i2",
            page("", "<img src=\"/a.png\">"),
            vec![],
            "image-alt",
            false,
        ),
        ("/s1", page("", ""), vec![], "http-status-code", true),
        (
            "/v1",
            page("<meta name=viewport content=\"width=device-width\">", ""),
            vec![],
            "viewport",
            true,
        ),
        (
            "/v2",
            page("<meta name=viewport content=\"user-scalable=yes\">", ""),
            vec![],
            "viewport",
            false,
        ),
        (
            "/v3",
            page(
                "<meta name=viewport content=\"width=device-width, initial-scale=0.5\">",
                "",
            ),
            vec![],
            "viewport",
            false,
        ),
    ]
}

/// Where our rule is stricter than Lighthouse's, or Lighthouse gives no verdict (informative,
/// manual or not applicable), the finding keeps our verdict but carries no Lighthouse audit id.
#[tokio::test]
async fn stricter_rules_of_our_own_carry_no_lighthouse_audit_id() {
    let server = TestServer::start(|base| {
        let page = |head: &str| {
            format!(
                "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>A page</title>{head}</head><body><p>Text.</p></body></html>"
            )
        };
        Site::new()
            .route("/none", Reply::html(page("")))
            .route(
                "/nozoom",
                Reply::html(page(
                    "<meta name=viewport content=\"width=device-width, initial-scale=1, user-scalable=no\">",
                )),
            )
            .route(
                "/elsewhere",
                Reply::html(page("<link rel=canonical href=\"https://example.com/elsewhere\">")),
            )
            .route(
                "/alternate",
                Reply::html(page(&format!(
                    "<link rel=canonical href=\"{base}/de\"><link rel=alternate hreflang=de href=\"{base}/de\">"
                ))),
            )
    })
    .await;
    let analyzer = crate::support::util::analyzer();
    let run = |path: &'static str| {
        let url = server.url(path);
        let analyzer = &analyzer;
        async move {
            analyzer
                .analyze(&url, &AnalyzeOptions::basic(), &|_| {})
                .await
                .expect("report")
        }
    };
    // No canonical: Lighthouse's audit does not apply (no verdict, no weight in its SEO score),
    // so our finding carries no audit id; our advice is its own finding.
    let report = run("/none").await;
    let all = findings(&report);
    assert_eq!(all["seo.canonical"].kind, Good);
    assert_eq!(all["seo.canonical"].audit, None);
    assert_eq!(all["seo.canonical.missing"].kind, Warning);
    assert_eq!(all["seo.canonical.missing"].audit, None);
    // Served from 127.0.0.1, which Lighthouse counts as secure: still our issue, not its verdict.
    assert_eq!(all["tech.https"].kind, Issue);
    assert_eq!(all["tech.https"].audit, None);
    // Lighthouse reports these as informative or manual.
    for id in ["tech.csp", "tech.clickjacking", "seo.structured-data"] {
        assert_eq!(all[id].kind, Warning, "{id}");
        assert_eq!(all[id].audit, None, "{id}");
    }
    // Lighthouse's viewport audit passes a page that disables zooming; the warning is ours.
    let report = run("/nozoom").await;
    let f = &findings(&report)["design.viewport"];
    assert_eq!((f.kind, f.audit.as_deref()), (Warning, None));
    // A canonical on another host passes Lighthouse: its verdict is a finding of its own.
    let passes = |report: &domain::report::AnalysisReport| {
        let f = &findings(report)["seo.canonical.valid"];
        (f.kind, f.audit.clone())
    };
    let report = run("/elsewhere").await;
    let f = &findings(&report)["seo.canonical"];
    assert_eq!((f.kind, f.audit.as_deref()), (Warning, None));
    assert_eq!(passes(&report), (Good, Some("canonical".to_owned())));
    // A canonical naming an hreflang alternate fails Lighthouse only when the page itself is in
    // the hreflang set.
    let report = run("/alternate").await;
    let f = &findings(&report)["seo.canonical"];
    assert_eq!((f.kind, f.audit.as_deref()), (Issue, None));
    assert_eq!(passes(&report), (Good, Some("canonical".to_owned())));
    assert!(!findings(&run("/none").await).contains_key("seo.canonical.valid"));
}

#[tokio::test]
async fn verdicts_match_lighthouse_on_small_pages() {
    let server = TestServer::start(|base| {
        let mut site = Site::new();
        for (path, html, headers, _, _) in lighthouse_cases(base) {
            let mut r = Reply::html(html);
            for (k, v) in headers {
                r = r.header(k, v);
            }
            site.add(path, r);
        }
        site.add(
            "/s2",
            Reply::html("<!DOCTYPE html><html><head><title>Gone</title></head></html>").status(404),
        );
        site
    })
    .await;
    let mut cases: Vec<(String, &str, bool)> = lighthouse_cases(&server.base)
        .into_iter()
        .map(|(p, _, _, a, pass)| (p.to_owned(), a, pass))
        .collect();
    cases.push(("/s2".to_owned(), "http-status-code", false));
    // One analyzer for all cases: building the TLS client once keeps this test fast.
    let analyzer = crate::support::util::analyzer();
    for (path, audit, pass) in cases {
        let report = analyzer
            .analyze(&server.url(&path), &AnalyzeOptions::basic(), &|_| {})
            .await
            .expect("report");
        let verdicts: Vec<FindingType> = findings(&report)
            .values()
            .filter(|f| f.audit.as_deref() == Some(audit))
            .map(|f| f.kind)
            .collect();
        assert!(!verdicts.is_empty(), "{path}: no finding for {audit}");
        // Lighthouse is binary: an issue fails; good and warnings pass.
        let passed = !verdicts.contains(&Issue);
        assert_eq!(passed, pass, "{path} {audit}: {verdicts:?}");
    }
}

#[tokio::test]
async fn robots_txt_blocking_the_page_fails_is_crawlable_and_errors_fail_robots_txt() {
    let server = TestServer::start(|_| {
        Site::new()
            .route(
                "/",
                Reply::html(
                    "<!DOCTYPE html><html><head><title>Home</title></head><body>hi</body></html>",
                ),
            )
            .route(
                "/robots.txt",
                Reply::text(
                    "text/plain",
                    "User-agent: Googlebot\nDisallow: /\nFoo bar\nSitemap: /relative.xml\n",
                ),
            )
    })
    .await;
    let report = analyze(&server.url("/"), AnalyzeOptions::basic()).await;
    let all = findings(&report);
    let f = &all["seo.indexable"];
    assert_eq!(f.kind, Issue);
    assert!(
        f.description.contains("robots.txt blocks it for googlebot"),
        "{}",
        f.description
    );
    let f = &all["seo.robots-txt"];
    assert_eq!(f.kind, Issue);
    assert!(
        f.description.contains("line 3") && f.description.contains("line 4"),
        "{}",
        f.description
    );

    let server = TestServer::start(|_| {
        Site::new()
            .route(
                "/",
                Reply::html(
                    "<!DOCTYPE html><html><head><title>Home</title></head><body><a href=\"/next\">Next page</a></body></html>",
                ),
            )
            .route("/robots.txt", Reply::text("text/plain", "oops").status(503))
            .route("/next", Reply::html("<!DOCTYPE html><title>Next</title>"))
    })
    .await;
    let report = analyze(&server.url("/"), AnalyzeOptions::for_pages(10)).await;
    assert_eq!(kind_of(&report, "seo.robots-txt"), Issue);
    // A failing robots.txt means "disallow all": only the start page is read.
    assert_eq!(report.pages_analyzed, 1);
    assert_eq!(server.gets("/next"), 0);
}

#[tokio::test]
async fn technology_stack_is_detected_with_evidence() {
    let server = TestServer::start(|_| {
        Site::new().route(
            "/",
            Reply::html(
                r#"<!DOCTYPE html><html><head><meta name="generator" content="WordPress 6.5.2">
                <link rel="stylesheet" href="/wp-content/themes/x/style.css">
                <script src="https://www.googletagmanager.com/gtm.js?id=GTM-1" async></script>
                <script src="/wp-includes/js/jquery/jquery.min.js"></script></head>
                <body><div id="__next"></div><script id="__NEXT_DATA__" type="application/json">{}</script></body></html>"#,
            )
            .header("Server", "nginx/1.25.3")
            .header("CF-Ray", "8a1b2c3d4e5f-AMS")
            .header("X-Powered-By", "PHP/8.2.1"),
        )
    })
    .await;
    let report = analyze(&server.url("/"), AnalyzeOptions::basic()).await;
    let stack = report
        .technical_analysis
        .iter()
        .find(|g| g.title == "Technology Stack")
        .expect("a Technology Stack group");
    assert_eq!(
        report.technical_analysis[0].title, "Technology Stack",
        "it leads the tab"
    );
    let titles: Vec<&str> = stack.findings.iter().map(|f| f.title.as_str()).collect();
    for want in [
        "WordPress 6.5.2 (CMS)",
        "Next.js",
        "Google Tag Manager",
        "Cloudflare",
        "Nginx 1.25.3",
        "PHP 8.2.1",
        "jQuery",
    ] {
        assert!(
            titles.iter().any(|t| t.starts_with(want)),
            "{want} in {titles:?}"
        );
    }
    let wp = stack
        .findings
        .iter()
        .find(|f| f.title.starts_with("WordPress"))
        .expect("wp");
    assert!(wp.description.contains("generator"), "{}", wp.description);
    assert!(domain::advice::show_wordpress_tip(
        0,
        &report.technical_analysis
    ));
}
