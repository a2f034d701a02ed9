//! Request extractors: what a handler learns about a request before it runs.
//!
//! Each extractor needs only the part of the state it reads (through axum's `FromRef`), so the
//! extractors still to come (the signed-in user, the admin, an API key) slot in beside these
//! without touching the handlers that do not use them.

mod admin;
mod api_key;
mod client_ip;
mod json;
mod session;

pub use admin::AdminUser;
pub use api_key::{ApiCaller, V1Json, gate};
pub use client_ip::{ClientIp, TrustedProxies};
pub use json::ApiJson;
pub use session::{
    CSRF_HEADER, CurrentUser, MaybeUser, SESSION_COOKIE, SameOrigin, cleared_cookie, cookie_value,
    session_cookie,
};
