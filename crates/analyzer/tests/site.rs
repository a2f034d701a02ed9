//! A multi-page fixture site with planted problems, crawled as a professional report: broken
//! links, a redirect chain, an orphan page, duplicate titles, a noindex page in the sitemap,
//! robots.txt rules, deep pages, nofollow links, near-duplicate text.

use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;

use analyzer::guard::StaticResolver;
use analyzer::{AnalyzeError, AnalyzeOptions, Analyzer, AnalyzerConfig, FetchError};
use domain::professional::{BacklinkAnalysis, BacklinkFigures};
use domain::report::{FindingType, Priority, ProfessionalAnalysis, ReportType};

use crate::support::server::{Reply, Site, TestServer, fixture};
use crate::support::util::{analyze, analyze_with_progress, finding, findings, test_config};

/// The backlink figures of a professional report (failing the test when the graph failed).
fn figures(pro: &ProfessionalAnalysis) -> &BacklinkFigures {
    match &pro.backlink_analysis {
        Some(BacklinkAnalysis::Figures(f)) => f,
        other => panic!("backlink figures expected, got {other:?}"),
    }
}

/// A page of the fixture site: the template with its own title, heading, text and links.
fn page(title: &str, h1: &str, text: &str, links: &[(&str, &str)]) -> Reply {
    let links: String = links
        .iter()
        .map(|(href, label)| format!("<li><a href=\"{href}\">{label}</a></li>"))
        .collect();
    Reply::html(
        fixture("page.html", "")
            .replace("{{title}}", title)
            .replace("{{h1}}", h1)
            .replace("{{text}}", text)
            .replace("{{links}}", &links),
    )
}

const LONG_TEXT: &str = "Oak is a hard, heavy wood with a straight grain that has been used for furniture, \
    ships and buildings for centuries. Our workshop dries every board for two years before it is cut, \
    so the finished table will not warp or crack when the seasons change. Each joint is cut by hand and \
    glued with hide glue, which can be reversed if a repair is ever needed many decades from now.";

