//! Accounts: users (docs/PRODUCT.md §3.4), their server-side sessions, team members, white-label
//! branding and API usage.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::util::{c, create_all, drop_all, fk, index, now_column};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let users = Table::create()
            .table(c("users"))
            .col(big_pk_auto(c("id")))
            // The subject of a linked external identity provider, when there is one.
            .col(string_null(c("clerk_id")).unique_key())
            .col(string_null(c("first_name")))
            .col(string_null(c("last_name")))
            .col(string(c("email")).unique_key())
            .col(string_null(c("image_url")))
            .col(string_null(c("username")))
            // An Argon2id PHC string; never the password itself.
            .col(string_null(c("password_hash")))
            .col(
                integer(c("report_credits"))
                    .default(0)
                    .check(Expr::col(c("report_credits")).gte(0)),
            )
            // The trial credit is kept apart from paid credits because it expires.
            .col(
                integer(c("trial_credits"))
                    .default(0)
                    .check(Expr::col(c("trial_credits")).gte(0)),
            )
            .col(timestamp_with_time_zone_null(c("trial_expires_at")))
            .col(boolean(c("free_report_used")).default(false))
            .col(boolean(c("has_used_trial")).default(false))
            .col(string(c("subscription_plan")).default("basic"))
            .col(string(c("subscription_status")).default("active"))
            .col(integer(c("monthly_report_allowance")).default(0))
            .col(integer(c("monthly_reports_used")).default(0))
            .col(timestamp_with_time_zone_null(c("subscription_renews_at")))
            .col(timestamp_with_time_zone_null(c("subscription_paused_at")))
            .col(boolean(c("is_admin")).default(false))
            .col(string(c("admin_level")).default("user"))
            // A hash of the API key, so a leaked database does not leak usable keys.
            .col(string_null(c("api_key_hash")).unique_key())
            .col(big_integer(c("api_calls")).default(0))
            .col(integer(c("api_rate_limit")).default(100))
            .col(string_null(c("team_name")))
            .col(integer(c("max_team_members")).default(1))
            .col(string_null(c("stripe_customer_id")))
            .col(string_null(c("stripe_subscription_id")))
            .col(boolean(c("has_white_label")).default(false))
            .col(string_null(c("whitelabel_plan")))
            .col(integer(c("whitelabel_usage")).default(0))
            .col(integer_null(c("whitelabel_limit")))
            .col(now_column("created_at"))
            .col(now_column("updated_at"))
            .take();

        let sessions = Table::create()
            .table(c("sessions"))
            // The SHA-256 of the session token: the cookie value itself is never stored.
            .col(string(c("id")).primary_key())
            .col(big_integer(c("user_id")))
            .col(string(c("csrf_token")))
            .col(now_column("created_at"))
            .col(timestamp_with_time_zone(c("expires_at")))
            .col(now_column("last_seen_at"))
            .foreign_key(&mut fk(
                c("sessions"),
                c("user_id"),
                c("users"),
                ForeignKeyAction::Cascade,
            ))
            .take();

        let team_members = Table::create()
            .table(c("team_members"))
            .col(big_pk_auto(c("id")))
            .col(big_integer(c("team_owner_id")))
            .col(big_integer(c("member_id")))
            .col(string(c("role")).default("member"))
            // A JSON array of permission names (PostgreSQL arrays do not exist on SQLite).
            .col(json(c("permissions")))
            .col(now_column("invited_at"))
            .col(timestamp_with_time_zone_null(c("joined_at")))
            .col(string(c("status")).default("pending"))
            .foreign_key(&mut fk(
                c("team_members"),
                c("team_owner_id"),
                c("users"),
                ForeignKeyAction::Cascade,
            ))
            .foreign_key(&mut fk(
                c("team_members"),
                c("member_id"),
                c("users"),
                ForeignKeyAction::Cascade,
            ))
            .take();

        let branding = Table::create()
            .table(c("whitelabel_branding"))
            .col(big_pk_auto(c("id")))
            .col(big_integer(c("user_id")).unique_key())
            .col(string(c("company_name")))
            .col(string_null(c("logo_url")))
            .col(string(c("primary_color")).default("#4F46E5"))
            .col(string(c("secondary_color")).default("#10B981"))
            .col(string(c("font_family")).default("Inter, sans-serif"))
            .col(string_null(c("contact_email")))
            .col(string_null(c("contact_phone")))
            .col(string_null(c("website_url")))
            .col(text_null(c("embed_code")))
            .col(string_null(c("custom_domain")).unique_key())
            .col(now_column("created_at"))
            .col(now_column("updated_at"))
            .foreign_key(&mut fk(
                c("whitelabel_branding"),
                c("user_id"),
                c("users"),
                ForeignKeyAction::Cascade,
            ))
            .take();

        let api_usage = Table::create()
            .table(c("api_usage"))
            .col(big_pk_auto(c("id")))
            .col(big_integer(c("user_id")))
            .col(string(c("endpoint")))
            .col(string(c("method")))
            .col(integer(c("response_time_ms")))
            .col(integer(c("status_code")))
            .col(now_column("timestamp"))
            .foreign_key(&mut fk(
                c("api_usage"),
                c("user_id"),
                c("users"),
                ForeignKeyAction::Cascade,
            ))
            .take();

        create_all(
            manager,
            vec![users, sessions, team_members, branding, api_usage],
            vec![
                index(c("sessions"), "user", &["user_id"], false),
                index(c("sessions"), "expires", &["expires_at"], false),
                index(
                    c("team_members"),
                    "owner_member",
                    &["team_owner_id", "member_id"],
                    true,
                ),
                index(c("team_members"), "member", &["member_id"], false),
                index(
                    c("api_usage"),
                    "user_time",
                    &["user_id", "timestamp"],
                    false,
                ),
            ],
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_all(
            manager,
            &[
                "api_usage",
                "whitelabel_branding",
                "team_members",
                "sessions",
                "users",
            ],
        )
        .await
    }
}
