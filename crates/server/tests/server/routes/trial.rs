//! `GET /api/check-trial-eligibility` and `POST /api/start-free-trial`: anonymous visitors get
//! 401 (the signed-in cases are in `accounts.rs`).

use super::{Case, case};

/// Anonymous requests.
pub fn malformed() -> Vec<Case> {
    vec![
        case("GET", "/api/check-trial-eligibility", None, "", 401),
        case("POST", "/api/start-free-trial", None, "", 401),
    ]
}
