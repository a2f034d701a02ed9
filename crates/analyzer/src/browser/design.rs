//! Design & UX from the rendered page: palette, fonts, typography, visual appeal, navigation
//! and mobile friendliness, as report groups of findings.
//!
//! Thresholds and where they come from:
//! - body text at least 16 px, and at least 60 % of text 12 px or more on a phone
//!   (Lighthouse `font-size`);
//! - 45-90 characters per line and a line height of at least 1.4 (WCAG 1.4.12 spacing, and
//!   the long-standing typographic measure);
//! - at most 3 font families;
//! - text contrast from axe-core's `color-contrast` rule;
//! - images not distorted (Lighthouse `image-aspect-ratio`) nor upscaled (`image-size-responsive`);
//! - a navigation landmark, a main menu of at most 12 links, a footer with links;
//! - no horizontal scrolling on the phone (Lighthouse's 412 px screen); tap targets at least 24x24 px (WCAG 2.5.8, axe-core
//!   `target-size`) and 48x48 px with room around them (Lighthouse's former `tap-targets`).

use chromiumoxide::Page;
use domain::report::{Finding, FindingType, SectionGroup};

use crate::checks::finding;
use domain::score::group_status;
use serde::Deserialize;

use super::BrowserError;
use super::a11y::AxeResults;
use super::metrics::LabMetrics;

const DESIGN_JS: &str = include_str!("../../assets/design.js");

/// A colour and how much of the page it covers (relative weight).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ColorUse {
    /// `#rrggbb`.
    pub color: String,
    /// Relative weight (area, or text size × characters).
    pub weight: f64,
}

/// A font family and how many characters use it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct FontUse {
    /// The first family of the computed `font-family`.
    pub family: String,
    /// Characters set in it.
    pub chars: f64,
}

/// A paragraph's measure.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Paragraph {
    /// Average characters per line.
    pub chars_per_line: f64,
    /// Line height divided by font size.
    pub line_height_ratio: f64,
    /// Font size, px.
    pub font_size: f64,
}

/// What design.js read from the page.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DesignProbe {
    /// Viewport width, CSS px.
    pub viewport_width: f64,
    /// Colours by weight.
    pub colors: Vec<ColorUse>,
    /// Fonts by characters.
    pub fonts: Vec<FontUse>,
    /// Characters of visible text.
    pub text_chars: f64,
    /// Characters under 12 px.
    pub small_chars: f64,
    /// The size most text is set in, px.
    pub body_font_size: Option<f64>,
    /// Paragraph measures.
    pub paragraphs: Vec<Paragraph>,
    /// Navigation landmarks.
    pub nav_count: u32,
    /// Links in the main navigation.
    pub menu_links: u32,
    /// Their texts.
    pub nav_items: Vec<String>,
    /// A breadcrumb is present.
    pub breadcrumb: bool,
    /// A footer is present.
    pub has_footer: bool,
    /// Links in the footer.
    pub footer_links: u32,
    /// Document width, CSS px.
    pub scroll_width: f64,
    /// Interactive elements.
    pub tap_targets: u32,
    /// Targets under 24x24 px.
    pub small_targets: u32,
    /// Targets under 48x48 px with another target within their 48 px zone.
    pub crowded_targets: u32,
    /// Labels of small targets.
    pub small_target_examples: Vec<String>,
}

impl DesignProbe {
    /// Share of text at 12 px or more, 0-1 (1 when there is no text).
    pub fn legible_share(&self) -> f64 {
        if self.text_chars <= 0.0 {
            1.0
        } else {
            1.0 - self.small_chars / self.text_chars
        }
    }
}

/// Run design.js in `page`.
pub async fn probe(page: &Page) -> Result<DesignProbe, BrowserError> {
    let raw: String = page
        .evaluate_function(DESIGN_JS)
        .await?
        .into_value()
        .map_err(|e| BrowserError::Protocol(e.to_string()))?;
    serde_json::from_str(&raw).map_err(|e| BrowserError::Protocol(e.to_string()))
}

