//! Finished reports (SPEC.md section 3, analysis_results). Ids are random UUIDs, so a share
//! link cannot be guessed from another one.

use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter,
    QueryOrder, QuerySelect,
};
use serde_json::{Value as Json, json};
use uuid::Uuid;

use crate::entity::analysis_results;
use crate::sql::now;
use crate::{StoreError, StoreResult};

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
        }
    }
}

/// Stores a report for a website and returns its new random id.
pub async fn insert_result<C: ConnectionTrait>(
    db: &C,
    website_id: i64,
    url: &str,
    tier: &str,
    result: &NewResult,
) -> StoreResult<Uuid> {
    let id = Uuid::new_v4();
    let r = result.clone();
    let row = analysis_results::ActiveModel {
        id: Set(id),
        website_id: Set(website_id),
        url: Set(url.to_owned()),
        tier: Set(tier.to_owned()),
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
    };
    analysis_results::Entity::insert(row)
        .exec_without_returning(db)
        .await?;
    Ok(id)
}

/// The report with this id.
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
