//! The SSRF guard, end to end through the fetcher: every numeric and mapped form of a private
//! address, through redirects and through name resolution. Every refused request is refused
//! before a connection is made, so these tests send no traffic anywhere.

use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;

use analyzer::guard::StaticResolver;
use analyzer::{AnalyzerConfig, FetchError, Fetcher};
use url::Url;

use crate::support::server::{Reply, Site, TestServer};

const LOCALHOST: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);

fn fetcher(config: AnalyzerConfig) -> Fetcher {
    Fetcher::new(Arc::new(config)).expect("client")
}

/// The guard on, with 127.0.0.1 alone exempt so a fixture server can start a redirect chain.
fn exempt_localhost() -> AnalyzerConfig {
    AnalyzerConfig {
        exempt_addresses: vec![LOCALHOST],
        resolver: Some(Arc::new(
            StaticResolver::new()
                .with("site.test", &[LOCALHOST])
                .with("rebind.test", &[IpAddr::V4(Ipv4Addr::new(10, 0, 0, 7))])
                .with(
                    "mixed.test",
                    &[
                        IpAddr::V4(Ipv4Addr::new(93, 184, 216, 34)),
                        IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2)),
                    ],
                ),
        )),
        ..AnalyzerConfig::default()
    }
}

async fn refused(f: &Fetcher, url: &str) -> String {
    let url = Url::parse(url).expect("url");
    match f.get(&url).await {
        Err(e @ FetchError::Refused(_)) => e.to_string(),
        other => panic!("{url} should be refused, got {other:?}"),
    }
}

#[tokio::test]
async fn every_form_of_a_private_address_is_refused_by_default() {
    let server = TestServer::start(|_| Site::new().route("/", Reply::html("<p>hi</p>"))).await;
    let port = server.addr.port();
    let f = fetcher(AnalyzerConfig::default());
    for url in [
        format!("http://127.0.0.1:{port}/"),
        format!("http://2130706433:{port}/"),
        format!("http://0x7f.1:{port}/"),
        format!("http://0x7f000001:{port}/"),
        format!("http://0177.0.0.1:{port}/"),
        format!("http://127.1:{port}/"),
        format!("http://[::1]:{port}/"),
        format!("http://[::ffff:127.0.0.1]:{port}/"),
        format!("http://[::ffff:7f00:1]:{port}/"),
        format!("http://[64:ff9b::7f00:1]:{port}/"),
        format!("http://0.0.0.0:{port}/"),
        format!("http://localhost:{port}/"),
        "http://169.254.169.254/latest/meta-data/".to_owned(),
        "http://[::ffff:169.254.169.254]/".to_owned(),
        "http://10.0.0.1/".to_owned(),
        "http://172.16.5.4/".to_owned(),
        "http://192.168.1.1/".to_owned(),
        "http://100.64.0.1/".to_owned(),
        "http://224.0.0.1/".to_owned(),
        "http://[fd00::1]/".to_owned(),
        "http://[fe80::1]/".to_owned(),
    ] {
        let message = refused(&f, &url).await;
        assert!(message.contains("refused"), "{url}: {message}");
        assert!(
            message.contains("SITELENS_ALLOW_PRIVATE_TARGETS"),
            "the message says how to allow it: {message}"
        );
    }
    assert!(server.hits().is_empty(), "no request reached the server");
}

#[tokio::test]
async fn the_message_names_the_kind_of_address() {
    let f = fetcher(AnalyzerConfig::default());
    let m = refused(&f, "http://169.254.169.254/").await;
    assert!(m.contains("link-local"), "{m}");
    let m = refused(&f, "http://2130706433/").await;
    assert!(m.contains("127.0.0.1") && m.contains("loopback"), "{m}");
    let m = refused(&f, "http://100.100.1.1/").await;
    assert!(m.contains("carrier-grade NAT"), "{m}");
}

#[tokio::test]
async fn allowing_private_targets_reaches_loopback() {
    let server = TestServer::start(|_| Site::new().route("/", Reply::html("<p>hi</p>"))).await;
    let f = fetcher(AnalyzerConfig::allowing_private_targets());
    let page = f
        .get(&Url::parse(&server.url("/")).expect("url"))
        .await
        .expect("fetched");
    assert_eq!(page.status, 200);
    assert_eq!(page.text(), "<p>hi</p>");
    // The numeric form reaches the same server once allowed.
    let numeric = format!("http://2130706433:{}/", server.addr.port());
    let page = f
        .get(&Url::parse(&numeric).expect("url"))
        .await
        .expect("ok");
    assert_eq!(page.status, 200);
}

