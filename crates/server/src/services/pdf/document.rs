//! The report's pages: the cover, the contents, the one-page summary, then a section per area
//! (SEO, design and UX, technical, performance, the meta tag insights, the professional
//! sections, the Premium Optimization Suite, the screenshots, the action plan), each starting
//! on a page of its own; every page but the cover has a running header, every page a footer
//! with "Page n of N", and a watermarked report a diagonal mark on each page.

use domain::professional::{BacklinkAnalysis, SitemapKind};
use domain::report::{
    AnalysisReport, DiagnosticType, Finding, FindingType, PerformanceMetrics, PremiumOptimizations,
    Priority, ProfessionalAnalysis, SectionGroup, SectionStatus,
};
use domain::score::{Band, ring_band};

use super::PdfError;
use super::brand::Brand;
use super::canvas::{BOTTOM, CONTENT_W, Canvas, Info, MARGIN, PAGE_H, PAGE_W, Paint, TOP, Weight};

const INK: Paint = Paint::rgb8(15, 23, 42);
const BODY: Paint = Paint::rgb8(51, 65, 85);
const MUTED: Paint = Paint::rgb8(100, 116, 139);
const HAIR: Paint = Paint::rgb8(226, 232, 240);
const PANEL: Paint = Paint::rgb8(246, 248, 251);
const WHITE: Paint = Paint([1.0, 1.0, 1.0]);
const GOOD: Paint = Paint::rgb8(21, 128, 61);
const WARN: Paint = Paint::rgb8(180, 83, 9);
const BAD: Paint = Paint::rgb8(185, 28, 28);

/// The type scale.
const H1: f32 = 22.0;
const H2: f32 = 13.0;
const H3: f32 = 10.5;
const TEXT: f32 = 9.5;
const SMALL: f32 = 8.0;

/// Where an unpaid report's Pro-only content is.
const UPGRADE_NOTE: &str =
    "The AI analysis, suggested texts and Pro-only solutions are part of the professional report.";

/// A score's colours by its ring band (docs/PRODUCT.md §4.10): the arc's and the number's.
fn band_paints(score: u32) -> (Paint, Paint) {
    match ring_band(f64::from(score)) {
        Band::Green => (Paint::rgb8(12, 206, 107), Paint::rgb8(0, 128, 64)),
        Band::Yellow | Band::Amber => (Paint::rgb8(255, 164, 0), Paint::rgb8(194, 96, 0)),
        Band::Red => (Paint::rgb8(255, 78, 66), Paint::rgb8(204, 0, 0)),
    }
}

fn finding_label(kind: FindingType) -> (&'static str, Paint) {
    match kind {
        FindingType::Good => ("PASSED", GOOD),
        FindingType::Warning => ("WARNING", WARN),
        FindingType::Issue => ("ISSUE", BAD),
    }
}

fn priority_label(p: Priority) -> (&'static str, Paint) {
    match p {
        Priority::High => ("HIGH", BAD),
        Priority::Medium => ("MEDIUM", WARN),
        Priority::Low => ("LOW", GOOD),
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The report's analysis time as seconds since 1970, and as the cover writes it.
fn analysed_at(report: &AnalysisReport) -> (i64, String) {
    match chrono::DateTime::parse_from_rfc3339(&report.created_at) {
        Ok(t) => {
            let t = t.with_timezone(&chrono::Utc);
            (t.timestamp(), t.format("%-d %B %Y, %H:%M UTC").to_string())
        }
        Err(_) => (0, report.created_at.clone()),
    }
}

/// What a column of a table holds: its heading and its share of the width.
struct Column(&'static str, f32);

/// One cell of a table.
struct Cell {
    text: String,
    paint: Paint,
    weight: Weight,
}

fn cell(text: impl Into<String>) -> Cell {
    Cell {
        text: text.into(),
        paint: BODY,
        weight: Weight::Regular,
    }
}

fn strong(text: impl Into<String>, paint: Paint) -> Cell {
    Cell {
        text: text.into(),
        paint,
        weight: Weight::Bold,
    }
}

/// A line of a stacked block: its text, size, weight and colour.
type Part<'t> = (&'t str, f32, Weight, Paint);

struct Doc<'a> {
    c: Canvas,
    report: &'a AnalysisReport,
    brand: &'a Brand,
    primary: Paint,
    secondary: Paint,
    /// Contents entries: title, level (0 a section, 1 a part), page index.
    toc: Vec<(String, u8, usize)>,
    /// Where the summary says how many actions it left for the Action Plan: page, top, count.
    more_actions: Option<(usize, f32, usize)>,
}

/// Lays out the whole report.
pub(super) fn draw(
    report: &AnalysisReport,
    screenshots: &[Option<Vec<u8>>; 2],
    brand: &Brand,
) -> Result<Vec<u8>, PdfError> {
    let title = format!("Website analysis of {}", report.url);
    let mut d = Doc {
        c: Canvas::new(&title)?,
        report,
        brand,
        primary: Paint(brand.primary.fractions()),
        secondary: Paint(brand.secondary.fractions()),
        toc: Vec::new(),
        more_actions: None,
    };
    d.cover();
    d.c.header = Some("Contents".to_owned());
    let contents = d.c.new_page();
    d.summary();

    let s = report.scores;
    d.findings_section("SEO", s.seo, &report.seo_analysis);
    d.findings_section("Design & UX", s.design, &report.design_analysis);
    d.findings_section("Technical", s.technical, &report.technical_analysis);
    d.performance(&report.performance_analysis);
    d.meta_insights(&report.performance_analysis);
    if let Some(pro) = &report.professional {
        d.professional(pro);
    }
    if let Some(suite) = &report.performance_analysis.premium_optimizations {
        d.premium_suite(suite);
    }
    if screenshots.iter().any(Option::is_some) {
        d.screenshots(screenshots);
    }
    d.action_plan();
    d.more_actions();
    d.contents(contents);
    d.decorate();

    let (created, _) = analysed_at(report);
    let tier = domain::entitlement::pdf_tier(report);
    let bookmarks: Vec<(String, usize)> = d
        .toc
        .iter()
        .filter(|(_, level, _)| *level == 0)
        .map(|(t, _, p)| (t.clone(), *p))
        .collect();
    let info = Info {
        title,
        author: brand.name.clone(),
        producer: if brand.white_label {
            "printpdf".to_owned()
        } else {
            "Sitelens PDF renderer (printpdf)".to_owned()
        },
        subject: format!("{} website analysis report", tier_name(tier)),
        keywords: vec![
            "website analysis".to_owned(),
            "SEO".to_owned(),
            "performance".to_owned(),
        ],
        created,
    };
    d.c.finish(info, &bookmarks)
}

fn tier_name(t: domain::report::ReportType) -> &'static str {
    match t {
        domain::report::ReportType::Basic => "Basic",
        domain::report::ReportType::Standard => "Standard",
        domain::report::ReportType::Premium => "Premium",
    }
}

