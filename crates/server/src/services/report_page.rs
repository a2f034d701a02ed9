//! A report's first screen as HTML, rendered by the server into the results page and `/demo`:
//! the summary (status, address, tier, overall ring), the action buttons, the four score cards,
//! the section tabs and the SEO tab's findings. It is the markup and the classes of the web app's
//! `features/results/results-page.tsx` (and `section-groups.tsx`, `score-visuals.tsx`), so the
//! page paints with the HTML and nothing moves when the app takes over (the app keeps this markup
//! on screen until its own report is ready: see `web/src/lib/server-body.ts`). Icons are sized
//! empty `<svg>`s until then.

use domain::report::{AnalysisReport, Finding, FindingType, SectionGroup, SectionStatus};
use domain::score::{Band, badge_band, ring_band};
use domain::whitelabel::Branding;

use crate::services::pages::escape;

/// What the viewer is shown besides the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct View {
    /// The paid view: the PDF download instead of the download dialog, no upgrade button.
    pub paid: bool,
    /// The sample report of `/demo`: no download, and the notice that it is a sample.
    pub sample: bool,
}

const BUTTON: &str = "inline-flex items-center justify-center gap-2 whitespace-nowrap rounded-lg text-sm font-semibold transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background disabled:pointer-events-none disabled:opacity-60 [&_svg]:size-4 [&_svg]:shrink-0";
const BUTTON_DEFAULT: &str =
    "bg-primary text-primary-foreground shadow-sm hover:bg-primary/90 h-10 px-4";
const BUTTON_OUTLINE: &str =
    "border border-border bg-card text-foreground hover:bg-muted h-10 px-4";
const BUTTON_SECONDARY: &str = "bg-muted text-foreground hover:bg-muted/70 h-10 px-4";
const BADGE: &str = "inline-flex items-center gap-1 rounded-full border px-2.5 py-0.5 font-semibold whitespace-nowrap";
const TAB: &str = "inline-flex shrink-0 items-center justify-center gap-1.5 rounded-lg px-3 py-1.5 text-sm font-medium whitespace-nowrap transition-all focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring data-[state=active]:bg-card data-[state=active]:text-foreground data-[state=active]:shadow-sm hover:text-foreground [&_svg]:size-4";
/// An icon's place, the size the app's icon will have.
const ICON: &str = "<svg class=\"size-4\" aria-hidden=\"true\"></svg>";

fn badge_variant(band: Band) -> &'static str {
    match band {
        Band::Green => {
            "border-transparent bg-emerald-100 text-emerald-900 dark:bg-emerald-900/50 dark:text-emerald-200"
        }
        Band::Yellow => {
            "border-transparent bg-yellow-100 text-yellow-900 dark:bg-yellow-900/50 dark:text-yellow-200"
        }
        Band::Amber => {
            "border-transparent bg-amber-100 text-amber-900 dark:bg-amber-900/50 dark:text-amber-200"
        }
        Band::Red => {
            "border-transparent bg-red-100 text-red-900 dark:bg-red-900/50 dark:text-red-200"
        }
    }
}

fn band_word(band: Band) -> &'static str {
    match band {
        Band::Green => "good",
        Band::Yellow => "fair",
        Band::Amber => "needs improvement",
        Band::Red => "poor",
    }
}

/// `ScoreBadge`: the score coloured by the badge bands; `size` is its text size class.
fn score_badge(score: u32, size: &str) -> String {
    let band = badge_band(f64::from(score));
    format!(
        "<span class=\"{BADGE} {} {size} tabular-nums\">{score}/100<span class=\"sr-only\"> ({})</span></span>",
        badge_variant(band),
        band_word(band)
    )
}

/// `ScoreRing` at 120 px.
fn score_ring(score: u32, label: &str) -> String {
    let band = ring_band(f64::from(score));
    let color = match band {
        Band::Green => "text-emerald-600 dark:text-emerald-400",
        Band::Amber | Band::Yellow => "text-amber-500 dark:text-amber-400",
        Band::Red => "text-red-600 dark:text-red-400",
    };
    let value = score.min(100);
    let r = 42.0_f64;
    let c = 2.0 * std::f64::consts::PI * r;
    let offset = c * (1.0 - f64::from(value) / 100.0);
    format!(
        "<figure class=\"flex flex-col items-center gap-2\"><div class=\"relative\" style=\"width:120px;height:120px\">\
         <svg viewBox=\"0 0 100 100\" class=\"size-full -rotate-90 {color}\" aria-hidden=\"true\">\
         <circle cx=\"50\" cy=\"50\" r=\"42\" fill=\"none\" stroke-width=\"8\" class=\"stroke-muted\"></circle>\
         <circle cx=\"50\" cy=\"50\" r=\"42\" fill=\"none\" stroke-width=\"8\" stroke=\"currentColor\" stroke-linecap=\"round\" stroke-dasharray=\"{c}\" stroke-dashoffset=\"{offset}\"></circle></svg>\
         <span class=\"absolute inset-0 grid place-content-center text-2xl font-bold tabular-nums\">{value}</span></div>\
         <figcaption class=\"text-center text-sm font-medium\">{label}<span class=\"sr-only\">: {value} out of 100, {}</span></figcaption></figure>",
        band_word(band)
    )
}

