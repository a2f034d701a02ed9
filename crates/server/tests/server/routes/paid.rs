//! Paid reports: `POST /api/analyze` with a `reportType` (who may ask, what it costs, what is
//! written), what a free and a paid report show through `GET /api/results/{id}` and the PDFs
//! whatever the address says, and the refund of a failed paid analysis.

use domain::credits::Credits;
use domain::report::{
    AnalysisReport, AutoOptimizations, Diagnostic, DiagnosticType, ImageOptimization,
    NewWebsiteProposal, PremiumOptimizations, ReportType,
};
use serde_json::{Value, json};
use store::credits::{Payer, credit_balance, credit_history, grant_credits};
use store::jobs::{NewAnalysis, PaidAnalysis};

use super::accounts::Browser;
use crate::support::{BOTH, TestDb, WEB_ONLY, config, each_engine, join_team, spawn_app};

/// Jobs in the database.
async fn job_count(db: &store::DatabaseConnection) -> usize {
    store::jobs::recent_jobs(db, None, 1000)
        .await
        .expect("jobs")
        .len()
}

fn user_id(answer: &crate::support::Answer) -> i64 {
    answer.json["account"]["id"].as_i64().expect("user id")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn paid_analyses_answer_by_who_asks_and_write_all_or_nothing() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let store_db = app.running.db.clone();
        let standard = json!({"url": "https://paid.example/", "reportType": "standard"});

        // Anonymous: a paid report needs an account; nothing is written.
        let mut anonymous = Browser::new(&app.web);
        let refused = anonymous.post("/api/analyze", standard.clone()).await;
        assert_eq!(refused.status, 401, "{engine:?}: {}", refused.json);
        assert!(
            refused.json["error"]
                .as_str()
                .is_some_and(|e| e.contains("Sign in")),
            "{}",
            refused.json
        );

        // The owner, without credits: 402 with the price and the balance, nothing written.
        let mut owner = Browser::new(&app.web);
        let owner_id = user_id(&owner.sign_up("owner@example.com", "owner").await);
        let short = owner.post("/api/analyze", standard.clone()).await;
        assert_eq!(short.status, 402, "{}", short.json);
        assert_eq!(
            short.json["error"],
            "A Standard report costs 1 credit and you have 0 credits. Buy credits on the pricing page to run it."
        );
        assert_eq!(job_count(&store_db).await, 0, "a refused paid analysis writes no job");
        assert!(
            credit_history(&store_db, owner_id, 10)
                .await
                .expect("ledger")
                .is_empty()
        );

        // With 2 credits: a standard report costs 1, spent with the job in one go.
        grant_credits(&store_db, owner_id, Credits::whole(2), "admin", None)
            .await
            .expect("grant");
        let queued = owner.post("/api/analyze", standard.clone()).await;
        assert_eq!(queued.status, 200, "{}", queued.json);
        let job_id = queued.json["analysisId"].as_str().expect("analysis id");
        let job = store::jobs::get_job(&store_db, job_id.parse().expect("uuid"))
            .await
            .expect("job");
        assert_eq!(job.report_type, ReportType::Standard);
        assert_eq!(job.requested_pages, 10);
        assert_eq!(job.requester_user_id, Some(owner_id), "the owner owns the report");
        let charge = job.charge.expect("charged");
        assert_eq!((charge.paid, charge.paid_by), (Credits::whole(1), owner_id));
        let spend = credit_history(&store_db, owner_id, 10)
            .await
            .expect("ledger")
            .into_iter()
            .find(|e| e.reason == "spend")
            .expect("a spend row");
        assert_eq!(spend.reference.as_deref(), Some(job_id));
        assert_eq!(owner.get("/api/account").await.json["paidCredits"], 1);

        // A team member spends the owner's credits; the report is the member's.
        let mut member = Browser::new(&app.web);
        let member_id = user_id(&member.sign_up("member@example.com", "member").await);
        grant_credits(&store_db, member_id, Credits::whole(5), "admin", None)
            .await
            .expect("grant");
        join_team(&store_db, owner_id, member_id, "member").await;
        let basic = member
            .post(
                "/api/analyze",
                json!({"url": "https://member.example/", "reportType": "basic"}),
            )
            .await;
        assert_eq!(basic.status, 200, "{}", basic.json);
        let job = store::jobs::get_job(
            &store_db,
            basic.json["analysisId"]
                .as_str()
                .expect("id")
                .parse()
                .expect("uuid"),
        )
        .await
        .expect("job");
        assert_eq!(job.requester_user_id, Some(member_id));
        assert_eq!(job.requested_pages, 1);
        let charge = job.charge.expect("charged");
        assert_eq!((charge.paid, charge.paid_by), (Credits::HALF, owner_id));
        let at = store::now();
        assert_eq!(
            credit_balance(&store_db, owner_id, at)
                .await
                .expect("owner")
                .paid,
            Credits::HALF
        );
        assert_eq!(
            credit_balance(&store_db, member_id, at)
                .await
                .expect("member")
                .paid,
            Credits::whole(5),
            "the member's own credits are not spent for the team"
        );
        assert_eq!(member.get("/api/account").await.json["paidCredits"], 0.5);
        // Premium (2) is more than the team's half credit: 402, nothing written.
        let jobs = job_count(&store_db).await;
        let premium = member
            .post(
                "/api/analyze",
                json!({"url": "https://member.example/", "reportType": "premium"}),
            )
            .await;
        assert_eq!(premium.status, 402, "{}", premium.json);
        assert_eq!(
            premium.json["error"],
            "A Premium report costs 2 credits and you have 0.5 credits. Buy credits on the pricing page to run it."
        );
        assert_eq!(job_count(&store_db).await, jobs);

        // Another user, without credits, cannot spend anyone's.
        let mut other = Browser::new(&app.web);
        other.sign_up("other@example.com", "other").await;
        let theirs = other.post("/api/analyze", standard.clone()).await;
        assert_eq!(theirs.status, 402, "{}", theirs.json);

        // Not a report type: a clear 4xx, nothing written.
        let odd = owner
            .post(
                "/api/analyze",
                json!({"url": "https://paid.example/", "reportType": "gold"}),
            )
            .await;
        assert!(
            (400..500).contains(&odd.status) && odd.json["success"] == false,
            "{} {}",
            odd.status,
            odd.json
        );
        assert_eq!(job_count(&store_db).await, jobs);

        // Absent reportType is today's free report, for anyone.
        let free = anonymous
            .post("/api/analyze", json!({"url": "https://paid.example/"}))
            .await;
        assert_eq!(free.status, 200, "{}", free.json);
        app.running.shutdown().await;
    })
    .await;
}

