//! The PDF report (printpdf), designed to be handed to a client: a cover with the overall score,
//! a contents page whose entries link to their pages, a one-page summary (the four scores as
//! rings, the top issues, the action plan by priority), then every section with its findings in
//! status colours, the performance metrics against their good ranges and the diagnostics, the
//! meta tag insights, the professional report's site-wide sections (pages crawled, backlinks and
//! authority with their evidence, internal links, content, meta tags and headings by page,
//! robots.txt, sitemap.xml), the Premium Optimization Suite, both screenshots and the action plan.
//!
//! It renders what the report holds as its readers may see it
//! ([`crate::services::reports::find_report`] applies [`domain::entitlement::viewable`]): an
//! unpaid report has no Pro-only content to render, and says where it is. Basic and standard
//! reports, and every free one, carry a diagonal watermark on each page; a paid premium one none
//! ([`domain::entitlement::watermark`]).
//!
//! - `brand.rs`: [`Brand`], whose name, colours, logo and contact line dress the report
//!   (Sitelens' own by default).
//! - `canvas.rs`: drawing on A4 pages: text in the embedded fonts (Liberation Sans, with DejaVu
//!   Sans for the scripts it lacks; right-to-left text reordered; a character no font has drawn
//!   as a visible box), shapes, score rings as vector arcs, images, page links, and the file
//!   with its metadata (the creation date is the report's analysis time) and page labels.
//! - `document.rs`: the pages themselves.

mod brand;
mod canvas;
mod document;

use domain::report::AnalysisReport;

pub use brand::{Brand, Rgb8};

use crate::chain::Chain;
use crate::services::blobs::Blobs;

/// Why the PDF could not be made.
#[derive(Debug, thiserror::Error)]
#[error("pdf: {0}")]
pub struct PdfError(String);

/// A file name for the report: `sitelens-report-{host}-{date}.pdf`, or `report-{host}-{date}.pdf`
/// for a branded one.
pub fn file_name(report: &AnalysisReport) -> String {
    let host: String = url::Url::parse(&report.url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_owned))
        .unwrap_or_else(|| report.id.clone())
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect();
    let date = report.created_at.get(..10).unwrap_or("report");
    // A branded report's file names nothing of Sitelens either.
    let ours = if report.branding.is_some() {
        ""
    } else {
        "sitelens-"
    };
    format!("{ours}report-{host}-{date}.pdf")
}

/// The screenshots a report names, read from blob storage before the PDF is laid out: desktop
/// then mobile. One that is missing (or not one of our blobs) is logged and left out; the rest
/// of the report still stands.
async fn load_screenshots(report: &AnalysisReport, blobs: &Blobs) -> [Option<Vec<u8>>; 2] {
    let load = |url: Option<String>| async move {
        let key = store::results::blob_key(url.as_deref()?)?;
        match blobs.read(&key).await {
            Ok(bytes) => Some(bytes.to_vec()),
            Err(e) => {
                tracing::warn!(key = %key, error = %Chain(&e), "screenshot left out of the PDF");
                None
            }
        }
    };
    let (desktop, mobile) = futures::join!(
        load(report.screenshots.desktop.clone()),
        load(report.screenshots.mobile.clone())
    );
    [desktop, mobile]
}

/// Where the white-label settings serve a logo: the address's last segment, under `logos/`, is
/// its blob key.
pub const LOGO_PATH: &str = "/api/white-label/logos/";

/// The blob key of a logo address the settings stored, if it is one of ours.
pub fn logo_blob_key(logo_url: &str) -> Option<String> {
    let name = logo_url.strip_prefix(LOGO_PATH)?;
    let ours = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.')
        && !name.starts_with('.');
    ours.then(|| format!("logos/{name}"))
}

/// The identity the report's PDF is dressed in: the agency's when the report is branded (its
/// logo read from blob storage; one that cannot be read is logged and the name set as a word
/// mark instead), Sitelens' own otherwise.
async fn brand_of(report: &AnalysisReport, blobs: &Blobs) -> Brand {
    let Some(branding) = &report.branding else {
        return Brand::default();
    };
    let logo = match branding.logo_url.as_deref().and_then(logo_blob_key) {
        Some(key) => match blobs.read(&key).await {
            Ok(bytes) => Some(bytes.to_vec()),
            Err(e) => {
                tracing::warn!(key = %key, error = %Chain(&e), "logo left out of the PDF");
                None
            }
        },
        None => None,
    };
    Brand::white_label(branding, logo)
}