fn finding(f: &Finding) -> String {
    let (label, color) = match f.kind {
        FindingType::Good => ("Good", "text-emerald-600 dark:text-emerald-400"),
        FindingType::Warning => ("Warning", "text-amber-500"),
        FindingType::Issue => ("Issue", "text-red-600 dark:text-red-400"),
    };
    let solution = f.solution.as_deref().map_or(String::new(), |s| {
        format!(
            "<p class=\"mt-2 rounded-lg bg-muted px-3 py-2 text-sm\"><span class=\"font-semibold\">How to fix: </span>{}</p>",
            escape(s)
        )
    });
    format!(
        "<li class=\"flex gap-3 py-3\"><svg class=\"size-5 shrink-0 {color}\" role=\"img\" aria-label=\"{label}\"></svg>\
         <div class=\"min-w-0\"><p class=\"font-medium\">{}</p><p class=\"mt-0.5 text-sm text-muted-foreground\">{}</p>{solution}</div></li>",
        escape(&f.title),
        escape(&f.description)
    )
}

/// `SectionGroups` without a limit.
fn section_groups(groups: &[SectionGroup]) -> String {
    let mut html = String::from("<div class=\"grid gap-4\">");
    for g in groups {
        let (variant, word) = match g.status {
            SectionStatus::Good => (badge_variant(Band::Green), "Good"),
            SectionStatus::NeedsImprovement => (badge_variant(Band::Yellow), "Needs improvement"),
            SectionStatus::Critical => (badge_variant(Band::Red), "Critical"),
        };
        let title = escape(&g.title);
        html.push_str(&format!(
            "<section aria-label=\"{title}\" class=\"rounded-xl border border-border bg-card p-4 sm:p-5\">\
             <div class=\"flex flex-wrap items-center justify-between gap-2\"><h3 class=\"text-base font-semibold\">{title}</h3>\
             <span class=\"{BADGE} text-xs {variant}\">{word}</span></div><ul class=\"mt-1 divide-y divide-border\">"
        ));
        for f in &g.findings {
            html.push_str(&finding(f));
        }
        html.push_str("</ul></section>");
    }
    html.push_str("</div>");
    html
}

