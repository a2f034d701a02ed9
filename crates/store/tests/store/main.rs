//! Integration tests of the store. Every test runs on SQLite (a fresh file) and on PostgreSQL
//! (a fresh database, dropped afterwards); see `support`.

mod support;

mod accounts;
mod admin;
mod affiliates;
mod allowance;
mod api_keys;
mod branding;
mod callbacks;
mod credits;
mod custom_domains;
mod extras;
mod graph;
mod jobs;
mod report_rows;
mod schema;
mod teams;
mod websites;
mod widget;
