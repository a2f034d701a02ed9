//! Accessibility with axe-core, the engine Lighthouse runs, shipped inside the binary.
//!
//! axe-core runs only Lighthouse's accessibility rules, and each violated rule becomes a
//! finding whose `audit` is the Lighthouse audit id (Lighthouse names its accessibility audits
//! after the axe rules). The score is Lighthouse's: the weighted share of passing audits among
//! those that applied, with the weights of Lighthouse 12.8's default config (10 for rules whose
//! failure blocks users outright, 7 for serious, 3 moderate, 1 minor; manual audits weigh 0).
//!
//! axe-core runs in an isolated world of the page ([`AXE_WORLD`]), as Lighthouse runs its
//! gatherers: it sees the same DOM and styles, and the page's scripts cannot see or disturb it.
//!
//! Compiling axe-core's 650 kB costs about as much as a bare page load, so a spare tab does it
//! before the measurement ([`warm_up`]): it loads axe-core on its blank page and runs the rules
//! once. V8 keeps compiled scripts per renderer process, keyed by their source, and the measured
//! page loads in that same process, so loading axe-core after the load runs code compiled
//! already. Nothing is added to the measured page's documents: a script registered for every
//! new document would run inside the measured load and lengthen its tasks.

use chromiumoxide::Page;
use chromiumoxide::cdp::browser_protocol::page::CreateIsolatedWorldParams;
use chromiumoxide::cdp::js_protocol::runtime::{
    CallArgument, CallFunctionOnParams, EvaluateParams, ExecutionContextId,
};
use domain::report::FindingType;

use crate::checks::finding;
use serde::Deserialize;

use super::{AccessibilityResult, AuditOutcome, category_score};

/// axe-core 4.14.1 (MPL-2.0, see `assets/axe-LICENSE.txt`), from the npm package.
const AXE_SOURCE: &str = include_str!("../../assets/axe.min.js");

/// The isolated world axe-core runs in.
pub const AXE_WORLD: &str = "sitelens-axe";

/// Whether axe-core is already loaded in the context.
const AXE_LOADED: &str = "typeof axe === 'object'";

/// Lighthouse 12.8.2's accessibility audits that axe-core implements, with their weights
/// (`core/config/default-config.js`).
pub const LIGHTHOUSE_WEIGHTS: &[(&str, f64)] = &[
    ("accesskeys", 7.0),
    ("aria-allowed-attr", 10.0),
    ("aria-allowed-role", 1.0),
    ("aria-command-name", 7.0),
    ("aria-conditional-attr", 7.0),
    ("aria-deprecated-role", 1.0),
    ("aria-dialog-name", 7.0),
    ("aria-hidden-body", 10.0),
    ("aria-hidden-focus", 7.0),
    ("aria-input-field-name", 7.0),
    ("aria-meter-name", 7.0),
    ("aria-progressbar-name", 7.0),
    ("aria-prohibited-attr", 7.0),
    ("aria-required-attr", 10.0),
    ("aria-required-children", 10.0),
    ("aria-required-parent", 10.0),
    ("aria-roles", 7.0),
    ("aria-text", 7.0),
    ("aria-toggle-field-name", 7.0),
    ("aria-tooltip-name", 7.0),
    ("aria-treeitem-name", 7.0),
    ("aria-valid-attr-value", 10.0),
    ("aria-valid-attr", 10.0),
    ("button-name", 10.0),
    ("bypass", 7.0),
    ("color-contrast", 7.0),
    ("definition-list", 7.0),
    ("dlitem", 7.0),
    ("document-title", 7.0),
    ("duplicate-id-aria", 10.0),
    ("form-field-multiple-labels", 3.0),
    ("frame-title", 7.0),
    ("heading-order", 3.0),
    ("html-has-lang", 7.0),
    ("html-lang-valid", 7.0),
    ("html-xml-lang-mismatch", 3.0),
    ("image-alt", 10.0),
    ("image-redundant-alt", 1.0),
    ("input-button-name", 10.0),
    ("input-image-alt", 10.0),
    ("label", 7.0),
    ("link-in-text-block", 7.0),
    ("link-name", 7.0),
    ("list", 7.0),
    ("listitem", 7.0),
    ("meta-refresh", 10.0),
    ("meta-viewport", 10.0),
    ("object-alt", 7.0),
    ("select-name", 7.0),
    ("skip-link", 3.0),
    ("tabindex", 7.0),
    ("table-duplicate-name", 1.0),
    ("target-size", 7.0),
    ("td-headers-attr", 7.0),
    ("th-has-data-cells", 7.0),
    ("valid-lang", 7.0),
    ("video-caption", 10.0),
    ("empty-heading", 0.0),
    ("identical-links-same-purpose", 0.0),
    ("landmark-one-main", 0.0),
    ("label-content-name-mismatch", 0.0),
    ("table-fake-caption", 0.0),
    ("td-has-header", 0.0),
];