/// Dominant colours of the desktop and mobile renderings, most used first (at most 8).
pub fn palette(probes: &[&DesignProbe]) -> Vec<String> {
    let mut all: Vec<(String, f64)> = Vec::new();
    for p in probes {
        let total: f64 = p.colors.iter().map(|c| c.weight).sum::<f64>().max(1.0);
        for c in &p.colors {
            let share = c.weight / total;
            match all.iter_mut().find(|(k, _)| *k == c.color) {
                Some((_, w)) => *w += share,
                None => all.push((c.color.clone(), share)),
            }
        }
    }
    all.sort_by(|a, b| b.1.total_cmp(&a.1));
    all.into_iter().take(8).map(|(c, _)| c).collect()
}

/// Font families in use, most used first.
pub fn fonts(probes: &[&DesignProbe]) -> Vec<String> {
    let mut all: Vec<(String, f64)> = Vec::new();
    for p in probes {
        for f in &p.fonts {
            match all
                .iter_mut()
                .find(|(k, _)| k.eq_ignore_ascii_case(&f.family))
            {
                Some((_, w)) => *w += f.chars,
                None => all.push((f.family.clone(), f.chars)),
            }
        }
    }
    all.sort_by(|a, b| b.1.total_cmp(&a.1));
    all.into_iter().map(|(f, _)| f).collect()
}

fn group(title: &str, findings: Vec<Finding>) -> Option<SectionGroup> {
    (!findings.is_empty()).then(|| SectionGroup {
        title: title.to_owned(),
        status: group_status(&findings),
        findings,
    })
}

