//! WebAssembly facade over [`domain`]: every rule the web app needs, exported with camelCase
//! names. This crate only converts values; the rules live in `crates/domain`.
//!
//! Values cross the boundary as JSON-compatible JS values (serde-wasm-bindgen with
//! `json_compatible`, so `None` becomes `null`); every failure becomes a JS `Error` whose message
//! is the domain error's text, through [`fail`]. The TypeScript declarations of the contract
//! types are appended to the package's `.d.ts` from the generated `contract.ts`.

use domain::credits::Credits;
use domain::{
    accounts, advice, affiliates, checkout, commerce, constants, contact, forms, performance,
    report, robots, score, share, site_url, snippet,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const CONTRACT: &str = include_str!("../../domain/bindings/contract.ts");

/// The one error-mapping helper: any domain error becomes a JS `Error` with its message.
fn fail(e: impl std::fmt::Display) -> JsError {
    JsError::new(&e.to_string())
}

fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(fail)
}

fn from_js<T: DeserializeOwned>(value: JsValue) -> Result<T, JsError> {
    serde_wasm_bindgen::from_value(value).map_err(fail)
}

/// Scores are whole numbers; reject what is not, rather than guess.
fn to_u32(value: f64, name: &str) -> Result<u32, JsError> {
    if value.is_finite() && value >= 0.0 && value.fract() == 0.0 && value <= f64::from(u32::MAX) {
        Ok(value as u32)
    } else {
        Err(JsError::new(&format!(
            "{name} must be a whole number from 0"
        )))
    }
}

// --- addresses ---------------------------------------------------------------------------

/// The address form's rule: trimmed, `https://` added; throws the field message.
#[wasm_bindgen(js_name = normalizeUrl)]
pub fn normalize_url(raw: &str) -> Result<String, JsError> {
    site_url::normalize_input(raw).map_err(fail)
}

/// The canonical stored form of an address; throws the field message.
#[wasm_bindgen(js_name = canonicalizeUrl)]
pub fn canonicalize_url(raw: &str) -> Result<String, JsError> {
    site_url::canonicalize(raw).map_err(fail)
}

/// The address form's verdict: `{url}` or `{error}`.
#[wasm_bindgen(js_name = checkAddress, unchecked_return_type = "AddressCheck")]
pub fn check_address(raw: &str) -> Result<JsValue, JsError> {
    to_js(&site_url::check_address(raw))
}

// --- scores ------------------------------------------------------------------------------

/// Badge colour band of a score.
#[wasm_bindgen(js_name = badgeBand, unchecked_return_type = "Band")]
pub fn badge_band(score: f64) -> Result<JsValue, JsError> {
    to_js(&score::badge_band(score))
}

/// Ring colour band of a score.
#[wasm_bindgen(js_name = ringBand, unchecked_return_type = "Band")]
pub fn ring_band(score: f64) -> Result<JsValue, JsError> {
    to_js(&score::ring_band(score))
}

/// The overall score from the four section scores.
#[wasm_bindgen(js_name = overallScore)]
pub fn overall_score(
    seo: f64,
    design: f64,
    technical: f64,
    performance: f64,
) -> Result<u32, JsError> {
    Ok(score::overall_score(
        to_u32(seo, "seo")?,
        to_u32(design, "design")?,
        to_u32(technical, "technical")?,
        to_u32(performance, "performance")?,
    ))
}

/// The weights of the overall score.
#[wasm_bindgen(js_name = overallWeights, unchecked_return_type = "OverallWeights")]
pub fn overall_weights() -> Result<JsValue, JsError> {
    to_js(&score::OVERALL_WEIGHTS)
}

/// Score of a list of findings, 0-100.
#[wasm_bindgen(js_name = findingsScore)]
pub fn findings_score(
    #[wasm_bindgen(unchecked_param_type = "Finding[]")] findings: JsValue,
) -> Result<u32, JsError> {
    let findings: Vec<report::Finding> = from_js(findings)?;
    Ok(score::findings_score(&findings))
}

/// Status of a list of findings.
#[wasm_bindgen(js_name = groupStatus, unchecked_return_type = "SectionStatus")]
pub fn group_status(
    #[wasm_bindgen(unchecked_param_type = "Finding[]")] findings: JsValue,
) -> Result<JsValue, JsError> {
    let findings: Vec<report::Finding> = from_js(findings)?;
    to_js(&score::group_status(&findings))
}