/// Lighthouse 12.8.2's accessibility audits whose scoring mode is informative: whatever their
/// weight in the config, Lighthouse never passes or fails them and leaves them out of the score.
pub const LIGHTHOUSE_INFORMATIVE: &[&str] = &[
    "bypass",
    "duplicate-id-aria",
    "empty-heading",
    "form-field-multiple-labels",
    "identical-links-same-purpose",
    "landmark-one-main",
    "th-has-data-cells",
    "video-caption",
];

/// Lighthouse's weight of an audit (0 for audits it does not score, informative ones included).
pub fn weight(audit: &str) -> f64 {
    if LIGHTHOUSE_INFORMATIVE.contains(&audit) {
        return 0.0;
    }
    LIGHTHOUSE_WEIGHTS
        .iter()
        .find(|(id, _)| *id == audit)
        .map_or(0.0, |(_, w)| *w)
}

/// One violated rule.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Violation {
    /// axe rule id (= Lighthouse audit id).
    pub id: String,
    /// critical, serious, moderate or minor.
    #[serde(default)]
    pub impact: Option<String>,
    /// One-line help text.
    pub help: String,
    /// What the rule checks.
    pub description: String,
    /// Deque University page.
    #[serde(default)]
    pub help_url: String,
    /// Elements that fail.
    pub nodes: usize,
    /// CSS selectors of the first failing elements.
    #[serde(default)]
    pub targets: Vec<String>,
}

/// What axe-core reported.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AxeResults {
    /// axe-core version.
    #[serde(default)]
    pub version: String,
    /// Violated rules.
    pub violations: Vec<Violation>,
    /// Rules that applied and passed.
    pub passes: Vec<String>,
    /// Rules axe-core could not decide (left out of the score, as Lighthouse does).
    #[serde(default)]
    pub incomplete: Vec<String>,
    /// Time to inject the script, ms.
    #[serde(skip)]
    pub inject_ms: f64,
    /// Time to run the rules, ms.
    #[serde(skip)]
    pub run_ms: f64,
}

const RUN: &str = r#"async (ids) => {
  const known = new Set(axe.getRules().map((r) => r.ruleId));
  const values = ids.filter((id) => known.has(id));
  // No HTML snippet of every checked element (as Lighthouse configures it; we report selectors),
  // and no descent into frames: axe-core is loaded in the main frame only, so a frame never
  // answers and axe-core would wait for each one.
  axe.configure({ noHtml: true });
  const r = await axe.run(document, {
    runOnly: { type: 'rule', values },
    resultTypes: ['violations'],
    elementRef: false,
    iframes: false,
  });
  return JSON.stringify({
    version: axe.version,
    violations: r.violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help, description: v.description, helpUrl: v.helpUrl,
      nodes: v.nodes.length,
      targets: v.nodes.slice(0, 5).map((n) => String(n.target)),
    })),
    passes: r.passes.map((p) => p.id),
    incomplete: r.incomplete.map((p) => p.id),
  });
}"#;

/// The rules axe-core runs: all of Lighthouse's, on the phone layout, as Lighthouse runs
/// axe-core on its mobile-emulated page (layout-dependent rules such as colour contrast and
/// target size judge that layout).
pub fn lighthouse_rules() -> Vec<&'static str> {
    LIGHTHOUSE_WEIGHTS.iter().map(|(id, _)| *id).collect()
}

