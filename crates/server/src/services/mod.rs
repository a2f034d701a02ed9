//! What the server does, with no HTTP types: routes call these, and so do the worker and the
//! command line. Each service returns its own error; `crate::error` says which HTTP answer each
//! one becomes.

pub mod accounts;
pub mod admin_messages;
pub mod admin_overview;
pub mod admin_records;
pub mod admin_users;
pub mod affiliates;
pub mod analyses;
pub mod api;
pub mod api_keys;
pub mod audit;
pub mod billing;
pub mod blobs;
pub mod callbacks;
pub mod contact;
pub mod content;
pub mod custom_domains;
pub mod demo;
pub mod graph;
pub mod hub;
pub mod mail;
pub mod maintenance;
pub mod oidc;
pub mod pages;
pub mod pdf;
pub mod progress;
pub mod report_page;
pub mod reports;
pub mod signature;
pub mod stats;
pub mod status;
pub mod teams;
pub mod whitelabel;
pub mod widget;
pub mod worker;
