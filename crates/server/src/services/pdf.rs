//! The PDF report (printpdf): scores, every section with its findings, the performance figures
//! (estimated ones marked), the meta tag insights, the professional report's site-wide sections
//! (backlinks and authority with their evidence, internal links, content, meta tags and
//! headings by page, robots.txt, sitemap.xml), the Premium Optimization Suite, the action plan
//! and the screenshots, on A4 pages.
//!
//! It renders what the report holds as its readers may see it
//! ([`crate::services::reports::find_report`]): an unpaid report has no Pro-only content to
//! render, and says where it is; the footer carries the watermark unless the report is a paid
//! premium one ([`domain::entitlement::pdf_footer`]).
//!
//! printpdf places text at absolute positions, so this module keeps a cursor, measures words
//! with the embedded font's glyph widths to wrap lines, and starts a new page when one fills.

use std::sync::OnceLock;

use domain::professional::{BacklinkAnalysis, SitemapKind};
use domain::report::{
    AnalysisReport, Finding, FindingType, PerformanceMetrics, PremiumOptimizations, Priority,
    ProfessionalAnalysis, SectionGroup,
};
use domain::score::{Band, badge_band};
use printpdf::{
    Color, FontId, Mm, Op, ParsedFont, PdfDocument, PdfFontHandle, PdfPage, PdfSaveOptions, Point,
    Pt, RawImage, Rgb, TextItem, XObjectTransform,
};

use crate::chain::Chain;
use crate::services::blobs::Blobs;

const REGULAR: &[u8] = include_bytes!("../../assets/fonts/LiberationSans-Regular.ttf");
const BOLD: &[u8] = include_bytes!("../../assets/fonts/LiberationSans-Bold.ttf");

const PAGE_W: f32 = 595.0; // A4 in points
const PAGE_H: f32 = 842.0;
const MARGIN: f32 = 50.0;
const WIDTH: f32 = PAGE_W - 2.0 * MARGIN;

/// Why the PDF could not be made.
#[derive(Debug, thiserror::Error)]
#[error("pdf: {0}")]
pub struct PdfError(String);

fn fonts() -> Result<&'static (ParsedFont, ParsedFont), PdfError> {
    static FONTS: OnceLock<Option<(ParsedFont, ParsedFont)>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let regular = ParsedFont::from_bytes(REGULAR, 0, &mut Vec::new())?;
            let bold = ParsedFont::from_bytes(BOLD, 0, &mut Vec::new())?;
            Some((regular, bold))
        })
        .as_ref()
        .ok_or_else(|| PdfError("the embedded font could not be parsed".to_owned()))
}

fn rgb(r: f32, g: f32, b: f32) -> Color {
    Color::Rgb(Rgb::new(r, g, b, None))
}

fn band_color(score: u32) -> Color {
    match badge_band(f64::from(score)) {
        Band::Green => rgb(0.09, 0.55, 0.27),
        Band::Yellow | Band::Amber => rgb(0.72, 0.5, 0.0),
        Band::Red => rgb(0.8, 0.12, 0.12),
    }
}