/// Lighthouse-style score of one metric, 0-1 with two decimals.
#[wasm_bindgen(js_name = metricScore)]
pub fn metric_score(
    #[wasm_bindgen(unchecked_param_type = "LabMetric")] metric: JsValue,
    #[wasm_bindgen(unchecked_param_type = "FormFactor")] form: JsValue,
    value: f64,
) -> Result<f64, JsError> {
    Ok(score::metric_score(from_js(metric)?, from_js(form)?, value))
}

/// Lighthouse-style performance score, 0-100, or null when no metric is given.
#[wasm_bindgen(js_name = performanceScore, unchecked_return_type = "number | null")]
pub fn performance_score(
    #[wasm_bindgen(unchecked_param_type = "LabValues")] values: JsValue,
    #[wasm_bindgen(unchecked_param_type = "FormFactor")] form: JsValue,
) -> Result<JsValue, JsError> {
    let values: score::LabValues = from_js(values)?;
    to_js(&score::performance_score(&values, from_js(form)?))
}

// --- forms -------------------------------------------------------------------------------

/// Whether an e-mail address is valid.
#[wasm_bindgen(js_name = isValidEmail)]
pub fn is_valid_email(email: &str) -> bool {
    forms::is_valid_email(email)
}

/// Lead form errors.
#[wasm_bindgen(js_name = validateLead, unchecked_return_type = "FieldError[]")]
pub fn validate_lead(
    #[wasm_bindgen(unchecked_param_type = "LeadForm")] form: JsValue,
) -> Result<JsValue, JsError> {
    to_js(&forms::validate_lead(&from_js(form)?))
}

/// Download Report form errors.
#[wasm_bindgen(js_name = validateDownload, unchecked_return_type = "FieldError[]")]
pub fn validate_download(
    #[wasm_bindgen(unchecked_param_type = "DownloadRequest")] form: JsValue,
) -> Result<JsValue, JsError> {
    to_js(&forms::validate_download(&from_js(form)?))
}

/// Whether a screenshot comment can be added.
#[wasm_bindgen(js_name = isValidComment)]
pub fn is_valid_comment(comment: &str) -> bool {
    forms::is_valid_comment(comment)
}

/// Calculator input errors.
#[wasm_bindgen(js_name = validateCalculator, unchecked_return_type = "FieldError[]")]
pub fn validate_calculator(
    #[wasm_bindgen(unchecked_param_type = "CalculatorInput")] input: JsValue,
) -> Result<JsValue, JsError> {
    to_js(&forms::validate_calculator(&from_js(input)?))
}

/// Registration form errors.
#[wasm_bindgen(js_name = validateRegistration, unchecked_return_type = "FieldError[]")]
pub fn validate_registration(
    #[wasm_bindgen(unchecked_param_type = "Registration")] form: JsValue,
) -> Result<JsValue, JsError> {
    to_js(&forms::validate_registration(&from_js(form)?))
}

/// Contact form errors.
#[wasm_bindgen(js_name = validateContact, unchecked_return_type = "FieldError[]")]
pub fn validate_contact(
    #[wasm_bindgen(unchecked_param_type = "ContactForm")] form: JsValue,
) -> Result<JsValue, JsError> {
    to_js(&forms::validate_contact(&from_js(form)?))
}

/// Errors of a report sent to a client from the dashboard (issue 15 item 4).
#[wasm_bindgen(js_name = validateSendReport, unchecked_return_type = "FieldError[]")]
pub fn validate_send_report(
    #[wasm_bindgen(unchecked_param_type = "SendReportRequest")] form: JsValue,
) -> Result<JsValue, JsError> {
    to_js(&domain::report_mail::validate_send_report(&from_js(form)?))
}

/// Affiliate application errors (docs/PRODUCT.md §3.10).
#[wasm_bindgen(js_name = validateAffiliateApplication, unchecked_return_type = "FieldError[]")]
pub fn validate_affiliate_application(
    #[wasm_bindgen(unchecked_param_type = "AffiliateApplication")] form: JsValue,
) -> Result<JsValue, JsError> {
    to_js(&affiliates::validate_application(&from_js(form)?))
}

/// The affiliate programme's terms (rate, windows, payout minimum, the form's choices).
#[wasm_bindgen(js_name = affiliateTerms, unchecked_return_type = "AffiliateTerms")]
pub fn affiliate_terms() -> Result<JsValue, JsError> {
    to_js(&affiliates::terms())
}

/// Enterprise contact form errors.
#[wasm_bindgen(js_name = validateEnterpriseContact, unchecked_return_type = "FieldError[]")]
pub fn validate_enterprise_contact(
    #[wasm_bindgen(unchecked_param_type = "EnterpriseContactForm")] form: JsValue,
) -> Result<JsValue, JsError> {
    to_js(&contact::validate_enterprise_contact(&from_js(form)?))
}

