//! The PDF downloads: `POST /api/download-basic-report` and `GET /api/download-report/{id}`
//! (a download of a real report is part of the journey in `analyses`).

use super::{Case, JSON, case};

/// Forms and ids the downloads refuse.
pub fn malformed() -> Vec<Case> {
    let unknown = "00000000-0000-4000-8000-000000000000";
    let mut t = vec![
        // POST /api/download-basic-report
        case("POST", "/api/download-basic-report", JSON, "{}", 422),
        case("POST", "/api/download-basic-report", JSON, "{oops", 400),
        case(
            "POST",
            "/api/download-basic-report",
            JSON,
            r#"{"reportId": "x", "email": "bad", "firstName": "A", "lastName": "B", "agreeToEmails": true}"#,
            422,
        ),
        case(
            "POST",
            "/api/download-basic-report",
            JSON,
            r#"{"reportId": "x", "email": "a@b.co", "firstName": "", "lastName": "B", "agreeToEmails": true}"#,
            422,
        ),
        case(
            "POST",
            "/api/download-basic-report",
            JSON,
            r#"{"reportId": "x", "email": "a@b.co", "firstName": "A", "lastName": "B", "agreeToEmails": false}"#,
            422,
        ),
        case(
            "POST",
            "/api/download-basic-report",
            JSON,
            r#"{"reportId": "x", "email": "a@b.co", "firstName": "A", "lastName": "B", "agreeToEmails": "yes"}"#,
            422,
        ),
        case(
            "POST",
            "/api/download-basic-report",
            JSON,
            r#"{"reportId": "not-a-uuid", "email": "a@b.co", "firstName": "A", "lastName": "B", "agreeToEmails": true}"#,
            404,
        ),
        // GET /api/download-report/{id}
        case("GET", "/api/download-report/zzz", None, "", 404),
        case(
            "GET",
            "/api/download-report/00000000-0000-4000-8000-000000000000",
            None,
            "",
            404,
        ),
    ];
    let unknown_download = format!(
        r#"{{"reportId": "{unknown}", "email": "a@b.co", "firstName": "A", "lastName": "B", "agreeToEmails": true}}"#
    );
    t.push(Case {
        method: "POST",
        path: "/api/download-basic-report",
        content_type: JSON,
        body: unknown_download.into_bytes(),
        status: 404,
    });
    t
}
