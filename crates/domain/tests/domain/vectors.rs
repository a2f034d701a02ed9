//! Runs every case of `tests/vectors/*.json` against the native build.
//!
//! Each case names a function by its WebAssembly export name (`fn`), its arguments (`args`) and
//! either the `expected` JSON result or the message it `throws`. [`call`] maps each export name
//! to the Rust function behind it, exactly as `crates/domain-wasm` does, so both sides answer the
//! same question.

use std::io::Write;
use std::path::PathBuf;

use domain::credits::Credits;
use domain::report::ReportType;
use domain::{
    accounts, advice, affiliates, checkout, commerce, constants, contact, forms, performance,
    robots, score, share, site_url, snippet, whitelabel,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

type Outcome = Result<Value, String>;

fn arg<T: DeserializeOwned>(args: &[Value], i: usize) -> Result<T, String> {
    let v = args
        .get(i)
        .cloned()
        .ok_or_else(|| format!("missing argument {i}"))?;
    serde_json::from_value(v).map_err(|e| e.to_string())
}

fn ok<T: Serialize>(v: T) -> Outcome {
    serde_json::to_value(v).map_err(|e| e.to_string())
}

fn whole(args: &[Value], i: usize) -> Result<u32, String> {
    arg::<u32>(args, i)
}

/// A number of credits as the WebAssembly side receives it: a JS number, read by
/// [`Credits::from_number`] (whose message a bad one throws).
fn credits(args: &[Value], i: usize) -> Result<Credits, String> {
    Credits::from_number(arg::<f64>(args, i)?).map_err(|e| e.to_string())
}

/// Calls the Rust rule behind a WebAssembly export.
fn call(name: &str, a: &[Value]) -> Outcome {
    match name {
        "normalizeUrl" => site_url::normalize_input(&arg::<String>(a, 0)?)
            .map(Value::from)
            .map_err(|e| e.to_string()),
        "canonicalizeUrl" => site_url::canonicalize(&arg::<String>(a, 0)?)
            .map(Value::from)
            .map_err(|e| e.to_string()),
        "checkAddress" => ok(site_url::check_address(&arg::<String>(a, 0)?)),
        "badgeBand" => ok(score::badge_band(arg(a, 0)?)),
        "ringBand" => ok(score::ring_band(arg(a, 0)?)),
        "overallScore" => ok(score::overall_score(
            whole(a, 0)?,
            whole(a, 1)?,
            whole(a, 2)?,
            whole(a, 3)?,
        )),
        "overallWeights" => ok(score::OVERALL_WEIGHTS),
        "findingsScore" => ok(score::findings_score(&arg::<Vec<_>>(a, 0)?)),
        "groupStatus" => ok(score::group_status(&arg::<Vec<_>>(a, 0)?)),
        "metricScore" => ok(score::metric_score(arg(a, 0)?, arg(a, 1)?, arg(a, 2)?)),
        "performanceScore" => ok(score::performance_score(&arg(a, 0)?, arg(a, 1)?)),
        "isValidEmail" => ok(forms::is_valid_email(&arg::<String>(a, 0)?)),
        "isValidComment" => ok(forms::is_valid_comment(&arg::<String>(a, 0)?)),
        "validateLead" => ok(forms::validate_lead(&arg(a, 0)?)),
        "validateDownload" => ok(forms::validate_download(&arg(a, 0)?)),
        "validateCalculator" => ok(forms::validate_calculator(&arg(a, 0)?)),
        "validateContact" => ok(forms::validate_contact(&arg(a, 0)?)),
        "validateAffiliateApplication" => ok(affiliates::validate_application(&arg(a, 0)?)),
        "affiliateTerms" => ok(affiliates::terms()),
        "validateEnterpriseContact" => ok(contact::validate_enterprise_contact(&arg(a, 0)?)),
        "validateAgencyContact" => ok(contact::validate_agency_contact(&arg(a, 0)?)),
        "validatePartnerEnquiry" => ok(contact::validate_partner_enquiry(&arg(a, 0)?)),
        "contactChoices" => ok(contact::contact_choices()),
        "validateRegistration" => ok(forms::validate_registration(&arg(a, 0)?)),
        "inGoodRange" => ok(performance::in_good_range(
            &arg::<String>(a, 0)?,
            arg(a, 1)?,
        )),
        "fillFallbacks" => ok(performance::fill_fallbacks(&arg(a, 0)?)),
        "generateDiagnostics" => ok(performance::generate_diagnostics(&arg(a, 0)?)),
        "metricDiagnostic" => ok(performance::metric_diagnostic(arg(a, 0)?, arg(a, 1)?)),
        "isProOnly" => ok(performance::is_pro_only(&arg(a, 0)?)),
        "formatSeconds" => ok(performance::format_seconds(arg(a, 0)?)),
        "sortActionItems" => {
            let mut items: Vec<domain::report::ActionItem> = arg(a, 0)?;
            advice::sort_action_items(&mut items);
            ok(items)
        }
        "showWordpressTip" => ok(advice::show_wordpress_tip(
            whole(a, 0)?,
            &arg::<Vec<_>>(a, 1)?,
        )),
        "shareLinks" => ok(share::share_links(&arg(a, 0)?)),
        "resolveCheckout" => checkout::resolve_checkout(&arg(a, 0)?)
            .map_err(|e| e.to_string())
            .and_then(ok),
        "planChargeCents" => ok(checkout::plan_charge_cents(
            &arg::<String>(a, 0)?,
            arg(a, 1)?,
            whole(a, 2)?,
        )),
        "planCheckoutPath" => ok(checkout::plan_checkout_path(
            &arg::<String>(a, 0)?,
            arg(a, 1)?,
            whole(a, 2)?,
        )),
        "checkoutFailureMessage" => ok(checkout::failure_message(arg(a, 0)?)),
        "paymentModeLabel" => ok(arg::<checkout::PaymentMode>(a, 0)?.label()),
        "purchaseCompleteTitle" => ok(checkout::PURCHASE_COMPLETE_TITLE),
        "checkPlanAction" => checkout::check_plan_action(arg(a, 0)?, arg(a, 1)?).and_then(ok),
        "unitPriceCents" => ok(commerce::unit_price_cents(whole(a, 0)?)),
        "payAsYouGoCents" => ok(commerce::pay_as_you_go_cents(whole(a, 0)?)),
        "cheapestPurchase" => ok(commerce::cheapest_purchase(whole(a, 0)?)),
        "customPriceCents" => commerce::custom_price_cents(arg(a, 0)?)
            .map(Value::from)
            .map_err(|e| e.to_string()),
        "formatDollars" => ok(commerce::format_dollars(whole(a, 0)?)),
        "creditPacks" => ok(commerce::credit_packs()),
        "plans" => ok(commerce::plans()),
        "reportTypes" => ok(commerce::report_types()),
        "formatCredits" => ok(credits(a, 0)?.to_string()),
        "creditsLabel" => ok(credits(a, 0)?.label()),
        "parseCredits" => Credits::parse(&arg::<String>(a, 0)?)
            .map(|c| Value::from(c.as_number()))
            .map_err(|e| e.to_string()),
        "reportCost" => ok(commerce::report_cost(arg(a, 0)?)),
        "insufficientCreditsMessage" => ok(commerce::insufficient_credits_message(
            arg(a, 0)?,
            credits(a, 1)?,
        )),
        "snippetLength" => ok(snippet::length_check(arg(a, 0)?, &arg::<String>(a, 1)?)),
        "checkRobots" => ok(robots::check(
            &arg::<String>(a, 0)?,
            &arg::<String>(a, 1)?,
            &arg::<String>(a, 2)?,
        )),
        "reportPages" => ok(arg::<ReportType>(a, 0)?.pages()),
        "reportTypeForPages" => ok(ReportType::for_pages(whole(a, 0)?)),
        "isProfessional" => ok(arg::<ReportType>(a, 0)?.is_professional()),
        "watermark" => ok(arg::<ReportType>(a, 0)?.watermark()),
        "reportFooter" => ok(arg::<ReportType>(a, 0)?.footer(&arg::<String>(a, 1)?)),
        "packageIds" => ok(commerce::package_ids()),
        "recommendPlan" => ok(commerce::recommend_plan(arg(a, 0)?, whole(a, 1)?)),
        "recommendPack" => ok(commerce::recommend_pack(arg(a, 0)?)),
        "calculate" => ok(commerce::calculate(&arg(a, 0)?)),
        "calculatorDefaults" => ok(forms::CALCULATOR_DEFAULTS),
        "packageCheckoutPath" => ok(commerce::package_checkout_path(&arg::<String>(a, 0)?)),
        "creditsCheckoutPath" => ok(commerce::credits_checkout_path(whole(a, 0)?)),
        "trialState" => ok(commerce::trial_state(arg(a, 0)?, arg(a, 1)?)),
        "trialButton" => ok(commerce::trial_button(arg(a, 0)?)),
        "trialExpiresAt" => ok(commerce::trial_expires_at(arg(a, 0)?)),
        "trialCreditValid" => ok(commerce::trial_credit_valid(arg(a, 0)?, arg(a, 1)?)),
        "utcDay" => ok(commerce::utc_day(arg(a, 0)?)),
        "freeAnalysesRemaining" => ok(commerce::free_analyses_remaining(whole(a, 0)?)),
        "steps" => ok(constants::steps()),
        "stepForProgress" => ok(constants::step_for_progress(whole(a, 0)?)),
        "reconnectDelayMs" => ok(constants::reconnect_delay_ms(whole(a, 0)?)),
        "timings" => ok(constants::timings()),
        "limits" => ok(constants::limits()),
        "productConstants" => ok(constants::product_constants()),
        "validateSignIn" => ok(accounts::validate_sign_in(&arg(a, 0)?)),
        "validateNewPassword" => ok(accounts::validate_new_password(
            &arg::<String>(a, 0)?,
            &arg::<String>(a, 1)?,
            &arg::<String>(a, 2)?,
            &arg::<String>(a, 3)?,
        )),
        "validatePasswordChange" => ok(accounts::validate_password_change(
            &arg(a, 0)?,
            &arg::<String>(a, 1)?,
            &arg::<String>(a, 2)?,
        )),
        "validateEmailChange" => ok(accounts::validate_email_change(&arg(a, 0)?)),
        "safeReturnPath" => ok(accounts::safe_return_path(
            &arg::<String>(a, 0)?,
            &arg::<String>(a, 1)?,
        )),
        "seatsForPlan" => ok(accounts::seats_for_plan(&arg::<String>(a, 0)?)),
        "checkInvite" => ok(accounts::check_invite(&arg::<String>(a, 0)?, whole(a, 1)?).err()),
        "checkTrialStart" => ok(accounts::check_trial_start(arg(a, 0)?).err()),
        "trialStartedMessage" => ok(accounts::TRIAL_STARTED_MESSAGE),
        "rolePermissions" => ok(arg::<accounts::TeamRole>(a, 0)?.permissions()),
        "validateBranding" => ok(whitelabel::validate_branding(&arg(a, 0)?)
            .err()
            .unwrap_or_default()),
        "brandingRules" => ok(whitelabel::branding_rules()),
        "brandContactLine" => ok(arg::<whitelabel::Branding>(a, 0)?.contact_line()),
        "checkLogoUpload" => {
            ok(whitelabel::check_logo_upload(&arg::<String>(a, 0)?, arg(a, 1)?).err())
        }
        other => Err(format!("no such export: {other}")),
    }
}

/// JSON equality where numbers compare as doubles (as they do in JavaScript).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (
                x.as_f64().unwrap_or(f64::NAN),
                y.as_f64().unwrap_or(f64::NAN),
            );
            x == y || (x - y).abs() <= 1e-9 * x.abs().max(y.abs()).max(1.0)
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