/// Renders the report as PDF bytes in its brand (the agency's for a branded report, else
/// Sitelens'): the screenshots and logo are read from `blobs` (any node reads any worker's),
/// then the pages are laid out on a blocking thread, which must not hold up the async runtime.
pub async fn render_pdf(report: AnalysisReport, blobs: &Blobs) -> Result<Vec<u8>, PdfError> {
    let (screenshots, brand) =
        futures::join!(load_screenshots(&report, blobs), brand_of(&report, blobs));
    tokio::task::spawn_blocking(move || render(&report, &screenshots, &brand))
        .await
        .map_err(|e| PdfError(format!("the renderer stopped unexpectedly ({e})")))?
}

/// Renders the report as PDF bytes (blocking: see [`render_pdf`]) with `screenshots`, the
/// desktop and mobile PNGs when there are any, dressed in `brand`.
pub fn render(
    report: &AnalysisReport,
    screenshots: &[Option<Vec<u8>>; 2],
    brand: &Brand,
) -> Result<Vec<u8>, PdfError> {
    document::draw(report, screenshots, brand)
}

#[cfg(test)]
mod tests {
    use domain::report::{AnalysisReport, FindingType, ReportType};
    use domain::tier::WATERMARK;
    use lopdf::{Document, Object};

    use super::{Brand, render};

    const DEMO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/demo");

