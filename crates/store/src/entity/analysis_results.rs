//! A finished report (docs/PRODUCT.md §3.2, analysis_results).

use sea_orm::entity::prelude::*;

/// A row of `analysis_results`.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel)]
#[sea_orm(table_name = "analysis_results")]
pub struct Model {
    /// The `id` column.
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: Uuid,
    /// The `website_id` column.
    pub website_id: i64,
    /// The `url` column.
    pub url: String,
    /// The `tier` column.
    pub tier: String,
    /// The `timestamp` column.
    pub timestamp: DateTimeUtc,
    /// The `seo_score` column.
    pub seo_score: i32,
    /// The `design_score` column.
    pub design_score: i32,
    /// The `technical_score` column.
    pub technical_score: i32,
    /// The `performance_score` column.
    pub performance_score: i32,
    /// The `overall_score` column.
    pub overall_score: i32,
    /// The `seo_findings` column.
    pub seo_findings: Json,
    /// The `design_findings` column.
    pub design_findings: Json,
    /// The `technical_findings` column.
    pub technical_findings: Json,
    /// The `performance_findings` column.
    pub performance_findings: Json,
    /// The `action_items` column.
    pub action_items: Json,
    /// The `domain_authority` column.
    pub domain_authority: Option<i32>,
    /// The `content_quality` column.
    pub content_quality: Option<i32>,
    /// The `backlink_analysis` column.
    pub backlink_analysis: Option<Json>,
    /// The `internal_link_analysis` column.
    pub internal_link_analysis: Option<Json>,
    /// The `content_quality_assessment` column.
    pub content_quality_assessment: Option<Json>,
    /// The `meta_tag_suggestions` column.
    pub meta_tag_suggestions: Option<Json>,
    /// The `header_suggestions` column.
    pub header_suggestions: Option<Json>,
    /// The `robots_analysis` column.
    pub robots_analysis: Option<Json>,
    /// The `sitemap_analysis` column.
    pub sitemap_analysis: Option<Json>,
    /// The `performance_analysis` column.
    pub performance_analysis: Option<Json>,
    /// The `website_colors` column.
    pub website_colors: Option<Json>,
    /// The `website_fonts` column.
    pub website_fonts: Option<Json>,
    /// The `screenshot_desktop` column.
    pub screenshot_desktop: Option<String>,
    /// The `screenshot_mobile` column.
    pub screenshot_mobile: Option<String>,
    /// The `is_white_labeled` column.
    pub is_white_labeled: bool,
    /// The `whitelabel_user_id` column.
    pub whitelabel_user_id: Option<i64>,
    /// The `pages_analyzed` column.
    pub pages_analyzed: i32,
    /// The `paid` column: whether credits were spent on the report.
    pub paid: bool,
}

/// No relations are declared: repository functions join explicitly.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
