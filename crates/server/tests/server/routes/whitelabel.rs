//! `/api/white-label` on both engines: who may read and change branding (anonymous, an agency
//! owner, another user, the agency's team member and team admin, a site admin, the owner of a
//! paid Premium report), the settings' 422s, and the logo: PNG, JPEG and WebP taken and served
//! as a fresh PNG that fits the logo box, anything else refused by its bytes, the size limit,
//! a decompression bomb, replacement and removal.

use std::io::Cursor;

use domain::whitelabel::{
    LOGO_DIMENSIONS_MESSAGE, LOGO_MAX_BYTES, LOGO_MAX_HEIGHT, LOGO_MAX_WIDTH, LOGO_SIZE_MESSAGE,
    LOGO_TYPE_MESSAGE, NOT_ENTITLED,
};
use image::{DynamicImage, ImageFormat, Rgb, RgbImage, Rgba, RgbaImage};
use serde_json::{Value, json};

use super::accounts::Browser;
use super::api_keys::{Cast, cast, signed_up};
use super::{Case, JSON, case};
use crate::support::{Answer, TestDb, WEB_ONLY, Web, config, each_engine, spawn_app};

const SETTINGS: &str = "/api/white-label";
const LOGO: &str = "/api/white-label/logo";

/// Malformed white-label requests.
pub fn malformed() -> Vec<Case> {
    vec![
        case("GET", SETTINGS, None, "", 401),
        case("PUT", SETTINGS, JSON, r#"{"companyName": "Studio"}"#, 401),
        case("PUT", LOGO, Some("image/png"), "\u{89}PNG", 401),
        case("DELETE", LOGO, None, "", 401),
        case("POST", SETTINGS, JSON, "{}", 405),
        case("GET", "/api/white-label/logos/unknown.png", None, "", 404),
        case(
            "GET",
            "/api/white-label/logos/1-0123456789abcdef.png",
            None,
            "",
            404,
        ),
    ]
}

fn studio(name: &str) -> Value {
    json!({
        "companyName": name,
        "primaryColor": "#0f766e",
        "secondaryColor": "",
        "fontFamily": "Georgia, 'Times New Roman', serif",
        "contactEmail": "hello@studio.example",
        "contactPhone": "+44 20 7946 0000",
        "websiteUrl": "studio.example",
    })
}

async fn put_settings(b: &mut Browser<'_>, body: Value) -> Answer {
    b.send("PUT", SETTINGS, Some(body)).await
}

async fn put_logo(b: &mut Browser<'_>, content_type: &str, bytes: Vec<u8>) -> Answer {
    b.send_body("PUT", LOGO, Some((content_type, bytes))).await
}

async fn set_plan(db: &store::DatabaseConnection, user: i64, plan: &str) {
    store::users::set_subscription_plan(db, user, plan)
        .await
        .expect("plan");
}

/// A signed-up account on the Agency plan.
async fn agency<'a>(web: &'a Web, db: &store::DatabaseConnection) -> Browser<'a> {
    let (browser, id) = signed_up(web, "agency@example.com", "agency").await;
    set_plan(db, id, "agency").await;
    browser
}

fn refused(answer: &Answer, status: u16, message: &str, context: &str) {
    assert_eq!(answer.status, status, "{context}: {}", answer.json);
    assert_eq!(answer.json["success"], false, "{context}");
    assert_eq!(answer.json["error"], message, "{context}");
}

// --- images --------------------------------------------------------------------------------

/// CRC-32 of a PNG chunk's type and data (ISO 3309, as PNG's specification gives it).
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

fn chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut out = u32::try_from(data.len())
        .expect("len")
        .to_be_bytes()
        .to_vec();
    let mut typed = kind.to_vec();
    typed.extend_from_slice(data);
    out.extend_from_slice(&typed);
    out.extend_from_slice(&crc32(&typed).to_be_bytes());
    out
}

const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

