//! The HTTP routes, one module per resource; each exposes `router()` with thin handlers that
//! extract, call a service and shape the answer. `crate::app` merges them.
//!
//! API routers use paths relative to `/api`, where `app` nests them.

pub mod accounts;
pub mod admin;
pub mod admin_affiliates;
pub mod admin_jobs;
pub mod admin_messages;
pub mod admin_overview;
pub mod admin_purchases;
pub mod admin_users;
pub mod affiliates;
pub mod analyses;
pub mod api_keys;
pub mod api_v1;
pub mod billing;
pub mod callback_secret;
pub mod contact;
pub mod custom_domains;
pub mod dashboard;
pub mod demo;
pub mod files;
pub mod health;
pub mod oidc;
pub mod openapi;
pub mod pages;
pub mod progress;
pub mod reports;
pub mod results;
pub mod stats;
pub mod status;
pub mod teams;
pub mod trial;
pub mod webhooks;
pub mod whitelabel;
pub mod widget;

use uuid::Uuid;

use crate::error::{AppError, AppResult};

/// An id from a path: anything that is not a UUID names nothing we have.
fn parse_id(raw: &str, what: &str) -> AppResult<Uuid> {
    Uuid::parse_str(raw.trim()).map_err(|_| AppError::NotFound(format!("{what} not found")))
}

/// A row id from a path: anything that is not a number names nothing, answered with `missing`.
fn parse_row_id(raw: &str, missing: &str) -> AppResult<i64> {
    raw.trim()
        .parse()
        .map_err(|_| AppError::NotFound(missing.to_owned()))
}
