//! The embeddable audit widget (issue 15 item 5; docs/PRODUCT.md §3.3 `embedCode`, §3.16 the lead
//! form):
//!
//! - `widget_keys`: an agency's public widget keys (`slw_…`, stored as they are: they sit in the
//!   agency's HTML), each with the origins whose pages may use it (a JSON list of
//!   `scheme://host[:port]`) and, once revoked, when.
//! - `widget_leads`: every lead a widget brought in: the visitor's first name, e-mail and site,
//!   the analysis started for it, the agency (`user_id`) and a salted hash of the visitor's
//!   address (never the address).
//! - `widget_requests`: one row per lead submission, accepted or not, for the hourly limits per
//!   key and per visitor (a sliding hour, counted in the database so every web node shares it;
//!   rows older than the hour are removed as new ones come).
//! - `analysis_jobs.whitelabel_user_id`: the agency whose brand a widget's analysis wears; the
//!   job's report is stored with `is_white_labeled` and that `whitelabel_user_id`.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::util::{add_column, c, create_all, drop_all, drop_columns, fk, index, now_column};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let keys = Table::create()
            .table(c("widget_keys"))
            .col(big_pk_auto(c("id")))
            .col(big_integer(c("user_id")))
            .col(string(c("public_key")).unique_key())
            // A JSON list of origins, each `scheme://host[:port]` as browsers send `Origin`.
            .col(text(c("allowed_origins")))
            .col(now_column("created_at"))
            .col(timestamp_with_time_zone_null(c("revoked_at")))
            .foreign_key(&mut fk(
                c("widget_keys"),
                c("user_id"),
                c("users"),
                ForeignKeyAction::Cascade,
            ))
            .take();
        let leads = Table::create()
            .table(c("widget_leads"))
            .col(big_pk_auto(c("id")))
            .col(big_integer(c("widget_key_id")))
            // The agency: the key's owner when the lead came in.
            .col(big_integer(c("user_id")))
            .col(string(c("first_name")))
            .col(string(c("email")))
            .col(text(c("website_url")))
            .col(uuid(c("analysis_id")))
            // Salted SHA-256 of the visitor's address (an IPv6 visitor's /64), hex.
            .col(string(c("visitor_hash")))
            .col(now_column("created_at"))
            .foreign_key(&mut fk(
                c("widget_leads"),
                c("widget_key_id"),
                c("widget_keys"),
                ForeignKeyAction::Cascade,
            ))
            .foreign_key(&mut fk(
                c("widget_leads"),
                c("user_id"),
                c("users"),
                ForeignKeyAction::Cascade,
            ))
            .foreign_key(&mut fk(
                c("widget_leads"),
                c("analysis_id"),
                c("analysis_jobs"),
                ForeignKeyAction::Cascade,
            ))
            .take();
        let requests = Table::create()
            .table(c("widget_requests"))
            .col(big_pk_auto(c("id")))
            .col(big_integer(c("widget_key_id")))
            .col(string(c("visitor_hash")))
            .col(now_column("created_at"))
            .foreign_key(&mut fk(
                c("widget_requests"),
                c("widget_key_id"),
                c("widget_keys"),
                ForeignKeyAction::Cascade,
            ))
            .take();
        create_all(
            manager,
            vec![keys, leads, requests],
            vec![
                index(c("widget_keys"), "user", &["user_id"], false),
                index(c("widget_leads"), "user", &["user_id", "created_at"], false),
                index(c("widget_leads"), "key", &["widget_key_id"], false),
                index(c("widget_leads"), "analysis", &["analysis_id"], false),
                index(
                    c("widget_requests"),
                    "key",
                    &["widget_key_id", "created_at"],
                    false,
                ),
                index(
                    c("widget_requests"),
                    "visitor",
                    &["widget_key_id", "visitor_hash", "created_at"],
                    false,
                ),
            ],
        )
        .await?;
        add_column(
            manager,
            "analysis_jobs",
            big_integer_null(c("whitelabel_user_id")),
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_columns(manager, &[("analysis_jobs", "whitelabel_user_id")]).await?;
        drop_all(manager, &["widget_requests", "widget_leads", "widget_keys"]).await
    }
}
