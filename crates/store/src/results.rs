//! Finished reports (docs/PRODUCT.md §3.2, analysis_results). Ids are random UUIDs, so a share
//! link cannot be guessed from another one.
//!
//! The row keeps the spec's columns plus `pages_analyzed`; [`NewResult::from_report`] and
//! [`get_report`] convert between it and the report contract ([`AnalysisReport`]).

use domain::report::{AnalysisReport, ProfessionalAnalysis, ReportType, Scores, Screenshots};
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter,
    QueryOrder, QuerySelect,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value as Json, json};
use uuid::Uuid;

use crate::clock::now;
use crate::entity::analysis_results;
use crate::jobs::parse_tier;
use crate::{StoreError, StoreResult};

/// The public path blobs (screenshots) are served under; a row stores the key after it, a
/// report carries the whole path.
pub const BLOB_PREFIX: &str = "/files/";

/// The public path of a stored blob.
pub fn blob_url(key: &str) -> String {
    format!("{BLOB_PREFIX}{key}")
}

/// The blob key of a public blob path, if it is one.
pub fn blob_key(url: &str) -> Option<String> {
    url.strip_prefix(BLOB_PREFIX).map(str::to_owned)
}

/// A report to store. The website, URL and tier come from the job it completes.
#[derive(Clone, Debug, PartialEq)]
pub struct NewResult {
    /// SEO score, 0-100.
    pub seo_score: i32,
    /// Design and UX score, 0-100.
    pub design_score: i32,
    /// Technical score, 0-100.
    pub technical_score: i32,
    /// Performance score, 0-100.
    pub performance_score: i32,
    /// Overall score, 0-100.
    pub overall_score: i32,
    /// SEO section items (JSON list).
    pub seo_findings: Json,
    /// Design section items (JSON list).
    pub design_findings: Json,
    /// Technical section items (JSON list).
    pub technical_findings: Json,
    /// Performance section items (JSON list).
    pub performance_findings: Json,
    /// The action plan (JSON list).
    pub action_items: Json,
    /// Domain authority, professional reports only.
    pub domain_authority: Option<i32>,
    /// Content quality score, professional reports only.
    pub content_quality: Option<i32>,
    /// Backlink analysis.
    pub backlink_analysis: Option<Json>,
    /// Internal link analysis.
    pub internal_link_analysis: Option<Json>,
    /// Content quality assessment.
    pub content_quality_assessment: Option<Json>,
    /// Meta tag suggestions.
    pub meta_tag_suggestions: Option<Json>,
    /// Header structure suggestions.
    pub header_suggestions: Option<Json>,
    /// robots.txt analysis.
    pub robots_analysis: Option<Json>,
    /// sitemap.xml analysis.
    pub sitemap_analysis: Option<Json>,
    /// Performance metrics and diagnostics as the results screen reads them.
    pub performance_analysis: Option<Json>,
    /// Colours found on the site (JSON list of strings).
    pub website_colors: Option<Json>,
    /// Font families found on the site (JSON list of strings).
    pub website_fonts: Option<Json>,
    /// Blob key of the desktop screenshot.
    pub screenshot_desktop: Option<String>,
    /// Blob key of the mobile screenshot.
    pub screenshot_mobile: Option<String>,
    /// Whether the report carries an agency's branding.
    pub is_white_labeled: bool,
    /// The agency whose branding it carries.
    pub whitelabel_user_id: Option<i64>,
    /// Pages the report rests on.
    pub pages_analyzed: i32,
    /// Whether credits were spent on it (set by [`crate::jobs::complete_job`] from the job).
    pub paid: bool,
}

impl Default for NewResult {
    /// Zero scores and empty finding lists.
    fn default() -> Self {
        NewResult {
            seo_score: 0,
            design_score: 0,
            technical_score: 0,
            performance_score: 0,
            overall_score: 0,
            seo_findings: json!([]),
            design_findings: json!([]),
            technical_findings: json!([]),
            performance_findings: json!([]),
            action_items: json!([]),
            domain_authority: None,
            content_quality: None,
            backlink_analysis: None,
            internal_link_analysis: None,
            content_quality_assessment: None,
            meta_tag_suggestions: None,
            header_suggestions: None,
            robots_analysis: None,
            sitemap_analysis: None,
            performance_analysis: None,
            website_colors: None,
            website_fonts: None,
            screenshot_desktop: None,
            screenshot_mobile: None,
            is_white_labeled: false,
            whitelabel_user_id: None,
            pages_analyzed: 1,
            paid: false,
        }
    }
}

fn score(v: u32) -> i32 {
    i32::try_from(v.min(100)).unwrap_or(100)
}

fn unsigned(v: i32) -> u32 {
    u32::try_from(v).unwrap_or(0)
}

fn to_json<T: Serialize>(what: &str, value: &T) -> StoreResult<Json> {
    serde_json::to_value(value).map_err(|e| StoreError::Data {
        what: format!("the report's {what} could not be stored"),
        source: Some(e),
    })
}