/// The main frame's context of [`AXE_WORLD`] (created by the holder script when the tab was
/// prepared, or now).
async fn axe_context(page: &Page) -> Result<ExecutionContextId, String> {
    let frame = page
        .mainframe()
        .await
        .map_err(|e| e.to_string())?
        .ok_or("the page has no main frame")?;
    let world = CreateIsolatedWorldParams::builder()
        .frame_id(frame)
        .world_name(AXE_WORLD)
        .build()
        .map_err(|e| e.to_string())?;
    let created = page.execute(world).await.map_err(|e| e.to_string())?;
    Ok(created.result.execution_context_id)
}

/// Evaluate `expression` in `context`, returning its value.
async fn evaluate_in(
    page: &Page,
    context: ExecutionContextId,
    expression: &str,
) -> Result<serde_json::Value, String> {
    let params = EvaluateParams::builder()
        .expression(expression)
        .context_id(context)
        .return_by_value(true)
        .build()
        .map_err(|e| e.to_string())?;
    let result = page.execute(params).await.map_err(|e| e.to_string())?;
    if let Some(ex) = &result.result.exception_details {
        return Err(ex
            .exception
            .as_ref()
            .and_then(|e| e.description.clone())
            .unwrap_or_else(|| ex.text.clone()));
    }
    Ok(result.result.result.value.clone().unwrap_or_default())
}

/// Compile axe-core in `page`'s isolated world and run Lighthouse's rules once (on a prepared
/// tab's blank page), so that V8's cache of compiled scripts holds all of it.
pub async fn warm_up(page: &Page) -> Result<(), String> {
    let rules: Vec<&str> = LIGHTHOUSE_WEIGHTS.iter().map(|(id, _)| *id).collect();
    run_axe(page, &rules).await.map(|_| ())
}

/// Load axe-core into `page`'s isolated world and run `rules` (Lighthouse audit ids).
pub async fn run_axe(page: &Page, rules: &[&str]) -> Result<AxeResults, String> {
    let t = std::time::Instant::now();
    let context = axe_context(page).await?;
    let loaded = evaluate_in(page, context, AXE_LOADED).await?;
    if loaded != serde_json::Value::Bool(true) {
        evaluate_in(page, context, AXE_SOURCE).await?;
    }
    let inject_ms = t.elapsed().as_secs_f64() * 1000.0;
    let t = std::time::Instant::now();
    let call = CallFunctionOnParams::builder()
        .function_declaration(RUN)
        .argument(
            CallArgument::builder()
                .value(serde_json::json!(rules))
                .build(),
        )
        .execution_context_id(context)
        .await_promise(true)
        .build()
        .map_err(|e| e.to_string())?;
    let raw: String = page
        .evaluate_function(call)
        .await
        .map_err(|e| e.to_string())?
        .into_value()
        .map_err(|e| e.to_string())?;
    let mut results: AxeResults = serde_json::from_str(&raw).map_err(|e| e.to_string())?;
    results.inject_ms = inject_ms;
    results.run_ms = t.elapsed().as_secs_f64() * 1000.0;
    Ok(results)
}

