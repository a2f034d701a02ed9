//! The Sitelens schema as sea-orm migrations.
//!
//! Every migration is written with sea-query's schema builder only, so the same files create
//! the same tables on SQLite (the single-binary default) and on PostgreSQL (the scale-out
//! setup); see docs/ARCHITECTURE.md §6. Field names follow docs/PRODUCT.md §3 in
//! snake_case. One migration is one change: never edit a migration that has been released,
//! add a new one instead.

pub use sea_orm_migration::prelude::*;

mod m20261122_000001_accounts;
mod m20261122_000002_websites_and_results;
mod m20261122_000003_analysis_jobs;
mod m20261122_000004_credits_and_allowance;
mod m20261122_000005_affiliates;
mod m20261122_000006_mail_and_contact;
mod m20261122_000007_link_graph;
mod m20261122_000008_counters;
mod m20261122_000009_one_time_tokens;
mod m20261122_000010_webhook_events;
mod m20261122_000011_result_pages;
mod m20261125_000012_account_security;
mod m20261125_000013_billing;
mod m20261125_000014_half_credits;
mod m20261125_000015_unique_usernames;
mod m20261128_000016_upgrade_analysis;
mod m20261128_000017_plan_charge;
mod m20261128_000018_refunds_by_payment;
mod m20261128_000019_api_keys;
mod m20261128_000020_api_callbacks;
mod m20261128_000021_health_samples;
mod m20261128_000022_api_retention;
mod m20261129_000023_admin_audit;
mod m20261129_000024_disabled_users;
mod m20261129_000025_affiliate_tracking;
mod m20261129_000026_sales_contact;
mod m20261129_000027_mail_attachments;
mod m20261129_000028_widget;
mod m20261129_000029_custom_domains;
mod m20261129_000030_payment_links;
mod util;

/// Runs the Sitelens migrations in order.
pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![
            Box::new(m20261122_000001_accounts::Migration),
            Box::new(m20261122_000002_websites_and_results::Migration),
            Box::new(m20261122_000003_analysis_jobs::Migration),
            Box::new(m20261122_000004_credits_and_allowance::Migration),
            Box::new(m20261122_000005_affiliates::Migration),
            Box::new(m20261122_000006_mail_and_contact::Migration),
            Box::new(m20261122_000007_link_graph::Migration),
            Box::new(m20261122_000008_counters::Migration),
            Box::new(m20261122_000009_one_time_tokens::Migration),
            Box::new(m20261122_000010_webhook_events::Migration),
            Box::new(m20261122_000011_result_pages::Migration),
            Box::new(m20261125_000012_account_security::Migration),
            Box::new(m20261125_000013_billing::Migration),
            Box::new(m20261125_000014_half_credits::Migration),
            Box::new(m20261125_000015_unique_usernames::Migration),
            Box::new(m20261128_000016_upgrade_analysis::Migration),
            Box::new(m20261128_000017_plan_charge::Migration),
            Box::new(m20261128_000018_refunds_by_payment::Migration),
            Box::new(m20261128_000019_api_keys::Migration),
            Box::new(m20261128_000020_api_callbacks::Migration),
            Box::new(m20261128_000021_health_samples::Migration),
            Box::new(m20261128_000022_api_retention::Migration),
            Box::new(m20261129_000023_admin_audit::Migration),
            Box::new(m20261129_000024_disabled_users::Migration),
            Box::new(m20261129_000025_affiliate_tracking::Migration),
            Box::new(m20261129_000026_sales_contact::Migration),
            Box::new(m20261129_000027_mail_attachments::Migration),
            Box::new(m20261129_000028_widget::Migration),
            Box::new(m20261129_000029_custom_domains::Migration),
            Box::new(m20261129_000030_payment_links::Migration),
        ]
    }
}