pub fn planted_site(base: &str) -> Site {
    let nav: &[(&str, &str)] = &[
        ("/about", "About the workshop"),
        ("/products", "Our products"),
        ("/blog", "Workshop blog"),
    ];
    let mut home_links = nav.to_vec();
    home_links.extend([
        ("/old", "Old about page"),
        ("/missing", "Spring catalogue"),
        ("/private/secret", "Private area"),
        ("http://external.test/page", "Timber supplier"),
    ]);
    let home = page(
        "Acme Furniture: handmade oak tables and chairs",
        "Handmade oak furniture",
        LONG_TEXT,
        &home_links,
    );
    let home = Reply {
        body: String::from_utf8_lossy(&home.body)
            .replace(
                "</ul>",
                "<li><a href=\"/contact\" rel=\"nofollow\">Contact the workshop</a></li></ul>",
            )
            .into_bytes(),
        ..home
    };
    let sitemap = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>{base}/</loc></url><url><loc>{base}/about</loc></url><url><loc>{base}/noindex-page</loc></url>
<url><loc>{base}/orphan</loc></url><url><loc>{base}/private/secret</loc></url><url><loc>{base}/gone</loc></url>
</urlset>"#
    );
    let noindex = Reply {
        body: String::from_utf8_lossy(
            &page(
                "Thank you for your order | Acme",
                "Thank you",
                LONG_TEXT,
                nav,
            )
            .body,
        )
        .replace("<head>", "<head><meta name=\"robots\" content=\"noindex\">")
        .into_bytes(),
        ..Reply::html("")
    };
    // Two diary entries with the same long text apart from one line: near-duplicates.
    let diary: String = (1..=20)
        .map(|i| format!("On day {i} of the build the workshop planed board number {i} for the long oak table. "))
        .collect();
    let post = |n: &str| {
        page(
            "Workshop diary | Acme",
            &format!("Workshop diary {n}"),
            &format!("{diary} Entry {n}."),
            nav,
        )
    };
    Site::new()
        .route("/", home)
        .route(
            "/robots.txt",
            Reply::text(
                "text/plain",
                format!("User-agent: *\nDisallow: /private/\n\nSitemap: {base}/sitemap.xml\n"),
            ),
        )
        .route("/sitemap.xml", Reply::text("application/xml", sitemap))
        .route(
            "/about",
            page(
                "About the Acme workshop and its carpenters",
                "About the workshop",
                LONG_TEXT,
                &[
                    ("/", "Home"),
                    ("/noindex-page", "Order confirmation"),
                    ("/products", "Our products"),
                    ("/blog", "Workshop blog"),
                ],
            ),
        )
        .route(
            "/products",
            page(
                "Oak tables, chairs and shelves made to order",
                "Products",
                LONG_TEXT,
                &[
                    ("/products/widget", "The dining table"),
                    ("/", "Home"),
                    ("/about", "About"),
                    ("/blog", "Blog"),
                ],
            ),
        )
        .route(
            "/products/widget",
            page(
                "The Acme oak dining table, built to order",
                "Dining table",
                LONG_TEXT,
                &[
                    ("/products/widget/specs", "Table specifications"),
                    ("/", "Home"),
                    ("/products", "Products"),
                ],
            ),
        )
        .route(
            "/products/widget/specs",
            page(
                "Dining table specifications and dimensions",
                "Specifications",
                LONG_TEXT,
                &[
                    ("/products/widget/specs/detail", "Joint details"),
                    ("/", "Home"),
                    ("/products", "Products"),
                ],
            ),
        )
        .route(
            "/products/widget/specs/detail",
            page(
                "How the dining table's joints are made",
                "Joint details",
                LONG_TEXT,
                nav,
            ),
        )
        .route(
            "/blog",
            page(
                "The Acme workshop blog: news from the bench",
                "Blog",
                LONG_TEXT,
                &[
                    ("/blog/post-1", "First diary entry"),
                    ("/blog/post-2", "Second diary entry"),
                    ("/", "Home"),
                ],
            ),
        )
        .route("/blog/post-1", post("1"))
        .route("/blog/post-2", post("2"))
        .route("/noindex-page", noindex)
        .route(
            "/orphan",
            page(
                "An old page nobody links to anymore | Acme",
                "Orphan",
                LONG_TEXT,
                nav,
            ),
        )
        .route("/old", Reply::redirect(301, "/old2"))
        .route("/old2", Reply::redirect(301, "/about"))
        .route("/private/secret", page("Secret", "Secret", "secret", nav))
        .route(
            "/contact",
            page(
                "Contact the Acme workshop by phone or mail",
                "Contact",
                LONG_TEXT,
                nav,
            ),
        )
}