/// Agency contact form errors.
#[wasm_bindgen(js_name = validateAgencyContact, unchecked_return_type = "FieldError[]")]
pub fn validate_agency_contact(
    #[wasm_bindgen(unchecked_param_type = "AgencyContactForm")] form: JsValue,
) -> Result<JsValue, JsError> {
    to_js(&contact::validate_agency_contact(&from_js(form)?))
}

/// Partner enquiry form errors.
#[wasm_bindgen(js_name = validatePartnerEnquiry, unchecked_return_type = "FieldError[]")]
pub fn validate_partner_enquiry(
    #[wasm_bindgen(unchecked_param_type = "PartnerEnquiryForm")] form: JsValue,
) -> Result<JsValue, JsError> {
    to_js(&contact::validate_partner_enquiry(&from_js(form)?))
}

/// The options of the sales forms' choice fields.
#[wasm_bindgen(js_name = contactChoices, unchecked_return_type = "ContactChoices")]
pub fn contact_choices() -> Result<JsValue, JsError> {
    to_js(&contact::contact_choices())
}

// --- performance -------------------------------------------------------------------------

/// The good ranges table.
#[wasm_bindgen(js_name = goodRanges, unchecked_return_type = "GoodRange[]")]
pub fn good_ranges() -> Result<JsValue, JsError> {
    to_js(&performance::good_ranges())
}

/// Whether a value is in a good range; null for an unknown range id.
#[wasm_bindgen(js_name = inGoodRange, unchecked_return_type = "boolean | null")]
pub fn in_good_range(id: &str, value: f64) -> Result<JsValue, JsError> {
    to_js(&performance::in_good_range(id, value))
}

/// Metrics with fallback values filled in and listed as estimated.
#[wasm_bindgen(js_name = fillFallbacks, unchecked_return_type = "FilledMetrics")]
pub fn fill_fallbacks(
    #[wasm_bindgen(unchecked_param_type = "MeasuredMetrics")] measured: JsValue,
) -> Result<JsValue, JsError> {
    to_js(&performance::fill_fallbacks(&from_js(measured)?))
}

/// Diagnostics generated from measured metrics.
#[wasm_bindgen(js_name = generateDiagnostics, unchecked_return_type = "Diagnostic[]")]
pub fn generate_diagnostics(
    #[wasm_bindgen(unchecked_param_type = "MeasuredMetrics")] measured: JsValue,
) -> Result<JsValue, JsError> {
    to_js(&performance::generate_diagnostics(&from_js(measured)?))
}

/// The diagnostic of one metric's value, or null within its good range.
#[wasm_bindgen(js_name = metricDiagnostic, unchecked_return_type = "Diagnostic | null")]
pub fn metric_diagnostic(
    #[wasm_bindgen(unchecked_param_type = "DiagnosedMetric")] metric: JsValue,
    value: f64,
) -> Result<JsValue, JsError> {
    to_js(&performance::metric_diagnostic(from_js(metric)?, value))
}

/// Whether a diagnostic is for paid viewers only.
#[wasm_bindgen(js_name = isProOnly)]
pub fn is_pro_only(
    #[wasm_bindgen(unchecked_param_type = "Diagnostic")] diagnostic: JsValue,
) -> Result<bool, JsError> {
    Ok(performance::is_pro_only(&from_js(diagnostic)?))
}

/// How the report names the conditions of a set of lab figures (`simulatedMobile`, ...).
#[wasm_bindgen(js_name = labConditionsLabel)]
pub fn lab_conditions_label(conditions: JsValue) -> Result<String, JsError> {
    let c: domain::report::LabConditions = from_js(conditions)?;
    Ok(c.label().to_owned())
}

/// Formats milliseconds as seconds, `3.4 s`.
#[wasm_bindgen(js_name = formatSeconds)]
pub fn format_seconds(ms: f64) -> String {
    performance::format_seconds(ms)
}

// --- advice ------------------------------------------------------------------------------

/// Action items ordered high, medium, low.
#[wasm_bindgen(js_name = sortActionItems, unchecked_return_type = "ActionItem[]")]
pub fn sort_action_items(
    #[wasm_bindgen(unchecked_param_type = "ActionItem[]")] items: JsValue,
) -> Result<JsValue, JsError> {
    let mut items: Vec<report::ActionItem> = from_js(items)?;
    advice::sort_action_items(&mut items);
    to_js(&items)
}

