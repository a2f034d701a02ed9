//! Form validation with the spec's per-field messages (docs/PRODUCT.md §5).
//!
//! Every validator returns the list of failing fields in form order; an empty list means valid.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::report::DownloadRequest;
use crate::site_url::normalize_input;

/// One failing field and the message to show under it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct FieldError {
    /// The field name as the contract spells it.
    pub field: String,
    /// The message.
    pub message: String,
}

/// The body of a 422 that refuses a form: the error body every route answers
/// (`{success: false, error}`, `error` the first field's message) with every failing field, so a
/// form can show each message under its own field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct FieldErrorsResponse {
    /// Always false.
    pub success: bool,
    /// The first field's message.
    pub error: String,
    /// Every failing field, in form order.
    pub fields: Vec<FieldError>,
}

pub(crate) fn err(field: &str, message: &str) -> FieldError {
    FieldError {
        field: field.to_owned(),
        message: message.to_owned(),
    }
}

/// Shared e-mail message (docs/PRODUCT.md §5.2, §5.3).
pub const EMAIL_MESSAGE: &str = "Please enter a valid email address";

/// Whether `email` is a valid address: the WHATWG "valid e-mail address" syntax
/// (<https://html.spec.whatwg.org/multipage/input.html#valid-e-mail-address>), plus a dot in the
/// domain, since a mail to a single-label host never reaches a person.
pub fn is_valid_email(email: &str) -> bool {
    let email = email.trim();
    let Some((local, domain)) = email.split_once('@') else {
        return false;
    };
    let local_ok = !local.is_empty()
        && local
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || ".!#$%&'*+/=?^_`{|}~-".contains(c));
    let labels: Vec<&str> = domain.split('.').collect();
    let domain_ok = labels.len() >= 2
        && labels.iter().all(|l| {
            !l.is_empty()
                && l.len() <= 63
                && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
                && !l.starts_with('-')
                && !l.ends_with('-')
        });
    local_ok && domain_ok && email.len() <= 254
}

/// The lead form (docs/PRODUCT.md §3.16, §5.2): first name, e-mail, website.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct LeadForm {
    /// First name.
    pub first_name: String,
    /// E-mail address.
    pub email: String,
    /// Website address.
    pub website_url: String,
}

/// Validates the lead form.
pub fn validate_lead(form: &LeadForm) -> Vec<FieldError> {
    let mut errors = Vec::new();
    if form.first_name.trim().is_empty() {
        errors.push(err("firstName", "Please enter your first name"));
    }
    if !is_valid_email(&form.email) {
        errors.push(err("email", EMAIL_MESSAGE));
    }
    if normalize_input(&form.website_url).is_err() {
        errors.push(err("websiteUrl", "Please enter a valid website URL"));
    }
    errors
}

/// Validates the Download Report form (docs/PRODUCT.md §5.3). The report id must be present too.
pub fn validate_download(form: &DownloadRequest) -> Vec<FieldError> {
    let mut errors = Vec::new();
    if form.report_id.trim().is_empty() {
        errors.push(err("reportId", "A report id is required"));
    }
    if !is_valid_email(&form.email) {
        errors.push(err("email", EMAIL_MESSAGE));
    }
    if form.first_name.trim().is_empty() {
        errors.push(err("firstName", "First name is required"));
    }
    if form.last_name.trim().is_empty() {
        errors.push(err("lastName", "Last name is required"));
    }
    if !form.agree_to_emails {
        errors.push(err(
            "agreeToEmails",
            "You must agree to receive emails to download your report",
        ));
    }
    errors
}

/// A screenshot comment must be non-blank (docs/PRODUCT.md §5.4); the add button is disabled
/// otherwise.
pub fn is_valid_comment(comment: &str) -> bool {
    !comment.trim().is_empty()
}

/// The pricing calculator's inputs (docs/PRODUCT.md §5.5, §9.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CalculatorInput {
    /// Basic reports a month (minimum 0).
    #[ts(type = "number")]
    pub basic: i64,
    /// Standard reports a month (minimum 0).
    #[ts(type = "number")]
    pub standard: i64,
    /// Premium reports a month (minimum 0).
    #[ts(type = "number")]
    pub premium: i64,
    /// Team members (minimum 1).
    #[ts(type = "number")]
    pub team: i64,
}

