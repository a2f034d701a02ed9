//! Sitelens business rules and the report contract.
//!
//! Everything a visitor sees computed is written here once and compiled twice: natively into
//! the server and analyzer, and to WebAssembly (through `crates/domain-wasm`) for the web app.
//! This crate does no I/O and depends on no async runtime, ORM, HTTP client or wasm crate.

pub mod accounts;
pub mod admin;
pub mod admin_area;
pub mod advice;
pub mod affiliates;
pub mod api;
pub mod bindings;
pub mod budget;
pub mod callbacks;
pub mod checkout;
pub mod commerce;
pub mod constants;
pub mod contact;
pub mod credits;
pub mod custom_domain;
pub mod entitlement;
pub mod forms;
pub mod performance;
pub mod professional;
pub mod report;
pub mod report_mail;
pub mod robots;
pub mod score;
pub mod share;
pub mod site_url;
pub mod snippet;
pub mod status;
pub mod throttling;
pub mod tier;
pub mod whitelabel;
pub mod widget;