/// Whether the WordPress theme tip shows.
#[wasm_bindgen(js_name = showWordpressTip)]
pub fn show_wordpress_tip(
    performance_score: f64,
    #[wasm_bindgen(unchecked_param_type = "SectionGroup[]")] technical: JsValue,
) -> Result<bool, JsError> {
    let groups: Vec<report::SectionGroup> = from_js(technical)?;
    Ok(advice::show_wordpress_tip(
        to_u32(performance_score, "performanceScore")?,
        &groups,
    ))
}

/// Share text and targets.
#[wasm_bindgen(js_name = shareLinks, unchecked_return_type = "ShareLinks")]
pub fn share_links(
    #[wasm_bindgen(unchecked_param_type = "ShareInputs")] inputs: JsValue,
) -> Result<JsValue, JsError> {
    to_js(&share::share_links(&from_js(inputs)?))
}

/// How a report names where its backlink figures come from.
#[wasm_bindgen(js_name = linkGraphLabel)]
pub fn link_graph_label(provider: &str) -> String {
    domain::professional::link_graph_label(provider)
}

/// The text colour that stays legible on a brand colour (`#RRGGBB`).
#[wasm_bindgen(js_name = brandForeground)]
pub fn brand_foreground(color: &str) -> String {
    domain::whitelabel::foreground_for(color).to_owned()
}

// --- commerce ----------------------------------------------------------------------------

/// The credit packs.
#[wasm_bindgen(js_name = creditPacks, unchecked_return_type = "CreditPack[]")]
pub fn credit_packs() -> Result<JsValue, JsError> {
    to_js(&commerce::credit_packs())
}

/// The subscription plans.
#[wasm_bindgen(unchecked_return_type = "Plan[]")]
pub fn plans() -> Result<JsValue, JsError> {
    to_js(&commerce::plans())
}

/// The report types.
#[wasm_bindgen(js_name = reportTypes, unchecked_return_type = "ReportTypeInfo[]")]
pub fn report_types() -> Result<JsValue, JsError> {
    to_js(&commerce::report_types())
}

/// A number of credits as people read it: `0.5`, `1`, `2.5`; throws on a number that is not a
/// whole or half number from 0.
#[wasm_bindgen(js_name = formatCredits)]
pub fn format_credits(credits: f64) -> Result<String, JsError> {
    Ok(Credits::from_number(credits).map_err(fail)?.to_string())
}

/// A number of credits with its unit: `0.5 credits`, `1 credit`.
#[wasm_bindgen(js_name = creditsLabel)]
pub fn credits_label(credits: f64) -> Result<String, JsError> {
    Ok(Credits::from_number(credits).map_err(fail)?.label())
}

/// Reads a number of credits written as `0.5`, `1` or `2.5`; throws on anything else.
#[wasm_bindgen(js_name = parseCredits)]
pub fn parse_credits(text: &str) -> Result<f64, JsError> {
    Ok(Credits::parse(text).map_err(fail)?.as_number())
}

/// What a report of this type costs, in credits.
#[wasm_bindgen(js_name = reportCost)]
pub fn report_cost(
    #[wasm_bindgen(unchecked_param_type = "ReportType")] report_type: JsValue,
) -> Result<f64, JsError> {
    Ok(commerce::report_cost(from_js(report_type)?).as_number())
}

/// What a user whose credits do not cover a report of this type is told.
#[wasm_bindgen(js_name = insufficientCreditsMessage)]
pub fn insufficient_credits_message(
    #[wasm_bindgen(unchecked_param_type = "ReportType")] report_type: JsValue,
    balance: f64,
) -> Result<String, JsError> {
    Ok(commerce::insufficient_credits_message(
        from_js(report_type)?,
        Credits::from_number(balance).map_err(fail)?,
    ))
}

/// Every checkout package id.
#[wasm_bindgen(js_name = packageIds, unchecked_return_type = "string[]")]
pub fn package_ids() -> Result<JsValue, JsError> {
    to_js(&commerce::package_ids())
}

/// Pay-as-you-go price of one credit when buying `credits`, cents.
#[wasm_bindgen(js_name = unitPriceCents)]
pub fn unit_price_cents(credits: f64) -> Result<u32, JsError> {
    Ok(commerce::unit_price_cents(to_u32(credits, "credits")?))
}

/// Pay-as-you-go price of exactly `credits`, cents.
#[wasm_bindgen(js_name = payAsYouGoCents)]
pub fn pay_as_you_go_cents(credits: f64) -> Result<u32, JsError> {
    Ok(commerce::pay_as_you_go_cents(to_u32(credits, "credits")?))
}

