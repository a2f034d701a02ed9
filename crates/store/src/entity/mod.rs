//! sea-orm entities, one module per table. Columns are the fields of docs/PRODUCT.md §3 in
//! snake_case.

pub mod affiliate_clicks;
pub mod affiliate_conversions;
pub mod affiliate_payouts;
pub mod affiliates;
pub mod analysis_jobs;
pub mod analysis_results;
pub mod api_keys;
pub mod api_rate_windows;
pub mod api_usage;
pub mod checkout_sessions;
pub mod contact_messages;
pub mod counters;
pub mod crawled_pages;
pub mod credit_ledger;
pub mod credit_purchases;
pub mod email_outbox;
pub mod email_reports;
pub mod health_samples;
pub mod ip_analysis_tracking;
pub mod ip_daily_usage;
pub mod one_time_tokens;
pub mod page_links;
pub mod refunds;
pub mod sessions;
pub mod sign_in_failures;
pub mod subscriptions;
pub mod team_invitations;
pub mod team_members;
pub mod users;
pub mod webhook_events;
pub mod websites;
pub mod whitelabel_branding;
pub mod worker_heartbeats;