/// The report's first screen; the app replaces it with the full, interactive report.
pub fn render(report: &AnalysisReport, view: View) -> String {
    let s = report.scores;
    let url = escape(&report.url);
    let tier = if report.report_type.is_professional() {
        "Professional report"
    } else {
        "Basic report"
    };
    let pages = report.pages_analyzed;
    let created = chrono::DateTime::parse_from_rfc3339(&report.created_at).map_or_else(
        |_| escape(&report.created_at),
        |d| d.format("%Y-%m-%d %H:%M UTC").to_string(),
    );
    let mut html = String::from("<div class=\"mx-auto max-w-7xl px-4 py-8 sm:px-6 sm:py-12\">");
    if view.sample {
        html.push_str(&format!(
            "<p role=\"note\" class=\"mb-6 rounded-xl border border-indigo-200 bg-indigo-50 px-4 py-3 text-sm text-indigo-950 dark:border-blue-900 dark:bg-blue-950/40 dark:text-blue-100\"><strong>Sample report.</strong> {}</p>",
            domain::tier::SAMPLE_NOTICE
        ));
    }
    html.push_str(&format!(
        "<header class=\"flex flex-col gap-6 lg:flex-row lg:items-center lg:justify-between\"><div class=\"min-w-0\">\
         <p class=\"inline-flex items-center gap-1.5 rounded-full bg-emerald-100 px-3 py-1 text-sm font-semibold text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200\">{ICON} Analysis Complete</p>\
         <h1 class=\"mt-3 text-3xl font-bold tracking-tight sm:text-4xl\">Website Analysis Results</h1>\
         <p class=\"mt-2 break-all text-lg text-muted-foreground\"><a href=\"{url}\" target=\"_blank\" rel=\"noopener noreferrer nofollow\" class=\"text-link underline underline-offset-4\">{url}</a></p>\
         <p class=\"mt-1 text-sm text-muted-foreground\">{tier} · {pages} {} analysed · {created}</p></div>{}</header>",
        if pages == 1 { "page" } else { "pages" },
        score_ring(s.overall, "Overall score")
    ));
    html.push_str("<div class=\"mt-6 flex flex-wrap gap-2\">");
    if !view.sample {
        let label = if view.paid {
            "Download PDF Report"
        } else {
            "Download Report"
        };
        html.push_str(&format!(
            "<button type=\"button\" class=\"{BUTTON} {BUTTON_DEFAULT}\">{ICON} {label}</button>"
        ));
    }
    html.push_str(&format!(
        "<button type=\"button\" class=\"{BUTTON} {BUTTON_OUTLINE}\">{ICON}Copy Report Link</button>"
    ));
    // A branded report leads nowhere of Sitelens': no new analysis here, no upgrade.
    let branded = report.branding.is_some();
    if !branded {
        html.push_str(&format!(
            "<a class=\"{BUTTON} {BUTTON_OUTLINE}\" href=\"/\">{ICON} New Analysis</a>"
        ));
    }
    if !view.paid && !branded {
        html.push_str(&format!(
            "<a class=\"{BUTTON} {BUTTON_SECONDARY}\" href=\"{}\">Advanced Analysis {ICON}</a>",
            escape(&domain::commerce::package_checkout_path("credit-1"))
        ));
    }
    html.push_str("</div><dl class=\"mt-8 grid grid-cols-2 gap-3 sm:grid-cols-4\">");
    for (label, v) in [
        ("SEO", s.seo),
        ("Design", s.design),
        ("Technical", s.technical),
        ("Performance", s.performance),
    ] {
        html.push_str(&format!(
            "<div class=\"rounded-xl border border-border bg-card p-4\"><dt class=\"text-sm text-muted-foreground\">{label}</dt><dd class=\"mt-1\">{}</dd></div>",
            score_badge(v, "text-base")
        ));
    }
    html.push_str(
        "</dl><div class=\"mt-8 grid gap-8 lg:grid-cols-[minmax(0,1fr)_20rem]\"><div class=\"min-w-0 space-y-8\">\
         <div dir=\"ltr\" data-orientation=\"horizontal\"><div role=\"tablist\" aria-label=\"Report sections\" aria-orientation=\"horizontal\" data-orientation=\"horizontal\" \
         class=\"inline-flex max-w-full items-center gap-1 overflow-x-auto rounded-xl bg-muted p-1 text-muted-foreground w-full justify-start sm:w-auto\">",
    );
    for (i, (id, label)) in [
        ("seo", "SEO"),
        ("design", "Design"),
        ("technical", "Technical"),
        ("performance", "Performance"),
        ("action-plan", "Action Plan"),
    ]
    .into_iter()
    .enumerate()
    {
        let (selected, state) = if i == 0 {
            ("true", "active")
        } else {
            ("false", "inactive")
        };
        html.push_str(&format!(
            "<button type=\"button\" role=\"tab\" id=\"report-tab-{id}\" aria-selected=\"{selected}\" data-state=\"{state}\" data-orientation=\"horizontal\" class=\"{TAB}\">{label}</button>"
        ));
    }
    html.push_str(&format!(
        "</div><div role=\"tabpanel\" aria-labelledby=\"report-tab-seo\" data-state=\"active\" data-orientation=\"horizontal\" class=\"mt-4 focus-visible:outline-none space-y-6\">\
         <div class=\"flex items-center gap-3\"><h2 class=\"text-xl font-semibold\">SEO Analysis</h2>{}</div>{}</div></div></div>\
         <aside class=\"space-y-6 lg:sticky lg:top-24 lg:self-start\" aria-label=\"Share and upgrade\"></aside></div></div>",
        score_badge(s.seo, "text-sm"),
        section_groups(&report.seo_analysis)
    ));
    html
}