/// The cheapest purchase of at least `credits`.
#[wasm_bindgen(js_name = cheapestPurchase, unchecked_return_type = "Purchase")]
pub fn cheapest_purchase(credits: f64) -> Result<JsValue, JsError> {
    to_js(&commerce::cheapest_purchase(to_u32(credits, "credits")?))
}

/// The custom-price rule: under 100 is dollars, otherwise cents. Throws on a bad price.
#[wasm_bindgen(js_name = customPriceCents)]
pub fn custom_price_cents(price: f64) -> Result<u32, JsError> {
    commerce::custom_price_cents(price).map_err(fail)
}

/// Formats cents as dollars.
#[wasm_bindgen(js_name = formatDollars)]
pub fn format_dollars(cents: f64) -> Result<String, JsError> {
    Ok(commerce::format_dollars(to_u32(cents, "cents")?))
}

/// The pricing calculator.
#[wasm_bindgen(unchecked_return_type = "CalculatorResult")]
pub fn calculate(
    #[wasm_bindgen(unchecked_param_type = "CalculatorInput")] input: JsValue,
) -> Result<JsValue, JsError> {
    to_js(&commerce::calculate(&from_js(input)?))
}

/// The calculator's default inputs.
#[wasm_bindgen(js_name = calculatorDefaults, unchecked_return_type = "CalculatorInput")]
pub fn calculator_defaults() -> Result<JsValue, JsError> {
    to_js(&forms::CALCULATOR_DEFAULTS)
}

/// Pages a report type crawls.
#[wasm_bindgen(js_name = reportPages)]
pub fn report_pages(
    #[wasm_bindgen(unchecked_param_type = "ReportType")] report_type: JsValue,
) -> Result<u32, JsError> {
    Ok(from_js::<report::ReportType>(report_type)?.pages())
}

/// The cheapest report type that crawls `pages` pages.
#[wasm_bindgen(js_name = reportTypeForPages, unchecked_return_type = "ReportType")]
pub fn report_type_for_pages(pages: f64) -> Result<JsValue, JsError> {
    to_js(&report::ReportType::for_pages(to_u32(pages, "pages")?))
}

/// Whether a report type carries the professional sections.
#[wasm_bindgen(js_name = isProfessional)]
pub fn is_professional(
    #[wasm_bindgen(unchecked_param_type = "ReportType")] report_type: JsValue,
) -> Result<bool, JsError> {
    Ok(from_js::<report::ReportType>(report_type)?.is_professional())
}

/// The watermark of a report type, or null for a white-label report.
#[wasm_bindgen(unchecked_return_type = "string | null")]
pub fn watermark(
    #[wasm_bindgen(unchecked_param_type = "ReportType")] report_type: JsValue,
) -> Result<JsValue, JsError> {
    to_js(&from_js::<report::ReportType>(report_type)?.watermark())
}

/// The PDF footer of a report of this type for `url`, with the watermark when it carries one.
#[wasm_bindgen(js_name = reportFooter)]
pub fn report_footer(
    #[wasm_bindgen(unchecked_param_type = "ReportType")] report_type: JsValue,
    url: &str,
) -> Result<String, JsError> {
    Ok(from_js::<report::ReportType>(report_type)?.footer(url))
}

/// Plan recommendation.
#[wasm_bindgen(js_name = recommendPlan, unchecked_return_type = "PlanChoice")]
pub fn recommend_plan(credits: f64, team: f64) -> Result<JsValue, JsError> {
    to_js(&commerce::recommend_plan(credits, to_u32(team, "team")?))
}

/// Pack recommendation: a package id.
#[wasm_bindgen(js_name = recommendPack)]
pub fn recommend_pack(credits: f64) -> String {
    commerce::recommend_pack(credits)
}

/// The sample report's notice (after its "Sample report." heading).
#[wasm_bindgen(js_name = sampleReportNotice)]
pub fn sample_report_notice() -> String {
    domain::tier::SAMPLE_NOTICE.to_owned()
}

/// Checkout path for a package id.
#[wasm_bindgen(js_name = packageCheckoutPath)]
pub fn package_checkout_path(package_id: &str) -> String {
    commerce::package_checkout_path(package_id)
}

/// Checkout path for a custom number of credits.
#[wasm_bindgen(js_name = creditsCheckoutPath)]
pub fn credits_checkout_path(credits: f64) -> Result<String, JsError> {
    Ok(commerce::credits_checkout_path(to_u32(credits, "credits")?))
}

// --- checkout ----------------------------------------------------------------------------