#[tokio::test]
async fn a_professional_crawl_finds_every_planted_problem() {
    let server = TestServer::start(planted_site).await;
    let report = analyze(&server.url("/"), AnalyzeOptions::for_pages(20)).await;
    assert_eq!(report.report_type, ReportType::Premium);
    let all = findings(&report);
    let has = |id: &str, kind: FindingType, needles: &[&str]| {
        let f = finding(&all, id);
        assert_eq!(f.kind, kind, "{id}: {}", f.description);
        for n in needles {
            assert!(
                f.description.contains(n),
                "{id} should mention {n}: {}",
                f.description
            );
        }
    };
    has(
        "links.broken-internal",
        FindingType::Issue,
        &["/missing (404)"],
    );
    has(
        "links.redirected-internal",
        FindingType::Warning,
        &["/old (2 redirects)"],
    );
    has("links.orphans", FindingType::Warning, &["/orphan"]);
    has(
        "links.depth",
        FindingType::Warning,
        &["/products/widget/specs/detail (4 clicks)"],
    );
    has(
        "links.nofollow-internal",
        FindingType::Warning,
        &["/contact"],
    );
    has(
        "links.external",
        FindingType::Warning,
        &["http://external.test/page"],
    );
    has(
        "content.duplicate-titles",
        FindingType::Issue,
        &["/blog/post-1", "/blog/post-2"],
    );
    has(
        "content.near-duplicates",
        FindingType::Warning,
        &["/blog/post-1", "/blog/post-2"],
    );
    has(
        "seo.sitemap.entries",
        FindingType::Issue,
        &[
            "/noindex-page (noindex)",
            "/private/secret (blocked by robots.txt)",
            "/gone (HTTP 404)",
        ],
    );
    has(
        "seo.robots-txt.blocked-links",
        FindingType::Warning,
        &["/private/secret"],
    );
    has("seo.sitemap", FindingType::Good, &["found via robots.txt"]);
    // The noindex page fails is-crawlable on that page, named in the merged finding.
    has("seo.indexable", FindingType::Issue, &["/noindex-page"]);

    // robots.txt is obeyed: the blocked page is never requested, not even with HEAD.
    assert!(
        server.hits().iter().all(|h| !h.contains("/private/")),
        "{:?}",
        server.hits()
    );
    // Each page is fetched once.
    for path in [
        "/",
        "/products",
        "/blog",
        "/blog/post-1",
        "/orphan",
        "/products/widget/specs/detail",
        "/robots.txt",
        "/sitemap.xml",
    ] {
        assert_eq!(server.gets(path), 1, "{path}: {:?}", server.hits());
    }
    // The sitemap seeded the orphan page into the crawl; nofollow kept /contact out of it.
    assert_eq!(server.gets("/contact"), 0);
    let pro = report.professional.as_ref().expect("professional extras");
    let pages = &pro.internal_link_analysis.pages;
    assert!(
        pages
            .iter()
            .any(|p| p.url.ends_with("/orphan") && p.depth.is_none())
    );
    assert_eq!(report.pages_analyzed as usize, pages.len());
    assert_eq!(
        pro.robots_analysis.blocked_linked_pages[0],
        "/private/secret"
    );
    assert_eq!(pro.sitemap_analysis.url_count, 6);

    // No other domain links here: no authority score, and the evidence is stated.
    assert_eq!(pro.domain_authority, None);
    let backlinks = figures(pro);
    let note = &backlinks.note;
    assert!(
        note.contains("no authority score is given without evidence"),
        "{note}"
    );
    assert_eq!(backlinks.evidence.domains_in_graph, 1);

    // Action plan: high before medium before low, issues high.
    let order: Vec<Priority> = report.action_items.iter().map(|a| a.priority).collect();
    let mut sorted = order.clone();
    sorted.sort();
    assert_eq!(order, sorted);
    assert!(
        report
            .action_items
            .iter()
            .any(|a| a.priority == Priority::High && a.title == "Broken internal links")
    );
}

#[tokio::test]
async fn the_page_allowance_caps_the_crawl() {
    let server = TestServer::start(planted_site).await;
    let report = analyze(
        &server.url("/"),
        AnalyzeOptions {
            report_type: ReportType::Standard,
            max_pages: None,
            use_browser: false,
        },
    )
    .await;
    assert_eq!(report.pages_analyzed, 10);
    let basic = analyze(&server.url("/"), AnalyzeOptions::basic()).await;
    assert_eq!(basic.pages_analyzed, 1);
    assert!(basic.professional.is_none());
}

#[tokio::test]
async fn a_redirect_chain_to_the_start_page_is_reported() {
    let server = TestServer::start(planted_site).await;
    let report = analyze(&server.url("/old"), AnalyzeOptions::basic()).await;
    let f = finding(&findings(&report), "tech.redirects").clone();
    assert_eq!(f.kind, FindingType::Warning);
    assert!(f.description.contains("2 redirects"), "{}", f.description);
    assert!(report.url.ends_with("/old"));
}