impl Doc<'_> {
    fn host(&self) -> String {
        url::Url::parse(&self.report.url)
            .ok()
            .and_then(|u| u.host_str().map(str::to_owned))
            .unwrap_or_else(|| self.report.url.clone())
    }

    /// The site's own title, when the report read one.
    fn site_title(&self) -> Option<&str> {
        let meta = self
            .report
            .performance_analysis
            .meta_tag_suggestions
            .as_ref()?;
        let t = meta.title.current.trim();
        (!t.is_empty()).then_some(t)
    }

    // ----- building blocks -----

    /// A score ring with its number in the middle.
    fn score_ring(&mut self, cx: f32, cy: f32, r: f32, score: u32) {
        let (arc, number) = band_paints(score);
        self.c.ring(
            cx,
            cy,
            r,
            r * 0.16,
            score as f32 / 100.0,
            arc,
            arc.tint(0.82),
        );
        let size = r * 0.72;
        self.c.text_center(
            cx,
            cy - size * 0.35,
            &score.to_string(),
            size,
            Weight::Bold,
            number,
        );
    }

    /// A small rounded label, its left edge at `x` and its text's baseline at `baseline`;
    /// returns its width.
    fn pill(&mut self, x: f32, baseline: f32, label: &str, paint: Paint) -> f32 {
        let size = 6.5;
        let w = self.c.width(label, size, Weight::Bold) + 10.0;
        self.c
            .round_rect(x, baseline - 3.0, w, size + 5.5, 3.0, paint.tint(0.86));
        self.c
            .text(x + 5.0, baseline, label, size, Weight::Bold, paint);
        w
    }

    /// Starts a section on a new page: its running header, its contents entry, its eyebrow and
    /// title, and its score ring when it has one.
    fn section(&mut self, title: &str, score: Option<u32>) {
        self.c.header = Some(title.to_owned());
        let page = self.c.new_page();
        let number = self.toc.iter().filter(|(_, l, _)| *l == 0).count() + 1;
        self.toc.push((title.to_owned(), 0, page));
        let top = self.c.y;
        self.c.text(
            MARGIN,
            top - 8.0,
            &format!("SECTION {number:02}"),
            SMALL,
            Weight::Bold,
            self.primary,
        );
        self.c
            .text(MARGIN, top - 34.0, title, H1, Weight::Bold, INK);
        if let Some(score) = score {
            self.score_ring(PAGE_W - MARGIN - 26.0, top - 24.0, 24.0, score);
        }
        self.c.y = top - 50.0;
    }

    /// A one-line summary under a section title, then a rule.
    fn section_lead(&mut self, text: &str) {
        self.c.para(0.0, text, TEXT, Weight::Regular, MUTED);
        self.c.y -= 8.0;
        self.c.hline(MARGIN, PAGE_W - MARGIN, self.c.y, 0.8, HAIR);
        self.c.y -= 14.0;
    }

    /// A part's title within a section, kept with at least `keep` points of what follows.
    fn part(&mut self, title: &str, keep: f32) {
        self.c.ensure(H2 * 1.4 + 10.0 + keep);
        let page = self.c.current;
        self.toc.push((title.to_owned(), 1, page));
        self.c.y -= 6.0;
        self.c.para(0.0, title, H2, Weight::Bold, INK);
        self.c.y -= 4.0;
    }

    /// A labelled row: a pill in the left column, the `parts` stacked in the right one,
    /// a hairline under it.
    fn row(&mut self, label: Option<(&str, Paint)>, parts: &[Part<'_>]) {
        let x = MARGIN + 62.0;
        let width = CONTENT_W - 62.0;
        let gap = 2.0;
        let height: f32 = parts
            .iter()
            .filter(|p| !p.0.is_empty())
            .map(|(t, size, w, _)| self.c.block_height(width, t, *size, *w) + gap)
            .sum::<f32>()
            + 10.0;
        if height < TOP - BOTTOM {
            self.c.ensure(height);
        }
        let top = self.c.y;
        if let Some((text, paint)) = label {
            self.pill(MARGIN, top - 10.0, text, paint);
        }
        // Line by line, so that a row taller than a page runs on to the next.
        let mut y = top;
        for &(text, size, weight, paint) in parts.iter().filter(|p| !p.0.is_empty()) {
            let leading = size * 1.4;
            for line in self.c.wrap(text, size, weight, width) {
                if y - leading < BOTTOM {
                    self.c.new_page();
                    y = self.c.y;
                }
                self.c.text(x, y - size * 0.95, &line, size, weight, paint);
                y -= leading;
            }
            y -= gap;
        }
        self.c.y = y - 4.0;
        self.c.hline(x, PAGE_W - MARGIN, self.c.y, 0.5, HAIR);
        self.c.y -= 6.0;
    }

    fn findings(&mut self, findings: &[Finding]) {
        for f in findings {
            let fix = f
                .solution
                .as_deref()
                .map(|s| format!("How to fix: {s}"))
                .unwrap_or_default();
            let primary = self.primary;
            self.row(
                Some(finding_label(f.kind)),
                &[
                    (&f.title, H3, Weight::Bold, INK),
                    (&f.description, TEXT, Weight::Regular, BODY),
                    (&fix, TEXT, Weight::Regular, primary),
                ],
            );
        }
    }

    /// A line of body text at the cursor.
    fn line(&mut self, text: &str) {
        self.c.para(0.0, text, TEXT, Weight::Regular, BODY);
        self.c.y -= 2.0;
    }

    /// A muted note at the cursor.
    fn note(&mut self, text: &str) {
        self.c.para(0.0, text, SMALL + 0.5, Weight::Regular, MUTED);
        self.c.y -= 3.0;
    }

    /// Figures side by side in tiles: the number large, its label under it.
    fn tiles(&mut self, tiles: &[(String, &str)]) {
        if tiles.is_empty() {
            return;
        }
        let h = 50.0;
        self.c.ensure(h + 12.0);
        let gap = 10.0;
        let w = (CONTENT_W - gap * (tiles.len() - 1) as f32) / tiles.len() as f32;
        let top = self.c.y;
        for (i, (value, label)) in tiles.iter().enumerate() {
            let x = MARGIN + i as f32 * (w + gap);
            self.c.round_rect(x, top - h, w, h, 5.0, PANEL);
            let value = self.c.clip(value, 17.0, Weight::Bold, w - 20.0);
            self.c
                .text(x + 10.0, top - 24.0, &value, 17.0, Weight::Bold, INK);
            let label = self.c.clip(label, SMALL, Weight::Regular, w - 20.0);
            self.c
                .text(x + 10.0, top - 39.0, &label, SMALL, Weight::Regular, MUTED);
        }
        self.c.y = top - h - 14.0;
    }

    /// A table: a shaded header row (repeated on every page it runs onto), wrapped cells,
    /// a hairline under each row.
    fn table(&mut self, columns: &[Column], rows: Vec<Vec<Cell>>) {
        let size = 8.5;
        let pad = 5.0;
        let widths: Vec<f32> = columns.iter().map(|c| c.1 * CONTENT_W).collect();
        let header = |d: &mut Self| {
            let top = d.c.y;
            d.c.rect(MARGIN, top - 18.0, CONTENT_W, 18.0, PANEL);
            let mut x = MARGIN;
            for (col, w) in columns.iter().zip(&widths) {
                d.c.text(
                    x + pad,
                    top - 12.0,
                    &col.0.to_uppercase(),
                    6.8,
                    Weight::Bold,
                    MUTED,
                );
                x += w;
            }
            d.c.y = top - 18.0;
        };
        self.c.ensure(18.0 + 24.0);
        header(self);
        for row in rows {
            let lines: Vec<Vec<String>> = row
                .iter()
                .zip(&widths)
                .map(|(cell, w)| self.c.wrap(&cell.text, size, cell.weight, w - 2.0 * pad))
                .collect();
            let n = lines.iter().map(Vec::len).max().unwrap_or(1).max(1);
            let leading = size * 1.35;
            let h = n as f32 * leading + 2.0 * pad;
            // A row that fits on a page is kept whole; a longer one (a robots.txt of many
            // rules) runs on over pages, line by line, under the header again.
            if self.c.y - h < BOTTOM && h <= TOP - BOTTOM - 18.0 {
                self.c.new_page();
                header(self);
            }
            let mut top = self.c.y - pad;
            for i in 0..n {
                if top - leading < BOTTOM {
                    self.c.new_page();
                    header(self);
                    top = self.c.y - pad;
                }
                let mut x = MARGIN;
                for ((cell, lines), w) in row.iter().zip(&lines).zip(&widths) {
                    if let Some(l) = lines.get(i) {
                        self.c
                            .text(x + pad, top - size * 0.95, l, size, cell.weight, cell.paint);
                    }
                    x += w;
                }
                top -= leading;
            }
            self.c.y = top - pad;
            self.c.hline(MARGIN, PAGE_W - MARGIN, self.c.y, 0.5, HAIR);
        }
        self.c.y -= 12.0;
    }

    // ----- pages -----

    fn cover(&mut self) {
        self.c.header = None;
        self.c.new_page();
        let band_bottom = PAGE_H - 340.0;
        self.c.rect(0.0, band_bottom, PAGE_W, 340.0, self.primary);
        // A thin accent along the band's foot.
        self.c
            .rect(0.0, band_bottom - 5.0, PAGE_W, 5.0, self.secondary);

        // The brand: its logo on a white plate (a logo in the band's own colour stays legible),
        // or its name as a word mark beside a lens.
        let brand_top = PAGE_H - 48.0;
        let logo = self.brand.logo.as_deref().and_then(|logo| {
            self.c
                .image(logo, MARGIN, brand_top, 140.0, 40.0, Some(WHITE))
        });
        if logo.is_none() {
            self.c
                .ring(MARGIN + 9.0, brand_top - 12.0, 7.0, 2.6, 1.0, WHITE, WHITE);
            self.c.circle(MARGIN + 9.0, brand_top - 12.0, 2.4, WHITE);
            let name = self.brand.name.clone();
            self.c.text(
                MARGIN + 24.0,
                brand_top - 17.0,
                &name,
                14.0,
                Weight::Bold,
                WHITE,
            );
        }

        let light = WHITE.tint(0.0);
        let soft = self.primary.tint(0.7);
        let mut y = PAGE_H - 150.0;
        self.c
            .text(MARGIN, y, "WEBSITE AUDIT", SMALL + 1.0, Weight::Bold, soft);
        y -= 36.0;
        self.c.text(
            MARGIN,
            y,
            "Website Analysis Report",
            30.0,
            Weight::Bold,
            light,
        );
        y -= 30.0;
        let host = self.host();
        let title = self.site_title().map(str::to_owned);
        let name = title.clone().unwrap_or_else(|| host.clone());
        let lines = self.c.wrap(&name, 15.0, Weight::Bold, CONTENT_W);
        for l in lines.iter().take(2) {
            self.c.text(MARGIN, y, l, 15.0, Weight::Bold, light);
            y -= 20.0;
        }
        let url = self
            .c
            .clip(&self.report.url, 11.0, Weight::Regular, CONTENT_W);
        self.c.text(MARGIN, y, &url, 11.0, Weight::Regular, soft);

        let tier = domain::entitlement::pdf_tier(self.report);
        let label = format!("{} REPORT", tier_name(tier).to_uppercase());
        let w = self.c.width(&label, 7.5, Weight::Bold) + 16.0;
        self.c
            .round_rect(MARGIN, band_bottom + 26.0, w, 17.0, 8.5, self.secondary);
        self.c.text(
            MARGIN + 8.0,
            band_bottom + 32.0,
            &label,
            7.5,
            Weight::Bold,
            WHITE,
        );

        // The overall score and the facts of the analysis.
        let s = self.report.scores;
        let ring_y = band_bottom - 110.0;
        self.score_ring(MARGIN + 62.0, ring_y, 56.0, s.overall);
        self.c.text_center(
            MARGIN + 62.0,
            ring_y - 80.0,
            "Overall score",
            TEXT,
            Weight::Bold,
            INK,
        );
        let (_, when) = analysed_at(self.report);
        let facts = [
            ("ANALYSED", when),
            (
                "SCOPE",
                format!(
                    "{} report · {} analysed",
                    tier_name(tier),
                    plural(self.report.pages_analyzed as usize, "page", "pages")
                ),
            ),
            ("REPORT ID", self.report.id.clone()),
            ("PREPARED BY", self.brand.name.clone()),
        ];
        let fx = MARGIN + 170.0;
        let mut fy = band_bottom - 42.0;
        for (label, value) in facts {
            self.c.text(fx, fy, label, 6.8, Weight::Bold, MUTED);
            let value = self
                .c
                .clip(&value, 11.0, Weight::Regular, PAGE_W - MARGIN - fx);
            self.c
                .text(fx, fy - 15.0, &value, 11.0, Weight::Regular, INK);
            fy -= 38.0;
        }

        // The four areas as bars.
        let mut by = band_bottom - 250.0;
        self.c
            .text(MARGIN, by, "SCORES BY AREA", 6.8, Weight::Bold, MUTED);
        by -= 20.0;
        for (label, score) in [
            ("SEO", s.seo),
            ("Design & UX", s.design),
            ("Technical", s.technical),
            ("Performance", s.performance),
        ] {
            let (arc, number) = band_paints(score);
            self.c.text(MARGIN, by, label, TEXT, Weight::Regular, BODY);
            let bx = MARGIN + 110.0;
            let bw = CONTENT_W - 150.0;
            self.c
                .round_rect(bx, by - 1.0, bw, 7.0, 3.5, arc.tint(0.82));
            self.c.round_rect(
                bx,
                by - 1.0,
                (bw * score as f32 / 100.0).max(7.0),
                7.0,
                3.5,
                arc,
            );
            self.c.text_right(
                PAGE_W - MARGIN,
                by,
                &format!("{score}/100"),
                TEXT,
                Weight::Bold,
                number,
            );
            by -= 24.0;
        }

        if let Some(contact) = self.brand.contact.clone() {
            self.c
                .text(MARGIN, 62.0, &contact, SMALL, Weight::Regular, MUTED);
        }
    }

    fn summary(&mut self) {
        self.c.header = Some("Summary".to_owned());
        let page = self.c.new_page();
        self.toc.push(("Summary".to_owned(), 0, page));
        let top = self.c.y;
        self.c
            .text(MARGIN, top - 26.0, "Summary", H1, Weight::Bold, INK);
        let host = self.host();
        self.c.text(
            MARGIN,
            top - 44.0,
            &format!("How {host} scores in the four areas of this audit, what to fix first, and the plan."),
            TEXT,
            Weight::Regular,
            MUTED,
        );

        // The four rings on a panel, with the band legend under them.
        let panel_top = top - 60.0;
        let panel_h = 128.0;
        self.c
            .round_rect(MARGIN, panel_top - panel_h, CONTENT_W, panel_h, 8.0, PANEL);
        let s = self.report.scores;
        let areas = [
            ("SEO", s.seo),
            ("Design & UX", s.design),
            ("Technical", s.technical),
            ("Performance", s.performance),
        ];
        let slot = CONTENT_W / 4.0;
        for (i, (label, score)) in areas.into_iter().enumerate() {
            let cx = MARGIN + slot * (i as f32 + 0.5);
            self.score_ring(cx, panel_top - 50.0, 30.0, score);
            self.c
                .text_center(cx, panel_top - 98.0, label, TEXT, Weight::Bold, INK);
        }
        let mut lx = MARGIN + 14.0;
        let ly = panel_top - panel_h + 10.0;
        for (range, score) in [
            ("0–49 poor", 0),
            ("50–89 needs improvement", 50),
            ("90–100 good", 90),
        ] {
            let (arc, _) = band_paints(score);
            self.c.circle(lx + 3.0, ly + 2.5, 3.0, arc);
            self.c
                .text(lx + 10.0, ly, range, 7.0, Weight::Regular, MUTED);
            lx += self.c.width(range, 7.0, Weight::Regular) + 26.0;
        }
        self.c.y = panel_top - panel_h - 20.0;

        // The top issues: issues before warnings, across the three checked areas.
        self.c.para(0.0, "Top issues", H2, Weight::Bold, INK);
        self.c.y -= 6.0;
        let areas = [
            ("SEO", &self.report.seo_analysis),
            ("Design & UX", &self.report.design_analysis),
            ("Technical", &self.report.technical_analysis),
        ];
        let mut top: Vec<(String, &Finding)> = Vec::new();
        for kind in [FindingType::Issue, FindingType::Warning] {
            for (area, groups) in areas {
                for g in groups.iter() {
                    for f in g.findings.iter().filter(|f| f.kind == kind) {
                        top.push((format!("{area} · {}", g.title), f));
                    }
                }
            }
        }
        if top.is_empty() {
            self.note("No issues or warnings: every check passed.");
        }
        for (where_, f) in top.into_iter().take(5) {
            let label = finding_label(f.kind);
            self.compact_row(label, &f.title, &where_);
        }

        // The action plan by priority, as far as the page holds it.
        self.c.y -= 10.0;
        self.c.para(0.0, "Action plan", H2, Weight::Bold, INK);
        self.c.y -= 6.0;
        let mut items: Vec<_> = self.report.action_items.iter().collect();
        items.sort_by_key(|i| match i.priority {
            Priority::High => 0,
            Priority::Medium => 1,
            Priority::Low => 2,
        });
        if items.is_empty() {
            self.note("Nothing urgent: keep the site as it is and re-check after changes.");
        }
        let mut shown = 0;
        for item in &items {
            if self.c.y - 34.0 < BOTTOM + 18.0 {
                break;
            }
            self.compact_row(priority_label(item.priority), &item.title, &item.impact);
            shown += 1;
        }
        if shown < items.len() {
            // Written once the Action Plan's page is known (see `more_actions`).
            self.more_actions = Some((self.c.current, self.c.y, items.len() - shown));
        }
    }

    /// A one-line row of the summary: a pill, a title and a muted line beside it.
    fn compact_row(&mut self, label: (&str, Paint), title: &str, detail: &str) {
        let top = self.c.y;
        self.pill(MARGIN, top - 10.0, label.0, label.1);
        let x = MARGIN + 62.0;
        let w = CONTENT_W - 62.0;
        let title = self.c.clip(title, TEXT, Weight::Bold, w);
        self.c.text(x, top - 10.0, &title, TEXT, Weight::Bold, INK);
        let detail = self.c.clip(detail, SMALL, Weight::Regular, w);
        self.c
            .text(x, top - 22.0, &detail, SMALL, Weight::Regular, MUTED);
        self.c.y = top - 28.0;
        self.c.hline(x, PAGE_W - MARGIN, self.c.y, 0.5, HAIR);
        self.c.y -= 5.0;
    }

    fn findings_section(&mut self, title: &str, score: u32, groups: &[SectionGroup]) {
        self.section(title, Some(score));
        let all: Vec<&Finding> = groups.iter().flat_map(|g| &g.findings).collect();
        let count = |k: FindingType| all.iter().filter(|f| f.kind == k).count();
        self.section_lead(&format!(
            "{} · {} passed · {} · {}",
            plural(all.len(), "check", "checks"),
            count(FindingType::Good),
            plural(count(FindingType::Warning), "warning", "warnings"),
            plural(count(FindingType::Issue), "issue", "issues"),
        ));
        if groups.is_empty() {
            self.note("No findings in this section.");
        }
        for g in groups {
            self.c.ensure(80.0);
            let (status, paint) = match g.status {
                SectionStatus::Good => ("GOOD", GOOD),
                SectionStatus::NeedsImprovement => ("NEEDS IMPROVEMENT", WARN),
                SectionStatus::Critical => ("CRITICAL", BAD),
            };
            let top = self.c.y;
            self.c
                .text(MARGIN, top - 12.0, &g.title, H2, Weight::Bold, INK);
            let w = self.c.width(status, 6.5, Weight::Bold) + 10.0;
            self.pill(PAGE_W - MARGIN - w, top - 11.0, status, paint);
            self.c.y = top - 24.0;
            self.findings(&g.findings);
            self.c.y -= 8.0;
        }
    }

    fn performance(&mut self, p: &PerformanceMetrics) {
        let s = self.report.scores;
        self.section("Performance", Some(s.performance));
        let estimated = !p.estimated.is_empty();
        self.section_lead(if estimated {
            "Lab measurements of the start page. Figures marked estimated were not measured in a browser for this report: they are typical values, shown for orientation only."
        } else {
            "Lab measurements of the start page, against the ranges a fast site stays within."
        });

        // The four lab categories as small rings.
        let est = |field: &str| p.estimated.iter().any(|e| e == field);
        let cats = [
            ("Performance", p.scores.performance, false),
            (
                "Accessibility",
                p.scores.accessibility,
                est("accessibilityScore"),
            ),
            (
                "Best practices",
                p.scores.best_practices,
                est("bestPracticesScore"),
            ),
            ("SEO", p.scores.seo, est("seoScore")),
        ];
        self.c.ensure(100.0);
        let top = self.c.y;
        let slot = CONTENT_W / 4.0;
        for (i, (label, score, estimated)) in cats.into_iter().enumerate() {
            let cx = MARGIN + slot * (i as f32 + 0.5);
            self.score_ring(cx, top - 26.0, 24.0, score);
            self.c
                .text_center(cx, top - 66.0, label, TEXT, Weight::Bold, INK);
            if estimated {
                self.c
                    .text_center(cx, top - 77.0, "estimated", 7.0, Weight::Regular, MUTED);
            }
        }
        self.c.y = top - 92.0;

        self.part("Metrics and their good ranges", 60.0);
        let ranges = domain::performance::good_ranges();
        let secs = domain::performance::format_seconds;
        let size = |bytes: f64| {
            if bytes >= 1_000_000.0 {
                format!("{:.1} MB", bytes / 1_000_000.0)
            } else {
                format!("{:.0} KB", bytes / 1000.0)
            }
        };
        let metrics: [(&str, String, Option<&str>, &str, f64); 9] = [
            (
                "First Contentful Paint",
                secs(p.first_contentful_paint),
                Some("fcp"),
                "firstContentfulPaint",
                p.first_contentful_paint,
            ),
            (
                "Largest Contentful Paint",
                secs(p.largest_contentful_paint),
                Some("lcp"),
                "largestContentfulPaint",
                p.largest_contentful_paint,
            ),
            (
                "Cumulative Layout Shift",
                format!("{:.3}", p.cumulative_layout_shift),
                Some("cls"),
                "cumulativeLayoutShift",
                p.cumulative_layout_shift,
            ),
            (
                "Total Blocking Time",
                format!("{:.0} ms", p.total_blocking_time),
                Some("tbt"),
                "totalBlockingTime",
                p.total_blocking_time,
            ),
            (
                "Speed Index",
                secs(p.speed_index),
                Some("speedIndex"),
                "speedIndex",
                p.speed_index,
            ),
            (
                "Time to Interactive",
                secs(p.time_to_interactive),
                Some("tti"),
                "timeToInteractive",
                p.time_to_interactive,
            ),
            (
                "Load time",
                secs(p.estimated_load_time),
                None,
                "estimatedLoadTime",
                p.estimated_load_time,
            ),
            (
                "Page size",
                size(p.page_size),
                Some("pageSize"),
                "pageSize",
                p.page_size,
            ),
            (
                "Requests",
                p.request_count.to_string(),
                Some("requests"),
                "requestCount",
                f64::from(p.request_count),
            ),
        ];
        let rows = metrics
            .into_iter()
            .map(|(label, value, range, field, raw)| {
                let range_text = range
                    .and_then(|id| ranges.iter().find(|r| r.id == id))
                    .map_or_else(|| "—".to_owned(), |r| r.text.clone());
                let verdict = match range.and_then(|id| domain::performance::in_good_range(id, raw))
                {
                    Some(true) => strong("Good", GOOD),
                    Some(false) => strong("Needs work", WARN),
                    None => cell("—"),
                };
                let value = if est(field) {
                    format!("{value} (estimated — not measured)")
                } else {
                    value
                };
                vec![strong(label, INK), cell(value), cell(range_text), verdict]
            })
            .collect();
        self.table(
            &[
                Column("Metric", 0.32),
                Column("Value", 0.3),
                Column("Good range", 0.2),
                Column("Verdict", 0.18),
            ],
            rows,
        );

        self.part("Diagnostics", 50.0);
        if p.diagnostics.is_empty() {
            self.note("No diagnostics: nothing measured on this page needs attention.");
        }
        for d in &p.diagnostics {
            let label = match d.kind {
                DiagnosticType::Error => ("HIGH", BAD),
                DiagnosticType::Warning => ("MEDIUM", WARN),
                DiagnosticType::Info => ("INFO", MUTED),
            };
            let figures = format!("Measured {} · could save {}", d.value, d.potential);
            let fix = if d.solution.is_empty() && d.pro_only {
                UPGRADE_NOTE.to_owned()
            } else {
                d.solution.clone()
            };
            let primary = self.primary;
            self.row(
                Some(label),
                &[
                    (&d.title, H3, Weight::Bold, INK),
                    (&figures, SMALL + 0.5, Weight::Bold, MUTED),
                    (&d.description, TEXT, Weight::Regular, BODY),
                    (&fix, TEXT, Weight::Regular, primary),
                ],
            );
        }
    }

    /// The meta tag insights: the AI analysis and suggested title, description and Open Graph
    /// tags, and the content and heading suggestions (docs/PRODUCT.md §2.6.6).
    fn meta_insights(&mut self, p: &PerformanceMetrics) {
        let Some(meta) = &p.meta_tag_suggestions else {
            return;
        };
        // An unpaid report keeps only the current texts (docs/PRODUCT.md §6.4).
        let redacted = meta.title.analysis.is_empty() && meta.title.suggested.is_empty();
        self.section("Meta Tag Insights", None);
        self.section_lead("The start page's title and description as search results show them, with what to change.");
        let primary = self.primary;
        for (label, s) in [("Title", &meta.title), ("Description", &meta.description)] {
            let current = if s.current.is_empty() {
                "Missing".to_owned()
            } else {
                format!("{} ({} characters)", s.current, s.current.chars().count())
            };
            let analysis = if s.analysis.is_empty() {
                String::new()
            } else {
                format!("Analysis: {}", s.analysis)
            };
            let suggested = if s.suggested.is_empty() {
                String::new()
            } else {
                format!("Suggested: {}", s.suggested)
            };
            self.row(
                Some((&label.to_uppercase(), primary)),
                &[
                    (&current, H3, Weight::Bold, INK),
                    (&analysis, TEXT, Weight::Regular, BODY),
                    (&suggested, TEXT, Weight::Bold, primary),
                ],
            );
        }
        if redacted {
            self.note(UPGRADE_NOTE);
            return;
        }
        if !meta.og_tags.analysis.is_empty() || !meta.og_tags.suggestions.is_empty() {
            self.part("Open Graph tags", 40.0);
            if !meta.og_tags.analysis.is_empty() {
                self.line(&meta.og_tags.analysis);
            }
            let rows = meta
                .og_tags
                .suggestions
                .iter()
                .map(|(k, v)| vec![strong(k.clone(), INK), cell(v.clone())])
                .collect::<Vec<_>>();
            if !rows.is_empty() {
                self.table(
                    &[Column("Property", 0.3), Column("Suggested value", 0.7)],
                    rows,
                );
            }
        }
        if let Some(c) = &p.content_optimizations {
            self.part("Content", 40.0);
            self.line(&c.content.analysis);
            for s in &c.content.suggestions {
                self.line(&format!("• {s}"));
            }
            self.part("Headings", 40.0);
            self.line(&c.headings.analysis);
            let rows = c
                .headings
                .suggestions
                .iter()
                .map(|(from, to)| vec![cell(from.clone()), strong(to.clone(), primary)])
                .collect::<Vec<_>>();
            if !rows.is_empty() {
                self.table(&[Column("Now", 0.5), Column("Suggested", 0.5)], rows);
            }
        }
    }

    /// The professional report's site-wide sections (docs/PRODUCT.md §1.4), each with the
    /// figures it measured and nothing else: what could not be measured says so.
    fn professional(&mut self, p: &ProfessionalAnalysis) {
        self.section("In-Depth Site Analysis", None);
        self.section_lead("Every page the crawl reached, the links into and across the site, its content, and what robots.txt and the sitemap tell search engines.");
        let links = &p.internal_link_analysis;
        let mut tiles = vec![
            (links.pages_crawled.to_string(), "pages crawled"),
            (
                links.link_targets_checked.to_string(),
                "other link targets checked",
            ),
        ];
        if let Some(BacklinkAnalysis::Figures(b)) = &p.backlink_analysis {
            tiles.push((b.backlinks.to_string(), "backlinks"));
            tiles.push((b.referring_domains.to_string(), "referring sites"));
        }
        tiles.push((
            p.domain_authority
                .map_or_else(|| "—".to_owned(), |a| format!("{a}/100")),
            "domain authority",
        ));
        self.tiles(&tiles);

        self.part("Backlinks and domain authority", 60.0);
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
                    "Backlinks: {} ({} followed) from {}",
                    b.backlinks,
                    b.followed_backlinks,
                    plural(b.referring_domains as usize, "referring site", "referring sites"),
                ));
                self.line(&format!(
                    "Evidence: {} pages on {} sites in {}",
                    b.evidence.pages_in_graph,
                    b.evidence.domains_in_graph,
                    domain::professional::link_graph_label(&b.provider)
                ));
                if !b.top_referring_domains.is_empty() {
                    self.c.y -= 4.0;
                    let rows = b
                        .top_referring_domains
                        .iter()
                        .map(|d| {
                            vec![
                                strong(d.domain.clone(), INK),
                                cell(d.links.to_string()),
                                cell(d.followed_links.to_string()),
                            ]
                        })
                        .collect();
                    self.table(
                        &[
                            Column("Referring site", 0.6),
                            Column("Links", 0.2),
                            Column("Followed", 0.2),
                        ],
                        rows,
                    );
                }
                if !b.note.is_empty() {
                    self.note(&b.note);
                }
            }
        }

        self.part("Internal link analysis", 60.0);
        self.line(&format!(
            "Pages crawled: {} · other link targets checked: {} · blocked by robots.txt: {}",
            links.pages_crawled,
            links.link_targets_checked,
            links.blocked_by_robots.len()
        ));
        let count = |n: Option<u32>| n.map_or_else(|| "—".to_owned(), |n| n.to_string());
        let rows = links
            .pages
            .iter()
            .map(|page| {
                let status = match page.status {
                    Some(s) if s < 400 => strong(s.to_string(), GOOD),
                    Some(s) => strong(s.to_string(), BAD),
                    None => strong("no response", BAD),
                };
                let depth = page
                    .depth
                    .map_or_else(|| "sitemap only".to_owned(), |d| d.to_string());
                vec![
                    cell(page.final_url.clone()),
                    status,
                    cell(depth),
                    cell(count(page.internal_links)),
                    cell(count(page.external_links)),
                ]
            })
            .collect::<Vec<_>>();
        if !rows.is_empty() {
            self.table(
                &[
                    Column("Page", 0.52),
                    Column("Status", 0.12),
                    Column("Clicks deep", 0.12),
                    Column("Internal", 0.12),
                    Column("External", 0.12),
                ],
                rows,
            );
        }
        self.findings(&links.findings);

        let content = &p.content_quality_assessment;
        self.part(&format!("Content quality — {}/100", content.score), 60.0);
        let rows = content
            .pages
            .iter()
            .map(|page| {
                let keywords: Vec<String> = page
                    .top_keywords
                    .iter()
                    .map(|k| format!("{} ({})", k.keyword, k.count))
                    .collect();
                vec![
                    cell(page.url.clone()),
                    cell(page.word_count.to_string()),
                    cell(page.h1.clone().unwrap_or_else(|| "none".to_owned())),
                    cell(if keywords.is_empty() {
                        "none".to_owned()
                    } else {
                        keywords.join(", ")
                    }),
                ]
            })
            .collect::<Vec<_>>();
        if !rows.is_empty() {
            self.table(
                &[
                    Column("Page", 0.34),
                    Column("Words", 0.1),
                    Column("H1", 0.24),
                    Column("Frequent words", 0.32),
                ],
                rows,
            );
        }
        self.findings(&content.findings);

        self.part("Meta tag optimization by page", 60.0);
        if p.meta_tag_suggestions.is_empty() {
            self.note("No page advice in this report.");
        }
        let primary = self.primary;
        for m in &p.meta_tag_suggestions {
            let now = |s: &domain::report::MetaSuggestion| {
                if s.current.is_empty() {
                    "missing".to_owned()
                } else {
                    s.current.clone()
                }
            };
            let suggest = |s: &domain::report::MetaSuggestion| {
                if s.suggested.is_empty() {
                    String::new()
                } else {
                    format!("Suggested: {} ({})", s.suggested, s.analysis)
                }
            };
            let title_now = format!("Title now: {}", now(&m.title));
            let title_new = suggest(&m.title);
            let desc_now = format!("Description now: {}", now(&m.description));
            let desc_new = suggest(&m.description);
            self.row(
                Some(("PAGE", primary)),
                &[
                    (&m.url, TEXT, Weight::Bold, INK),
                    (&title_now, TEXT, Weight::Regular, BODY),
                    (&title_new, TEXT, Weight::Regular, primary),
                    (&desc_now, TEXT, Weight::Regular, BODY),
                    (&desc_new, TEXT, Weight::Regular, primary),
                ],
            );
        }

        self.part("Header structure", 60.0);
        if p.header_suggestions.is_empty() {
            self.note("No heading advice in this report.");
        }
        for h in &p.header_suggestions {
            let outline = if h.outline.is_empty() {
                String::new()
            } else {
                format!("Outline: {}", h.outline.join(" · "))
            };
            let changes = h
                .suggestions
                .iter()
                .map(|(from, to)| format!("{from} → {to}"))
                .collect::<Vec<_>>()
                .join("\n");
            self.row(
                Some(("PAGE", primary)),
                &[
                    (&h.url, TEXT, Weight::Bold, INK),
                    (&outline, SMALL + 0.5, Weight::Regular, MUTED),
                    (&h.analysis, TEXT, Weight::Regular, BODY),
                    (&changes, TEXT, Weight::Regular, primary),
                ],
            );
        }

        let robots = &p.robots_analysis;
        self.part("robots.txt analysis", 60.0);
        if robots.found {
            self.line(&format!(
                "{} (HTTP {}): {}",
                robots.url,
                robots
                    .status
                    .map_or_else(|| "—".to_owned(), |s| s.to_string()),
                if robots.blocks_start_page {
                    "blocks the start page"
                } else {
                    "the start page is allowed"
                }
            ));
            let rows = robots
                .groups
                .iter()
                .map(|g| {
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
                    vec![
                        strong(g.agents.join(", "), INK),
                        cell(if rules.is_empty() {
                            "no rules".to_owned()
                        } else {
                            rules.join("\n")
                        }),
                    ]
                })
                .collect::<Vec<_>>();
            if !rows.is_empty() {
                self.table(&[Column("User agents", 0.3), Column("Rules", 0.7)], rows);
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
                self.c.para(
                    0.0,
                    &format!("Line {}: {} ({})", e.line, e.message, e.content),
                    TEXT,
                    Weight::Regular,
                    WARN,
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
        self.part("sitemap.xml check", 60.0);
        self.line(&format!(
            "Sitemap documents: {} · page addresses listed: {}",
            sitemap.documents.len(),
            sitemap.url_count
        ));
        let rows = sitemap
            .documents
            .iter()
            .map(|d| {
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
                vec![
                    cell(d.url.clone()),
                    cell(d.found_via.clone()),
                    cell(status),
                    cell(format!("{entries}{invalid}")),
                ]
            })
            .collect::<Vec<_>>();
        if !rows.is_empty() {
            self.table(
                &[
                    Column("Document", 0.46),
                    Column("Found via", 0.2),
                    Column("Status", 0.14),
                    Column("Entries", 0.2),
                ],
                rows,
            );
        }
        self.findings(&sitemap.findings);
    }

    /// The Premium Optimization Suite (docs/PRODUCT.md §2.6.6).
    fn premium_suite(&mut self, suite: &PremiumOptimizations) {
        self.section("Premium Optimization Suite", None);
        self.section_lead("Changes we can make for you, and what a new website would take.");
        let auto = &suite.auto_optimizations;
        self.part("Automatic optimizations", 50.0);
        if auto.images.is_empty() && auto.content.is_empty() && auto.technical.is_empty() {
            self.note("No optimizations available");
        }
        let secondary = self.secondary;
        for i in &auto.images {
            let saves = format!("Saves {}", i.savings);
            self.row(
                Some(("IMAGES", secondary)),
                &[
                    (&i.title, H3, Weight::Bold, INK),
                    (&saves, SMALL + 0.5, Weight::Bold, MUTED),
                    (&i.description, TEXT, Weight::Regular, BODY),
                ],
            );
        }
        for (label, list) in [("CONTENT", &auto.content), ("TECHNICAL", &auto.technical)] {
            for o in list {
                let impact = format!("Impact: {}", o.impact);
                self.row(
                    Some((label, secondary)),
                    &[
                        (&o.title, H3, Weight::Bold, INK),
                        (&impact, SMALL + 0.5, Weight::Bold, MUTED),
                        (&o.description, TEXT, Weight::Regular, BODY),
                    ],
                );
            }
        }
        let proposal = &suite.new_website_proposal;
        self.part("New website proposal", 80.0);
        self.line(&proposal.summary);
        self.c.y -= 4.0;
        self.tiles(&[
            (
                domain::commerce::format_dollars(proposal.price.saturating_mul(100)),
                "price",
            ),
            (proposal.timeline.clone(), "timeline"),
        ]);
        for (label, list) in [
            ("Features", &proposal.features),
            ("Benefits", &proposal.benefits),
            ("Pages", &proposal.included_pages),
        ] {
            if list.is_empty() {
                continue;
            }
            self.c.ensure(40.0);
            self.c.para(0.0, label, H3, Weight::Bold, INK);
            self.c.y -= 2.0;
            for item in list {
                self.c
                    .para(10.0, &format!("• {item}"), TEXT, Weight::Regular, BODY);
            }
            self.c.y -= 6.0;
        }
    }

    fn screenshots(&mut self, screenshots: &[Option<Vec<u8>>; 2]) {
        self.section("Screenshots", None);
        self.section_lead(
            "The start page as it loaded in our browser, on a desktop screen and on a phone.",
        );
        let mut top = self.c.y;
        if let Some(png) = &screenshots[0] {
            let w = CONTENT_W - 8.0;
            if let Some(h) = self
                .c
                .image(png, MARGIN + 4.0, top - 4.0, w, 330.0, Some(HAIR))
            {
                top -= h + 24.0;
                self.c.text(
                    MARGIN,
                    top + 6.0,
                    "Desktop · 1280 × 800",
                    SMALL,
                    Weight::Bold,
                    MUTED,
                );
                top -= 12.0;
            }
        }
        // The phone beside what the design uses: its colours and fonts.
        let mut right = MARGIN;
        let mut bottom = top;
        if let Some(png) = &screenshots[1] {
            let max_h = (top - BOTTOM - 40.0).min(300.0);
            if let Some(h) = self
                .c
                .image(png, MARGIN + 4.0, top - 4.0, 150.0, max_h, Some(HAIR))
            {
                let w = 150.0f32.min(h * 375.0 / 667.0);
                self.c.text(
                    MARGIN,
                    top - h - 22.0,
                    "Mobile · 375 × 667",
                    SMALL,
                    Weight::Bold,
                    MUTED,
                );
                right = MARGIN + w + 40.0;
                bottom = top - h - 22.0;
            }
        }
        let colours: Vec<_> = self
            .report
            .website_colors
            .iter()
            .filter_map(|hex| super::Rgb8::from_hex(hex).map(|c| (hex.clone(), c)))
            .take(8)
            .collect();
        let mut y = top - 8.0;
        if !colours.is_empty() {
            self.c
                .text(right, y, "COLOURS ON THE PAGE", 6.8, Weight::Bold, MUTED);
            y -= 14.0;
            for (hex, colour) in colours {
                self.c.round_rect(right, y - 18.0, 24.0, 24.0, 4.0, HAIR);
                self.c.round_rect(
                    right + 1.0,
                    y - 17.0,
                    22.0,
                    22.0,
                    3.5,
                    Paint(colour.fractions()),
                );
                self.c.text(
                    right + 34.0,
                    y - 10.0,
                    &hex.to_uppercase(),
                    TEXT,
                    Weight::Regular,
                    BODY,
                );
                y -= 32.0;
            }
            y -= 8.0;
        }
        if !self.report.website_fonts.is_empty() {
            self.c
                .text(right, y, "FONTS ON THE PAGE", 6.8, Weight::Bold, MUTED);
            y -= 18.0;
            let fonts = self.report.website_fonts.clone();
            for f in fonts.iter().take(6) {
                self.c.text(right, y, f, H3, Weight::Bold, INK);
                y -= 18.0;
            }
        }
        bottom = bottom.min(y);
        self.c.y = bottom - 20.0;
    }

    fn action_plan(&mut self) {
        self.section("Action Plan", None);
        let items = &self.report.action_items;
        self.section_lead(&format!(
            "{} in order of priority: what to change, and what it brings.",
            plural(items.len(), "action", "actions")
        ));
        if items.is_empty() {
            self.note("Nothing urgent: keep the site as it is and re-check after changes.");
        }
        for priority in [Priority::High, Priority::Medium, Priority::Low] {
            let list: Vec<_> = items.iter().filter(|i| i.priority == priority).collect();
            if list.is_empty() {
                continue;
            }
            let heading = match priority {
                Priority::High => "High priority",
                Priority::Medium => "Medium priority",
                Priority::Low => "Low priority",
            };
            self.c.ensure(70.0);
            self.c.y -= 4.0;
            self.c.para(
                0.0,
                &format!("{heading} ({})", list.len()),
                H2,
                Weight::Bold,
                INK,
            );
            self.c.y -= 4.0;
            for item in list {
                let impact = format!("Impact: {}", item.impact);
                let primary = self.primary;
                self.row(
                    Some(priority_label(item.priority)),
                    &[
                        (&item.title, H3, Weight::Bold, INK),
                        (&item.description, TEXT, Weight::Regular, BODY),
                        (&impact, TEXT, Weight::Regular, primary),
                    ],
                );
            }
        }
    }

    /// The summary's pointer to the rest of the action plan, linked to its page.
    fn more_actions(&mut self) {
        let Some((page, top, count)) = self.more_actions else {
            return;
        };
        let Some(&(_, _, target)) = self.toc.iter().find(|(t, _, _)| t == "Action Plan") else {
            return;
        };
        let saved = self.c.current;
        self.c.current = page;
        let text = format!(
            "{} in the Action Plan, page {} →",
            plural(count, "more action", "more actions"),
            target + 1
        );
        let primary = self.primary;
        self.c.text(
            MARGIN + 62.0,
            top - 10.0,
            &text,
            SMALL + 0.5,
            Weight::Bold,
            primary,
        );
        let w = self.c.width(&text, SMALL + 0.5, Weight::Bold);
        self.c.link(MARGIN + 62.0, top - 14.0, w, 14.0, target);
        self.c.current = saved;
    }

    /// The contents page, drawn last when every section's page is known: each entry a link.
    fn contents(&mut self, page: usize) {
        let saved = self.c.current;
        self.c.current = page;
        let top = TOP;
        self.c
            .text(MARGIN, top - 26.0, "Contents", H1, Weight::Bold, INK);
        let mut y = top - 60.0;
        let mut number = 0;
        let entries = self.toc.clone();
        for (title, level, target) in entries {
            let label = (target + 1).to_string();
            let (size, weight, paint, indent, h) = if level == 0 {
                number += 1;
                (11.0, Weight::Bold, INK, 28.0, 24.0)
            } else {
                (TEXT, Weight::Regular, BODY, 40.0, 17.0)
            };
            if y - h < BOTTOM {
                break;
            }
            if level == 0 {
                y -= 6.0;
                let primary = self.primary;
                self.c.text(
                    MARGIN,
                    y - 12.0,
                    &format!("{number:02}"),
                    size,
                    Weight::Bold,
                    primary,
                );
            }
            let right = PAGE_W - MARGIN;
            let title = self.c.clip(&title, size, weight, CONTENT_W - indent - 60.0);
            self.c
                .text(MARGIN + indent, y - 12.0, &title, size, weight, paint);
            // Dotted leaders from the title to the page number.
            let start = MARGIN + indent + self.c.width(&title, size, weight) + 6.0;
            let end = right - self.c.width(&label, size, weight) - 6.0;
            let mut x = start;
            while x < end {
                self.c.circle(x, y - 11.0, 0.5, MUTED.tint(0.45));
                x += 4.0;
            }
            self.c
                .text_right(right, y - 12.0, &label, size, weight, paint);
            self.c.link(MARGIN, y - h + 4.0, CONTENT_W, h, target);
            y -= h;
        }
        self.c.current = saved;
    }

    /// Every page's running header (but the cover's), footer and, when the report carries it,
    /// the watermark.
    fn decorate(&mut self) {
        if self.c.missing_glyphs > 0 {
            // Said on the cover, so that no reader takes a box for the site's own text.
            self.c.current = 0;
            self.c.text(
                MARGIN,
                78.0,
                "Some characters of this site's text (□) are in a script this PDF's fonts do not cover; the online report shows them.",
                7.5,
                Weight::Regular,
                MUTED,
            );
        }
        let total = self.c.pages.len();
        let footer = domain::whitelabel::pdf_footer(self.report, self.brand.agency());
        let watermark = domain::whitelabel::watermark(self.report, self.brand.agency());
        let brand = self.brand.name.clone();
        let primary = self.primary;
        for i in 0..total {
            self.c.current = i;
            if let Some(header) = self.c.pages[i].header.clone() {
                self.c.rect(0.0, PAGE_H - 5.0, PAGE_W, 5.0, primary);
                self.c
                    .text(MARGIN, PAGE_H - 34.0, &brand, SMALL, Weight::Bold, primary);
                self.c.text_right(
                    PAGE_W - MARGIN,
                    PAGE_H - 34.0,
                    &header,
                    SMALL,
                    Weight::Regular,
                    MUTED,
                );
                self.c
                    .hline(MARGIN, PAGE_W - MARGIN, PAGE_H - 42.0, 0.5, HAIR);
            }
            self.c.hline(MARGIN, PAGE_W - MARGIN, 44.0, 0.5, HAIR);
            let number = format!("Page {} of {total}", i + 1);
            let room = CONTENT_W - self.c.width(&number, 7.5, Weight::Regular) - 20.0;
            let left = self.c.clip(&footer, 7.5, Weight::Regular, room);
            self.c
                .text(MARGIN, 30.0, &left, 7.5, Weight::Regular, MUTED);
            self.c
                .text_right(PAGE_W - MARGIN, 30.0, &number, 7.5, Weight::Regular, MUTED);
            if let Some(mark) = &watermark {
                self.c.diagonal(mark, 54.0, INK, 0.07);
            }
        }
    }
}