/// What a checkout address buys and costs; throws the message to show when it cannot be sold.
#[wasm_bindgen(js_name = resolveCheckout, unchecked_return_type = "CheckoutItem")]
pub fn resolve_checkout(
    #[wasm_bindgen(unchecked_param_type = "CheckoutQuery")] query: JsValue,
) -> Result<JsValue, JsError> {
    to_js(&checkout::resolve_checkout(&from_js(query)?).map_err(fail)?)
}

/// The query of a mailed upgrade link once the server named its site; throws the message to
/// show when the link's package is not an upgrade.
#[wasm_bindgen(js_name = withUpgradeSite, unchecked_return_type = "CheckoutQuery")]
pub fn with_upgrade_site(
    #[wasm_bindgen(unchecked_param_type = "CheckoutQuery")] query: JsValue,
    site: &str,
) -> Result<JsValue, JsError> {
    to_js(&checkout::with_upgrade_site(&from_js(query)?, site).map_err(fail)?)
}

/// What a plan costs per period with extra seats, cents; null when it cannot be bought so.
#[wasm_bindgen(js_name = planChargeCents, unchecked_return_type = "number | null")]
pub fn plan_charge_cents(
    plan: &str,
    #[wasm_bindgen(unchecked_param_type = "BillingInterval")] interval: JsValue,
    extra_seats: f64,
) -> Result<JsValue, JsError> {
    to_js(&checkout::plan_charge_cents(
        plan,
        from_js(interval)?,
        to_u32(extra_seats, "extra seats")?,
    ))
}

/// Checkout address of a plan with its interval and extra seats.
#[wasm_bindgen(js_name = planCheckoutPath)]
pub fn plan_checkout_path(
    plan_id: &str,
    #[wasm_bindgen(unchecked_param_type = "BillingInterval")] interval: JsValue,
    extra_seats: f64,
) -> Result<String, JsError> {
    Ok(checkout::plan_checkout_path(
        plan_id,
        from_js(interval)?,
        to_u32(extra_seats, "extra seats")?,
    ))
}

/// The alert shown when a checkout of this kind cannot start or is declined.
#[wasm_bindgen(js_name = checkoutFailureMessage)]
pub fn checkout_failure_message(
    #[wasm_bindgen(unchecked_param_type = "CheckoutKind")] kind: JsValue,
) -> Result<String, JsError> {
    Ok(checkout::failure_message(from_js(kind)?).to_owned())
}

/// The label the header of every checkout page shows for a payment mode.
#[wasm_bindgen(js_name = paymentModeLabel)]
pub fn payment_mode_label(
    #[wasm_bindgen(unchecked_param_type = "PaymentMode")] mode: JsValue,
) -> Result<String, JsError> {
    Ok(from_js::<checkout::PaymentMode>(mode)?.label().to_owned())
}

/// The toast title once a purchase is granted.
#[wasm_bindgen(js_name = purchaseCompleteTitle)]
pub fn purchase_complete_title() -> String {
    checkout::PURCHASE_COMPLETE_TITLE.to_owned()
}

/// The new state of a subscription after `action`; throws the message when it does not apply.
#[wasm_bindgen(js_name = checkPlanAction, unchecked_return_type = "SubscriptionStatus")]
pub fn check_plan_action(
    #[wasm_bindgen(unchecked_param_type = "SubscriptionStatus")] status: JsValue,
    #[wasm_bindgen(unchecked_param_type = "PlanAction")] action: JsValue,
) -> Result<JsValue, JsError> {
    to_js(&checkout::check_plan_action(from_js(status)?, from_js(action)?).map_err(fail)?)
}

/// Trial state of a visitor.
#[wasm_bindgen(js_name = trialState, unchecked_return_type = "TrialState")]
pub fn trial_state(signed_in: bool, has_used_trial: bool) -> Result<JsValue, JsError> {
    to_js(&commerce::trial_state(signed_in, has_used_trial))
}

/// Trial button label and destination.
#[wasm_bindgen(js_name = trialButton, unchecked_return_type = "TrialButton")]
pub fn trial_button(
    #[wasm_bindgen(unchecked_param_type = "TrialState")] state: JsValue,
) -> Result<JsValue, JsError> {
    to_js(&commerce::trial_button(from_js(state)?))
}

/// When a trial credit expires, ms since the epoch.
#[wasm_bindgen(js_name = trialExpiresAt)]
pub fn trial_expires_at(granted_at_ms: f64) -> f64 {
    commerce::trial_expires_at(granted_at_ms)
}

