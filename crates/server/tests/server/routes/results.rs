//! `GET /api/results/{id}`.

use super::{Case, case};

/// Ids that name no result.
pub fn malformed() -> Vec<Case> {
    vec![
        // GET /api/results/{id}
        case("GET", "/api/results/not-a-uuid", None, "", 404),
        case("GET", "/api/results/", None, "", 404),
        case("GET", "/api/results/1", None, "", 404),
        case("GET", "/api/results/%00", None, "", 404),
        case(
            "GET",
            "/api/results/00000000-0000-4000-8000-000000000000",
            None,
            "",
            404,
        ),
        case(
            "DELETE",
            "/api/results/00000000-0000-4000-8000-000000000000",
            None,
            "",
            405,
        ),
    ]
}
