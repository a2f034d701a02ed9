//! Real-world text the ASCII fixtures never showed: Arabic, Japanese and Russian pages with
//! emoji, non-ASCII CSS, non-ASCII paths and IDN hosts, stylesheets of several megabytes, and
//! third-party hosts that do not resolve. Each analysis must finish with a sensible report.

use analyzer::AnalyzeOptions;
use analyzer::browser::BrowserPool;
use domain::report::{AnalysisReport, FindingType};

use crate::support::server::{Reply, Site, TestServer, fixture};
use crate::support::util::{analyze, analyzer, findings, test_config};

/// The Japanese page the fixture links to, as the request line carries it.
const JA_PATH: &str = "/stra%C3%9Fe/%E3%83%9A%E3%83%BC%E3%82%B8";
/// `/стиль.css`, percent-encoded.
const CSS_PATH: &str = "/%D1%81%D1%82%D0%B8%D0%BB%D1%8C.css";

async fn unicode_site() -> TestServer {
    TestServer::start(|base| {
        Site::new()
            .route("/", Reply::html(fixture("unicode/page.html", base)))
            .route(
                CSS_PATH,
                Reply::text("text/css; charset=utf-8", fixture("unicode/style.css", base)),
            )
            .route(
                JA_PATH,
                Reply::html(
                    "<!DOCTYPE html><html lang=\"ja\"><head><meta charset=\"utf-8\"><title>ページ — 本の一覧</title></head>\
                     <body><h1>本の一覧</h1><p>日本語のページです。<a href=\"/\">トップへ戻る</a></p></body></html>",
                ),
            )
            .route(
                "/robots.txt",
                Reply::text(
                    "text/plain; charset=utf-8",
                    format!("# Règles — «robots»\nUser-agent: *\nDisallow: /книги\nSitemap: {base}/sitemap.xml\n"),
                ),
            )
            .route(
                "/sitemap.xml",
                Reply::text(
                    "application/xml",
                    format!(
                        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\
                         <url><loc>{base}/</loc></url><url><loc>{base}{JA_PATH}</loc></url>\
                         <url><loc>https://bücher.example/straße</loc></url></urlset>"
                    ),
                ),
            )
    })
    .await
}

fn kind(report: &AnalysisReport, id: &str) -> Option<FindingType> {
    findings(report).get(id).map(|f| f.kind)
}

fn assert_sensible(report: &AnalysisReport) {
    for s in [
        report.scores.overall,
        report.scores.seo,
        report.scores.design,
        report.scores.technical,
        report.scores.performance,
    ] {
        assert!(s <= 100, "{:?}", report.scores);
    }
    assert!(!report.seo_analysis.is_empty() && !report.technical_analysis.is_empty());
}

#[tokio::test]
async fn a_multilingual_page_with_unresolvable_third_parties_is_reported() {
    let site = unicode_site().await;
    let report = analyze(&site.url("/"), AnalyzeOptions::for_pages(5)).await;
    assert_sensible(&report);
    // The Japanese page behind a non-ASCII link is crawled; the robots-blocked Russian one is not.
    assert_eq!(report.pages_analyzed, 2, "{:?}", site.hits());
    assert_eq!(site.gets(JA_PATH), 1, "{:?}", site.hits());
    assert!(
        !site
            .hits()
            .iter()
            .any(|h| h.contains("%D0%BA%D0%BD%D0%B8%D0%B3%D0%B8"))
    );
    // Titles and descriptions are measured in characters, whatever the script.
    let all = findings(&report);
    let title = &all["seo.title"];
    assert!(
        title.description.contains("مكتبة الكتب"),
        "{}",
        title.description
    );
    // The page's own non-ASCII stylesheet gives the palette and the fonts.
    assert!(
        report.website_colors.contains(&"#c0392b".to_owned()),
        "{:?}",
        report.website_colors
    );
    assert!(
        report
            .website_fonts
            .contains(&"ヒラギノ角ゴ Pro".to_owned()),
        "{:?}",
        report.website_fonts
    );
    // The third-party host that does not resolve is a finding, not a failure or a wait.
    let broken = &all["tech.broken-assets"];
    assert_eq!(broken.kind, FindingType::Issue);
    for name in ["x.js", "theme.css", "cover.jpg"] {
        assert!(
            broken.description.contains(name),
            "{name}: {}",
            broken.description
        );
    }
    assert!(
        !broken.description.contains("стиль"),
        "{}",
        broken.description
    );
    // Non-ASCII alt text counts as alt text.
    assert_eq!(kind(&report, "seo.image-alt"), Some(FindingType::Good));
}