fn from_json<T: DeserializeOwned>(column: &str, value: Json) -> StoreResult<T> {
    serde_json::from_value(value).map_err(|e| StoreError::Data {
        what: format!("stored column {column} is unreadable"),
        source: Some(e),
    })
}

/// A professional section's column: its default (empty) value when the column is NULL or JSON null.
fn section<T: DeserializeOwned + Default>(column: &str, value: Option<Json>) -> StoreResult<T> {
    match value {
        None | Some(Json::Null) => Ok(T::default()),
        Some(value) => from_json(column, value),
    }
}

impl NewResult {
    /// A finished report as a row to insert; screenshot paths are stored as blob keys.
    pub fn from_report(report: &AnalysisReport) -> StoreResult<NewResult> {
        let pro = report.professional.as_ref();
        Ok(NewResult {
            seo_score: score(report.scores.seo),
            design_score: score(report.scores.design),
            technical_score: score(report.scores.technical),
            performance_score: score(report.scores.performance),
            overall_score: score(report.scores.overall),
            seo_findings: to_json("SEO section", &report.seo_analysis)?,
            design_findings: to_json("design section", &report.design_analysis)?,
            technical_findings: to_json("technical section", &report.technical_analysis)?,
            performance_findings: to_json(
                "performance diagnostics",
                &report.performance_analysis.diagnostics,
            )?,
            action_items: to_json("action plan", &report.action_items)?,
            domain_authority: pro.and_then(|p| p.domain_authority).map(score),
            content_quality: pro.and_then(|p| p.content_quality).map(score),
            backlink_analysis: pro
                .map(|p| to_json("backlink analysis", &p.backlink_analysis))
                .transpose()?,
            internal_link_analysis: pro
                .map(|p| to_json("internal link analysis", &p.internal_link_analysis))
                .transpose()?,
            content_quality_assessment: pro
                .map(|p| to_json("content quality assessment", &p.content_quality_assessment))
                .transpose()?,
            meta_tag_suggestions: pro
                .map(|p| to_json("meta tag suggestions", &p.meta_tag_suggestions))
                .transpose()?,
            header_suggestions: pro
                .map(|p| to_json("header suggestions", &p.header_suggestions))
                .transpose()?,
            robots_analysis: pro
                .map(|p| to_json("robots.txt analysis", &p.robots_analysis))
                .transpose()?,
            sitemap_analysis: pro
                .map(|p| to_json("sitemap analysis", &p.sitemap_analysis))
                .transpose()?,
            performance_analysis: Some(to_json(
                "performance analysis",
                &report.performance_analysis,
            )?),
            website_colors: Some(to_json("colours", &report.website_colors)?),
            website_fonts: Some(to_json("fonts", &report.website_fonts)?),
            screenshot_desktop: report.screenshots.desktop.as_deref().and_then(blob_key),
            screenshot_mobile: report.screenshots.mobile.as_deref().and_then(blob_key),
            is_white_labeled: false,
            whitelabel_user_id: None,
            pages_analyzed: i32::try_from(report.pages_analyzed).unwrap_or(i32::MAX),
            paid: report.paid,
        })
    }
}

/// A stored row as the report the results screen reads.
pub fn report_from_row(row: analysis_results::Model) -> StoreResult<AnalysisReport> {
    let report_type = parse_tier(&row.tier)?;
    // A row holds the professional sections when its backlink column is set (to the figures, a
    // failure, or JSON null for a report built without a link graph). The other sections are
    // written with it; one missing from an older row reads as an empty section.
    let professional = match row.backlink_analysis {
        Some(backlinks) => Some(ProfessionalAnalysis {
            domain_authority: row.domain_authority.map(unsigned),
            content_quality: row.content_quality.map(unsigned),
            backlink_analysis: from_json("backlink_analysis", backlinks)?,
            internal_link_analysis: section("internal_link_analysis", row.internal_link_analysis)?,
            content_quality_assessment: section(
                "content_quality_assessment",
                row.content_quality_assessment,
            )?,
            meta_tag_suggestions: section("meta_tag_suggestions", row.meta_tag_suggestions)?,
            header_suggestions: section("header_suggestions", row.header_suggestions)?,
            robots_analysis: section("robots_analysis", row.robots_analysis)?,
            sitemap_analysis: section("sitemap_analysis", row.sitemap_analysis)?,
        }),
        None => None,
    };
    Ok(AnalysisReport {
        id: row.id.to_string(),
        url: row.url,
        report_type,
        paid: row.paid,
        pages_analyzed: unsigned(row.pages_analyzed).max(1),
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
        seo_analysis: from_json("seo_findings", row.seo_findings)?,
        design_analysis: from_json("design_findings", row.design_findings)?,
        technical_analysis: from_json("technical_findings", row.technical_findings)?,
        performance_analysis: from_json(
            "performance_analysis",
            row.performance_analysis.unwrap_or(Json::Null),
        )?,
        action_items: from_json("action_items", row.action_items)?,
        website_colors: from_json("website_colors", row.website_colors.unwrap_or(json!([])))?,
        website_fonts: from_json("website_fonts", row.website_fonts.unwrap_or(json!([])))?,
        screenshots: Screenshots {
            desktop: row.screenshot_desktop.as_deref().map(blob_url),
            mobile: row.screenshot_mobile.as_deref().map(blob_url),
        },
        professional,
        branding: None,
    })
}