/// A report with every Pro-only part filled: the analyzer's premium snapshot (professional
/// sections, meta tag and content suggestions) plus a Pro-only diagnostic and a premium suite.
pub(crate) fn full_report(url: &str, report_type: ReportType) -> AnalysisReport {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../analyzer/tests/snapshots/analyzer__snapshots__premium_report_of_the_planted_site.snap"
    );
    let text = std::fs::read_to_string(path).expect("the analyzer's premium snapshot");
    let body = text.splitn(3, "---\n").nth(2).expect("snapshot body");
    let mut report: AnalysisReport = serde_json::from_str(body).expect("report");
    report.url = url.to_owned();
    report.report_type = report_type;
    let perf = &mut report.performance_analysis;
    perf.diagnostics.push(Diagnostic {
        id: "perf.lcp".to_owned(),
        kind: DiagnosticType::Error,
        title: "Largest Contentful Paint is slow".to_owned(),
        description: "The largest element painted after 4.6 s.".to_owned(),
        value: "4.6 s".to_owned(),
        potential: "2.1 s".to_owned(),
        solution: "Preload the hero image and serve it as AVIF (pro-only solution)".to_owned(),
        details: Vec::new(),
        pro_only: true,
    });
    perf.premium_optimizations = Some(PremiumOptimizations {
        auto_optimizations: AutoOptimizations {
            images: vec![ImageOptimization {
                title: "Compress hero.jpg (premium suite)".to_owned(),
                description: "Re-encode at quality 80.".to_owned(),
                savings: "184 KB".to_owned(),
            }],
            content: Vec::new(),
            technical: Vec::new(),
        },
        new_website_proposal: NewWebsiteProposal {
            summary: "A faster rebuild (premium suite)".to_owned(),
            features: vec!["Static pages".to_owned()],
            benefits: vec!["Faster first paint".to_owned()],
            included_pages: vec!["Home".to_owned()],
            price: 2500,
            timeline: "4-6 weeks".to_owned(),
        },
    });
    report
}