/// Turn axe-core's results into findings, audit verdicts and the Lighthouse-weighted score.
pub fn assess(axe: &Result<AxeResults, String>) -> AccessibilityResult {
    let r = match axe {
        Ok(r) => r,
        Err(e) => {
            return AccessibilityResult {
                error: Some(e.clone()),
                ..AccessibilityResult::default()
            };
        }
    };
    let mut audits: Vec<AuditOutcome> = Vec::new();
    // As Lighthouse scores axe-core: a rule fails when any element violates it (axe-core may
    // list the same rule under passes too), and a rule axe-core could not decide
    // ("incomplete") counts as passed.
    let violated = |id: &String| r.violations.iter().any(|v| &v.id == id);
    let mut passes: Vec<String> = Vec::new();
    for id in r.passes.iter().chain(&r.incomplete) {
        if !violated(id) && !passes.contains(id) {
            passes.push(id.clone());
        }
    }
    for id in &passes {
        audits.push(AuditOutcome {
            id: id.clone(),
            passed: true,
            weight: weight(id),
        });
    }
    let mut findings = Vec::new();
    let mut violations = r.violations.clone();
    // Heaviest audits first, so the report leads with what costs most.
    violations.sort_by(|a, b| weight(&b.id).total_cmp(&weight(&a.id)));
    for v in &violations {
        audits.push(AuditOutcome {
            id: v.id.clone(),
            passed: false,
            weight: weight(&v.id),
        });
        let kind = match v.impact.as_deref() {
            Some("critical" | "serious") => FindingType::Issue,
            _ => FindingType::Warning,
        };
        let examples = if v.targets.is_empty() {
            String::new()
        } else {
            format!(" Examples: {}.", v.targets.join(", "))
        };
        findings.push(finding(
            &format!("a11y.{}", v.id),
            kind,
            v.help.clone(),
            format!(
                "{} {} element(s) fail ({} impact).{examples}",
                v.description,
                v.nodes,
                v.impact.as_deref().unwrap_or("unknown")
            ),
            Some(&format!("See {} for how to fix it.", v.help_url)),
            // A rule Lighthouse does not score is our advice, not a Lighthouse verdict.
            (weight(&v.id) > 0.0).then_some(v.id.as_str()),
        ));
    }
    let passed = passes.iter().filter(|p| weight(p) > 0.0).count();
    if passed > 0 {
        findings.push(finding(
            "a11y.passed",
            FindingType::Good,
            format!("{passed} accessibility checks pass"),
            format!(
                "axe-core {} found no problem with: {}.",
                r.version,
                passes
                    .iter()
                    .filter(|p| weight(p) > 0.0)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            None,
            None,
        ));
    }
    AccessibilityResult {
        score: category_score(&audits),
        findings,
        audits,
        error: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_follow_lighthouse() {
        assert_eq!(weight("image-alt"), 10.0);
        assert_eq!(weight("color-contrast"), 7.0);
        assert_eq!(weight("heading-order"), 3.0);
        assert_eq!(weight("not-a-rule"), 0.0);
        // Informative in Lighthouse 12.8.2 despite a weight in the config.
        assert_eq!(weight("bypass"), 0.0);
        assert_eq!(weight("landmark-one-main"), 0.0);
    }

    #[test]
    fn violations_become_findings_with_audit_ids() {
        let r = AxeResults {
            version: "4.14.1".into(),
            violations: vec![Violation {
                id: "image-alt".into(),
                impact: Some("critical".into()),
                help: "Images must have alternative text".into(),
                description: "Ensures <img> elements have alternative text".into(),
                help_url: "https://dequeuniversity.com/rules/axe/4.14/image-alt".into(),
                nodes: 2,
                targets: vec!["img".into()],
            }],
            passes: vec!["document-title".into(), "html-has-lang".into()],
            incomplete: Vec::new(),
            inject_ms: 0.0,
            run_ms: 0.0,
        };
        let a = assess(&Ok(r));
        // 14 of 24 weight passes.
        assert_eq!(a.score, Some(58));
        assert_eq!(a.findings[0].audit.as_deref(), Some("image-alt"));
        assert_eq!(a.findings[0].kind, FindingType::Issue);
    }

    #[test]
    fn informative_rules_carry_no_audit_id_and_do_not_score() {
        let r = AxeResults {
            version: "4.14.1".into(),
            violations: vec![Violation {
                id: "landmark-one-main".into(),
                impact: Some("moderate".into()),
                help: "Document should have one main landmark".into(),
                description: "Ensure the document has a main landmark".into(),
                help_url: String::new(),
                nodes: 1,
                targets: vec!["html".into()],
            }],
            passes: vec!["document-title".into()],
            incomplete: Vec::new(),
            inject_ms: 0.0,
            run_ms: 0.0,
        };
        let a = assess(&Ok(r));
        // Lighthouse: informative, so the page scores as if only document-title applied.
        assert_eq!(a.score, Some(100));
        let f = a
            .findings
            .iter()
            .find(|f| f.id == "a11y.landmark-one-main")
            .expect("finding");
        assert_eq!(f.kind, FindingType::Warning);
        assert_eq!(f.audit, None);
    }
}