/// The frame of a branded report's page, in place of Sitelens' header and footer: the agency's
/// logo or name, its colours (the primary colour with a legible text colour, so the app's
/// primary buttons wear it) and font, and a footer with its contact details. It is the markup of
/// the web app's site layout with a brand (`web/src/app/site-layout.tsx` and
/// `web/src/components/layout/branded-frame.tsx`), with `main` in the middle.
pub fn branded_frame(brand: &Branding, main: &str) -> String {
    let name = escape(&brand.company_name);
    let style = format!(
        "--primary:{};--primary-foreground:{};--ring:{};font-family:{}",
        css_value(&brand.primary_color),
        domain::whitelabel::foreground_for(&brand.primary_color),
        css_value(&brand.primary_color),
        css_value(&brand.font_family)
    );
    let mark = match &brand.logo_url {
        Some(logo) => format!(
            "<img src=\"{}\" alt=\"{name}\" class=\"h-10 w-auto max-w-48 object-contain\" />",
            escape(logo)
        ),
        None => format!("<span class=\"text-xl font-bold text-primary\">{name}</span>"),
    };
    let mut contact = Vec::new();
    if let Some(email) = &brand.contact_email {
        let email = escape(email);
        contact.push(format!(
            "<a class=\"underline underline-offset-4\" href=\"mailto:{email}\">{email}</a>"
        ));
    }
    if let Some(phone) = &brand.contact_phone {
        contact.push(format!("<span>{}</span>", escape(phone)));
    }
    if let Some(site) = &brand.website_url {
        let site = escape(site);
        contact.push(format!(
            "<a class=\"underline underline-offset-4\" href=\"{site}\" rel=\"noopener\">{site}</a>"
        ));
    }
    format!(
        "<div data-brand-frame=\"\" class=\"flex min-h-dvh flex-col\" style=\"{}\">\
         <header class=\"border-b border-border bg-card\"><div class=\"mx-auto flex max-w-7xl items-center gap-3 px-4 py-4 sm:px-6\">{mark}</div></header>\
         <main id=\"main\" class=\"flex-1\">{main}</main>\
         <footer class=\"border-t border-border\"><div class=\"mx-auto flex max-w-7xl flex-wrap gap-x-4 gap-y-1 px-4 py-6 text-sm text-muted-foreground sm:px-6\">\
         <span>Report prepared by {name}</span>{}</div></footer></div>",
        escape(&style),
        contact.join("")
    )
}

/// The brand as JSON for the app to start from (`web/src/lib/brand.ts`), outside the app's root
/// so that it is still there when the app mounts.
pub fn brand_script(brand: &Branding) -> String {
    // `<` never appears raw inside the script, so no text can close it.
    let data = serde_json::to_string(brand)
        .unwrap_or_default()
        .replace('<', "\\u003c");
    format!("<script type=\"application/json\" id=\"server-brand\">{data}</script>")
}

/// A CSS value from settings the server validated: anything that could end the declaration or
/// the attribute is dropped all the same.
fn css_value(v: &str) -> String {
    v.chars()
        .filter(|c| !matches!(c, ';' | '"' | '<' | '>' | '{' | '}' | '\\'))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_screen_shows_the_scores_and_the_seo_findings() {
        let report = crate::services::demo::report().expect("sample");
        let html = render(
            &report,
            View {
                paid: true,
                sample: true,
            },
        );
        assert!(html.contains("<h1 class=\"mt-3 text-3xl font-bold tracking-tight sm:text-4xl\">Website Analysis Results</h1>"));
        assert!(html.contains(&format!(">{}/100<", report.scores.seo)));
        assert!(html.contains("Sample report."));
        assert!(!html.contains("Download"), "no download for the sample");
        assert!(!html.contains("Advanced Analysis"), "the paid view");
        let first = &report.seo_analysis[0].findings[0];
        assert!(html.contains(&escape(&first.title)));

        let unpaid = render(
            &report,
            View {
                paid: false,
                sample: false,
            },
        );
        assert!(unpaid.contains("Download Report</button>"));
        assert!(unpaid.contains("New Analysis"));
        assert!(unpaid.contains("href=\"/stripe-checkout?package=credit-1\""));
        assert!(!unpaid.contains("Sample report."));
    }

    #[test]
    fn a_branded_report_wears_the_agency_and_leads_nowhere_of_ours() {
        let mut report = crate::services::demo::report().expect("sample");
        report.branding = Some(Branding {
            company_name: "Studio \"Grace\" & Co".into(),
            logo_url: None,
            primary_color: "#FDE047".into(),
            secondary_color: "#10B981".into(),
            font_family: "Georgia, 'Times New Roman', serif".into(),
            contact_email: Some("hello@grace.example".into()),
            contact_phone: None,
            website_url: Some("https://grace.example/".into()),
        });
        let body = render(
            &report,
            View {
                paid: false,
                sample: false,
            },
        );
        assert!(!body.contains("New Analysis") && !body.contains("Advanced Analysis"));
        assert!(!body.contains("/stripe-checkout"));
        let page = branded_frame(report.branding.as_ref().expect("set"), &body);
        assert!(page.contains("Studio &quot;Grace&quot; &amp; Co"));
        assert!(page.contains("--primary:#FDE047;--primary-foreground:#0F172A"));
        assert!(page.contains("font-family:Georgia, 'Times New Roman', serif\""));
        assert!(page.contains("href=\"mailto:hello@grace.example\""));
        assert!(page.contains("Report prepared by"));
        assert!(!page.contains("Sitelens"));
        let script = brand_script(report.branding.as_ref().expect("set"));
        let json = script
            .split("id=\"server-brand\">")
            .nth(1)
            .and_then(|rest| rest.split("</script>").next())
            .expect("the brand as JSON");
        let back: Branding = serde_json::from_str(json).expect("parses");
        assert_eq!(Some(back), report.branding);
    }
}