/// Stores `report` as the result of an analysis: free, or paid by `payer`.
pub(crate) async fn store_report(
    db: &store::DatabaseConnection,
    report: &AnalysisReport,
    payer: Option<i64>,
) -> String {
    let analysis = NewAnalysis {
        url: report.url.clone(),
        canonical_url: report.url.clone(),
        report_type: report.report_type,
        requested_pages: report.report_type.pages(),
        requester_user_id: payer,
        requester_ip: None,
    };
    let job = match payer {
        Some(id) => match store::jobs::enqueue_paid_analysis(
            db,
            Payer::own(id),
            domain::commerce::report_cost(report.report_type),
            &analysis,
        )
        .await
        .expect("enqueue")
        {
            PaidAnalysis::Queued(job) => job,
            PaidAnalysis::Insufficient { .. } => panic!("the payer has credits"),
        },
        None => store::jobs::enqueue_analysis(db, &analysis)
            .await
            .expect("enqueue"),
    };
    finish_job(db, job.id, report).await
}

/// Claims the queued job `id` and completes it with `report`; returns the report's id.
pub(crate) async fn finish_job(
    db: &store::DatabaseConnection,
    id: uuid::Uuid,
    report: &AnalysisReport,
) -> String {
    let claimed = store::jobs::claim_next_job(db, "test")
        .await
        .expect("claim")
        .expect("job");
    assert_eq!(claimed.id, id);
    store::jobs::complete_job(
        db,
        id,
        "test",
        &store::results::NewResult::from_report(report).expect("row"),
    )
    .await
    .expect("complete")
    .to_string()
}

/// Raw bytes of a GET.
async fn bytes(app: &crate::support::TestApp, path: &str) -> (u16, Vec<u8>) {
    let res = app
        .http
        .get(format!("{}{path}", app.base))
        .send()
        .await
        .expect("request");
    (
        res.status().as_u16(),
        res.bytes().await.expect("body").to_vec(),
    )
}