#[tokio::test]
async fn authority_comes_from_the_link_graph_of_earlier_crawls() {
    let a = TestServer::start(|_| {
        Site::new().route(
            "/",
            page("Site A: the site others link to", "A", LONG_TEXT, &[]),
        )
    })
    .await;
    let a_url = format!("http://a.test:{}/", a.addr.port());
    let a_link = a_url.clone();
    let b = TestServer::start(move |_| {
        Site::new().route(
            "/",
            page(
                "Site B links to A",
                "B",
                LONG_TEXT,
                &[(&a_link, "Our friends at A")],
            ),
        )
    })
    .await;
    let b_url = format!("http://b.test:{}/", b.addr.port());
    let lo = IpAddr::V4(Ipv4Addr::LOCALHOST);
    let analyzer = Analyzer::new(AnalyzerConfig {
        resolver: Some(Arc::new(
            StaticResolver::new()
                .with("a.test", &[lo])
                .with("b.test", &[lo]),
        )),
        ..test_config()
    })
    .expect("analyzer");
    let options = AnalyzeOptions::for_pages(2);
    let first = analyzer
        .analyze(&a_url, &options, &|_| {})
        .await
        .expect("a");
    assert_eq!(
        first.professional.as_ref().and_then(|p| p.domain_authority),
        None
    );
    analyzer
        .analyze(&b_url, &options, &|_| {})
        .await
        .expect("b");
    let again = analyzer
        .analyze(&a_url, &options, &|_| {})
        .await
        .expect("a again");
    let pro = again.professional.expect("pro");
    assert!(pro.domain_authority.is_some());
    let backlinks = figures(&pro);
    assert_eq!(backlinks.referring_domains, 1);
    assert_eq!(backlinks.top_referring_domains[0].domain, "b.test");
    assert_eq!(backlinks.evidence.domains_in_graph, 2);
}

#[tokio::test]
async fn progress_follows_the_spec_steps() {
    let server = TestServer::start(planted_site).await;
    let (_, steps) = analyze_with_progress(&server.url("/"), AnalyzeOptions::basic()).await;
    let got: Vec<(String, u32)> = steps.iter().map(|s| (s.step.clone(), s.progress)).collect();
    let want: Vec<(String, u32)> = domain::constants::steps()
        .into_iter()
        .map(|s| (s.name, s.threshold))
        .collect();
    assert_eq!(got, want);
    assert!(steps.iter().all(|s| !s.message.is_empty()));
}