/// The chunk types of a PNG, in order.
fn chunk_types(png: &[u8]) -> Vec<String> {
    assert!(png.starts_with(PNG_SIGNATURE), "a PNG");
    let mut at = PNG_SIGNATURE.len();
    let mut types = Vec::new();
    while at + 8 <= png.len() {
        let len = u32::from_be_bytes(png[at..at + 4].try_into().expect("4")) as usize;
        types.push(String::from_utf8_lossy(&png[at + 4..at + 8]).into_owned());
        at += 12 + len;
    }
    types
}

/// A PNG of `image` with a text comment and EXIF data inserted after its header, as a camera or
/// an editor leaves them.
fn png_with_metadata(image: &DynamicImage) -> Vec<u8> {
    let mut plain = Vec::new();
    image
        .write_to(&mut Cursor::new(&mut plain), ImageFormat::Png)
        .expect("png");
    let ihdr_end = PNG_SIGNATURE.len() + 12 + 13;
    let mut png = plain[..ihdr_end].to_vec();
    png.extend(chunk(b"tEXt", b"Comment\0made on the agency's laptop"));
    png.extend(chunk(b"eXIf", b"MM\0*\0\0\0\x08\0\0"));
    png.extend_from_slice(&plain[ihdr_end..]);
    png
}

fn encoded(image: &DynamicImage, format: ImageFormat) -> Vec<u8> {
    let mut out = Vec::new();
    image
        .write_to(&mut Cursor::new(&mut out), format)
        .expect("encode");
    out
}

/// A wide logo with transparency: a gradient with a clear margin.
fn wide_logo() -> DynamicImage {
    DynamicImage::ImageRgba8(RgbaImage::from_fn(1200, 300, |x, y| {
        let inside = (20..1180).contains(&x) && (20..280).contains(&y);
        Rgba([
            (x % 256) as u8,
            (y % 256) as u8,
            120,
            if inside { 255 } else { 0 },
        ])
    }))
}

fn square_photo() -> DynamicImage {
    DynamicImage::ImageRgb8(RgbImage::from_fn(800, 800, |x, y| {
        Rgb([(x / 4) as u8, (y / 4) as u8, ((x + y) / 8) as u8])
    }))
}

fn small_mark() -> DynamicImage {
    DynamicImage::ImageRgba8(RgbaImage::from_fn(300, 100, |x, y| {
        Rgba([200, (x % 256) as u8, (y * 2) as u8, 255])
    }))
}

/// A PNG whose header declares `side` × `side` pixels and that holds no pixels at all: a few
/// dozen bytes asking a careless decoder for gigabytes.
fn header_bomb(side: u32) -> Vec<u8> {
    let mut ihdr = side.to_be_bytes().to_vec();
    ihdr.extend_from_slice(&side.to_be_bytes());
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);
    let mut png = PNG_SIGNATURE.to_vec();
    png.extend(chunk(b"IHDR", &ihdr));
    png.extend(chunk(b"IDAT", b"\x78\x9c\x03\x00\x00\x00\x00\x01"));
    png.extend(chunk(b"IEND", b""));
    png
}

/// The smallest GIF: one transparent pixel.
const GIF: &[u8] = b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;";

/// Reads the served logo: its headers checked, its bytes returned.
async fn served_logo(app: &Web, url: &str) -> Vec<u8> {
    let res = app
        .http
        .get(format!("{}{url}", app.base))
        .send()
        .await
        .expect("request");
    assert_eq!(res.status().as_u16(), 200, "{url}");
    let h = res.headers();
    let header = |name: &str| {
        h.get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };
    assert_eq!(header("content-type"), "image/png");
    assert_eq!(header("x-content-type-options"), "nosniff");
    assert_eq!(header("content-security-policy"), "default-src 'none'");
    assert!(header("cache-control").contains("immutable"), "{h:?}");
    res.bytes().await.expect("body").to_vec()
}

async fn status_of(app: &Web, url: &str) -> u16 {
    app.http
        .get(format!("{}{url}", app.base))
        .send()
        .await
        .expect("request")
        .status()
        .as_u16()
}

fn logo_url(answer: &Answer) -> String {
    answer.json["branding"]["logoUrl"]
        .as_str()
        .unwrap_or_else(|| panic!("a logo: {}", answer.json))
        .to_owned()
}