/// The text of a PDF, on one line.
pub(crate) fn pdf_text(pdf: &[u8]) -> String {
    let doc = lopdf::Document::load_mem(pdf).expect("a PDF");
    let pages: Vec<u32> = doc.get_pages().keys().copied().collect();
    doc.extract_text(&pages)
        .expect("text")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// What only a paid report may carry, as it appears in the JSON.
const PRO_ONLY_JSON: [&str; 6] = [
    "Preload the hero image",
    "premium suite",
    "furniture – Workshop",
    "backlinkAnalysis",
    "robotsAnalysis",
    "contentOptimizations",
];

/// What only a paid report's PDF may carry.
const PRO_ONLY_PDF: [&str; 6] = [
    "Preload the hero image",
    "Premium Optimization Suite",
    "In-Depth Site Analysis",
    "robots.txt analysis",
    "sitemap.xml check",
    "Suggested:",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn editing_the_address_of_a_free_report_reveals_nothing() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let store_db = app.running.db.clone();
        let free = store_report(
            &store_db,
            &full_report("https://free.example/", ReportType::Premium),
            None,
        )
        .await;

        let plain = app.get(&format!("/api/results/{free}")).await;
        assert_eq!(plain.status, 200, "{engine:?}: {}", plain.json);
        let data = &plain.json["data"];
        assert_eq!(data["paid"], false);
        let text = plain.json.to_string();
        for secret in PRO_ONLY_JSON {
            assert!(
                !text.contains(secret),
                "{engine:?}: the free JSON has {secret:?}"
            );
        }
        // The free reader keeps the page's own title, the Pro-only diagnostic's figures and
        // its flag; the AI texts and the solution are gone.
        let meta = &data["performanceAnalysis"]["metaTagSuggestions"];
        assert_eq!(
            meta["title"]["current"],
            "Acme Furniture: handmade oak tables and chairs"
        );
        assert_eq!(
            (
                meta["title"]["analysis"].as_str(),
                meta["title"]["suggested"].as_str()
            ),
            (Some(""), Some(""))
        );
        let diagnostic = data["performanceAnalysis"]["diagnostics"]
            .as_array()
            .and_then(|d| d.iter().find(|d| d["proOnly"] == true))
            .expect("the Pro-only diagnostic stays listed");
        assert_eq!(diagnostic["value"], "4.6 s");
        assert_eq!(diagnostic["solution"], "");

        // Every edit of the address gets the same bytes.
        for query in [
            "?paid=true",
            "?paid=true&type=premium",
            "?paid=true&type=standard",
        ] {
            let edited = app.get(&format!("/api/results/{free}{query}")).await;
            assert_eq!(edited.json, plain.json, "{engine:?} {query}");
        }

        // The PDF, downloaded directly or through the lead form, carries none of it either, and
        // the watermark.
        for query in ["", "?paid=true&type=premium"] {
            let (status, pdf) = bytes(&app, &format!("/api/download-report/{free}{query}")).await;
            assert_eq!(status, 200);
            let text = pdf_text(&pdf);
            for secret in PRO_ONLY_PDF {
                assert!(
                    !text.contains(secret),
                    "{engine:?}: the free PDF has {secret:?}"
                );
            }
            assert!(
                text.contains(domain::tier::WATERMARK),
                "{engine:?}: watermarked"
            );
        }
        let lead = app
            .http
            .post(format!("{}/api/download-basic-report?paid=true", app.base))
            .header("content-type", "application/json")
            .body(
                json!({"reportId": free, "email": "lead@example.com", "firstName": "Lea",
                       "lastName": "Reader", "agreeToEmails": true})
                .to_string(),
            )
            .send()
            .await
            .expect("lead");
        assert_eq!(lead.status(), 200);
        let text = pdf_text(&lead.bytes().await.expect("pdf"));
        for secret in PRO_ONLY_PDF {
            assert!(
                !text.contains(secret),
                "{engine:?}: the lead PDF has {secret:?}"
            );
        }

        // A paid premium report shows all of it to whoever holds its link, unwatermarked.
        let mut buyer = Browser::new(&app.web);
        let buyer_id = user_id(&buyer.sign_up("buyer@example.com", "buyer").await);
        grant_credits(&store_db, buyer_id, Credits::whole(2), "admin", None)
            .await
            .expect("grant");
        let paid = store_report(
            &store_db,
            &full_report("https://paid.example/", ReportType::Premium),
            Some(buyer_id),
        )
        .await;
        let answer = app.get(&format!("/api/results/{paid}")).await;
        assert_eq!(answer.json["data"]["paid"], true);
        let text = answer.json.to_string();
        for secret in PRO_ONLY_JSON {
            assert!(
                text.contains(secret),
                "{engine:?}: the paid JSON lacks {secret:?}"
            );
        }
        let (_, pdf) = bytes(&app, &format!("/api/download-report/{paid}")).await;
        let text = pdf_text(&pdf);
        for part in PRO_ONLY_PDF {
            assert!(
                text.contains(part),
                "{engine:?}: the paid PDF lacks {part:?}"
            );
        }
        assert!(!text.contains(domain::tier::WATERMARK), "white-label");
        app.running.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_failed_paid_analysis_gives_its_credits_back_once() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let app = spawn_app(config(&db), BOTH).await;
        let store_db = app.running.db.clone();
        let mut buyer = Browser::new(&app.web);
        let buyer_id = user_id(&buyer.sign_up("refund@example.com", "refund").await);
        grant_credits(&store_db, buyer_id, Credits::whole(1), "admin", None)
            .await
            .expect("grant");
        // Nothing listens on this port: the analysis fails at once.
        let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("port");
        let url = format!("http://{}/", closed.local_addr().expect("addr"));
        drop(closed);
        let queued = buyer
            .post(
                "/api/analyze",
                json!({"url": url, "reportType": "standard"}),
            )
            .await;
        assert_eq!(queued.status, 200, "{engine:?}: {}", queued.json);
        let id = queued.json["analysisId"].as_str().expect("id").to_owned();
        let events = app.follow(&id).await;
        let last: &Value = events.last().expect("events");
        assert_eq!(last["type"], "error", "{engine:?}: {events:?}");

        let job = store::jobs::get_job(&store_db, id.parse().expect("uuid"))
            .await
            .expect("job");
        assert!(job.credits_refunded_at.is_some(), "{job:?}");
        assert_eq!(buyer.get("/api/account").await.json["paidCredits"], 1);
        let ledger = credit_history(&store_db, buyer_id, 20)
            .await
            .expect("ledger");
        let for_job = |reason: &str| {
            ledger
                .iter()
                .filter(|e| e.reason == reason && e.reference.as_deref() == Some(id.as_str()))
                .count()
        };
        assert_eq!((for_job("spend"), for_job("refund")), (1, 1), "{ledger:?}");
        // Recovery passing over the failed job later gives nothing more.
        store::jobs::recover_stale_jobs(&store_db, store::now() + chrono::Duration::days(1))
            .await
            .expect("recover");
        assert_eq!(
            credit_balance(&store_db, buyer_id, store::now())
                .await
                .expect("balance")
                .paid,
            Credits::whole(1)
        );
        app.running.shutdown().await;
    })
    .await;
}