/// Whether a trial credit is still valid.
#[wasm_bindgen(js_name = trialCreditValid)]
pub fn trial_credit_valid(granted_at_ms: f64, now_ms: f64) -> bool {
    commerce::trial_credit_valid(granted_at_ms, now_ms)
}

/// The UTC day of a timestamp, `YYYY-MM-DD`.
#[wasm_bindgen(js_name = utcDay)]
pub fn utc_day(ms: f64) -> String {
    commerce::utc_day(ms)
}

/// Free analyses left today.
#[wasm_bindgen(js_name = freeAnalysesRemaining)]
pub fn free_analyses_remaining(used_today: f64) -> Result<u32, JsError> {
    Ok(commerce::free_analyses_remaining(to_u32(
        used_today,
        "usedToday",
    )?))
}

// --- constants ---------------------------------------------------------------------------

/// The six analysis steps.
#[wasm_bindgen(unchecked_return_type = "Step[]")]
pub fn steps() -> Result<JsValue, JsError> {
    to_js(&constants::steps())
}

/// The step a progress percentage is in, or null before the first.
#[wasm_bindgen(js_name = stepForProgress, unchecked_return_type = "Step | null")]
pub fn step_for_progress(progress: f64) -> Result<JsValue, JsError> {
    to_js(&constants::step_for_progress(to_u32(
        progress.floor().max(0.0),
        "progress",
    )?))
}

/// Every timer and retry count.
#[wasm_bindgen(unchecked_return_type = "Timings")]
pub fn timings() -> Result<JsValue, JsError> {
    to_js(&constants::timings())
}

/// Delay before progress reconnect `attempt` (1-based), ms.
#[wasm_bindgen(js_name = reconnectDelayMs)]
pub fn reconnect_delay_ms(attempt: f64) -> Result<u32, JsError> {
    Ok(constants::reconnect_delay_ms(to_u32(attempt, "attempt")?))
}

/// Fixed values (screenshot sizes, annotation colours, storage keys).
#[wasm_bindgen(unchecked_return_type = "Limits")]
pub fn limits() -> Result<JsValue, JsError> {
    to_js(&constants::limits())
}

/// Texts and numbers of the spec that screens show.
#[wasm_bindgen(js_name = productConstants, unchecked_return_type = "ProductConstants")]
pub fn product_constants() -> Result<JsValue, JsError> {
    to_js(&constants::product_constants())
}

// --- free tools ----------------------------------------------------------------------------

/// The length rule of a search snippet's `field` (`title` or `description`) for `text`.
#[wasm_bindgen(js_name = snippetLength, unchecked_return_type = "LengthCheck")]
pub fn snippet_length(
    #[wasm_bindgen(unchecked_param_type = "SnippetField")] field: JsValue,
    text: &str,
) -> Result<JsValue, JsError> {
    to_js(&snippet::length_check(from_js(field)?, text))
}

/// The robots.txt tester: may the crawler `token` fetch `path` under the file `text`?
#[wasm_bindgen(js_name = checkRobots, unchecked_return_type = "RobotsVerdict")]
pub fn check_robots(text: &str, token: &str, path: &str) -> Result<JsValue, JsError> {
    to_js(&robots::check(text, token, path))
}

// --- accounts ----------------------------------------------------------------------------

/// Sign-in form errors.
#[wasm_bindgen(js_name = validateSignIn, unchecked_return_type = "FieldError[]")]
pub fn validate_sign_in(
    #[wasm_bindgen(unchecked_param_type = "SignInForm")] form: JsValue,
) -> Result<JsValue, JsError> {
    to_js(&accounts::validate_sign_in(&from_js(form)?))
}

/// Errors of a new password (the field named `field`) for an account's address and user name.
#[wasm_bindgen(js_name = validateNewPassword, unchecked_return_type = "FieldError[]")]
pub fn validate_new_password(
    field: &str,
    password: &str,
    email: &str,
    username: &str,
) -> Result<JsValue, JsError> {
    to_js(&accounts::validate_new_password(
        field, password, email, username,
    ))
}

/// Change-password form errors.
#[wasm_bindgen(js_name = validatePasswordChange, unchecked_return_type = "FieldError[]")]
pub fn validate_password_change(
    #[wasm_bindgen(unchecked_param_type = "PasswordChange")] form: JsValue,
    email: &str,
    username: &str,
) -> Result<JsValue, JsError> {
    to_js(&accounts::validate_password_change(
        &from_js(form)?,
        email,
        username,
    ))
}