/// A stylesheet of several megabytes (linked) and one of two (inline), full of non-ASCII
/// comments and `rgb` in variable names with no parenthesis after them: reading colours from it
/// once took time quadratic in its size.
fn huge_css(megabytes: usize) -> String {
    let rule = ".c{--bs-primary-rgb:13,110,253;color:#5a3e9b} /* цвет — «фиолетовый» 紫 */\n";
    let mut css = String::from("@charset \"UTF-8\";\nbody{font-family:\"Noto Serif JP\",serif}\n");
    while css.len() < megabytes * 1024 * 1024 {
        css.push_str(rule);
    }
    css
}

/// A page nested 50,000 levels deep (with a script at every level, which once took html5ever
/// minutes) is analysed like any page: nesting past Chromium's 512 levels is flattened before
/// parsing, and the text at the bottom is still read.
#[tokio::test]
async fn a_pathologically_deep_page_is_analysed() {
    let depth = 50_000;
    let body = format!(
        "{}<p>Deepest words on the page.</p>{}",
        "<div><script>var x = 1;</script>".repeat(depth),
        "</div>".repeat(depth)
    );
    let html = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Deep</title></head>\
         <body>{body}</body></html>"
    );
    let doc = analyzer::page::parse(&html, &url::Url::parse("http://a.test/").expect("url"));
    assert!(doc.text.contains("Deepest words"), "{}", doc.text.len());
    let site = TestServer::start(move |_base| Site::new().route("/", Reply::html(html))).await;
    let report = analyze(&site.url("/"), AnalyzeOptions::basic()).await;
    assert_sensible(&report);
}

#[tokio::test]
async fn huge_stylesheets_are_read_in_full() {
    let site = TestServer::start(|_| {
        let page = format!(
            "<!DOCTYPE html><html lang=\"ru\"><head><meta charset=\"utf-8\"><title>Огромная таблица стилей</title>\
             <link rel=\"stylesheet\" href=\"/huge.css\"><style>{}</style></head><body><h1>Привет</h1></body></html>",
            huge_css(2)
        );
        Site::new()
            .route("/", Reply::html(page))
            .route("/huge.css", Reply::text("text/css", huge_css(6)))
    })
    .await;
    let report = analyze(&site.url("/"), AnalyzeOptions::basic()).await;
    assert_sensible(&report);
    assert_eq!(
        report.website_colors.first().map(String::as_str),
        Some("#5a3e9b")
    );
    assert_eq!(report.website_fonts, vec!["Noto Serif JP"]);
}

#[tokio::test]
async fn the_browser_measures_the_multilingual_page_when_chromium_is_installed() {
    let config = test_config();
    let pool = BrowserPool::from_config(analyzer::browser::BrowserSettings::default(), &config);
    if !pool
        .settings()
        .chromium
        .as_ref()
        .is_some_and(|p| p.exists())
    {
        eprintln!("skipped: no Chromium");
        return;
    }
    let site = unicode_site().await;
    let store = analyzer::browser::LocalBlobStore::new(
        std::env::temp_dir().join(format!("sitelens-unicode-{}", std::process::id())),
        "/b/",
    );
    let (report, err) = analyzer::browser::merge::analyze_with_browser(
        &analyzer(),
        &pool,
        &store,
        &site.url("/"),
        &AnalyzeOptions::basic(),
        &|_| {},
    )
    .await
    .expect("report");
    pool.shutdown().await;
    assert!(err.is_none(), "{err:?}");
    assert_sensible(&report);
    // Measured in Chromium: the figures are no longer estimates, and the hosts that do not
    // resolve are named.
    assert!(
        !report
            .performance_analysis
            .estimated
            .iter()
            .any(|e| e == "firstContentfulPaint"),
        "{:?}",
        report.performance_analysis.estimated
    );
    let all = findings(&report);
    let unanswered = &all["perf.unanswered-requests"];
    assert!(
        unanswered
            .description
            .contains("cdn.does-not-exist.invalid"),
        "{}",
        unanswered.description
    );
}