/// Queues and completes a paid Premium report for `user` straight in the store (no worker
/// needed: only its existence matters here).
async fn paid_premium(db: &store::DatabaseConnection, user: i64) {
    use domain::report::ReportType;
    use store::jobs::{NewAnalysis, PaidAnalysis};
    let cost = domain::commerce::report_cost(ReportType::Premium);
    store::credits::grant_credits(db, user, cost, "admin", None)
        .await
        .expect("grant");
    let analysis = NewAnalysis {
        url: "client.example".into(),
        canonical_url: "https://client.example/".into(),
        report_type: ReportType::Premium,
        requested_pages: ReportType::Premium.pages(),
        requester_user_id: Some(user),
        requester_ip: None,
    };
    let PaidAnalysis::Queued(job) =
        store::jobs::enqueue_paid_analysis(db, store::credits::Payer::own(user), cost, &analysis)
            .await
            .expect("enqueue")
    else {
        panic!("funded");
    };
    store::jobs::claim_next_job(db, "test")
        .await
        .expect("claim")
        .expect("the job");
    store::jobs::complete_job(db, job.id, "test", &store::results::NewResult::default())
        .await
        .expect("complete");
}

// --- tests ---------------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn white_label_routes_answer_by_who_asks() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let app = spawn_app(config(&db), WEB_ONLY).await;
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
        set_plan(&store_db, owner_id, "agency").await;
        let png = encoded(&small_mark(), ImageFormat::Png);

        // Anonymous: nothing.
        assert_eq!(anonymous.get(SETTINGS).await.status, 401);
        assert_eq!(put_settings(&mut anonymous, studio("X")).await.status, 401);
        assert_eq!(
            put_logo(&mut anonymous, "image/png", png.clone())
                .await
                .status,
            401
        );
        assert_eq!(anonymous.send("DELETE", LOGO, None).await.status, 401);

        // The agency's owner: may brand, saves, reads it back normalised.
        let fresh = owner.get(SETTINGS).await;
        assert_eq!(fresh.status, 200, "{engine:?}: {}", fresh.json);
        assert_eq!(
            fresh.json,
            json!({"accountWhiteLabel": true, "mayBrand": true, "branding": null})
        );
        let saved = put_settings(&mut owner, studio("Studio Grace")).await;
        assert_eq!(saved.status, 200, "{engine:?}: {}", saved.json);
        let brand = json!({
            "companyName": "Studio Grace",
            "primaryColor": "#0F766E",
            "secondaryColor": "#10B981",
            "fontFamily": "Georgia, 'Times New Roman', serif",
            "contactEmail": "hello@studio.example",
            "contactPhone": "+44 20 7946 0000",
            "websiteUrl": "https://studio.example/",
        });
        assert_eq!(saved.json["branding"], brand);
        assert_eq!(owner.get(SETTINGS).await.json["branding"], brand);
        let logo = put_logo(&mut owner, "image/png", png.clone()).await;
        assert_eq!(logo.status, 200, "{engine:?}: {}", logo.json);
        let owners_logo = logo_url(&logo);
        assert!(
            owners_logo.starts_with(&format!("/api/white-label/logos/{owner_id}-")),
            "{owners_logo}"
        );

        // Everyone else: their own view, never the owner's brand, and no way to change it.
        for (who, b) in [
            ("other user", &mut other),
            ("team member", &mut member),
            ("team admin", &mut team_admin),
            ("site admin", &mut site_admin),
        ] {
            let read = b.get(SETTINGS).await;
            assert_eq!(read.status, 200, "{engine:?} {who}: {}", read.json);
            assert_eq!(
                read.json,
                json!({"accountWhiteLabel": false, "mayBrand": false, "branding": null}),
                "{engine:?} {who}"
            );
            let context = format!("{engine:?} {who}");
            refused(
                &put_settings(b, studio("Not Grace")).await,
                403,
                NOT_ENTITLED,
                &context,
            );
            refused(
                &put_logo(b, "image/png", png.clone()).await,
                403,
                NOT_ENTITLED,
                &context,
            );
            // Entitlement is answered first, whatever was sent.
            refused(
                &put_logo(b, "image/png", vec![0; LOGO_MAX_BYTES + 1]).await,
                403,
                NOT_ENTITLED,
                &context,
            );
            refused(
                &b.send("DELETE", LOGO, None).await,
                403,
                NOT_ENTITLED,
                &context,
            );
        }
        let kept = owner.get(SETTINGS).await;
        assert_eq!(kept.json["branding"]["companyName"], "Studio Grace");
        assert_eq!(logo_url(&kept), owners_logo);

        // A cross-site change is refused.
        let mut forged = owner.clone();
        forged.drop_csrf();
        assert_eq!(
            put_settings(&mut forged, studio("Forged")).await.status,
            403
        );
        assert_eq!(forged.send("DELETE", LOGO, None).await.status, 403);

        // A team member whose own plan includes white-label brands their own account only.
        let member_id = member.get("/api/account").await.json["id"]
            .as_i64()
            .expect("id");
        set_plan(&store_db, member_id, "enterprise").await;
        let theirs = put_settings(&mut member, studio("Member Media")).await;
        assert_eq!(theirs.status, 200, "{engine:?}: {}", theirs.json);
        assert_eq!(theirs.json["accountWhiteLabel"], true);
        assert_eq!(
            owner.get(SETTINGS).await.json["branding"]["companyName"],
            "Studio Grace"
        );

        // The owner of a paid Premium report may brand, though their plan does not include it.
        let other_id = other.get("/api/account").await.json["id"]
            .as_i64()
            .expect("id");
        paid_premium(&store_db, other_id).await;
        let premium = other.get(SETTINGS).await;
        assert_eq!(
            premium.json,
            json!({"accountWhiteLabel": false, "mayBrand": true, "branding": null}),
            "{engine:?}"
        );
        assert_eq!(
            put_settings(&mut other, studio("Solo Consulting"))
                .await
                .status,
            200
        );
        app.running.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn settings_are_checked_field_by_field() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let mut agency = agency(&app.web, &app.running.db).await;

        let bad = put_settings(
            &mut agency,
            json!({
                "companyName": " ",
                "primaryColor": "indigo",
                "secondaryColor": "#10B981",
                "fontFamily": "Comic Sans MS",
                "contactEmail": "grace@",
                "contactPhone": "",
                "websiteUrl": "",
            }),
        )
        .await;
        assert_eq!(bad.status, 422, "{engine:?}: {}", bad.json);
        assert_eq!(bad.json["success"], false);
        assert_eq!(bad.json["error"], "Company name is required");
        let fields: Vec<&str> = bad.json["fields"]
            .as_array()
            .expect("fields")
            .iter()
            .filter_map(|f| f["field"].as_str())
            .collect();
        assert_eq!(
            fields,
            ["companyName", "primaryColor", "fontFamily", "contactEmail"]
        );
        assert_eq!(
            agency.get(SETTINGS).await.json["branding"],
            Value::Null,
            "nothing saved"
        );

        // A body without the required name is not the form at all.
        let shapeless = put_settings(&mut agency, json!({"primaryColor": "#000000"})).await;
        assert_eq!(shapeless.status, 422, "{}", shapeless.json);
        // Only the company name is required; the rest take the defaults.
        let minimal = put_settings(&mut agency, json!({"companyName": "Acme"})).await;
        assert_eq!(minimal.status, 200, "{}", minimal.json);
        assert_eq!(
            minimal.json["branding"],
            json!({"companyName": "Acme", "primaryColor": "#4F46E5",
                   "secondaryColor": "#10B981", "fontFamily": "Inter, sans-serif"})
        );
        app.running.shutdown().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn logos_are_decoded_and_served_as_a_fresh_png() {
    each_engine(|db: TestDb| async move {
        let engine = db.engine;
        let app = spawn_app(config(&db), WEB_ONLY).await;
        let mut agency = agency(&app.web, &app.running.db).await;

        // A logo belongs to a saved brand.
        let png = png_with_metadata(&wide_logo());
        let early = put_logo(&mut agency, "image/png", png.clone()).await;
        assert_eq!(early.status, 409, "{engine:?}: {}", early.json);
        assert_eq!(
            put_settings(&mut agency, studio("Studio Grace"))
                .await
                .status,
            200
        );

        // PNG, JPEG and WebP: each stored as a PNG within the box, keeping its proportions.
        let uploads = [
            ("image/png", png.clone(), (600, 150)),
            (
                "image/jpeg",
                encoded(&square_photo(), ImageFormat::Jpeg),
                (200, 200),
            ),
            (
                "image/webp",
                encoded(&small_mark(), ImageFormat::WebP),
                (300, 100),
            ),
        ];
        let mut previous: Option<String> = None;
        for (content_type, bytes, (width, height)) in uploads {
            let context = format!("{engine:?} {content_type}");
            let answer = put_logo(&mut agency, content_type, bytes.clone()).await;
            assert_eq!(answer.status, 200, "{context}: {}", answer.json);
            let url = logo_url(&answer);
            let served = served_logo(&app.web, &url).await;
            assert_ne!(served, bytes, "{context}: never served as uploaded");
            let types = chunk_types(&served);
            assert!(
                types
                    .iter()
                    .all(|t| ["IHDR", "IDAT", "IEND"].contains(&t.as_str())),
                "{context}: {types:?}"
            );
            let image = image::load_from_memory_with_format(&served, ImageFormat::Png)
                .unwrap_or_else(|e| panic!("{context}: {e}"));
            assert_eq!(
                (image.width(), image.height()),
                (width, height),
                "{context}"
            );
            assert!(image.width() <= LOGO_MAX_WIDTH && image.height() <= LOGO_MAX_HEIGHT);
            // The logo it replaced is gone.
            if let Some(old) = previous.replace(url) {
                assert_eq!(status_of(&app.web, &old).await, 404, "{context}");
            }
        }
        let current = previous.expect("a logo");

        // Refused by their bytes, whatever they are labelled, and by size and dimensions.
        let refusals = [
            ("image/gif", GIF.to_vec(), 415, LOGO_TYPE_MESSAGE),
            ("image/png", GIF.to_vec(), 415, LOGO_TYPE_MESSAGE),
            (
                "image/png",
                b"<svg xmlns='http://www.w3.org/2000/svg'/>".to_vec(),
                415,
                LOGO_TYPE_MESSAGE,
            ),
            ("text/plain", png.clone(), 415, LOGO_TYPE_MESSAGE),
            ("", png.clone(), 415, LOGO_TYPE_MESSAGE),
            (
                "image/png",
                png[..png.len() / 2].to_vec(),
                422,
                LOGO_TYPE_MESSAGE,
            ),
            (
                "image/png",
                header_bomb(30_000),
                422,
                LOGO_DIMENSIONS_MESSAGE,
            ),
            ("image/png", header_bomb(4097), 422, LOGO_DIMENSIONS_MESSAGE),
            (
                "image/png",
                {
                    let mut big = png.clone();
                    big.resize(LOGO_MAX_BYTES + 1, 0);
                    big
                },
                413,
                LOGO_SIZE_MESSAGE,
            ),
        ];
        for (content_type, bytes, status, message) in refusals {
            let context = format!("{engine:?} {content_type} ({} bytes)", bytes.len());
            refused(
                &put_logo(&mut agency, content_type, bytes).await,
                status,
                message,
                &context,
            );
        }
        assert_eq!(
            logo_url(&agency.get(SETTINGS).await),
            current,
            "a refused upload changes nothing"
        );

        // Saving the settings keeps the logo; removing it deletes its image.
        let resaved = put_settings(&mut agency, studio("Studio Grace Ltd")).await;
        assert_eq!(logo_url(&resaved), current);
        let removed = agency.send("DELETE", LOGO, None).await;
        assert_eq!(removed.status, 200, "{}", removed.json);
        assert_eq!(removed.json["branding"]["logoUrl"], Value::Null);
        assert_eq!(removed.json["branding"]["companyName"], "Studio Grace Ltd");
        assert_eq!(status_of(&app.web, &current).await, 404);
        assert_eq!(agency.send("DELETE", LOGO, None).await.status, 200);
        app.running.shutdown().await;
    })
    .await;
}
