//! `POST /api/contact`.

use super::{Case, JSON, case};

/// Incomplete contact forms.
pub fn malformed() -> Vec<Case> {
    vec![
        // POST /api/contact
        case("POST", "/api/contact", JSON, "{}", 422),
        case(
            "POST",
            "/api/contact",
            JSON,
            r#"{"name": "", "email": "a@b.co", "message": "hi"}"#,
            422,
        ),
        case(
            "POST",
            "/api/contact",
            JSON,
            r#"{"name": "A", "email": "nope", "message": "hi"}"#,
            422,
        ),
        case(
            "POST",
            "/api/contact",
            JSON,
            r#"{"name": "A", "email": "a@b.co", "message": "  "}"#,
            422,
        ),
    ]
}
