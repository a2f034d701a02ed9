//! Conversions between the report contract ([`AnalysisReport`]) and the stored result row.
//!
//! The row keeps the spec's columns (SPEC.md §3 analysis_results) plus `pages_analyzed`.

use domain::report::{AnalysisReport, ProfessionalAnalysis, ReportType, Scores, Screenshots};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use store::entity::analysis_results;
use store::results::NewResult;

use crate::error::AppError;

/// Where blobs (screenshots) are served; the stored value is the key after it.
pub const BLOB_PREFIX: &str = "/files/";

/// The public path of a stored blob (screenshots).
pub fn blob_url(key: &str) -> String {
    format!("{BLOB_PREFIX}{key}")
}

/// The blob key of a public blob path, if it is one.
pub fn blob_key(url: &str) -> Option<String> {
    url.strip_prefix(BLOB_PREFIX).map(str::to_owned)
}

fn score(v: u32) -> i32 {
    i32::try_from(v.min(100)).unwrap_or(100)
}

fn to_json<T: serde::Serialize>(v: &T) -> Result<Value, AppError> {
    serde_json::to_value(v).map_err(AppError::internal)
}

/// A finished report as a row to insert; screenshot addresses are stored as blob keys.
pub fn to_new_result(report: &AnalysisReport) -> Result<NewResult, AppError> {
    let performance = to_json(&report.performance_analysis)?;
    let pro = report.professional.as_ref();
    Ok(NewResult {
        seo_score: score(report.scores.seo),
        design_score: score(report.scores.design),
        technical_score: score(report.scores.technical),
        performance_score: score(report.scores.performance),
        overall_score: score(report.scores.overall),
        seo_findings: to_json(&report.seo_analysis)?,
        design_findings: to_json(&report.design_analysis)?,
        technical_findings: to_json(&report.technical_analysis)?,
        performance_findings: to_json(&report.performance_analysis.diagnostics)?,
        action_items: to_json(&report.action_items)?,
        domain_authority: pro.and_then(|p| p.domain_authority).map(score),
        content_quality: pro.and_then(|p| p.content_quality).map(score),
        backlink_analysis: pro.map(|p| p.backlink_analysis.clone()),
        internal_link_analysis: pro.map(|p| p.internal_link_analysis.clone()),
        content_quality_assessment: pro.map(|p| p.content_quality_assessment.clone()),
        meta_tag_suggestions: pro.map(|p| p.meta_tag_suggestions.clone()),
        header_suggestions: pro.map(|p| p.header_suggestions.clone()),
        robots_analysis: pro.map(|p| p.robots_analysis.clone()),
        sitemap_analysis: pro.map(|p| p.sitemap_analysis.clone()),
        performance_analysis: Some(performance),
        website_colors: Some(to_json(&report.website_colors)?),
        website_fonts: Some(to_json(&report.website_fonts)?),
        screenshot_desktop: report.screenshots.desktop.as_deref().and_then(blob_key),
        screenshot_mobile: report.screenshots.mobile.as_deref().and_then(blob_key),
        is_white_labeled: false,
        whitelabel_user_id: None,
        pages_analyzed: i32::try_from(report.pages_analyzed).unwrap_or(i32::MAX),
    })
}

fn parse<T: DeserializeOwned>(column: &str, v: Value) -> Result<T, AppError> {
    serde_json::from_value(v)
        .map_err(|e| AppError::internal(format!("stored column {column} is unreadable: {e}")))
}

/// The report type of a stored tier (`basic`, `standard`, `premium`).
pub fn report_type(tier: &str) -> ReportType {
    match tier {
        "standard" => ReportType::Standard,
        "premium" => ReportType::Premium,
        _ => ReportType::Basic,
    }
}

fn unsigned(v: i32) -> u32 {
    u32::try_from(v).unwrap_or(0)
}

/// A stored row as the report the results screen reads.
pub fn from_row(row: analysis_results::Model) -> Result<AnalysisReport, AppError> {
    let performance = row.performance_analysis.unwrap_or(Value::Null);
    let pages = unsigned(row.pages_analyzed).max(1);
    let professional = match row.backlink_analysis {
        Some(backlinks) => Some(ProfessionalAnalysis {
            domain_authority: row.domain_authority.map(unsigned),
            content_quality: row.content_quality.map(unsigned),
            backlink_analysis: backlinks,
            internal_link_analysis: row.internal_link_analysis.unwrap_or(Value::Null),
            content_quality_assessment: row.content_quality_assessment.unwrap_or(Value::Null),
            meta_tag_suggestions: row.meta_tag_suggestions.unwrap_or(Value::Null),
            header_suggestions: row.header_suggestions.unwrap_or(Value::Null),
            robots_analysis: row.robots_analysis.unwrap_or(Value::Null),
            sitemap_analysis: row.sitemap_analysis.unwrap_or(Value::Null),
        }),
        None => None,
    };
    Ok(AnalysisReport {
        id: row.id.to_string(),
        url: row.url,
        report_type: report_type(&row.tier),
        pages_analyzed: pages,
        created_at: row
            .timestamp
            .to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        scores: Scores {
            overall: unsigned(row.overall_score),
            seo: unsigned(row.seo_score),
            design: unsigned(row.design_score),
            technical: unsigned(row.technical_score),
            performance: unsigned(row.performance_score),
        },
        seo_analysis: parse("seo_findings", row.seo_findings)?,
        design_analysis: parse("design_findings", row.design_findings)?,
        technical_analysis: parse("technical_findings", row.technical_findings)?,
        performance_analysis: parse("performance_analysis", performance)?,
        action_items: parse("action_items", row.action_items)?,
        website_colors: parse("website_colors", row.website_colors.unwrap_or(json!([])))?,
        website_fonts: parse("website_fonts", row.website_fonts.unwrap_or(json!([])))?,
        screenshots: Screenshots {
            desktop: row.screenshot_desktop.as_deref().map(blob_url),
            mobile: row.screenshot_mobile.as_deref().map(blob_url),
        },
        professional,
    })
}