/// The design groups: Typography, Visual Appeal, Navigation, Mobile Friendliness.
pub fn groups(
    desktop: &DesignProbe,
    mobile: Option<&DesignProbe>,
    metrics: &LabMetrics,
    axe: Option<&AxeResults>,
    viewport_meta: Option<&str>,
) -> Vec<SectionGroup> {
    use FindingType::*;
    let mut out = Vec::new();

    // Typography.
    let mut t = Vec::new();
    if let Some(size) = desktop.body_font_size {
        let kind = if size >= 16.0 {
            Good
        } else if size >= 14.0 {
            Warning
        } else {
            Issue
        };
        t.push(finding(
            "design.typography.body-size",
            kind,
            format!("Body text is {size:.0} px"),
            "Most text on the page is set at this size; 16 px or more reads comfortably on every screen.".to_owned(),
            Some("Set the base font size to at least 16 px (1rem)."),
            None,
        ));
    }
    if !desktop.paragraphs.is_empty() {
        let n = desktop.paragraphs.len() as f64;
        let cpl = desktop
            .paragraphs
            .iter()
            .map(|p| p.chars_per_line)
            .sum::<f64>()
            / n;
        let kind = if (45.0..=90.0).contains(&cpl) {
            Good
        } else if !(30.0..=110.0).contains(&cpl) {
            Issue
        } else {
            Warning
        };
        t.push(finding(
            "design.typography.line-length",
            kind,
            format!("Lines average {cpl:.0} characters"),
            "On a 1280 px screen; 45-90 characters per line are easiest to read.".to_owned(),
            Some("Limit text columns to about 65 characters (for example max-width: 65ch)."),
            None,
        ));
        let lh = desktop
            .paragraphs
            .iter()
            .map(|p| p.line_height_ratio)
            .sum::<f64>()
            / n;
        t.push(finding(
            "design.typography.line-height",
            if lh >= 1.4 { Good } else { Warning },
            format!("Line height is {lh:.2} times the text size"),
            "Paragraph spacing of at least 1.4 helps readers follow lines (WCAG 1.4.12 recommends 1.5).".to_owned(),
            Some("Set line-height to about 1.5 for body text."),
            None,
        ));
    }
    let families = fonts(&[desktop]);
    if !families.is_empty() {
        t.push(finding(
            "design.typography.families",
            if families.len() <= 3 { Good } else { Warning },
            format!(
                "{} font famil{} in use",
                families.len(),
                if families.len() == 1 { "y" } else { "ies" }
            ),
            format!(
                "Fonts: {}. Two or three families keep a page coherent and light.",
                families.join(", ")
            ),
            Some("Limit the design to a heading and a body font."),
            None,
        ));
    }
    if let Some(m) = mobile {
        let share = m.legible_share();
        // Lighthouse: without a viewport for phones, text is illegible whatever its size.
        let laid_out = crate::checks::seo::mobile_optimized(viewport_meta);
        t.push(finding(
            "design.typography.legible-mobile",
            if share >= 0.6 && laid_out { Good } else { Issue },
            if laid_out {
                format!("{:.0}% of text is legible on a {:.0} px phone screen", share * 100.0, m.viewport_width)
            } else {
                "Text is illegible on phones: no mobile viewport".to_owned()
            },
            "Text under 12 px is hard to read on a phone; Lighthouse wants at least 60% of text at 12 px or more, on a page with a viewport for phones.".to_owned(),
            Some("Use relative font sizes with a 16 px base and no text under 12 px on small screens."),
            Some("font-size"),
        ));
    }
    out.extend(group("Typography", t));

    // Visual appeal.
    let mut v = Vec::new();
    if let Some(axe) = axe {
        if let Some(c) = axe.violations.iter().find(|x| x.id == "color-contrast") {
            v.push(finding(
                "design.visual.contrast",
                Issue,
                format!("{} text element(s) lack contrast", c.nodes),
                format!("Text needs a contrast ratio of at least 4.5:1 (3:1 for large text). Examples: {}.", c.targets.join(", ")),
                Some("Darken the text or lighten its background until the ratio reaches 4.5:1."),
                Some("color-contrast"),
            ));
        } else if axe.passes.iter().any(|p| p == "color-contrast") {
            v.push(finding(
                "design.visual.contrast",
                Good,
                "Text contrast is sufficient".to_owned(),
                "Every text element checked reaches WCAG AA contrast.".to_owned(),
                None,
                Some("color-contrast"),
            ));
        }
    }
    let distorted: Vec<&str> = metrics
        .images
        .iter()
        .filter(|i| i.distorted)
        .map(|i| i.url.as_str())
        .collect();
    v.push(finding(
        "design.visual.image-aspect",
        if distorted.is_empty() { Good } else { Warning },
        if distorted.is_empty() {
            "Images keep their proportions".to_owned()
        } else {
            format!("{} image(s) are stretched", distorted.len())
        },
        if distorted.is_empty() {
            "No image is displayed with a different aspect ratio than its own.".to_owned()
        } else {
            format!(
                "Displayed with a different aspect ratio than the file: {}.",
                distorted.join(", ")
            )
        },
        Some("Set only one of width or height in CSS, or use object-fit: cover."),
        Some("image-aspect-ratio"),
    ));
    let blurry: Vec<&str> = metrics
        .images
        .iter()
        .filter(|i| i.upscaled)
        .map(|i| i.url.as_str())
        .collect();
    v.push(finding(
        "design.visual.image-quality",
        if blurry.is_empty() { Good } else { Warning },
        if blurry.is_empty() { "Images are sharp".to_owned() } else { format!("{} image(s) look blurry", blurry.len()) },
        if blurry.is_empty() { "No image is displayed larger than its natural size.".to_owned() } else { format!("Displayed larger than their natural size: {}.", blurry.join(", ")) },
        Some("Serve images at least as large as they are displayed (srcset for high-density screens)."),
        Some("image-size-responsive"),
    ));
    let palette = palette(&[desktop]);
    if !palette.is_empty() {
        v.push(finding(
            "design.visual.palette",
            if palette.len() <= 8 { Good } else { Warning },
            format!("Colour palette of {} main colours", palette.len()),
            format!("Dominant colours: {}.", palette.join(", ")),
            None,
            None,
        ));
    }
    out.extend(group("Visual Appeal", v));

    // Navigation.
    let mut n = Vec::new();
    n.push(finding(
        "design.nav.landmark",
        if desktop.nav_count > 0 { Good } else { Warning },
        if desktop.nav_count > 0 {
            "Navigation is marked up".to_owned()
        } else {
            "No navigation landmark".to_owned()
        },
        if desktop.nav_count > 0 {
            format!(
                "{} <nav> landmark(s) help visitors and screen readers find the menu.",
                desktop.nav_count
            )
        } else {
            "No <nav> element or role=\"navigation\" was found.".to_owned()
        },
        Some("Wrap the main menu in a <nav> element."),
        None,
    ));
    if desktop.nav_count > 0 {
        let links = desktop.menu_links;
        n.push(finding(
            "design.nav.menu-size",
            if (1..=12).contains(&links) {
                Good
            } else {
                Warning
            },
            format!("Main menu has {links} link(s)"),
            "A menu of up to about 7-12 items is easy to scan.".to_owned(),
            Some("Group menu items under a few clear headings."),
            None,
        ));
    }
    n.push(finding(
        "design.nav.breadcrumb",
        if desktop.breadcrumb { Good } else { Warning },
        if desktop.breadcrumb {
            "Breadcrumb navigation present".to_owned()
        } else {
            "No breadcrumb navigation".to_owned()
        },
        "Breadcrumbs show visitors and search engines where a page sits in the site.".to_owned(),
        Some("Add a breadcrumb trail (with BreadcrumbList structured data) to inner pages."),
        None,
    ));
    n.push(finding(
        "design.nav.footer",
        if desktop.has_footer && desktop.footer_links > 0 {
            Good
        } else {
            Warning
        },
        if desktop.has_footer {
            format!("Footer with {} link(s)", desktop.footer_links)
        } else {
            "No footer".to_owned()
        },
        "A footer with key links (contact, legal, main sections) is where visitors look last."
            .to_owned(),
        Some("Add a <footer> with links to contact, privacy and the main sections."),
        None,
    ));
    out.extend(group("Navigation", n));

    // Mobile friendliness.
    if let Some(m) = mobile {
        let mut f = Vec::new();
        let viewport_ok = crate::checks::seo::mobile_optimized(viewport_meta);
        f.push(finding(
            "design.mobile.viewport",
            if viewport_ok { Good } else { Issue },
            if viewport_ok { "Viewport is set for phones".to_owned() } else { "No mobile viewport".to_owned() },
            match viewport_meta {
                Some(v) => format!("<meta name=\"viewport\" content=\"{v}\">."),
                None => "Without <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"> phones render the desktop layout zoomed out.".to_owned(),
            },
            Some("Add <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">."),
            Some("viewport"),
        ));
        let overflow = m.scroll_width - m.viewport_width;
        f.push(finding(
            "design.mobile.overflow",
            if overflow <= 1.0 { Good } else { Issue },
            if overflow <= 1.0 {
                format!("Content fits a {:.0} px phone screen", m.viewport_width)
            } else {
                format!(
                    "Content is {overflow:.0} px wider than a {:.0} px phone screen",
                    m.viewport_width
                )
            },
            "Content wider than the screen forces sideways scrolling on phones.".to_owned(),
            Some("Use fluid widths (max-width: 100%) and check fixed-width elements and tables."),
            None,
        ));
        let small = m.small_targets;
        let crowded = m.crowded_targets;
        let kind = if small > 0 {
            Issue
        } else if crowded > 0 {
            Warning
        } else {
            Good
        };
        f.push(finding(
            "design.mobile.tap-targets",
            kind,
            if small == 0 && crowded == 0 { format!("All {} tap targets are large enough", m.tap_targets) } else { format!("{} tap target(s) too small, {} too close together", small, crowded) },
            if m.small_target_examples.is_empty() {
                "Buttons and links should be at least 24x24 px, ideally 48x48 px with space around them.".to_owned()
            } else {
                format!("Under 24x24 px: {}. Buttons and links should be at least 24x24 px, ideally 48x48 px with space around them.", m.small_target_examples.join(", "))
            },
            Some("Give links and buttons padding so each is at least 48x48 px on phones, with 8 px between them."),
            // Our own, stricter measure (any target under 24 px, crowding at 8 px); Lighthouse's
            // `target-size` is axe-core's rule, reported by the accessibility findings.
            None,
        ));
        out.extend(group("Mobile Friendliness", f));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn palette_merges_devices_by_share() {
        let a = DesignProbe {
            colors: vec![
                ColorUse {
                    color: "#ffffff".to_owned(),
                    weight: 90.0,
                },
                ColorUse {
                    color: "#112233".to_owned(),
                    weight: 10.0,
                },
            ],
            ..DesignProbe::default()
        };
        let b = DesignProbe {
            colors: vec![ColorUse {
                color: "#112233".to_owned(),
                weight: 1.0,
            }],
            ..DesignProbe::default()
        };
        assert_eq!(palette(&[&a, &b]), vec!["#112233", "#ffffff"]);
    }
}