/// An agency's brand, with its logo stored where the white-label settings keep logos.
async fn brand_agency(cfg: &server::config::Config, db: &store::DatabaseConnection, user: i64) {
    let logo_url = format!("/api/white-label/logos/{user}-00c0ffee00c0ffee.png");
    let key = server::services::pdf::logo_blob_key(&logo_url).expect("our logo address");
    let blobs = server::services::blobs::Blobs::from_config(cfg).expect("blobs");
    let png = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/demo/mobile.png")).expect("png");
    blobs
        .put(&key, "image/png", &png)
        .await
        .expect("logo stored");
    store::accounts::save_branding(
        db,
        user,
        &store::accounts::Branding {
            company_name: "Studio Grace".to_owned(),
            logo_url: Some(logo_url),
            primary_color: "#0D6EFD".to_owned(),
            contact_email: Some("hello@grace.example".to_owned()),
            ..store::accounts::Branding::default()
        },
    )
    .await
    .expect("branding");
}

/// Branded reports (docs/PRODUCT.md §1.5, §9.2): every report of a white-label account and a
/// paid Premium report of anyone who saved a brand wear that brand in their JSON, their page and
/// their PDF, with nothing of Sitelens; every other report stays ours.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_branded_report_wears_its_agency_and_nothing_of_ours() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let cfg = config(&db);
        let app = spawn_app(cfg.clone(), WEB_ONLY).await;
        let store_db = app.running.db.clone();

        // An agency (its plan includes white-label) with a brand.
        let mut agency = Browser::new(&app.web);
        let agency_id = user_id(&agency.sign_up("studio@grace.example", "studio").await);
        store::users::set_subscription_plan(&store_db, agency_id, "agency")
            .await
            .expect("plan");
        brand_agency(&cfg, &store_db, agency_id).await;
        grant_credits(&store_db, agency_id, Credits::whole(4), "admin", None)
            .await
            .expect("grant");
        let standard = store_report(
            &store_db,
            &full_report("https://client.example/", ReportType::Standard),
            Some(agency_id),
        )
        .await;

        let answer = app.get(&format!("/api/results/{standard}")).await;
        assert_eq!(answer.status, 200, "{engine:?}: {}", answer.json);
        let brand = &answer.json["data"]["branding"];
        assert_eq!(brand["companyName"], "Studio Grace", "{engine:?}");
        assert_eq!(brand["primaryColor"], "#0D6EFD");
        assert_eq!(brand["contactEmail"], "hello@grace.example");

        // The page: the agency's frame and head, no header, footer, link or upsell of ours.
        let (status, _, html) = app.page(&format!("/results/{standard}")).await;
        assert_eq!(status, 200);
        assert!(html.contains("Report prepared by Studio Grace"), "{html}");
        assert!(html.contains("<meta property=\"og:site_name\" content=\"Studio Grace\" />"));
        assert!(html.contains("/100 | Studio Grace</title>"), "{html}");
        assert!(html.contains("id=\"server-brand\""));
        for ours in [
            "Sitelens",
            "New Analysis",
            "Advanced Analysis",
            "/stripe-checkout",
        ] {
            assert!(
                !html.contains(ours),
                "{engine:?}: the branded page has {ours:?}"
            );
        }

        // The PDF: the agency's name, logo and a watermark that names it (a standard report
        // keeps its tier's watermark), nothing of Sitelens.
        let (status, pdf) = bytes(&app, &format!("/api/download-report/{standard}")).await;
        assert_eq!(status, 200);
        let text = pdf_text(&pdf);
        assert!(text.contains("Prepared by Studio Grace"), "{text}");
        assert!(!text.contains("Sitelens"), "{engine:?}: {text}");
        let doc = lopdf::Document::load_mem(&pdf).expect("pdf");
        let images = doc
            .objects
            .values()
            .filter_map(|o| o.as_stream().ok())
            .filter(|s| {
                s.dict.get(b"Subtype").and_then(lopdf::Object::as_name).ok() == Some(b"Image")
            })
            .count();
        assert_eq!(images, 1, "the logo (the stored report has no screenshots)");

        // The agency renames itself: its reports follow at once.
        store::accounts::save_branding(
            &store_db,
            agency_id,
            &store::accounts::Branding {
                company_name: "Grace & Partners".to_owned(),
                ..store::accounts::Branding::default()
            },
        )
        .await
        .expect("rename");
        let renamed = app.get(&format!("/api/results/{standard}")).await;
        assert_eq!(
            renamed.json["data"]["branding"]["companyName"],
            "Grace & Partners"
        );

        // Someone without a white-label plan who saved a brand: their paid Premium report wears
        // it, their Standard one does not, and neither does a free one.
        let mut buyer = Browser::new(&app.web);
        let buyer_id = user_id(&buyer.sign_up("buyer@shop.example", "buyer").await);
        brand_agency(&cfg, &store_db, buyer_id).await;
        grant_credits(&store_db, buyer_id, Credits::whole(3), "admin", None)
            .await
            .expect("grant");
        let premium = store_report(
            &store_db,
            &full_report("https://shop.example/", ReportType::Premium),
            Some(buyer_id),
        )
        .await;
        let plain = store_report(
            &store_db,
            &full_report("https://shop.example/", ReportType::Standard),
            Some(buyer_id),
        )
        .await;
        let free = store_report(
            &store_db,
            &full_report("https://shop.example/", ReportType::Basic),
            None,
        )
        .await;
        let premium = app.get(&format!("/api/results/{premium}")).await;
        assert_eq!(
            premium.json["data"]["branding"]["companyName"],
            "Studio Grace"
        );
        for id in [&plain, &free] {
            let answer = app.get(&format!("/api/results/{id}")).await;
            assert!(
                answer.json["data"].get("branding").is_none(),
                "{engine:?}: {id}"
            );
            let (_, _, html) = app.page(&format!("/results/{id}")).await;
            assert!(!html.contains("server-brand"));
            let (_, pdf) = bytes(&app, &format!("/api/download-report/{id}")).await;
            assert!(pdf_text(&pdf).contains(domain::tier::WATERMARK));
        }
        app.running.shutdown().await;
    })
    .await;
}