/// Calculator defaults: basic 0, standard 3, premium 1, team 1 (docs/PRODUCT.md §9.4).
pub const CALCULATOR_DEFAULTS: CalculatorInput = CalculatorInput {
    basic: 0,
    standard: 3,
    premium: 1,
    team: 1,
};

/// Validates the calculator inputs: report counts at least 0, team members at least 1.
pub fn validate_calculator(input: &CalculatorInput) -> Vec<FieldError> {
    let mut errors = Vec::new();
    for (field, value) in [
        ("basic", input.basic),
        ("standard", input.standard),
        ("premium", input.premium),
    ] {
        if value < 0 {
            errors.push(err(field, "Must be 0 or more"));
        }
    }
    if input.team < 1 {
        errors.push(err("team", "At least 1 team member"));
    }
    errors
}

/// User registration (docs/PRODUCT.md §3.16).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Registration {
    /// First name.
    pub first_name: String,
    /// Last name.
    pub last_name: String,
    /// E-mail address (unique).
    pub email: String,
    /// User name: 3 to 32 letters, digits, hyphens or underscores.
    pub username: String,
    /// Password: the policy of [`crate::accounts::password_problem`].
    pub password: String,
}

/// Validates a registration. The spec gives no texts for these fields, so these follow the
/// download form's style.
pub fn validate_registration(form: &Registration) -> Vec<FieldError> {
    let mut errors = Vec::new();
    if form.first_name.trim().is_empty() {
        errors.push(err("firstName", "First name is required"));
    }
    if form.last_name.trim().is_empty() {
        errors.push(err("lastName", "Last name is required"));
    }
    if !is_valid_email(&form.email) {
        errors.push(err("email", EMAIL_MESSAGE));
    }
    let name = form.username.trim();
    let name_ok = (3..=32).contains(&name.chars().count())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !name_ok {
        errors.push(err(
            "username",
            "Username must be 3 to 32 letters, digits, hyphens or underscores",
        ));
    }
    errors.extend(crate::accounts::validate_new_password(
        "password",
        &form.password,
        &form.email,
        &form.username,
    ));
    errors
}

/// The contact form (docs/PRODUCT.md §5.12): the fields the `/contact` page sends to
/// `POST /api/contact`. A field left out reads as empty, so it gets the field's own message.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
pub struct ContactForm {
    /// The sender's name.
    pub name: String,
    /// Where to reply.
    pub email: String,
    /// What the message is about.
    pub subject: String,
    /// The message.
    pub message: String,
}

/// Longest name or subject of a contact message, in characters (after trimming).
pub const CONTACT_FIELD_MAX: usize = 200;
/// Longest contact message, in characters (after trimming).
pub const CONTACT_MESSAGE_MAX: usize = 5000;

/// A required text field of at most `max` characters (after trimming): `missing` when blank,
/// a "keep it to" message naming `what` and the limit when too long.
pub(crate) fn bounded_text(
    field: &str,
    value: &str,
    max: usize,
    missing: &str,
    what: &str,
) -> Option<FieldError> {
    let value = value.trim();
    if value.is_empty() {
        Some(err(field, missing))
    } else if value.chars().count() > max {
        // Thousands grouped as people write them: 5,000.
        let digits = max.to_string();
        let mut limit = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                limit.push(',');
            }
            limit.push(c);
        }
        Some(err(
            field,
            &format!("Please keep {what} to {limit} characters"),
        ))
    } else {
        None
    }
}

/// Validates the contact form (docs/PRODUCT.md §5.12): every field required, the e-mail valid,
/// the name and subject at most [`CONTACT_FIELD_MAX`] characters and the message at most
/// [`CONTACT_MESSAGE_MAX`]. The web form and the server both ask here.
pub fn validate_contact(form: &ContactForm) -> Vec<FieldError> {
    [
        bounded_text(
            "name",
            &form.name,
            CONTACT_FIELD_MAX,
            "Please enter your name",
            "your name",
        ),
        (!is_valid_email(&form.email)).then(|| err("email", EMAIL_MESSAGE)),
        bounded_text(
            "subject",
            &form.subject,
            CONTACT_FIELD_MAX,
            "Please enter a subject",
            "the subject",
        ),
        bounded_text(
            "message",
            &form.message,
            CONTACT_MESSAGE_MAX,
            "Please enter a message",
            "the message",
        ),
    ]
    .into_iter()
    .flatten()
    .collect()
}