/// Stores a report for a website and returns its new random id.
pub async fn insert_result<C: ConnectionTrait>(
    db: &C,
    website_id: i64,
    url: &str,
    report_type: ReportType,
    result: &NewResult,
) -> StoreResult<Uuid> {
    let id = Uuid::new_v4();
    let r = result.clone();
    let row = analysis_results::ActiveModel {
        id: Set(id),
        website_id: Set(website_id),
        url: Set(url.to_owned()),
        tier: Set(report_type.as_str().to_owned()),
        timestamp: Set(now()),
        seo_score: Set(r.seo_score),
        design_score: Set(r.design_score),
        technical_score: Set(r.technical_score),
        performance_score: Set(r.performance_score),
        overall_score: Set(r.overall_score),
        seo_findings: Set(r.seo_findings),
        design_findings: Set(r.design_findings),
        technical_findings: Set(r.technical_findings),
        performance_findings: Set(r.performance_findings),
        action_items: Set(r.action_items),
        domain_authority: Set(r.domain_authority),
        content_quality: Set(r.content_quality),
        backlink_analysis: Set(r.backlink_analysis),
        internal_link_analysis: Set(r.internal_link_analysis),
        content_quality_assessment: Set(r.content_quality_assessment),
        meta_tag_suggestions: Set(r.meta_tag_suggestions),
        header_suggestions: Set(r.header_suggestions),
        robots_analysis: Set(r.robots_analysis),
        sitemap_analysis: Set(r.sitemap_analysis),
        performance_analysis: Set(r.performance_analysis),
        website_colors: Set(r.website_colors),
        website_fonts: Set(r.website_fonts),
        screenshot_desktop: Set(r.screenshot_desktop),
        screenshot_mobile: Set(r.screenshot_mobile),
        is_white_labeled: Set(r.is_white_labeled),
        whitelabel_user_id: Set(r.whitelabel_user_id),
        pages_analyzed: Set(r.pages_analyzed.max(1)),
        paid: Set(r.paid),
    };
    analysis_results::Entity::insert(row)
        .exec_without_returning(db)
        .await?;
    Ok(id)
}

/// The report with this id, as the contract type.
pub async fn get_report(db: &DatabaseConnection, id: Uuid) -> StoreResult<AnalysisReport> {
    let row = get_result(db, id).await?;
    let agency = row.whitelabel_user_id.filter(|_| row.is_white_labeled);
    let mut report = report_from_row(row)?;
    if let Some(agency) = agency {
        report.branding = crate::accounts::branding_for_user(db, agency)
            .await?
            .map(|b| crate::accounts::branding_view(&b));
    }
    Ok(report)
}

/// What a page's head says about a report, read without its sections.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultSummary {
    /// The analysed address.
    pub url: String,
    /// The scores.
    pub scores: Scores,
}

/// The address and scores of the report with this id.
pub async fn get_summary(db: &DatabaseConnection, id: Uuid) -> StoreResult<ResultSummary> {
    use analysis_results::Column as C;
    let (url, overall, seo, design, technical, performance) =
        analysis_results::Entity::find_by_id(id)
            .select_only()
            .columns([
                C::Url,
                C::OverallScore,
                C::SeoScore,
                C::DesignScore,
                C::TechnicalScore,
                C::PerformanceScore,
            ])
            .into_tuple::<(String, i32, i32, i32, i32, i32)>()
            .one(db)
            .await?
            .ok_or(StoreError::NotFound)?;
    Ok(ResultSummary {
        url,
        scores: Scores {
            overall: unsigned(overall),
            seo: unsigned(seo),
            design: unsigned(design),
            technical: unsigned(technical),
            performance: unsigned(performance),
        },
    })
}

/// The stored row of the report with this id.
pub async fn get_result(db: &DatabaseConnection, id: Uuid) -> StoreResult<analysis_results::Model> {
    analysis_results::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or(StoreError::NotFound)
}

/// The newest `limit` reports of a website, newest first.
pub async fn results_for_website(
    db: &DatabaseConnection,
    website_id: i64,
    limit: u64,
) -> StoreResult<Vec<analysis_results::Model>> {
    Ok(analysis_results::Entity::find()
        .filter(analysis_results::Column::WebsiteId.eq(website_id))
        .order_by_desc(analysis_results::Column::Timestamp)
        .limit(limit)
        .all(db)
        .await?)
}
