//! `GET /api/stats` (its figure is checked in the journey in `analyses`).

use super::{Case, JSON, case};

/// Methods the counter refuses.
pub fn malformed() -> Vec<Case> {
    vec![case("POST", "/api/stats", JSON, "{}", 405)]
}