fn vector_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/vectors");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/vectors exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

#[test]
fn shared_vectors_pass_natively() {
    let mut ran = 0;
    let mut failures = Vec::new();
    for file in vector_files() {
        let text = std::fs::read_to_string(&file).expect("readable vector file");
        let doc: Value = serde_json::from_str(&text).expect("vector file is JSON");
        let cases = doc["cases"].as_array().expect("cases array");
        for (i, case) in cases.iter().enumerate() {
            ran += 1;
            let name = case["fn"].as_str().expect("fn name");
            let args = case["args"].as_array().cloned().unwrap_or_default();
            let got = call(name, &args);
            let good = match (&got, case.get("expected"), case.get("throws")) {
                (Ok(v), Some(want), None) => same(v, want),
                (Err(msg), None, Some(want)) => json!(msg) == *want,
                _ => false,
            };
            if !good {
                failures.push(format!(
                    "{}#{i} {name}({args:?}): got {got:?}, case {case}",
                    file.display()
                ));
            }
        }
    }
    // Written to the stream directly (not println!), so the test harness does not capture it
    // and every test run shows how many shared cases ran natively.
    let _ = writeln!(
        std::io::stderr(),
        "shared vectors: {ran} cases ran natively"
    );
    assert!(ran >= 250, "only {ran} vector cases");
    assert!(
        failures.is_empty(),
        "{} failing:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