/// Change-e-mail form errors.
#[wasm_bindgen(js_name = validateEmailChange, unchecked_return_type = "FieldError[]")]
pub fn validate_email_change(
    #[wasm_bindgen(unchecked_param_type = "EmailChange")] form: JsValue,
) -> Result<JsValue, JsError> {
    to_js(&accounts::validate_email_change(&from_js(form)?))
}

/// Where to go after signing in: a path on `own_origin`, or `/dashboard`.
#[wasm_bindgen(js_name = safeReturnPath)]
pub fn safe_return_path(raw: &str, own_origin: &str) -> String {
    accounts::safe_return_path(raw, own_origin)
}

/// Seats of a plan, the owner included; null is unlimited.
#[wasm_bindgen(js_name = seatsForPlan, unchecked_return_type = "number | null")]
pub fn seats_for_plan(plan: &str) -> Result<JsValue, JsError> {
    to_js(&accounts::seats_for_plan(plan))
}

/// Null when one more person may be invited, else the message to show.
#[wasm_bindgen(js_name = checkInvite, unchecked_return_type = "string | null")]
pub fn check_invite(plan: &str, taken: f64) -> Result<JsValue, JsError> {
    to_js(&accounts::check_invite(plan, to_u32(taken, "taken")?).err())
}

/// Null when the trial may start, else the message to show.
#[wasm_bindgen(js_name = checkTrialStart, unchecked_return_type = "string | null")]
pub fn check_trial_start(has_used_trial: bool) -> Result<JsValue, JsError> {
    to_js(&accounts::check_trial_start(has_used_trial).err())
}

/// The alert shown once the trial is active.
#[wasm_bindgen(js_name = trialStartedMessage)]
pub fn trial_started_message() -> String {
    accounts::TRIAL_STARTED_MESSAGE.to_owned()
}

/// The permission names a team role grants.
#[wasm_bindgen(js_name = rolePermissions, unchecked_return_type = "string[]")]
pub fn role_permissions(
    #[wasm_bindgen(unchecked_param_type = "TeamRole")] role: JsValue,
) -> Result<JsValue, JsError> {
    to_js(&from_js::<accounts::TeamRole>(role)?.permissions())
}

/// Null when `name` is a valid API key name, else the message to show.
#[wasm_bindgen(js_name = validateKeyName, unchecked_return_type = "string | null")]
pub fn validate_key_name(name: &str) -> Result<JsValue, JsError> {
    to_js(&domain::api::validate_key_name(name).err())
}

/// Requests per minute an API key may make unless the account's limit was changed.
#[wasm_bindgen(js_name = apiRateLimitPerMinute)]
pub fn api_rate_limit_per_minute() -> u32 {
    domain::api::DEFAULT_RATE_LIMIT_PER_MINUTE
}

// --- white-label -------------------------------------------------------------------------

/// Branding settings errors, in form order (docs/PRODUCT.md §3.3).
#[wasm_bindgen(js_name = validateBranding, unchecked_return_type = "FieldError[]")]
pub fn validate_branding(
    #[wasm_bindgen(unchecked_param_type = "BrandingInput")] input: JsValue,
) -> Result<JsValue, JsError> {
    to_js(
        &domain::whitelabel::validate_branding(&from_js(input)?)
            .err()
            .unwrap_or_default(),
    )
}

/// The branding settings' rules: fonts, defaults, the logo's types, size and box, who may brand.
#[wasm_bindgen(js_name = brandingRules, unchecked_return_type = "BrandingRules")]
pub fn branding_rules() -> Result<JsValue, JsError> {
    to_js(&domain::whitelabel::branding_rules())
}

/// Null when a logo file of this type and size in bytes may be uploaded, else the message.
#[wasm_bindgen(js_name = checkLogoUpload, unchecked_return_type = "string | null")]
pub fn check_logo_upload(media_type: &str, size: f64) -> Result<JsValue, JsError> {
    if !size.is_finite() || size < 0.0 {
        return Err(JsError::new("size must be a number of bytes from 0"));
    }
    // A float-to-integer cast saturates, so a size beyond usize stays too large.
    to_js(&domain::whitelabel::check_logo_upload(media_type, size as usize).err())
}

/// A brand's contact line (e-mail · phone · website, those that are set), or null.
#[wasm_bindgen(js_name = brandContactLine, unchecked_return_type = "string | null")]
pub fn brand_contact_line(
    #[wasm_bindgen(unchecked_param_type = "Branding")] branding: JsValue,
) -> Result<JsValue, JsError> {
    to_js(&from_js::<domain::whitelabel::Branding>(branding)?.contact_line())
}
