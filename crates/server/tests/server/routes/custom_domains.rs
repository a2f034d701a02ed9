//! Custom domains on both engines, checked against a real DNS server (`scripts/dns-zone.py`:
//! dnslib on 127.0.0.1, answering from a zone file the test rewrites): who may set, verify and
//! remove a domain (anonymous, the agency, a team member, a team admin, a site admin, another
//! user), what is a domain, the TXT record found, missing, wrong, split in strings, and a
//! resolver that fails or never answers; a domain taken by another agency; and routing by
//! `Host`: a verified domain serves its agency's branded reports only, an unknown host is 421,
//! our own host is unchanged, and the canonical tag and `publicUrl` name the custom domain.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::accounts::Browser;
use super::api_keys::{Cast, cast, signed_up};
use super::{Case, JSON, case};
use crate::support::{TestApp, TestDb, WEB_ONLY, config, each_engine, spawn_app, under_ci};

const DOMAIN: &str = "/api/white-label/domain";
const VERIFY: &str = "/api/white-label/domain/verify";

/// Malformed custom-domain requests.
pub fn malformed() -> Vec<Case> {
    vec![
        case("GET", DOMAIN, None, "", 401),
        case("PUT", DOMAIN, JSON, r#"{"domain": "a.example"}"#, 401),
        case("DELETE", DOMAIN, None, "", 401),
        case("POST", VERIFY, None, "", 401),
        case("POST", DOMAIN, JSON, "{}", 405),
        case("GET", VERIFY, None, "", 405),
    ]
}

/// Where `just setup` installs dnslib (`SITELENS_TEST_DNSLIB` overrides it).
fn dnslib_dir() -> PathBuf {
    std::env::var_os("SITELENS_TEST_DNSLIB")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../.tools/dnslib"))
}

/// A real DNS server on 127.0.0.1 answering from `zone`, a file in RFC 1035 format the test
/// rewrites to change the answers.
struct Dns {
    _child: tokio::process::Child,
    port: u16,
    zone: PathBuf,
}

impl Dns {
    /// Starts it with an empty zone; `None` (with a warning, or a failure under CI) when dnslib
    /// is not installed.
    async fn start(dir: &Path) -> Option<Dns> {
        if !dnslib_dir().join("dnslib").is_dir() {
            assert!(!under_ci(), "dnslib is not installed: run `just setup`");
            eprintln!(
                "WARNING: dnslib is not installed (run `just setup`): the custom-domain test is skipped"
            );
            return None;
        }
        let zone = dir.join("zone.txt");
        std::fs::write(&zone, "").expect("zone");
        let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scripts/dns-zone.py");
        let mut child = tokio::process::Command::new("python3")
            .arg("-S")
            .arg(script)
            .arg(&zone)
            .env("PYTHONPATH", dnslib_dir())
            .stdout(std::process::Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("python3 runs");
        let port = crate::support::printed_port(&mut child).await;
        Some(Dns {
            _child: child,
            port,
            zone,
        })
    }

    fn answer(&self, zone: &str) {
        std::fs::write(&self.zone, zone).expect("zone");
    }
}

/// The proof for `settings` (a `GET` answer) as a zone line, its value split in two strings.
fn proof(settings: &Value) -> String {
    let name = settings["customDomain"]["recordName"]
        .as_str()
        .expect("name");
    let value = settings["customDomain"]["recordValue"]
        .as_str()
        .expect("value");
    let (a, b) = value.split_at(20);
    format!("{name}. 60 IN TXT \"v=spf1 -all\"\n{name}. 60 IN TXT \"{a}\" \"{b}\"\n")
}

async fn app_with_dns(db: &TestDb, dns: &Dns) -> TestApp {
    let mut config = config(db);
    config.dns_resolver = Some(format!("127.0.0.1:{}", dns.port).parse().expect("addr"));
    spawn_app(config, WEB_ONLY).await
}

/// The DNS server with an empty zone and the app that asks it; `None` without dnslib.
async fn with_dns(db: &TestDb) -> Option<(Dns, TestApp)> {
    let dns = Dns::start(db.dir()).await?;
    let app = app_with_dns(db, &dns).await;
    Some((dns, app))
}

/// Signs up an account on `plan`; its browser and id.
async fn agency<'a>(app: &'a TestApp, email: &str, name: &str, plan: &str) -> (Browser<'a>, i64) {
    let (b, id) = signed_up(&app.web, email, name).await;
    store::users::set_subscription_plan(&app.running.db, id, plan)
        .await
        .expect("plan");
    brand(&app.running.db, id, name).await;
    (b, id)
}

/// Saves a brand for `user`: a custom domain serves branded reports only.
async fn brand(db: &store::DatabaseConnection, user: i64, name: &str) {
    store::accounts::save_branding(
        db,
        user,
        &store::accounts::Branding {
            company_name: format!("Agency {name}"),
            ..store::accounts::Branding::default()
        },
    )
    .await
    .expect("brand");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn custom_domain_routes_answer_by_who_asks() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let Some((dns, app)) = with_dns(&db).await else {
            return;
        };
        let store_db = app.running.db.clone();
        let Cast {
            mut owner,
            owner_id,
            mut member,
            mut team_admin,
            mut site_admin,
            mut other,
            mut anonymous,
        } = cast(&app.web, &store_db).await;
        store::users::set_subscription_plan(&store_db, owner_id, "agency")
            .await
            .expect("plan");
        let put = json!({"domain": "reports.agency.example"});

        // Anonymous: sign in first.
        assert_eq!(anonymous.get(DOMAIN).await.status, 401);
        assert_eq!(anonymous.send("PUT", DOMAIN, Some(put.clone())).await.status, 401);
        assert_eq!(anonymous.send("DELETE", DOMAIN, None).await.status, 401);
        assert_eq!(anonymous.post(VERIFY, json!({})).await.status, 401);

        // Another user, a site admin (both on the basic plan), a team member and a team
        // admin of the agency: refused, saying why.
        for (who, b, why) in [
            ("other", &mut other, "Agency and Enterprise plans"),
            ("site admin", &mut site_admin, "Agency and Enterprise plans"),
            ("member", &mut member, "team's owner"),
            ("team admin", &mut team_admin, "team's owner"),
        ] {
            for answer in [
                b.get(DOMAIN).await,
                b.send("PUT", DOMAIN, Some(put.clone())).await,
                b.send("DELETE", DOMAIN, None).await,
                b.post(VERIFY, json!({})).await,
            ] {
                assert_eq!(answer.status, 403, "{engine:?} {who}: {}", answer.json);
                let text = answer.json["error"].as_str().unwrap_or_default();
                assert!(text.contains(why), "{engine:?} {who}: {text}");
            }
        }

        // The agency: nothing yet, then what is not a domain is refused with its reason.
        let first = owner.get(DOMAIN).await;
        assert_eq!(first.status, 200, "{engine:?}: {}", first.json);
        assert_eq!(first.json["customDomain"], Value::Null);
        assert_eq!(first.json["targetHost"], "sitelens.test");
        assert_eq!(owner.post(VERIFY, json!({})).await.status, 404);
        for (typed, why) in [
            ("https://reports.agency.example", "without http"),
            ("192.0.2.7", "not an IP address"),
            ("localhost", "localhost"),
            ("reports", "with a dot"),
            ("app.sitelens.test", "own address"),
            ("reports.agency.example:8443", "port"),
        ] {
            let refused = owner.send("PUT", DOMAIN, Some(json!({"domain": typed}))).await;
            assert_eq!(refused.status, 422, "{engine:?} {typed}: {}", refused.json);
            let text = refused.json["error"].as_str().unwrap_or_default();
            assert!(text.contains(why), "{typed}: {text}");
        }
        let mut forged = owner.clone();
        forged.drop_csrf();
        assert_eq!(forged.send("PUT", DOMAIN, Some(put.clone())).await.status, 403);

        // A domain serves branded reports: first the brand, then the domain.
        let unbranded = owner.send("PUT", DOMAIN, Some(put.clone())).await;
        assert_eq!(unbranded.status, 409, "{engine:?}: {}", unbranded.json);
        assert_eq!(unbranded.json["error"], domain::custom_domain::NO_BRAND);
        assert_eq!(owner.get(DOMAIN).await.json["customDomain"], Value::Null);
        brand(&store_db, owner_id, "owner").await;

        // Set: normalised, unverified, with the record to add.
        let set = owner
            .send("PUT", DOMAIN, Some(json!({"domain": " Reports.AGENCY.example. "})))
            .await;
        assert_eq!(set.status, 200, "{engine:?}: {}", set.json);
        let status = &set.json["customDomain"];
        assert_eq!(status["domain"], "reports.agency.example");
        assert_eq!(status["verified"], false);
        assert_eq!(status["recordName"], "_sitelens-verify.reports.agency.example");
        let value = status["recordValue"].as_str().expect("value").to_owned();
        assert!(value.starts_with("sitelens-verify=") && value.len() == 48, "{value}");
        let kinds: Vec<&str> = set.json["records"]
            .as_array()
            .expect("records")
            .iter()
            .filter_map(|r| r["kind"].as_str())
            .collect();
        assert_eq!(kinds, ["TXT", "CNAME"]);
        assert_eq!(set.json["records"][1]["value"], "sitelens.test");
        // The same domain again keeps its token.
        let again = owner.send("PUT", DOMAIN, Some(put.clone())).await;
        assert_eq!(again.json["customDomain"]["recordValue"], value.as_str());

        // No record, then a wrong one: not verified, and the last error says which.
        let missing = owner.post(VERIFY, json!({})).await;
        assert_eq!(missing.status, 200, "{engine:?}: {}", missing.json);
        assert_eq!(missing.json["customDomain"]["verified"], false);
        let error = missing.json["customDomain"]["lastError"].as_str().unwrap_or_default();
        assert!(error.contains("No TXT record was found"), "{engine:?}: {error}");
        assert!(missing.json["customDomain"]["checkedAt"].is_string());
        dns.answer(
            "_sitelens-verify.reports.agency.example. 60 IN TXT \"sitelens-verify=00000000000000000000000000000000\"\n",
        );
        let wrong = owner.post(VERIFY, json!({})).await;
        assert_eq!(wrong.json["customDomain"]["verified"], false);
        let error = wrong.json["customDomain"]["lastError"].as_str().unwrap_or_default();
        assert!(error.contains("does not hold") && error.contains(&value), "{error}");

        // The right value, split in two strings among other TXT records: verified.
        dns.answer(&proof(&set.json));
        let verified = owner.post(VERIFY, json!({})).await;
        assert_eq!(verified.status, 200, "{engine:?}: {}", verified.json);
        assert_eq!(verified.json["customDomain"]["verified"], true, "{}", verified.json);
        assert_eq!(verified.json["customDomain"]["lastError"], Value::Null);
        let verified_at = verified.json["customDomain"]["verifiedAt"].clone();
        assert!(verified_at.is_string());

        // A resolver that fails leaves the verification as it was, and says it could not check.
        dns.answer("; SERVFAIL\n");
        let failing = owner.post(VERIFY, json!({})).await;
        assert_eq!(failing.status, 200, "{engine:?}: {}", failing.json);
        assert_eq!(failing.json["customDomain"]["verified"], true);
        assert_eq!(failing.json["customDomain"]["verifiedAt"], verified_at);
        assert_eq!(
            failing.json["customDomain"]["lastError"],
            domain::custom_domain::COULD_NOT_CHECK
        );

        // Taken: another agency cannot have the same domain.
        let (mut rival, _) = agency(&app, "rival@example.com", "rival", "enterprise").await;
        let taken = rival.send("PUT", DOMAIN, Some(put.clone())).await;
        assert_eq!(taken.status, 409, "{engine:?}: {}", taken.json);
        assert_eq!(taken.json["error"], domain::custom_domain::TAKEN);

        // Changing the domain un-verifies it, with a new token.
        let moved = owner
            .send("PUT", DOMAIN, Some(json!({"domain": "audits.agency.example"})))
            .await;
        assert_eq!(moved.json["customDomain"]["verified"], false);
        assert_ne!(moved.json["customDomain"]["recordValue"], value.as_str());
        // The old domain is free again.
        assert_eq!(rival.send("PUT", DOMAIN, Some(put.clone())).await.status, 200);

        // Removed.
        let removed = owner.send("DELETE", DOMAIN, None).await;
        assert_eq!(removed.status, 200, "{engine:?}: {}", removed.json);
        assert_eq!(removed.json["customDomain"], Value::Null);
        assert_eq!(owner.get(DOMAIN).await.json["customDomain"], Value::Null);
        app.running.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_resolver_that_never_answers_is_could_not_check() {
    crate::support::run_on(crate::support::Engine::Sqlite, |db: TestDb| async move {
        let Some(dns) = Dns::start(db.dir()).await else {
            return;
        };
        dns.answer("; SILENT\n");
        let app = app_with_dns(&db, &dns).await;
        let (mut b, _) = agency(&app, "agency@example.com", "agency", "agency").await;
        let set = b
            .send(
                "PUT",
                DOMAIN,
                Some(json!({"domain": "reports.agency.example"})),
            )
            .await;
        assert_eq!(set.status, 200, "{}", set.json);
        let timed_out = b.post(VERIFY, json!({})).await;
        assert_eq!(timed_out.status, 200, "{}", timed_out.json);
        assert_eq!(timed_out.json["customDomain"]["verified"], false);
        assert_eq!(
            timed_out.json["customDomain"]["lastError"],
            domain::custom_domain::COULD_NOT_CHECK
        );
        app.running.shutdown().await;
    })
    .await;
}

/// A finished report of `url`, wearing `agency`'s brand when given; its id.
async fn report(db: &store::DatabaseConnection, url: &str, agency: Option<i64>) -> String {
    let mut report = super::accounts::premium_snapshot();
    report.url = url.to_owned();
    let website = store::websites::record_website_analysis(db, url, store::now())
        .await
        .expect("website");
    let mut row = store::results::NewResult::from_report(&report).expect("row");
    row.is_white_labeled = agency.is_some();
    row.whitelabel_user_id = agency;
    store::results::insert_result(db, website.id, url, report.report_type, &row)
        .await
        .expect("result")
        .to_string()
}

/// A GET with `host` as its `Host`: status, content type and body.
async fn get_as(app: &TestApp, host: &str, path: &str) -> (u16, String, String) {
    let res = app
        .http
        .get(format!("{}{path}", app.base))
        .header("host", host)
        .send()
        .await
        .expect("request");
    let status = res.status().as_u16();
    let kind = res
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    (status, kind, res.text().await.expect("body"))
}

/// Signs up an agency and verifies `domain` for it through the routes; its browser and id.
async fn verified_agency<'a>(
    app: &'a TestApp,
    dns: &Dns,
    email: &str,
    name: &str,
    domain: &str,
) -> (Browser<'a>, i64) {
    let (mut b, id) = agency(app, email, name, "agency").await;
    let set = b
        .send("PUT", DOMAIN, Some(json!({ "domain": domain })))
        .await;
    assert_eq!(set.status, 200, "{}", set.json);
    dns.answer(&proof(&set.json));
    let verified = b.post(VERIFY, json!({})).await;
    assert_eq!(
        verified.json["customDomain"]["verified"], true,
        "{}",
        verified.json
    );
    (b, id)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_verified_domain_serves_only_its_agency_reports() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let Some((dns, app)) = with_dns(&db).await else {
            return;
        };
        let store_db = app.running.db.clone();
        let host = "reports.agency.example";
        let (mut owner, agency_id) =
            verified_agency(&app, &dns, "agency@example.com", "agency", host).await;
        let (_rival, rival_id) =
            verified_agency(&app, &dns, "rival@example.com", "rival", "audits.rival.example").await;
        let (mut pending, _) = agency(&app, "pending@example.com", "pending", "agency").await;
        let set = pending
            .send("PUT", DOMAIN, Some(json!({"domain": "unverified.example"})))
            .await;
        assert_eq!(set.status, 200);

        let ours = report(&store_db, "https://client.example/", Some(agency_id)).await;
        let theirs = report(&store_db, "https://other-client.example/", Some(rival_id)).await;
        let plain = report(&store_db, "https://plain.example/", None).await;
        let public = format!("https://{host}/results/{ours}");

        // The agency's domain: its branded report, page and JSON, canonical there.
        let (status, _, page) = get_as(&app, host, &format!("/results/{ours}")).await;
        assert_eq!(status, 200, "{engine:?}: {page}");
        assert!(
            page.contains(&format!("<link rel=\"canonical\" href=\"{public}\" />")),
            "{engine:?}: the canonical tag names the custom domain"
        );
        let (status, _, json) = get_as(&app, &format!("{host}:443"), &format!("/api/results/{ours}")).await;
        assert_eq!(status, 200, "{engine:?}: {json}");
        let json: Value = serde_json::from_str(&json).expect("JSON");
        assert_eq!(json["publicUrl"], public.as_str());
        assert_eq!(json["success"], true);
        assert_eq!(json["data"]["id"], ours.as_str());
        let (status, kind, _) = get_as(&app, host, &format!("/api/download-report/{ours}")).await;
        assert_eq!((status, kind.as_str()), (200, "application/pdf"));
        let (status, _, _) = get_as(&app, host, "/assets/app-abc123.js").await;
        assert_eq!(status, 200, "the app's assets");
        let (status, _, session) = get_as(&app, host, "/api/session").await;
        assert_eq!((status, session.as_str()), (200, "null"));

        // Nothing else: another agency's report, an unbranded one, our pages and API.
        for path in [
            format!("/results/{theirs}"),
            format!("/api/results/{theirs}"),
            format!("/api/download-report/{theirs}"),
            format!("/results/{plain}"),
            format!("/api/results/{plain}"),
            "/results/not-a-uuid".to_owned(),
            "/".to_owned(),
            "/pricing".to_owned(),
            "/dashboard".to_owned(),
            "/robots.txt".to_owned(),
            "/api/stats".to_owned(),
            DOMAIN.to_owned(),
        ] {
            let (status, _, body) = get_as(&app, host, &path).await;
            assert_eq!(status, 404, "{engine:?} {path}: {body}");
            assert!(!body.contains("client.example"), "{path}");
        }
        let res = app
            .http
            .post(format!("{}/api/download-basic-report", app.base))
            .header("host", host)
            .header("content-type", "application/json")
            .body(json!({"reportId": theirs, "firstName": "A", "lastName": "B", "email": "a@b.example"}).to_string())
            .send()
            .await
            .expect("request");
        assert_eq!(res.status().as_u16(), 404, "another agency's report by the download form");

        // Unknown and unverified hosts: 421, a short plain text; health probes still answer.
        for unknown in ["unknown.example", "unverified.example", "audits.agency.example"] {
            let (status, kind, body) = get_as(&app, unknown, &format!("/results/{ours}")).await;
            assert_eq!(status, 421, "{engine:?} {unknown}: {body}");
            assert!(kind.starts_with("text/plain"), "{kind}");
            assert!(!body.contains(unknown), "the host is not echoed");
        }
        assert_eq!(get_as(&app, "unknown.example", "/healthz").await.0, 200);

        // Our own hosts are served as before, and name the custom domain as the branded
        // report's address; other reports keep ours.
        for own in ["sitelens.test", "localhost:8080", "[::1]:8080"] {
            assert_eq!(get_as(&app, own, "/").await.0, 200, "{own}");
        }
        let (status, _, page) = app.page(&format!("/results/{ours}")).await;
        assert_eq!(status, 200);
        assert!(page.contains(&format!("<link rel=\"canonical\" href=\"{public}\" />")));
        let answer = app.get(&format!("/api/results/{ours}")).await;
        assert_eq!(answer.json["publicUrl"], public.as_str());
        let answer = app.get(&format!("/api/results/{plain}")).await;
        assert_eq!(answer.status, 200);
        assert!(answer.json.get("publicUrl").is_none(), "{}", answer.json);
        let (_, _, page) = app.page(&format!("/results/{plain}")).await;
        assert!(page.contains(&format!("href=\"https://sitelens.test/results/{plain}\"")));

        // Removing the domain stops it at once on this node.
        assert_eq!(owner.send("DELETE", DOMAIN, None).await.status, 200);
        assert_eq!(get_as(&app, host, &format!("/results/{ours}")).await.0, 421);
        let answer = app.get(&format!("/api/results/{ours}")).await;
        assert!(answer.json.get("publicUrl").is_none());
        app.running.shutdown().await;
    })
    .await;
}
