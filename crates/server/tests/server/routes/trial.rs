//! `GET /api/check-trial-eligibility`: anonymous visitors get 401.

use super::{Case, case};

/// Every visitor is anonymous until accounts exist.
pub fn malformed() -> Vec<Case> {
    vec![case("GET", "/api/check-trial-eligibility", None, "", 401)]
}