#[tokio::test]
async fn redirects_into_private_space_are_refused_at_the_hop() {
    let server = TestServer::start(|_| {
        Site::new()
            .route(
                "/metadata",
                Reply::redirect(302, "http://169.254.169.254/latest/"),
            )
            .route("/loopback2", Reply::redirect(301, "http://127.0.0.2/"))
            .route("/numeric", Reply::redirect(301, "http://2130706434/"))
            .route("/mapped", Reply::redirect(307, "http://[::ffff:10.0.0.1]/"))
            .route("/rebind", Reply::redirect(302, "http://rebind.test/"))
            .route("/mixed", Reply::redirect(302, "http://mixed.test/"))
            .route("/chain1", Reply::redirect(301, "/chain2"))
            .route("/chain2", Reply::redirect(301, "http://0x0a.0.0.1/"))
    })
    .await;
    let f = fetcher(exempt_localhost());
    for (path, expect) in [
        ("/metadata", "169.254.169.254"),
        ("/loopback2", "127.0.0.2"),
        ("/numeric", "127.0.0.2"),
        ("/mapped", "10.0.0.1"),
        ("/rebind", "10.0.0.7"),
        ("/mixed", "127.0.0.2"),
        ("/chain2", "10.0.0.1"),
        ("/chain1", "10.0.0.1"),
    ] {
        let m = refused(&f, &server.url(path)).await;
        assert!(m.contains(expect), "{path}: {m}");
    }
}

#[tokio::test]
async fn a_resolved_name_is_connected_to_the_checked_address() {
    let server = TestServer::start(|_| Site::new().route("/", Reply::html("ok"))).await;
    let f = fetcher(exempt_localhost());
    let url = format!("http://site.test:{}/", server.addr.port());
    let page = f
        .get(&Url::parse(&url).expect("url"))
        .await
        .expect("fetched");
    assert_eq!(page.text(), "ok");
    assert_eq!(server.gets("/"), 1);
}

#[tokio::test]
async fn unresolvable_and_unreachable_targets_name_the_cause() {
    let f = fetcher(exempt_localhost());
    let e = f
        .get(&Url::parse("http://nowhere.test/").expect("url"))
        .await
        .expect_err("unresolvable");
    assert!(matches!(e, FetchError::Unresolvable(_)), "{e:?}");
    assert!(
        e.to_string().contains("could not resolve nowhere.test"),
        "{e}"
    );

    // A port nobody listens on: bind, learn the port, close, then connect.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    drop(listener);
    let e = f
        .get(&Url::parse(&format!("http://127.0.0.1:{port}/")).expect("url"))
        .await
        .expect_err("unreachable");
    assert!(matches!(e, FetchError::Unreachable { .. }), "{e:?}");
    assert!(e.to_string().starts_with("could not connect to"), "{e}");

    let e = f
        .get(&Url::parse("ftp://example.com/").expect("url"))
        .await
        .expect_err("scheme");
    assert!(matches!(e, FetchError::UnsupportedScheme(_)), "{e:?}");
}

#[tokio::test]
async fn redirect_loops_and_long_chains_are_errors_with_hops_recorded_otherwise() {
    let server = TestServer::start(|_| {
        let mut site = Site::new()
            .route("/a", Reply::redirect(301, "/b"))
            .route("/b", Reply::redirect(302, "/a"))
            .route("/r1", Reply::redirect(301, "/r2"))
            .route("/r2", Reply::redirect(308, "/final"))
            .route("/final", Reply::html("done"));
        for i in 0..12 {
            site.add(
                &format!("/long{i}"),
                Reply::redirect(302, &format!("/long{}", i + 1)),
            );
        }
        site
    })
    .await;
    let f = fetcher(exempt_localhost());
    let e = f
        .get(&Url::parse(&server.url("/a")).expect("url"))
        .await
        .expect_err("loop");
    assert!(matches!(e, FetchError::RedirectLoop { .. }), "{e:?}");
    let e = f
        .get(&Url::parse(&server.url("/long0")).expect("url"))
        .await
        .expect_err("too long");
    assert!(
        matches!(e, FetchError::TooManyRedirects { max: 10, .. }),
        "{e:?}"
    );
    let ok = f
        .get(&Url::parse(&server.url("/r1")).expect("url"))
        .await
        .expect("chain");
    assert_eq!(ok.final_url.path(), "/final");
    assert_eq!(
        ok.hops.iter().map(|h| h.status).collect::<Vec<_>>(),
        vec![301, 308]
    );
}

#[tokio::test]
async fn compressed_bodies_are_decoded_and_the_cap_holds() {
    use std::io::Write;
    let html = "<p>".to_owned() + &"compressible ".repeat(2000) + "</p>";
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(html.as_bytes()).expect("gzip");
    let gz = gz.finish().expect("gzip");
    let gz_len = gz.len();
    let big = "x".repeat(50_000);
    let server = TestServer::start(move |_| {
        Site::new()
            .route(
                "/gz",
                Reply {
                    status: 200,
                    headers: vec![
                        ("Content-Type".into(), "text/html".into()),
                        ("Content-Encoding".into(), "gzip".into()),
                    ],
                    body: gz,
                },
            )
            .route("/big", Reply::html(big))
    })
    .await;
    let f = fetcher(AnalyzerConfig {
        max_body_bytes: 10_000,
        ..exempt_localhost()
    });
    let page = f
        .get(&Url::parse(&server.url("/gz")).expect("url"))
        .await
        .expect("gz");
    assert_eq!(page.transfer_bytes as usize, gz_len);
    assert!(page.truncated, "decoded size 26 kB exceeds the 10 kB cap");
    assert_eq!(page.body.len(), 10_000);
    let page = f
        .get(&Url::parse(&server.url("/big")).expect("url"))
        .await
        .expect("big");
    assert!(page.truncated);
    assert_eq!(page.body.len(), 10_000);
}