    /// The stored premium report `crates/domain` reads, as a paid `report_type`.
    fn report(report_type: ReportType) -> AnalysisReport {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../domain/tests/stored/premium-report-before-typed-sections.json"
        ))
        .expect("the stored report fixture");
        let mut report: AnalysisReport = serde_json::from_str(&text).expect("a report");
        report.report_type = report_type;
        report.paid = true;
        report
    }

    /// The demo's measured report and its screenshots.
    fn demo() -> (AnalysisReport, [Option<Vec<u8>>; 2]) {
        let text = std::fs::read_to_string(format!("{DEMO}/report.json")).expect("demo");
        let report = serde_json::from_str(&text).expect("a report");
        let shots = ["desktop", "mobile"].map(|n| std::fs::read(format!("{DEMO}/{n}.png")).ok());
        (report, shots)
    }

    fn pdf(report: &AnalysisReport) -> Document {
        parse(&render(report, &[None, None], &Brand::default()).expect("renders"))
    }

    fn parse(bytes: &[u8]) -> Document {
        Document::load_mem(bytes).expect("the PDF parses")
    }

    /// Each page's text on one line, in page order.
    fn pages_text(doc: &Document) -> Vec<String> {
        doc.get_pages()
            .keys()
            .map(|&n| {
                doc.extract_text(&[n])
                    .expect("page text")
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }

    fn text(doc: &Document) -> String {
        pages_text(doc).join(" ")
    }

    fn dict<'a>(doc: &'a Document, o: &'a Object) -> &'a lopdf::Dictionary {
        match o {
            Object::Reference(r) => doc.get_dictionary(*r).expect("a dictionary"),
            o => o.as_dict().expect("a dictionary"),
        }
    }

    /// The names of the embedded font programs, sorted.
    fn font_names(doc: &Document) -> Vec<String> {
        let mut names: Vec<String> = doc
            .objects
            .values()
            .filter_map(|o| o.as_dict().ok())
            .filter(|d| d.get(b"Type").and_then(Object::as_name).ok() == Some(b"FontDescriptor"))
            .map(|d| {
                assert!(d.has(b"FontFile2"), "the font program is embedded: {d:?}");
                let name = d
                    .get(b"FontName")
                    .and_then(Object::as_name)
                    .expect("a name");
                String::from_utf8_lossy(name).into_owned()
            })
            .collect();
        names.sort();
        names
    }

    /// Writes the PDF where `SITELENS_PDF_PREVIEW` names a folder, to look at its pages.
    fn preview(name: &str, bytes: &[u8]) {
        if let Ok(dir) = std::env::var("SITELENS_PDF_PREVIEW") {
            std::fs::write(format!("{dir}/{name}.pdf"), bytes).expect("preview written");
        }
    }

    #[test]
    fn the_fonts_are_embedded_and_every_page_is_numbered_and_labelled() {
        let (report, shots) = demo();
        let bytes = render(&report, &shots, &Brand::default()).expect("renders");
        preview("demo", &bytes);
        let doc = parse(&bytes);
        let pages = pages_text(&doc);
        assert!(pages.len() >= 8, "{} pages", pages.len());
        for (i, text) in pages.iter().enumerate() {
            let label = format!("Page {} of {}", i + 1, pages.len());
            assert!(text.contains(&label), "page {i}: {text}");
        }
        assert_eq!(font_names(&doc), ["LiberationSans", "LiberationSans-Bold"]);
        assert_text_between_header_and_footer(&doc);
        let catalog = doc.catalog().expect("catalog");
        let labels = dict(&doc, catalog.get(b"PageLabels").expect("page labels"));
        let nums = labels
            .get(b"Nums")
            .and_then(Object::as_array)
            .expect("Nums");
        assert_eq!(nums[0].as_i64().ok(), Some(0));
        assert_eq!(
            dict(&doc, &nums[1])
                .get(b"S")
                .and_then(Object::as_name)
                .ok(),
            Some(&b"D"[..])
        );
        // Both screenshots are in the file.
        let images = doc
            .objects
            .values()
            .filter_map(|o| o.as_stream().ok())
            .filter(|s| s.dict.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"Image"))
            .count();
        assert_eq!(images, 2);
    }

    #[test]
    fn the_contents_link_to_the_page_each_section_starts_on() {
        let doc = pdf(&report(ReportType::Premium));
        let texts = pages_text(&doc);
        let ids: Vec<lopdf::ObjectId> = doc.get_pages().values().copied().collect();
        assert!(texts[1].contains("Contents"), "{}", texts[1]);
        let page = doc.get_dictionary(ids[1]).expect("the contents page");
        let annots = page
            .get(b"Annots")
            .and_then(Object::as_array)
            .expect("links");
        let mut targets = Vec::new();
        for a in annots {
            let a = dict(&doc, a);
            assert_eq!(
                a.get(b"Subtype").and_then(Object::as_name).ok(),
                Some(&b"Link"[..])
            );
            let action = dict(&doc, a.get(b"A").expect("an action"));
            assert_eq!(
                action.get(b"S").and_then(Object::as_name).ok(),
                Some(&b"GoTo"[..])
            );
            let dest = action
                .get(b"D")
                .and_then(Object::as_array)
                .expect("a destination");
            let target = dest[0].as_reference().expect("a page");
            targets.push(
                ids.iter()
                    .position(|&id| id == target)
                    .expect("a page of the file"),
            );
        }
        for section in [
            "Summary",
            "SEO",
            "Performance",
            "In-Depth Site Analysis",
            "Action Plan",
        ] {
            // The page the link leads to is the first whose running header names the section.
            let header = format!("Sitelens {section} Website analysis of");
            assert!(
                targets
                    .iter()
                    .any(|&t| texts[t].contains(&header) && !texts[t - 1].contains(&header)),
                "a link to {section}"
            );
        }
        // The summary's pointer to the rest of the action plan leads there too.
        let summary = doc.get_dictionary(ids[2]).expect("the summary page");
        let link = summary
            .get(b"Annots")
            .and_then(Object::as_array)
            .expect("a link")
            .first()
            .map(|a| dict(&doc, a))
            .expect("a link");
        let dest = dict(&doc, link.get(b"A").expect("an action"))
            .get(b"D")
            .and_then(Object::as_array)
            .expect("a destination");
        let target = dest[0].as_reference().expect("a page");
        let target = ids.iter().position(|&id| id == target).expect("a page");
        assert!(texts[target].contains("SECTION") && texts[target].contains("Action Plan"));
        assert!(texts[2].contains(&format!("in the Action Plan, page {}", target + 1)));
        // An outline too, for the viewer's sidebar.
        assert!(doc.catalog().expect("catalog").has(b"Outlines"));
    }

    #[test]
    fn the_metadata_names_the_report_and_its_analysis_time() {
        let report = report(ReportType::Standard);
        assert_eq!(report.created_at, "2026-11-20T09:30:00Z");
        let doc = pdf(&report);
        let info = doc
            .trailer
            .get(b"Info")
            .map(|o| dict(&doc, o))
            .expect("document information");
        let string = |key: &[u8]| {
            let o = info.get(key).expect("present");
            lopdf::decode_text_string(o).expect("a text string")
        };
        assert_eq!(string(b"CreationDate"), "D:20261120093000+00'00'");
        assert_eq!(string(b"ModDate"), "D:20261120093000+00'00'");
        assert_eq!(
            string(b"Title"),
            "Website analysis of http://127.0.0.1:4000/"
        );
        assert_eq!(string(b"Author"), "Sitelens");
        assert_eq!(string(b"Subject"), "Standard website analysis report");
        assert!(string(b"Producer").contains("Sitelens"));
    }

    #[test]
    fn basic_and_standard_reports_carry_the_watermark_on_every_page_and_premium_none() {
        let mut unpaid = report(ReportType::Premium);
        unpaid.paid = false;
        let cases = [
            (report(ReportType::Basic), true),
            (report(ReportType::Standard), true),
            (report(ReportType::Premium), false),
            (domain::entitlement::viewable(unpaid), true),
        ];
        for (report, marked) in cases {
            let doc = pdf(&report);
            for (i, text) in pages_text(&doc).iter().enumerate() {
                assert_eq!(
                    text.contains(WATERMARK),
                    marked,
                    "{} paid={} page {i}: {text}",
                    report.report_type,
                    report.paid
                );
            }
            // The diagonal mark draws through a translucent graphics state.
            let translucent = doc
                .objects
                .values()
                .filter_map(|o| o.as_dict().ok())
                .any(|d| {
                    d.iter().any(|(_, v)| {
                        v.as_dict().is_ok_and(|gs| {
                            gs.get(b"ca")
                                .and_then(Object::as_float)
                                .is_ok_and(|a| a < 0.5)
                        })
                    })
                });
            assert_eq!(translucent, marked);
        }
    }

    #[test]
    fn a_paid_report_carries_every_professional_section_and_an_unpaid_one_none() {
        let paid = report(ReportType::Standard);
        let whole = text(&pdf(&paid));
        let squeezed: String = whole.split_whitespace().collect();
        for part in [
            "Meta Tag Insights",
            "In-Depth Site Analysis",
            "Backlinks and domain authority",
            "Evidence: ",
            "Internal link analysis",
            "Content quality",
            "Meta tag optimization by page",
            "Header structure",
            "robots.txt analysis",
            "sitemap.xml check",
            "Suggested: ",
        ] {
            assert!(whole.contains(part), "the paid PDF has {part:?}");
        }
        let pro = paid.professional.as_ref().expect("professional sections");
        for page in &pro.internal_link_analysis.pages {
            // A table cell may break a long address between lines.
            let url: String = page.final_url.split_whitespace().collect();
            assert!(squeezed.contains(&url), "crawled page {url}");
        }

        let mut unpaid = paid.clone();
        unpaid.paid = false;
        let free = text(&pdf(&domain::entitlement::viewable(unpaid)));
        for part in [
            "In-Depth Site Analysis",
            "Backlinks and domain authority",
            "robots.txt analysis",
            "sitemap.xml check",
            "Premium Optimization Suite",
            "Suggested: ",
        ] {
            assert!(!free.contains(part), "the unpaid PDF lacks {part:?}");
        }
        let meta = paid
            .performance_analysis
            .meta_tag_suggestions
            .as_ref()
            .expect("meta tag suggestions");
        assert!(!meta.title.suggested.is_empty());
        assert!(!free.contains(&meta.title.suggested), "no suggested title");
        assert!(free.contains("part of the professional report"));
        assert!(
            free.contains("BASIC REPORT"),
            "a free report is a basic one"
        );
    }

    #[test]
    fn a_table_row_longer_than_a_page_runs_on_and_nothing_is_cut_off() {
        let mut report = report(ReportType::Standard);
        let pro = report.professional.as_mut().expect("professional sections");
        let group = pro
            .robots_analysis
            .groups
            .first_mut()
            .expect("a robots.txt group");
        group.rules = (0..150)
            .map(|i| domain::professional::RobotsRule {
                allow: false,
                pattern: format!("/private-{i}/"),
            })
            .collect();
        // And a heading outline of many changes.
        let header = pro.header_suggestions.first_mut().expect("heading advice");
        header.suggestions = (0..80)
            .map(|i| {
                (
                    format!("H2: Section {i}"),
                    format!("H2: Better section {i}"),
                )
            })
            .collect();
        let doc = pdf(&report);
        let whole = text(&doc);
        assert!(whole.contains("H2: Section 79 → H2: Better section 79"));
        for i in [0, 75, 149] {
            assert!(
                whole.contains(&format!("Disallow: /private-{i}/")),
                "rule {i}"
            );
        }
        assert_text_between_header_and_footer(&doc);
    }

    /// Every line of text starts on the page, at or above the footer's line.
    fn assert_text_between_header_and_footer(doc: &Document) {
        let mut lines = 0;
        for (n, id) in doc.get_pages() {
            let content = doc.get_and_decode_page_content(id).expect("page content");
            for op in content.operations.iter().filter(|op| op.operator == "Td") {
                lines += 1;
                let x = op.operands[0].as_float().expect("x");
                let y = op.operands[1].as_float().expect("y");
                assert!(
                    (25.0..=super::canvas::PAGE_H).contains(&y)
                        && (0.0..super::canvas::PAGE_W).contains(&x),
                    "page {n}: text at ({x}, {y})"
                );
            }
        }
        assert!(lines > 100, "{lines} lines of text found");
    }

    #[test]
    fn every_finding_is_listed_with_its_status() {
        let report = report(ReportType::Premium);
        let whole = text(&pdf(&report));
        for g in report.seo_analysis.iter().chain(&report.technical_analysis) {
            for f in &g.findings {
                let title: String = f.title.split_whitespace().collect::<Vec<_>>().join(" ");
                assert!(whole.contains(&title), "{title}");
            }
        }
        let issues = report
            .seo_analysis
            .iter()
            .flat_map(|g| &g.findings)
            .any(|f| f.kind == FindingType::Issue);
        assert_eq!(whole.contains("ISSUE"), issues);
        assert!(whole.contains("PASSED"));
        assert!(whole.contains("Good range") || whole.contains("GOOD RANGE"));
    }

    #[test]
    fn titles_in_other_scripts_are_drawn_or_visibly_replaced_never_dropped() {
        let mut report = report(ReportType::Standard);
        let meta = report
            .performance_analysis
            .meta_tag_suggestions
            .as_mut()
            .expect("meta");
        // Cyrillic (Liberation Sans), Arabic and Hebrew (DejaVu Sans), Chinese (no embedded
        // font: a box each).
        meta.title.current = "Пекарня Гавань — مخبز الميناء — מאפייה — 港口面包店".to_owned();
        let bytes = render(&report, &[None, None], &Brand::default()).expect("renders");
        preview("scripts", &bytes);
        let doc = parse(&bytes);
        let whole = text(&doc);
        assert!(whole.contains("Пекарня Гавань"), "Cyrillic as written");
        // Right-to-left words are drawn right to left, so the file holds them reversed.
        let reversed = |s: &str| s.chars().rev().collect::<String>();
        // Arabic letters in their joined presentation forms: مخبز.
        assert!(
            whole.contains(&reversed("\u{FEE3}\u{FEA8}\u{FE92}\u{FEB0}")),
            "Arabic drawn joined"
        );
        assert!(whole.contains(&reversed("מאפייה")), "Hebrew drawn");
        assert!(whole.contains("□□□□□"), "Chinese replaced visibly");
        assert!(
            pages_text(&doc)[0].contains("in a script this PDF's fonts do not cover"),
            "and the cover says why"
        );
        assert_eq!(
            font_names(&doc),
            ["DejaVuSans", "LiberationSans", "LiberationSans-Bold"],
            "DejaVu Sans embedded for the scripts Liberation Sans lacks"
        );
        // A report in the scripts Liberation Sans has does without it.
        assert_eq!(
            font_names(&pdf(&super::tests::report(ReportType::Standard))),
            ["LiberationSans", "LiberationSans-Bold"]
        );
    }

    fn agency() -> domain::whitelabel::Branding {
        domain::whitelabel::Branding {
            company_name: "Harbour Digital".to_owned(),
            logo_url: Some("/api/white-label/logos/7-0123456789abcdef.png".to_owned()),
            primary_color: "#0D6EFD".to_owned(),
            secondary_color: "#F59E0B".to_owned(),
            font_family: domain::whitelabel::DEFAULT_FONT.to_owned(),
            contact_email: Some("hello@harbour.example".to_owned()),
            contact_phone: Some("+44 20 7946 0000".to_owned()),
            website_url: None,
        }
    }

    #[test]
    fn a_brand_dresses_the_report_and_nothing_of_sitelens_shows() {
        // Any PNG will do as a logo: the phone screenshot, drawn at most 40 points high.
        let brand = Brand::white_label(&agency(), std::fs::read(format!("{DEMO}/mobile.png")).ok());
        assert_eq!(brand.primary, super::Rgb8(0x0D, 0x6E, 0xFD));
        let (_, shots) = demo();
        let bytes = render(&measured_today(ReportType::Premium), &shots, &brand).expect("renders");
        preview("branded", &bytes);
        let doc = parse(&bytes);
        let pages = pages_text(&doc);
        assert!(pages[0].contains("Harbour Digital"));
        assert!(pages[0].contains("hello@harbour.example · +44 20 7946 0000"));
        let images = doc
            .objects
            .values()
            .filter_map(|o| o.as_stream().ok())
            .filter(|s| s.dict.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"Image"))
            .count();
        assert_eq!(images, 3, "the logo and both screenshots");
        let info = doc
            .trailer
            .get(b"Info")
            .map(|o| dict(&doc, o))
            .expect("info");
        let string =
            |key: &[u8]| lopdf::decode_text_string(info.get(key).expect("present")).expect("text");
        assert_eq!(string(b"Author"), "Harbour Digital");
        assert!(!string(b"Producer").contains("Sitelens"));
        for (i, text) in pages.iter().enumerate() {
            assert!(!text.contains("Sitelens"), "page {i}: {text}");
            assert!(
                !text.contains("Prepared by"),
                "no watermark on premium: page {i}"
            );
        }

        // A branded basic report keeps its tier's watermark, naming the agency.
        let basic = pdf_with(&measured_today(ReportType::Basic), &brand);
        for (i, text) in pages_text(&basic).iter().enumerate() {
            assert!(
                text.contains("Prepared by Harbour Digital"),
                "page {i}: {text}"
            );
            assert!(
                !text.contains(WATERMARK) && !text.contains("Sitelens"),
                "page {i}: {text}"
            );
        }
    }

    /// The stored report with its evidence note as the analyzer words it today: the fixture
    /// predates the brand-free wording ("crawled so far", not "Sitelens has crawled").
    fn measured_today(report_type: ReportType) -> AnalysisReport {
        let mut r = report(report_type);
        if let Some(domain::report::ProfessionalAnalysis {
            backlink_analysis: Some(domain::professional::BacklinkAnalysis::Figures(b)),
            ..
        }) = r.professional.as_mut()
        {
            b.note = b.note.replace("Sitelens has crawled", "crawled so far");
        }
        r
    }

    fn pdf_with(report: &AnalysisReport, brand: &Brand) -> Document {
        parse(&render(report, &[None, None], brand).expect("renders"))
    }

    #[test]
    fn only_our_logo_addresses_name_a_blob() {
        assert_eq!(
            super::logo_blob_key("/api/white-label/logos/7-0123456789abcdef.png").as_deref(),
            Some("logos/7-0123456789abcdef.png")
        );
        for other in [
            "https://cdn.example/logo.png",
            "/api/white-label/logos/",
            "/api/white-label/logos/../shots/desktop.png",
            "/api/white-label/logos/a/b.png",
            "/files/shots/desktop.png",
        ] {
            assert_eq!(super::logo_blob_key(other), None, "{other}");
        }
    }
}
