//! Premium Optimization Suite data, derived from what was measured (paid reports).
//!
//! - Images: one optimisation per image with a measured saving (bytes on the wire minus the
//!   estimate at the displayed size in WebP, see [`super::lab`]).
//! - Content: from the design and accessibility findings that are not good, with impact by
//!   severity.
//! - Technical: from the lab metrics (render-blocking resources, long tasks, layout shifts,
//!   page weight, third parties, console errors), with impact by how far a metric is from its
//!   good range.
//! - New website proposal: pages from the site's own main menu; features and benefits from
//!   the weakest areas; price from a base of 1,500 USD plus 150 USD per page beyond five and
//!   250 USD per failing area; timeline from the page count.

use domain::report::{
    AnalysisReport, AutoOptimizations, FindingType, ImageOptimization, ImpactOptimization,
    NewWebsiteProposal, PremiumOptimizations,
};

use super::BrowserReport;
use super::metrics::kb;

fn impact(kind: FindingType) -> String {
    match kind {
        FindingType::Issue => "High".to_owned(),
        FindingType::Warning => "Medium".to_owned(),
        FindingType::Good => "Low".to_owned(),
    }
}

/// Build the suite from the browser measurements and the report so far.
pub fn premium_optimizations(
    browser: &BrowserReport,
    report: &AnalysisReport,
) -> PremiumOptimizations {
    let m = &browser.mobile;
    let images: Vec<ImageOptimization> = m
        .images
        .iter()
        .filter(|i| i.wasted_bytes > 0.0)
        .map(|i| {
            let name = i.url.rsplit('/').next().unwrap_or(&i.url).to_owned();
            let mut steps = Vec::new();
            if i.oversized {
                steps.push(format!(
                    "resize from {}x{} to {}x{}",
                    i.natural.0, i.natural.1, i.displayed.0, i.displayed.1
                ));
            }
            if i.legacy_format {
                steps.push("convert to WebP".to_owned());
            }
            ImageOptimization {
                title: format!("Optimise {name}"),
                description: format!(
                    "{} ({} now): {}.",
                    i.url,
                    kb(i.transferred_bytes),
                    if steps.is_empty() {
                        "recompress".to_owned()
                    } else {
                        steps.join(" and ")
                    }
                ),
                savings: kb(i.wasted_bytes),
            }
        })
        .collect();

    let mut content: Vec<ImpactOptimization> = browser
        .design_groups
        .iter()
        .flat_map(|g| g.findings.iter())
        .chain(browser.accessibility.findings.iter())
        .filter(|f| f.kind != FindingType::Good)
        .map(|f| ImpactOptimization {
            title: f.title.clone(),
            description: f.solution.clone().unwrap_or_else(|| f.description.clone()),
            impact: impact(f.kind),
        })
        .collect();
    content.sort_by_key(|c| if c.impact == "High" { 0 } else { 1 });
    content.truncate(10);

    let mut technical = Vec::new();
    if !m.render_blocking.is_empty() {
        technical.push(ImpactOptimization {
            title: format!("Unblock rendering ({} resources)", m.render_blocking.len()),
            description: format!(
                "Inline the critical CSS and defer {}; the first paint waits for them today.",
                m.render_blocking
                    .iter()
                    .map(|r| r.url.rsplit('/').next().unwrap_or(""))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            impact: if m.first_contentful_paint.unwrap_or(0.0) > 1800.0 {
                "High"
            } else {
                "Medium"
            }
            .to_owned(),
        });
    }
    if m.total_blocking_time > 0.0 {
        technical.push(ImpactOptimization {
            title: format!("Break up long tasks ({:.0} ms blocking)", m.total_blocking_time),
            description: format!("{} long JavaScript task(s) block input; split them or move work off the main thread.", m.long_tasks.len()),
            impact: if m.total_blocking_time > 600.0 { "High" } else if m.total_blocking_time > 200.0 { "Medium" } else { "Low" }.to_owned(),
        });
    }
    if m.cumulative_layout_shift > 0.05 {
        technical.push(ImpactOptimization {
            title: format!("Stop layout shifts (CLS {:.2})", m.cumulative_layout_shift),
            description: "Reserve space for images and late content so the page does not jump."
                .to_owned(),
            impact: if m.cumulative_layout_shift > 0.25 {
                "High"
            } else {
                "Medium"
            }
            .to_owned(),
        });
    }
    if m.third_party.requests > 0 {
        technical.push(ImpactOptimization {
            title: format!(
                "Trim third-party code ({:.0}% of bytes)",
                m.third_party.byte_share * 100.0
            ),
            description: format!(
                "Load {} after the page is interactive, or drop what is unused.",
                m.third_party.hosts.join(", ")
            ),
            impact: if m.third_party.byte_share > 0.3 {
                "High"
            } else {
                "Low"
            }
            .to_owned(),
        });
    }
    if !browser.best_practices.console_errors.is_empty() {
        technical.push(ImpactOptimization {
            title: format!(
                "Fix {} console error(s)",
                browser.best_practices.console_errors.len()
            ),
            description: "Errors while loading often mean broken features or missing files."
                .to_owned(),
            impact: "Medium".to_owned(),
        });
    }
    if m.transferred_bytes > 3_000_000.0 {
        technical.push(ImpactOptimization {
            title: format!("Cut page weight ({})", kb(m.transferred_bytes)),
            description: "Under 3 MB loads quickly on mobile networks.".to_owned(),
            impact: "High".to_owned(),
        });
    }

    let scores = report.scores;
    let mut weak: Vec<(&str, u32)> = vec![
        ("search visibility", scores.seo),
        ("design and usability", scores.design),
        ("technical foundations", scores.technical),
        ("speed", scores.performance),
    ];
    if let Some(a) = browser.accessibility.score {
        weak.push(("accessibility", a));
    }
    weak.sort_by_key(|(_, s)| *s);
    let failing = weak.iter().filter(|(_, s)| *s < 70).count() as u32;

    let mut pages: Vec<String> = Vec::new();
    for item in std::iter::once("Home".to_owned()).chain(browser.nav_items.iter().cloned()) {
        let item = item.trim().to_owned();
        if !item.is_empty()
            && item.len() <= 40
            && !pages.iter().any(|p| p.eq_ignore_ascii_case(&item))
        {
            pages.push(item);
        }
    }
    for extra in ["Contact", "Privacy Policy"] {
        if !pages.iter().any(|p| p.eq_ignore_ascii_case(extra)) {
            pages.push(extra.to_owned());
        }
    }
    pages.truncate(12);
    let n = pages.len() as u32;
    let price = 1500 + 150 * n.saturating_sub(5) + 250 * failing;
    let timeline = match n {
        0..=5 => "2-3 weeks",
        6..=9 => "3-5 weeks",
        _ => "5-8 weeks",
    };
    let mut features = vec![
        format!(
            "Responsive layout tested at 375 px and 1280 px (today: {} mobile performance)",
            browser
                .mobile_score
                .map_or("unmeasured".to_owned(), |s| format!("{s}/100"))
        ),
        "Images resized and served as WebP/AVIF with reserved dimensions".to_owned(),
        "Accessible markup that passes axe-core (WCAG 2.2 AA)".to_owned(),
        "Search-ready titles, descriptions, structured data and sitemap".to_owned(),
    ];
    if !browser.fonts.is_empty() {
        features.push(format!(
            "A typography system built on {} with a 16 px base",
            browser.fonts[0]
        ));
    }
    let benefits: Vec<String> = weak
        .iter()
        .take(3)
        .map(|(area, s)| format!("Better {area} (now {s}/100)"))
        .collect();
    let summary = format!(
        "A rebuild of {} focused on its weakest areas: {}. Measured today: first paint {}, largest paint {}, accessibility {}.",
        report.url,
        weak.iter()
            .take(2)
            .map(|(a, _)| *a)
            .collect::<Vec<_>>()
            .join(" and "),
        m.first_contentful_paint
            .map_or("n/a".to_owned(), |v| format!("{:.1} s", v / 1000.0)),
        m.largest_contentful_paint
            .map_or("n/a".to_owned(), |v| format!("{:.1} s", v / 1000.0)),
        browser
            .accessibility
            .score
            .map_or("n/a".to_owned(), |s| format!("{s}/100")),
    );
    PremiumOptimizations {
        auto_optimizations: AutoOptimizations {
            images,
            content,
            technical,
        },
        new_website_proposal: NewWebsiteProposal {
            summary,
            features,
            benefits,
            included_pages: pages,
            price,
            timeline: timeline.to_owned(),
        },
    }
}