struct Writer<'a> {
    doc: PdfDocument,
    regular: (FontId, &'a ParsedFont),
    bold: (FontId, &'a ParsedFont),
    pages: Vec<Vec<Op>>,
    ops: Vec<Op>,
    y: f32,
    footer: String,
}

impl<'a> Writer<'a> {
    fn text_width(font: &ParsedFont, text: &str, size: f32) -> f32 {
        let upem = f32::from(font.units_per_em.max(1));
        let units: f32 = text
            .chars()
            .map(|c| {
                font.lookup_glyph_index(c as u32)
                    .and_then(|g| font.get_glyph_width(g))
                    .map_or(upem * 0.5, f32::from)
            })
            .sum();
        units / upem * size
    }

    fn new_page(&mut self) {
        let mut ops = std::mem::take(&mut self.ops);
        if !ops.is_empty() {
            let page_no = self.pages.len() + 1;
            let footer = format!("{} · page {page_no}", self.footer);
            Self::line_ops(
                &mut ops,
                &self.regular.0,
                &footer,
                8.0,
                MARGIN,
                25.0,
                rgb(0.45, 0.45, 0.5),
            );
            self.pages.push(ops);
        }
        self.y = PAGE_H - MARGIN;
    }

    fn ensure(&mut self, height: f32) {
        if self.y - height < MARGIN + 20.0 {
            self.new_page();
        }
    }

    fn line_ops(
        ops: &mut Vec<Op>,
        font: &FontId,
        text: &str,
        size: f32,
        x: f32,
        y: f32,
        color: Color,
    ) {
        ops.extend([
            Op::StartTextSection,
            Op::SetFont {
                font: PdfFontHandle::External(font.clone()),
                size: Pt(size),
            },
            Op::SetFillColor { col: color },
            Op::SetTextCursor {
                pos: Point { x: Pt(x), y: Pt(y) },
            },
            Op::ShowText {
                items: vec![TextItem::Text(text.to_owned())],
            },
            Op::EndTextSection,
        ]);
    }

    /// Writes `text` wrapped to the width, indented by `indent` points.
    fn para(&mut self, text: &str, size: f32, bold: bool, color: Color, indent: f32) {
        let (font_id, font) = if bold {
            self.bold.clone()
        } else {
            self.regular.clone()
        };
        let max = WIDTH - indent;
        let line_h = size * 1.35;
        let mut line = String::new();
        let mut lines = Vec::new();
        for word in text.split_whitespace() {
            let candidate = if line.is_empty() {
                word.to_owned()
            } else {
                format!("{line} {word}")
            };
            if Self::text_width(font, &candidate, size) > max && !line.is_empty() {
                lines.push(std::mem::replace(&mut line, word.to_owned()));
            } else {
                line = candidate;
            }
        }
        if !line.is_empty() {
            lines.push(line);
        }
        for l in lines {
            self.ensure(line_h);
            self.y -= line_h;
            Self::line_ops(
                &mut self.ops,
                &font_id,
                &l,
                size,
                MARGIN + indent,
                self.y,
                color.clone(),
            );
        }
    }

    fn gap(&mut self, h: f32) {
        self.y -= h;
    }

    fn rule(&mut self) {
        self.ensure(10.0);
        self.y -= 6.0;
        self.ops.extend([
            Op::SetOutlineColor {
                col: rgb(0.85, 0.86, 0.9),
            },
            Op::SetOutlineThickness { pt: Pt(0.6) },
            Op::DrawLine {
                line: printpdf::Line {
                    points: vec![
                        printpdf::LinePoint {
                            p: Point {
                                x: Pt(MARGIN),
                                y: Pt(self.y),
                            },
                            bezier: false,
                        },
                        printpdf::LinePoint {
                            p: Point {
                                x: Pt(PAGE_W - MARGIN),
                                y: Pt(self.y),
                            },
                            bezier: false,
                        },
                    ],
                    is_closed: false,
                },
            },
        ]);
        self.y -= 6.0;
    }

    fn image(&mut self, png: &[u8], caption: &str) {
        let Ok(image) = RawImage::decode_from_bytes(png, &mut Vec::new()) else {
            return;
        };
        let (w, h) = (image.width as f32, image.height as f32);
        if w <= 0.0 || h <= 0.0 {
            return;
        }
        let max_w = if w > h { WIDTH } else { WIDTH * 0.45 };
        let scale_w = max_w.min(w * 0.75);
        let draw_h = scale_w * h / w;
        self.ensure(draw_h + 20.0);
        self.para(caption, 9.0, true, rgb(0.3, 0.3, 0.35), 0.0);
        self.y -= draw_h + 4.0;
        let id = self.doc.add_image(&image);
        // At `dpi`, one image pixel is 72/dpi points: choose it so the width is `scale_w`.
        let dpi = w * 72.0 / scale_w;
        self.ops.push(Op::UseXobject {
            id,
            transform: XObjectTransform {
                translate_x: Some(Pt(MARGIN)),
                translate_y: Some(Pt(self.y)),
                dpi: Some(dpi),
                ..Default::default()
            },
        });
        self.gap(8.0);
    }

    fn section(&mut self, title: &str, score: Option<u32>, groups: &[SectionGroup]) {
        self.ensure(60.0);
        self.gap(10.0);
        let heading = match score {
            Some(s) => format!("{title} — {s}/100"),
            None => title.to_owned(),
        };
        let color = score.map_or(rgb(0.1, 0.1, 0.2), band_color);
        self.para(&heading, 16.0, true, color, 0.0);
        self.rule();
        if groups.is_empty() {
            self.para(
                "No findings in this section.",
                10.0,
                false,
                rgb(0.3, 0.3, 0.35),
                0.0,
            );
        }
        for g in groups {
            self.gap(4.0);
            self.para(&g.title, 12.0, true, rgb(0.1, 0.1, 0.2), 0.0);
            self.findings(&g.findings);
        }
    }

    fn findings(&mut self, findings: &[Finding]) {
        for f in findings {
            let (mark, color) = match f.kind {
                FindingType::Good => ("Good", rgb(0.09, 0.55, 0.27)),
                FindingType::Warning => ("Warning", rgb(0.72, 0.5, 0.0)),
                FindingType::Issue => ("Issue", rgb(0.8, 0.12, 0.12)),
            };
            self.gap(2.0);
            self.para(&format!("{mark}: {}", f.title), 10.0, true, color, 8.0);
            self.para(&f.description, 9.5, false, TEXT, 8.0);
            if let Some(sol) = &f.solution {
                self.para(&format!("How to fix: {sol}"), 9.5, false, FIX, 8.0);
            }
        }
    }

    /// A section heading with its rule.
    fn heading(&mut self, title: &str) {
        self.ensure(60.0);
        self.gap(10.0);
        self.para(title, 16.0, true, rgb(0.1, 0.1, 0.2), 0.0);
        self.rule();
    }

    /// A part's title within a section.
    fn part(&mut self, title: &str) {
        self.ensure(40.0);
        self.gap(6.0);
        self.para(title, 12.0, true, rgb(0.1, 0.1, 0.2), 0.0);
    }

    /// A line of body text, indented.
    fn line(&mut self, text: &str) {
        self.para(text, 9.5, false, TEXT, 8.0);
    }

    /// A muted note, indented.
    fn note(&mut self, text: &str) {
        self.para(text, 9.0, false, MUTED, 8.0);
    }

    /// The meta tag insights: the AI analysis and suggested title, description and Open Graph
    /// tags, and the content and heading suggestions (docs/PRODUCT.md §2.6.6).
    fn meta_insights(&mut self, p: &PerformanceMetrics) {
        let Some(meta) = &p.meta_tag_suggestions else {
            return;
        };
        // An unpaid report keeps only the current texts (docs/PRODUCT.md §6.4).
        let redacted = meta.title.analysis.is_empty() && meta.title.suggested.is_empty();
        self.heading("Meta Tag Insights");
        for (label, s) in [("Title", &meta.title), ("Description", &meta.description)] {
            self.part(label);
            let current = if s.current.is_empty() {
                "Missing".to_owned()
            } else {
                format!("{} ({} characters)", s.current, s.current.chars().count())
            };
            self.line(&format!("Current: {current}"));
            if !s.analysis.is_empty() {
                self.line(&format!("Analysis: {}", s.analysis));
            }
            if !s.suggested.is_empty() {
                self.para(&format!("Suggested: {}", s.suggested), 9.5, true, FIX, 8.0);
            }
        }
        if redacted {
            self.note(UPGRADE_NOTE);
            return;
        }
        if !meta.og_tags.analysis.is_empty() || !meta.og_tags.suggestions.is_empty() {
            self.part("Open Graph tags");
            if !meta.og_tags.analysis.is_empty() {
                self.line(&meta.og_tags.analysis);
            }
            for (property, value) in &meta.og_tags.suggestions {
                self.line(&format!("{property}: {value}"));
            }
        }
        if let Some(c) = &p.content_optimizations {
            self.part("Content");
            self.line(&c.content.analysis);
            for s in &c.content.suggestions {
                self.line(&format!("- {s}"));
            }
            self.part("Headings");
            self.line(&c.headings.analysis);
            for (from, to) in &c.headings.suggestions {
                self.line(&format!("{from} -> {to}"));
            }
        }
    }

    /// The professional report's site-wide sections (docs/PRODUCT.md §1.4), each with the
    /// figures it measured and nothing else: what could not be measured says so.
    fn professional(&mut self, p: &ProfessionalAnalysis) {
        self.heading("In-Depth Site Analysis");

        self.part("Backlinks and domain authority");
        match &p.backlink_analysis {
            None => self.note("Backlinks were not counted for this report."),
            Some(BacklinkAnalysis::Failed(_)) => self.note(
                "Backlinks could not be counted for this report. Run the analysis again to count them.",
            ),
            Some(BacklinkAnalysis::Figures(b)) => {
                self.line(&match p.domain_authority {
                    Some(a) => format!("Domain authority: {a}/100"),
                    None => "Domain authority: not enough evidence to compute one".to_owned(),
                });
                self.line(&format!(
                    "Backlinks: {} ({} followed) from {} referring site{}",
                    b.backlinks,
                    b.followed_backlinks,
                    b.referring_domains,
                    if b.referring_domains == 1 { "" } else { "s" }
                ));
                self.line(&format!(
                    "Evidence: {} pages on {} sites in the link graph ({})",
                    b.evidence.pages_in_graph, b.evidence.domains_in_graph, b.provider
                ));
                for d in &b.top_referring_domains {
                    self.line(&format!(
                        "- {}: {} link{}, {} followed",
                        d.domain,
                        d.links,
                        if d.links == 1 { "" } else { "s" },
                        d.followed_links
                    ));
                }
                if !b.note.is_empty() {
                    self.note(&b.note);
                }
            }
        }

        let links = &p.internal_link_analysis;
        self.part("Internal link analysis");
        self.line(&format!(
            "Pages crawled: {} · other link targets checked: {} · blocked by robots.txt: {}",
            links.pages_crawled,
            links.link_targets_checked,
            links.blocked_by_robots.len()
        ));
        for page in &links.pages {
            let status = page
                .status
                .map_or_else(|| "no response".to_owned(), |s| format!("HTTP {s}"));
            let depth = page.depth.map_or_else(
                || "listed in the sitemap only".to_owned(),
                |d| format!("{d} clicks from the start page"),
            );
            let count = |n: Option<u32>| n.map_or_else(|| "-".to_owned(), |n| n.to_string());
            self.line(&format!(
                "- {} ({status}, {depth}): {} internal, {} external links",
                page.final_url,
                count(page.internal_links),
                count(page.external_links)
            ));
        }
        self.findings(&links.findings);

        let content = &p.content_quality_assessment;
        self.part(&format!("Content quality — {}/100", content.score));
        for page in &content.pages {
            let keywords: Vec<String> = page
                .top_keywords
                .iter()
                .map(|k| format!("{} ({})", k.keyword, k.count))
                .collect();
            self.line(&format!(
                "- {}: {} words; H1 {}; frequent words: {}",
                page.url,
                page.word_count,
                page.h1.as_deref().unwrap_or("none"),
                if keywords.is_empty() {
                    "none".to_owned()
                } else {
                    keywords.join(", ")
                }
            ));
        }
        self.findings(&content.findings);

        self.part("Meta tag optimization by page");
        if p.meta_tag_suggestions.is_empty() {
            self.note("No page advice in this report.");
        }
        for m in &p.meta_tag_suggestions {
            self.para(&m.url, 9.5, true, TEXT, 8.0);
            for (label, s) in [("Title", &m.title), ("Description", &m.description)] {
                let current: &str = if s.current.is_empty() {
                    "missing"
                } else {
                    &s.current
                };
                self.line(&format!("{label} now: {current}"));
                if !s.suggested.is_empty() {
                    self.para(
                        &format!("Suggested: {} ({})", s.suggested, s.analysis),
                        9.5,
                        false,
                        FIX,
                        8.0,
                    );
                }
            }
        }

        self.part("Header structure");
        if p.header_suggestions.is_empty() {
            self.note("No heading advice in this report.");
        }
        for h in &p.header_suggestions {
            self.para(&h.url, 9.5, true, TEXT, 8.0);
            if !h.outline.is_empty() {
                self.line(&format!("Outline: {}", h.outline.join(" · ")));
            }
            self.line(&h.analysis);
            for (from, to) in &h.suggestions {
                self.para(&format!("{from} -> {to}"), 9.5, false, FIX, 8.0);
            }
        }

        let robots = &p.robots_analysis;
        self.part("robots.txt analysis");
        if robots.found {
            self.line(&format!(
                "{} (HTTP {}): {}",
                robots.url,
                robots
                    .status
                    .map_or_else(|| "-".to_owned(), |s| s.to_string()),
                if robots.blocks_start_page {
                    "blocks the start page"
                } else {
                    "the start page is allowed"
                }
            ));
            for g in &robots.groups {
                let rules: Vec<String> = g
                    .rules
                    .iter()
                    .map(|r| {
                        format!(
                            "{}: {}",
                            if r.allow { "Allow" } else { "Disallow" },
                            r.pattern
                        )
                    })
                    .collect();
                self.line(&format!(
                    "- {}: {}",
                    g.agents.join(", "),
                    if rules.is_empty() {
                        "no rules".to_owned()
                    } else {
                        rules.join("; ")
                    }
                ));
            }
            if !robots.sitemaps.is_empty() {
                self.line(&format!("Sitemaps: {}", robots.sitemaps.join(", ")));
            }
            if !robots.blocked_linked_pages.is_empty() {
                self.line(&format!(
                    "Linked pages it blocks: {}",
                    robots.blocked_linked_pages.join(", ")
                ));
            }
            for e in &robots.errors {
                self.para(
                    &format!("Line {}: {} ({})", e.line, e.message, e.content),
                    9.5,
                    false,
                    WARN,
                    8.0,
                );
            }
        } else {
            let status = robots
                .status
                .map(|s| format!(" (HTTP {s})"))
                .unwrap_or_default();
            self.line(&format!(
                "No robots.txt was read at {}{status}: crawlers may fetch every page.",
                robots.url
            ));
        }

        let sitemap = &p.sitemap_analysis;
        self.part("sitemap.xml check");
        self.line(&format!(
            "Sitemap documents: {} · page addresses listed: {}",
            sitemap.documents.len(),
            sitemap.url_count
        ));
        for d in &sitemap.documents {
            let entries = match (d.entries, d.kind) {
                (None, _) => "unreadable".to_owned(),
                (Some(n), Some(SitemapKind::Index)) => format!("{n} sitemaps"),
                (Some(n), _) => format!("{n} pages"),
            };
            let invalid = match d.invalid_entries {
                Some(n) if n > 0 => format!(", {n} invalid"),
                _ => String::new(),
            };
            let status = d
                .status
                .map_or_else(|| "no response".to_owned(), |s| format!("HTTP {s}"));
            self.line(&format!(
                "- {} (found via {}, {status}): {entries}{invalid}",
                d.url, d.found_via
            ));
        }
        self.findings(&sitemap.findings);
    }

    /// The Premium Optimization Suite (docs/PRODUCT.md §2.6.6).
    fn premium_suite(&mut self, suite: &PremiumOptimizations) {
        self.heading("Premium Optimization Suite");
        let auto = &suite.auto_optimizations;
        self.part("Automatic optimizations");
        if auto.images.is_empty() && auto.content.is_empty() && auto.technical.is_empty() {
            self.note("No optimizations available");
        }
        for i in &auto.images {
            self.para(
                &format!("{} (saves {})", i.title, i.savings),
                9.5,
                true,
                TEXT,
                8.0,
            );
            self.line(&i.description);
        }
        for o in auto.content.iter().chain(&auto.technical) {
            self.para(
                &format!("{} (impact: {})", o.title, o.impact),
                9.5,
                true,
                TEXT,
                8.0,
            );
            self.line(&o.description);
        }
        let proposal = &suite.new_website_proposal;
        self.part("New website proposal");
        self.line(&proposal.summary);
        for (label, list) in [
            ("Features", &proposal.features),
            ("Benefits", &proposal.benefits),
            ("Pages", &proposal.included_pages),
        ] {
            if !list.is_empty() {
                self.line(&format!("{label}: {}", list.join(", ")));
            }
        }
        self.line(&format!(
            "Price: {} · timeline: {}",
            domain::commerce::format_dollars(proposal.price.saturating_mul(100)),
            proposal.timeline
        ));
    }
}

/// Body text colour.
const TEXT: Color = Color::Rgb(Rgb {
    r: 0.2,
    g: 0.2,
    b: 0.25,
    icc_profile: None,
});
/// A fix or suggestion.
const FIX: Color = Color::Rgb(Rgb {
    r: 0.25,
    g: 0.25,
    b: 0.45,
    icc_profile: None,
});
/// A note.
const MUTED: Color = Color::Rgb(Rgb {
    r: 0.4,
    g: 0.4,
    b: 0.45,
    icc_profile: None,
});
/// A warning.
const WARN: Color = Color::Rgb(Rgb {
    r: 0.72,
    g: 0.5,
    b: 0.0,
    icc_profile: None,
});

/// Where an unpaid report's Pro-only content is.
const UPGRADE_NOTE: &str =
    "The AI analysis, suggested texts and Pro-only solutions are part of the professional report.";

/// A file name for the report: `sitelens-report-{host}-{date}.pdf`.
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
    format!("sitelens-report-{host}-{date}.pdf")
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

fn metric_line(label: &str, value: String, field: &str, estimated: &[String]) -> String {
    if estimated.iter().any(|e| e == field) {
        format!("{label}: {value} (estimated — not measured)")
    } else {
        format!("{label}: {value}")
    }
}

/// Renders the report as PDF bytes: the screenshots are read from `blobs` (any node reads any
/// worker's), then the pages are laid out on a blocking thread, which must not hold up the
/// async runtime.
pub async fn render_pdf(report: AnalysisReport, blobs: &Blobs) -> Result<Vec<u8>, PdfError> {
    let screenshots = load_screenshots(&report, blobs).await;
    tokio::task::spawn_blocking(move || render(&report, &screenshots))
        .await
        .map_err(|e| PdfError(format!("the renderer stopped unexpectedly ({e})")))?
}

/// Renders the report as PDF bytes (blocking: see [`render_pdf`]) with `screenshots`, the
/// desktop and mobile PNGs when there are any.
pub fn render(
    report: &AnalysisReport,
    screenshots: &[Option<Vec<u8>>; 2],
) -> Result<Vec<u8>, PdfError> {
    let (regular, bold) = fonts()?;
    let mut doc = PdfDocument::new(&format!("Sitelens report: {}", report.url));
    let regular_id = doc.add_font(regular);
    let bold_id = doc.add_font(bold);
    let mut w = Writer {
        doc,
        regular: (regular_id, regular),
        bold: (bold_id, bold),
        pages: Vec::new(),
        ops: Vec::new(),
        y: PAGE_H - MARGIN,
        // The watermark rule (docs/PRODUCT.md §9.2): every report but a paid premium one.
        footer: domain::entitlement::pdf_footer(report),
    };

    w.para(
        "Website Analysis Report",
        22.0,
        true,
        rgb(0.31, 0.27, 0.9),
        0.0,
    );
    w.para(&report.url, 12.0, false, rgb(0.2, 0.2, 0.25), 0.0);
    w.para(
        &format!(
            "Analysed {} · {} page{} · report id {}",
            report.created_at.replace('T', " ").trim_end_matches('Z'),
            report.pages_analyzed,
            if report.pages_analyzed == 1 { "" } else { "s" },
            report.id
        ),
        9.0,
        false,
        rgb(0.4, 0.4, 0.45),
        0.0,
    );
    w.rule();
    let s = report.scores;
    w.para(
        &format!("Overall score: {}/100", s.overall),
        18.0,
        true,
        band_color(s.overall),
        0.0,
    );
    let estimated = !report.performance_analysis.estimated.is_empty();
    for (label, v) in [
        ("SEO", s.seo),
        ("Design & UX", s.design),
        ("Technical", s.technical),
        ("Performance", s.performance),
    ] {
        let note = if label == "Performance" && estimated {
            " (partly estimated: see Performance)"
        } else {
            ""
        };
        w.para(
            &format!("{label}: {v}/100{note}"),
            12.0,
            true,
            band_color(v),
            8.0,
        );
    }

    let captions = ["Desktop (1280x800)", "Mobile (375x667)"];
    for (png, caption) in screenshots.iter().zip(captions) {
        if let Some(png) = png {
            w.gap(6.0);
            w.image(png, caption);
        }
    }

    w.section("SEO", Some(s.seo), &report.seo_analysis);
    w.section("Design & UX", Some(s.design), &report.design_analysis);
    w.section("Technical", Some(s.technical), &report.technical_analysis);

    let p = &report.performance_analysis;
    w.ensure(80.0);
    w.gap(10.0);
    w.para(
        &format!("Performance — {}/100", s.performance),
        16.0,
        true,
        band_color(s.performance),
        0.0,
    );
    w.rule();
    if estimated {
        w.para(
            "Figures marked estimated were not measured in a browser for this report: they are typical values, shown for orientation only.",
            9.5,
            false,
            rgb(0.45, 0.3, 0.0),
            0.0,
        );
    }
    let secs = domain::performance::format_seconds;
    let est = &p.estimated;
    for line in [
        metric_line(
            "First Contentful Paint",
            secs(p.first_contentful_paint),
            "firstContentfulPaint",
            est,
        ),
        metric_line(
            "Largest Contentful Paint",
            secs(p.largest_contentful_paint),
            "largestContentfulPaint",
            est,
        ),
        metric_line(
            "Cumulative Layout Shift",
            format!("{:.3}", p.cumulative_layout_shift),
            "cumulativeLayoutShift",
            est,
        ),
        metric_line(
            "Total Blocking Time",
            format!("{:.0} ms", p.total_blocking_time),
            "totalBlockingTime",
            est,
        ),
        metric_line("Speed Index", secs(p.speed_index), "speedIndex", est),
        metric_line(
            "Load time",
            secs(p.estimated_load_time),
            "estimatedLoadTime",
            est,
        ),
        metric_line(
            "Page size",
            format!("{:.0} KB", p.page_size / 1024.0),
            "pageSize",
            est,
        ),
        metric_line("Requests", p.request_count.to_string(), "requestCount", est),
    ] {
        w.para(&line, 10.0, false, rgb(0.2, 0.2, 0.25), 8.0);
    }
    for d in &p.diagnostics {
        w.gap(2.0);
        w.para(
            &format!("{} ({} · could save {})", d.title, d.value, d.potential),
            10.0,
            true,
            rgb(0.72, 0.5, 0.0),
            8.0,
        );
        if d.solution.is_empty() && d.pro_only {
            w.note(UPGRADE_NOTE);
        } else {
            w.para(&d.solution, 9.5, false, TEXT, 8.0);
        }
    }

    w.meta_insights(p);
    if let Some(pro) = &report.professional {
        w.professional(pro);
    }
    if let Some(suite) = &p.premium_optimizations {
        w.premium_suite(suite);
    }

    w.ensure(60.0);
    w.gap(10.0);
    w.para("Action Plan", 16.0, true, rgb(0.1, 0.1, 0.2), 0.0);
    w.rule();
    if report.action_items.is_empty() {
        w.para(
            "Nothing urgent: keep the site as it is and re-check after changes.",
            10.0,
            false,
            rgb(0.3, 0.3, 0.35),
            0.0,
        );
    }
    for item in &report.action_items {
        let (label, color) = match item.priority {
            Priority::High => ("High", rgb(0.8, 0.12, 0.12)),
            Priority::Medium => ("Medium", rgb(0.72, 0.5, 0.0)),
            Priority::Low => ("Low", rgb(0.09, 0.55, 0.27)),
        };
        w.gap(2.0);
        w.para(&format!("[{label}] {}", item.title), 10.5, true, color, 0.0);
        w.para(&item.description, 9.5, false, rgb(0.2, 0.2, 0.25), 8.0);
        w.para(
            &format!("Impact: {}", item.impact),
            9.5,
            false,
            rgb(0.25, 0.25, 0.45),
            8.0,
        );
    }
    w.new_page();

    let pages = std::mem::take(&mut w.pages)
        .into_iter()
        .map(|ops| PdfPage::new(Mm(210.0), Mm(297.0), ops))
        .collect();
    Ok(w.doc
        .with_pages(pages)
        .save(&PdfSaveOptions::default(), &mut Vec::new()))
}

#[cfg(test)]
mod tests {
    use domain::report::{AnalysisReport, ReportType};
    use domain::tier::WATERMARK;

    /// A stored premium report (the fixture `crates/domain` reads), as a paid `report_type`.
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

    /// Every page's text as one line.
    fn text(report: &AnalysisReport) -> String {
        pages_text(report)
            .join(" ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The text of every page of a rendered PDF.
    fn pages_text(report: &AnalysisReport) -> Vec<String> {
        let pdf = super::render(report, &[None, None]).expect("renders");
        let doc = lopdf::Document::load_mem(&pdf).expect("the PDF parses");
        doc.get_pages()
            .keys()
            .map(|&n| doc.extract_text(&[n]).expect("page text"))
            .collect()
    }

    #[test]
    fn every_page_carries_the_watermark_unless_the_report_is_a_paid_white_label_one() {
        let mut unpaid = report(ReportType::Premium);
        unpaid.paid = false;
        for page in pages_text(&domain::entitlement::viewable(unpaid)) {
            assert!(page.contains(WATERMARK), "an unpaid premium report: {page}");
        }
        for t in ReportType::ALL {
            let pages = pages_text(&report(t));
            assert!(pages.len() > 1, "{t}: a report of several pages");
            for (i, text) in pages.iter().enumerate() {
                // lopdf puts line breaks where the renderer moved the pen.
                let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
                assert!(
                    text.contains("Website analysis of http://127.0.0.1:4000/"),
                    "{t} page {i}: {text}"
                );
                assert_eq!(
                    text.contains(WATERMARK),
                    t.watermarked(),
                    "{t} page {i}: {text}"
                );
            }
        }
    }

    #[test]
    fn a_paid_report_carries_every_professional_section_and_an_unpaid_one_none() {
        let paid = report(ReportType::Standard);
        let whole = text(&paid);
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
        ] {
            assert!(whole.contains(part), "the paid PDF has {part:?}");
        }
        let pro = paid.professional.as_ref().expect("professional sections");
        for page in &pro.internal_link_analysis.pages {
            assert!(
                whole.contains(&page.final_url),
                "crawled page {}",
                page.final_url
            );
        }
        if let Some(suite) = &paid.performance_analysis.premium_optimizations {
            assert!(whole.contains("Premium Optimization Suite"));
            assert!(whole.contains(&suite.new_website_proposal.timeline));
        }

        let mut unpaid = paid.clone();
        unpaid.paid = false;
        let free = text(&domain::entitlement::viewable(unpaid));
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
    }
}