#[tokio::test]
async fn the_report_json_has_the_contract_shape() {
    let server = TestServer::start(planted_site).await;
    let report = analyze(&server.url("/"), AnalyzeOptions::basic()).await;
    let v = serde_json::to_value(&report).expect("json");
    for key in [
        "id",
        "url",
        "reportType",
        "pagesAnalyzed",
        "createdAt",
        "scores",
        "seoAnalysis",
        "designAnalysis",
        "technicalAnalysis",
        "performanceAnalysis",
        "actionItems",
        "websiteColors",
        "websiteFonts",
        "screenshots",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    let f = &v["seoAnalysis"][0]["findings"][0];
    assert!(
        f["type"].is_string() && f["id"].is_string() && f["title"].is_string(),
        "{f}"
    );
    let perf = &v["performanceAnalysis"];
    let estimated: Vec<&str> = perf["estimated"]
        .as_array()
        .expect("estimated")
        .iter()
        .filter_map(|x| x.as_str())
        .collect();
    for e in [
        "firstContentfulPaint",
        "largestContentfulPaint",
        "cumulativeLayoutShift",
        "totalBlockingTime",
        "speedIndex",
        "timeToInteractive",
    ] {
        assert!(estimated.contains(&e), "{e} is estimated without a browser");
    }
    // Measured over HTTP, so not estimated.
    assert!(!estimated.contains(&"pageSize") && !estimated.contains(&"requestCount"));
    assert_eq!(perf["requestCount"], 1);
    let s = report.scores;
    assert_eq!(
        s.overall,
        domain::score::overall_score(s.seo, s.design, s.technical, s.performance)
    );
    assert!(v["performanceAnalysis"]["metaTagSuggestions"]["title"]["suggested"].is_string());
}

#[tokio::test]
async fn sites_that_cannot_be_analysed_give_clear_errors() {
    let server = TestServer::start(|_| {
        Site::new().route("/doc.pdf", Reply::text("application/pdf", "%PDF-1.7"))
    })
    .await;
    let analyzer = crate::support::util::analyzer();
    let err = analyzer
        .analyze(&server.url("/doc.pdf"), &AnalyzeOptions::basic(), &|_| {})
        .await
        .expect_err("pdf");
    assert!(matches!(err, AnalyzeError::NotHtml { .. }), "{err:?}");
    assert!(
        err.to_string()
            .ends_with("is not a web page: it serves application/pdf"),
        "{err}"
    );

    let err = analyzer
        .analyze("ftp://example.com", &AnalyzeOptions::basic(), &|_| {})
        .await
        .expect_err("scheme");
    assert!(matches!(err, AnalyzeError::InvalidUrl(_)), "{err:?}");

    // Without the exemption the guard refuses the fixture server before connecting.
    let guarded = Analyzer::new(AnalyzerConfig::default()).expect("analyzer");
    let err = guarded
        .analyze(&server.url("/"), &AnalyzeOptions::basic(), &|_| {})
        .await
        .expect_err("refused");
    assert!(
        matches!(err, AnalyzeError::Fetch(FetchError::Refused(_))),
        "{err:?}"
    );
    assert!(err.to_string().contains("loopback"), "{err}");
}

#[tokio::test]
async fn a_silent_server_times_out_with_a_clear_message() {
    let (addr, _) = crate::support::util::silent_server().await;
    let analyzer = Analyzer::new(AnalyzerConfig {
        request_timeout: std::time::Duration::from_millis(300),
        ..test_config()
    })
    .expect("analyzer");
    let err = analyzer
        .analyze(
            &format!("http://{addr}/"),
            &AnalyzeOptions::basic(),
            &|_| {},
        )
        .await
        .expect_err("timeout");
    assert!(
        matches!(err, AnalyzeError::Fetch(FetchError::Timeout { .. })),
        "{err:?}"
    );
    assert!(err.to_string().contains("did not answer within"), "{err}");
}

/// An image the browser's load waited for in vain is not waited for a second time: the HTTP
/// side records it as failed without asking its server again.
#[tokio::test]
async fn an_asset_the_load_gave_up_on_is_not_fetched_again() {
    let (silent, accepted) = crate::support::util::silent_server().await;
    let slow = format!("http://{silent}/hero%20bild.png");
    let page = format!(
        "<!doctype html><html lang=\"de\"><head><meta charset=\"utf-8\"><title>Größe</title></head>\
         <body><h1>Über uns</h1><img src=\"http://{silent}/hero bild.png#top\" alt=\"Held\"></body></html>"
    );
    let site = TestServer::start(move |_| Site::new().route("/", Reply::html(page.clone()))).await;
    let analyzer = crate::support::util::analyzer();
    let (ended, gate) = analyzer::LoadGate::closed();
    let _ = ended.send(vec![slow.clone()]);
    let report = analyzer
        .analyze_after_load(&site.url("/"), &AnalyzeOptions::basic(), &|_| {}, &gate)
        .await
        .expect("the analysis");
    assert_eq!(accepted.load(std::sync::atomic::Ordering::SeqCst), 0);
    let all = findings(&report);
    let broken = finding(&all, "tech.broken-assets");
    assert!(
        broken.description.contains("hero%20bild.png"),
        "{}",
        broken.description
    );
}

#[tokio::test]
async fn sitemap_indexes_x_robots_tag_and_hreflang_return_links() {
    let server = TestServer::start(|base| {
        let alt = |lang: &str, path: &str| format!("<link rel=\"alternate\" hreflang=\"{lang}\" href=\"{base}{path}\">");
        let with_head = |reply: Reply, head: String| Reply {
            body: String::from_utf8_lossy(&reply.body).replace("<head>", &format!("<head>{head}")).into_bytes(),
            ..reply
        };
        let links: &[(&str, &str)] = &[("/en", "English version"), ("/de", "Deutsche Version"), ("/", "Home")];
        let en = with_head(
            page("Handmade oak furniture from the Acme workshop", "Oak furniture", LONG_TEXT, links),
            alt("en", "/en") + &alt("de", "/de") + &alt("x-default", "/en"),
        );
        // The German page names only itself: no return link to /en.
        let de = with_head(
            page("Handgefertigte Eichenmöbel aus der Acme-Werkstatt", "Eichenmöbel", LONG_TEXT, links),
            alt("de", "/de"),
        )
        .header("X-Robots-Tag", "noindex");
        let index = format!(
            r#"<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>{base}/sitemap-pages.xml</loc></sitemap></sitemapindex>"#
        );
        let pages = format!(
            r#"<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>{base}/</loc></url><url><loc>{base}/en</loc></url><url><loc>{base}/de</loc></url></urlset>"#
        );
        Site::new()
            .route("/", page("Acme Furniture: handmade oak tables and chairs", "Acme", LONG_TEXT, links))
            .route("/en", en)
            .route("/de", de)
            .route("/robots.txt", Reply::text("text/plain", "User-agent: *\nDisallow:\n"))
            .route("/sitemap.xml", Reply::text("application/xml", index))
            .route("/sitemap-pages.xml", Reply::text("application/xml", pages))
    })
    .await;
    let report = analyze(&server.url("/"), AnalyzeOptions::for_pages(10)).await;
    let all = findings(&report);
    let f = finding(&all, "seo.sitemap");
    assert_eq!(f.kind, FindingType::Good, "{}", f.description);
    assert!(
        f.description
            .contains("3 URLs in 2 sitemap document(s) (with a sitemap index)"),
        "{}",
        f.description
    );
    assert_eq!(
        finding(&all, "seo.sitemap.robots").kind,
        FindingType::Warning
    );
    let f = finding(&all, "seo.sitemap.entries");
    assert!(
        f.kind == FindingType::Issue && f.description.contains("/de (noindex)"),
        "{}",
        f.description
    );
    let f = finding(&all, "seo.indexable");
    assert!(
        f.kind == FindingType::Issue && f.description.contains("X-Robots-Tag: noindex"),
        "{}",
        f.description
    );
    let f = finding(&all, "seo.hreflang.return-links");
    assert_eq!(f.kind, FindingType::Issue, "{}", f.description);
    assert!(
        f.description.contains("/en → /de has no link back"),
        "{}",
        f.description
    );
    assert_eq!(finding(&all, "seo.hreflang").kind, FindingType::Good);
}

#[tokio::test]
async fn a_slow_site_gets_a_partial_report_instead_of_a_timeout() {
    let server = TestServer::start(|_| {
        let links: Vec<(String, String)> = (0..30)
            .map(|i| (format!("/slow/{i}"), format!("Slow article number {i}")))
            .collect();
        let refs: Vec<(&str, &str)> = links
            .iter()
            .map(|(h, l)| (h.as_str(), l.as_str()))
            .collect();
        let mut site = Site::new().route(
            "/",
            page(
                "Acme Furniture: handmade oak tables and chairs",
                "Acme",
                LONG_TEXT,
                &refs,
            ),
        );
        for (href, _) in &links {
            site.add(href, Reply::silent());
        }
        site
    })
    .await;
    let analyzer = Analyzer::new(AnalyzerConfig {
        request_timeout: std::time::Duration::from_millis(400),
        analysis_timeout: std::time::Duration::from_secs(3),
        per_host_concurrency: 2,
        ..test_config()
    })
    .expect("analyzer");
    let report = analyzer
        .analyze(&server.url("/"), &AnalyzeOptions::for_pages(20), &|_| {})
        .await
        .expect("a partial report, not a timeout");
    assert!(report.pages_analyzed < 20, "{}", report.pages_analyzed);
    let f = finding(&findings(&report), "seo.crawl.incomplete").clone();
    assert_eq!(f.kind, FindingType::Warning);
    assert!(
        f.description.contains("the crawl stopped after"),
        "{}",
        f.description
    );
}

/// While the browser times the page's load, the HTTP side sends the site nothing beyond the
/// start page: robots.txt, sitemaps, other pages and assets wait for the gate, then all come.
#[tokio::test]
async fn the_crawl_waits_for_the_timed_load() {
    let site = TestServer::start(planted_site).await;
    let analyzer = crate::support::util::analyzer();
    let (open, gate) = analyzer::LoadGate::closed();
    let url = site.url("/");
    let task = tokio::spawn(async move {
        analyzer
            .analyze_after_load(&url, &AnalyzeOptions::for_pages(10), &|_| {}, &gate)
            .await
    });
    // The start page is fetched at once; nothing else while the gate stays closed.
    while site.gets("/") == 0 {
        tokio::task::yield_now().await;
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(
        site.hits(),
        vec!["GET /".to_owned()],
        "before the gate opened"
    );
    let _ = open.send(Vec::new());
    let report = task
        .await
        .expect("the analysis task")
        .expect("the analysis");
    assert_eq!(site.gets("/robots.txt"), 1);
    assert!(site.gets("/about") >= 1, "{:?}", site.hits());
    assert!(report.scores.seo > 0);
}