// Property tests over arbitrary Unicode for the public text and URL helpers.
proptest::proptest! {
    /// A robots.txt of any text parses; a path is blocked exactly when a Disallow rule is named
    /// for it, and a rule's own literal pattern always matches itself.
    #[test]
    fn robots_txt_of_any_text(text in "\\PC{0,300}", path in "/\\PC{0,30}", literal in "/[^*$]{0,20}") {
        let r = analyzer::robots::Robots::parse(&format!("User-agent: *\n{text}\nDisallow: {literal}\n"));
        for token in ["sitelens", "*"] {
            let allowed = r.is_allowed(token, &path);
            proptest::prop_assert_eq!(allowed, r.blocking_rule(token, &path).is_none());
        }
        proptest::prop_assert!(analyzer::robots::pattern_matches(&literal, &literal));
        let anchored = format!("{literal}$");
        proptest::prop_assert!(analyzer::robots::pattern_matches(&anchored, &literal));
    }

    /// Every http(s) `<loc>` of a url set comes back, whatever its path, and nothing else does.
    #[test]
    fn sitemap_locations_round_trip(paths in proptest::collection::vec("[\\PC&&[^<>&\\s]]{0,12}", 0..6), junk in "[\\PC&&[^<>&]]{0,20}") {
        let urls: Vec<String> = paths.iter().map(|p| format!("https://bücher.example/{p}")).collect();
        let body: String = urls.iter().map(|u| format!("<url><loc> {u} </loc></url>")).collect();
        let xml = format!("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">{body}<url><loc>{junk}</loc></url></urlset>");
        let doc = analyzer::sitemap::parse(&xml).expect("well-formed");
        proptest::prop_assert!(doc.locs.len() >= urls.len());
        proptest::prop_assert_eq!(doc.locs.len() + doc.invalid_entries, urls.len() + 1);
        for (loc, u) in doc.locs.iter().zip(&urls) {
            proptest::prop_assert_eq!(loc, &url::Url::parse(u).expect("url").to_string());
        }
    }

    /// The crawl's URL helpers on links with any text: fragments go, normalising twice is
    /// normalising once, robots.txt sees an absolute path, same-site is symmetric.
    #[test]
    fn crawl_url_helpers(link in "\\PC{0,40}", host in "(www\\.)?(bücher|пример|example)\\.(example|рф|com)") {
        use analyzer::crawl::{normalized, path_and_query, same_site};
        let base = url::Url::parse(&format!("https://{host}/straße/")).expect("base");
        if let Ok(u) = base.join(&link) {
            let n = normalized(&u);
            proptest::prop_assert!(n.fragment().is_none());
            proptest::prop_assert_eq!(normalized(&n), n.clone());
            proptest::prop_assert_eq!(same_site(&base, &n), same_site(&n, &base));
            if n.scheme() == "https" {
                proptest::prop_assert!(path_and_query(&n).starts_with('/'));
                proptest::prop_assert!(analyzer::checks::short_url(n.as_str()).starts_with('/'));
            }
        }
        proptest::prop_assert!(same_site(&base, &base));
    }

    /// Characters are counted as people count them; lists keep at most `n` items.
    #[test]
    fn counting_and_listing(items in proptest::collection::vec("\\PC{0,10}", 0..8), n in 0usize..5) {
        for i in &items {
            proptest::prop_assert_eq!(analyzer::checks::chars(i), i.chars().count());
        }
        let l = analyzer::checks::list(&items, n);
        if items.len() > n {
            let more = format!(" and {} more", items.len() - n);
            proptest::prop_assert!(l.ends_with(&more), "{}", l);
        } else {
            proptest::prop_assert_eq!(l, items.join(", "));
        }
    }

    /// Language tags: any text is judged without panicking, and case never changes the verdict.
    #[test]
    fn language_tags(tag in "\\PC{0,12}|[a-zA-Z]{2,3}(-[a-zA-Z]{4})?(-([a-zA-Z]{2}|[0-9]{3}))?") {
        use analyzer::checks::seo::valid_language_tag;
        proptest::prop_assert_eq!(
            valid_language_tag(&tag),
            valid_language_tag(&tag.to_ascii_uppercase())
        );
    }

    /// Host keys: the www twin of the twin is the host unless it starts with "www.www.".
    #[test]
    fn hosts(link in "https://(www\\.)?[a-zäöüß日]{1,10}\\.(example|рф)(/\\PC{0,10})?") {
        if let Some(host) = analyzer::authority::host_of(&link).filter(|h| !h.starts_with("www.www.")) {
            proptest::prop_assert_eq!(host.clone(), host.to_ascii_lowercase());
            proptest::prop_assert!(host.is_ascii(), "IDN hosts are kept in their ASCII form: {}", host);
            proptest::prop_assert_eq!(analyzer::authority::www_twin(&analyzer::authority::www_twin(&host)), host);
        }
    }
}
