//! Websites and analysis results (docs/PRODUCT.md §3.1, §3.2), and the e-mailed report requests
//! that point at a result.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::util::{c, create_all, drop_all, fk, index, now_column};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let websites = Table::create()
            .table(c("websites"))
            .col(big_pk_auto(c("id")))
            // The canonical URL (normalised by the domain crate); one row per site.
            .col(string(c("url")).unique_key())
            .col(now_column("last_analyzed"))
            .col(integer(c("analysis_count")).default(1))
            .col(now_column("created_at"))
            .take();

        let results = Table::create()
            .table(c("analysis_results"))
            // Random, so a share link cannot be guessed from another one.
            .col(pk_uuid(c("id")))
            .col(big_integer(c("website_id")))
            // The address that was analysed, as the results screen shows it.
            .col(string(c("url")))
            .col(string(c("tier")).default("basic"))
            .col(now_column("timestamp"))
            .col(integer(c("seo_score")))
            .col(integer(c("design_score")))
            .col(integer(c("technical_score")))
            .col(integer(c("performance_score")))
            .col(integer(c("overall_score")))
            .col(json(c("seo_findings")))
            .col(json(c("design_findings")))
            .col(json(c("technical_findings")))
            .col(json(c("performance_findings")))
            .col(json(c("action_items")))
            .col(integer_null(c("domain_authority")))
            .col(integer_null(c("content_quality")))
            .col(json_null(c("backlink_analysis")))
            .col(json_null(c("internal_link_analysis")))
            .col(json_null(c("content_quality_assessment")))
            .col(json_null(c("meta_tag_suggestions")))
            .col(json_null(c("header_suggestions")))
            .col(json_null(c("robots_analysis")))
            .col(json_null(c("sitemap_analysis")))
            // What the results screen reads beyond the stored entity: performance metrics,
            // colours, fonts and the blob keys of the screenshots.
            .col(json_null(c("performance_analysis")))
            .col(json_null(c("website_colors")))
            .col(json_null(c("website_fonts")))
            .col(string_null(c("screenshot_desktop")))
            .col(string_null(c("screenshot_mobile")))
            .col(boolean(c("is_white_labeled")).default(false))
            .col(big_integer_null(c("whitelabel_user_id")))
            .foreign_key(&mut fk(
                c("analysis_results"),
                c("website_id"),
                c("websites"),
                ForeignKeyAction::Cascade,
            ))
            .foreign_key(&mut fk(
                c("analysis_results"),
                c("whitelabel_user_id"),
                c("users"),
                ForeignKeyAction::SetNull,
            ))
            .take();

        let email_reports = Table::create()
            .table(c("email_reports"))
            .col(big_pk_auto(c("id")))
            .col(string(c("email")))
            .col(string(c("first_name")))
            .col(string_null(c("last_name")))
            .col(string(c("website_url")))
            .col(string(c("report_type")))
            .col(uuid_null(c("analysis_result_id")))
            .col(timestamp_with_time_zone_null(c("sent_at")))
            .col(string_null(c("upgrade_token")).unique_key())
            .col(boolean(c("agree_to_emails")).default(false))
            .col(now_column("created_at"))
            .foreign_key(&mut fk(
                c("email_reports"),
                c("analysis_result_id"),
                c("analysis_results"),
                ForeignKeyAction::SetNull,
            ))
            .take();

        create_all(
            manager,
            vec![websites, results, email_reports],
            vec![
                index(
                    c("analysis_results"),
                    "website_time",
                    &["website_id", "timestamp"],
                    false,
                ),
                index(c("email_reports"), "result", &["analysis_result_id"], false),
                index(c("email_reports"), "email", &["email"], false),
            ],
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_all(manager, &["email_reports", "analysis_results", "websites"]).await
    }
}
