//! Sales contact flows (issue 16 item 5): the enterprise, agency and partner forms, the message
//! each becomes for the sales team (stored, e-mailed, shown in the admin area), and the admin
//! area's views of messages and of the mail outbox.
//!
//! Every validator returns the failing fields in form order, like [`crate::forms`]; the web forms
//! and the server ask the same function.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::forms::{
    CONTACT_FIELD_MAX, CONTACT_MESSAGE_MAX, ContactForm, EMAIL_MESSAGE, FieldError, bounded_text,
    err, is_valid_email, validate_contact,
};
use crate::site_url::normalize_input;

/// Which form a message came through.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum ContactKind {
    /// `/contact`.
    General,
    /// `/enterprise-contact`.
    Enterprise,
    /// `/agency-contact`.
    Agency,
    /// The form on `/partners`.
    Partner,
}

impl ContactKind {
    /// Every kind, in the admin area's order.
    pub const ALL: [ContactKind; 4] = [
        ContactKind::General,
        ContactKind::Enterprise,
        ContactKind::Agency,
        ContactKind::Partner,
    ];

    /// The stored spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            ContactKind::General => "general",
            ContactKind::Enterprise => "enterprise",
            ContactKind::Agency => "agency",
            ContactKind::Partner => "partner",
        }
    }

    /// The kind stored as `s`, if any.
    pub fn parse(s: &str) -> Option<ContactKind> {
        Self::ALL.into_iter().find(|k| k.as_str() == s)
    }

    /// How the sales team calls it.
    pub fn label(self) -> &'static str {
        match self {
            ContactKind::General => "General",
            ContactKind::Enterprise => "Enterprise",
            ContactKind::Agency => "Agency",
            ContactKind::Partner => "Partner",
        }
    }
}

/// One option of a choice field: the value sent, the text shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Choice {
    /// The value the form sends.
    pub value: String,
    /// What the visitor reads.
    pub label: String,
}

/// Company sizes on the enterprise form.
pub const COMPANY_SIZES: [(&str, &str); 4] = [
    ("1-49", "1 to 49 employees"),
    ("50-249", "50 to 249 employees"),
    ("250-999", "250 to 999 employees"),
    ("1000+", "1,000 employees or more"),
];
/// Expected reports a month on the enterprise form.
pub const MONTHLY_REPORTS: [(&str, &str); 4] = [
    ("under-100", "Fewer than 100 reports"),
    ("100-500", "100 to 500 reports"),
    ("500-2000", "500 to 2,000 reports"),
    ("over-2000", "More than 2,000 reports"),
];
/// Number of clients on the agency form.
pub const AGENCY_CLIENTS: [(&str, &str); 4] = [
    ("1-10", "1 to 10 clients"),
    ("11-50", "11 to 50 clients"),
    ("51-200", "51 to 200 clients"),
    ("over-200", "More than 200 clients"),
];
/// Kinds of partnership on the partner form.
pub const PARTNERSHIPS: [(&str, &str); 4] = [
    ("agency", "Agency (white-label reports)"),
    ("hosting", "Hosting company or platform"),
    ("technology", "Technology integration (API)"),
    ("other", "Something else"),
];

/// The options of every choice field of the sales forms.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ContactChoices {
    /// Enterprise: company size.
    pub company_sizes: Vec<Choice>,
    /// Enterprise: expected reports a month.
    pub monthly_reports: Vec<Choice>,
    /// Agency: number of clients.
    pub agency_clients: Vec<Choice>,
    /// Partner: kind of partnership.
    pub partnerships: Vec<Choice>,
}

fn choices(list: &[(&str, &str)]) -> Vec<Choice> {
    list.iter()
        .map(|(value, label)| Choice {
            value: (*value).to_owned(),
            label: (*label).to_owned(),
        })
        .collect()
}

/// The options the forms offer.
pub fn contact_choices() -> ContactChoices {
    ContactChoices {
        company_sizes: choices(&COMPANY_SIZES),
        monthly_reports: choices(&MONTHLY_REPORTS),
        agency_clients: choices(&AGENCY_CLIENTS),
        partnerships: choices(&PARTNERSHIPS),
    }
}

/// The label of `value` in `list`, when it is one of its options.
fn label_of(list: &[(&str, &'static str)], value: &str) -> Option<&'static str> {
    list.iter()
        .find(|(v, _)| *v == value.trim())
        .map(|(_, l)| *l)
}

/// The enterprise form (`/enterprise-contact`). A field left out reads as empty.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
pub struct EnterpriseContactForm {
    /// The sender's name.
    pub name: String,
    /// Work e-mail address.
    pub email: String,
    /// Company.
    pub company: String,
    /// Job title (optional).
    pub job_title: String,
    /// One of [`COMPANY_SIZES`].
    pub company_size: String,
    /// One of [`MONTHLY_REPORTS`].
    pub monthly_reports: String,
    /// Phone number (optional).
    pub phone: String,
    /// What they need.
    pub message: String,
}

/// The agency form (`/agency-contact`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
pub struct AgencyContactForm {
    /// The sender's name.
    pub name: String,
    /// E-mail address.
    pub email: String,
    /// The agency's name.
    pub agency: String,
    /// One of [`AGENCY_CLIENTS`].
    pub clients: String,
    /// The agency's website (optional).
    pub website: String,
    /// What they need.
    pub message: String,
}

/// The partner enquiry form (on `/partners`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
pub struct PartnerEnquiryForm {
    /// The sender's name.
    pub name: String,
    /// E-mail address.
    pub email: String,
    /// Company.
    pub company: String,
    /// One of [`PARTNERSHIPS`].
    pub partnership: String,
    /// The company's website (optional).
    pub website: String,
    /// What they build and how Sitelens would fit.
    pub message: String,
}

/// Message for a phone number that is not one.
pub const PHONE_MESSAGE: &str =
    "Please enter a phone number such as +44 20 7946 0000, or leave it empty";
/// Message for an optional website that is not an address.
pub const WEBSITE_MESSAGE: &str = "Please enter a valid website address, or leave it empty";

/// Whether `phone` (trimmed, non-empty) reads as a phone number: digits with the usual
/// separators (spaces, `+`, `-`, `.`, parentheses), 6 to 15 digits, at most 30 characters.
pub fn is_valid_phone(phone: &str) -> bool {
    let phone = phone.trim();
    let digits = phone.chars().filter(char::is_ascii_digit).count();
    phone.chars().count() <= 30
        && (6..=15).contains(&digits)
        && phone
            .chars()
            .all(|c| c.is_ascii_digit() || " +-.()".contains(c))
}

fn name_error(name: &str) -> Option<FieldError> {
    bounded_text(
        "name",
        name,
        CONTACT_FIELD_MAX,
        "Please enter your name",
        "your name",
    )
}

fn email_error(email: &str) -> Option<FieldError> {
    (!is_valid_email(email)).then(|| err("email", EMAIL_MESSAGE))
}

fn message_error(message: &str, missing: &str) -> Option<FieldError> {
    bounded_text(
        "message",
        message,
        CONTACT_MESSAGE_MAX,
        missing,
        "the message",
    )
}

fn choice_error(
    field: &str,
    list: &[(&str, &'static str)],
    value: &str,
    missing: &str,
) -> Option<FieldError> {
    label_of(list, value).is_none().then(|| err(field, missing))
}

fn optional_bounded(field: &str, value: &str, what: &str) -> Option<FieldError> {
    if value.trim().is_empty() {
        None
    } else {
        bounded_text(field, value, CONTACT_FIELD_MAX, "", what)
    }
}

fn website_error(website: &str) -> Option<FieldError> {
    let website = website.trim();
    (!website.is_empty() && (website.len() > 500 || normalize_input(website).is_err()))
        .then(|| err("website", WEBSITE_MESSAGE))
}

/// Validates the enterprise form: name, a valid work e-mail, company, company size and
/// expected reports required; job title and phone optional; message required, at most
/// [`CONTACT_MESSAGE_MAX`] characters, text fields at most [`CONTACT_FIELD_MAX`].
pub fn validate_enterprise_contact(form: &EnterpriseContactForm) -> Vec<FieldError> {
    [
        name_error(&form.name),
        (!is_valid_email(&form.email))
            .then(|| err("email", "Please enter a valid work email address")),
        bounded_text(
            "company",
            &form.company,
            CONTACT_FIELD_MAX,
            "Please enter your company's name",
            "the company name",
        ),
        optional_bounded("jobTitle", &form.job_title, "the job title"),
        choice_error(
            "companySize",
            &COMPANY_SIZES,
            &form.company_size,
            "Please choose your company's size",
        ),
        choice_error(
            "monthlyReports",
            &MONTHLY_REPORTS,
            &form.monthly_reports,
            "Please choose how many reports you expect a month",
        ),
        (!form.phone.trim().is_empty() && !is_valid_phone(&form.phone))
            .then(|| err("phone", PHONE_MESSAGE)),
        message_error(&form.message, "Please tell us what you need"),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// Validates the agency form: name, e-mail, agency name, number of clients and message
/// required; website optional but an address when given.
pub fn validate_agency_contact(form: &AgencyContactForm) -> Vec<FieldError> {
    [
        name_error(&form.name),
        email_error(&form.email),
        bounded_text(
            "agency",
            &form.agency,
            CONTACT_FIELD_MAX,
            "Please enter your agency's name",
            "the agency name",
        ),
        choice_error(
            "clients",
            &AGENCY_CLIENTS,
            &form.clients,
            "Please choose how many clients you have",
        ),
        website_error(&form.website),
        message_error(&form.message, "Please tell us what you need"),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// Validates the partner enquiry: name, e-mail, company, kind of partnership and message
/// required; website optional but an address when given.
pub fn validate_partner_enquiry(form: &PartnerEnquiryForm) -> Vec<FieldError> {
    [
        name_error(&form.name),
        email_error(&form.email),
        bounded_text(
            "company",
            &form.company,
            CONTACT_FIELD_MAX,
            "Please enter your company's name",
            "the company name",
        ),
        choice_error(
            "partnership",
            &PARTNERSHIPS,
            &form.partnership,
            "Please choose the kind of partnership",
        ),
        website_error(&form.website),
        message_error(
            &form.message,
            "Please tell us what you would build with Sitelens",
        ),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// One extra fact of a message, as the sales team reads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ContactDetail {
    /// What it is ("Company").
    pub label: String,
    /// Its value.
    pub value: String,
}

/// A checked message, trimmed, ready to store and to mail to sales.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SalesMessage {
    /// The form it came through.
    pub kind: ContactKind,
    /// The sender's name.
    pub name: String,
    /// The sender's address (the mail's Reply-To).
    pub email: String,
    /// The subject.
    pub subject: String,
    /// The message.
    pub message: String,
    /// The form's other fields, labelled; optional ones only when given.
    pub details: Vec<ContactDetail>,
}

fn details(pairs: &[(&str, String)]) -> Vec<ContactDetail> {
    pairs
        .iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(label, value)| ContactDetail {
            label: (*label).to_owned(),
            value: value.clone(),
        })
        .collect()
}

fn chosen(list: &[(&str, &'static str)], value: &str) -> String {
    label_of(list, value).unwrap_or_default().to_owned()
}

/// The message of a valid general contact form, or its errors.
pub fn general_message(form: &ContactForm) -> Result<SalesMessage, Vec<FieldError>> {
    let errors = validate_contact(form);
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(SalesMessage {
        kind: ContactKind::General,
        name: form.name.trim().to_owned(),
        email: form.email.trim().to_owned(),
        subject: form.subject.trim().to_owned(),
        message: form.message.trim().to_owned(),
        details: Vec::new(),
    })
}

/// The message of a valid enterprise form, or its errors.
pub fn enterprise_message(form: &EnterpriseContactForm) -> Result<SalesMessage, Vec<FieldError>> {
    let errors = validate_enterprise_contact(form);
    if !errors.is_empty() {
        return Err(errors);
    }
    let company = form.company.trim().to_owned();
    Ok(SalesMessage {
        kind: ContactKind::Enterprise,
        name: form.name.trim().to_owned(),
        email: form.email.trim().to_owned(),
        subject: format!("Enterprise enquiry from {company}"),
        message: form.message.trim().to_owned(),
        details: details(&[
            ("Company", company.clone()),
            ("Job title", form.job_title.trim().to_owned()),
            ("Company size", chosen(&COMPANY_SIZES, &form.company_size)),
            (
                "Expected reports a month",
                chosen(&MONTHLY_REPORTS, &form.monthly_reports),
            ),
            ("Phone", form.phone.trim().to_owned()),
        ]),
    })
}

/// An optional website as sales reads it: normalised like the address form, empty when none
/// was given.
fn website(raw: &str) -> String {
    match raw.trim() {
        "" => String::new(),
        w => normalize_input(w).unwrap_or_default(),
    }
}

/// The message of a valid agency form, or its errors.
pub fn agency_message(form: &AgencyContactForm) -> Result<SalesMessage, Vec<FieldError>> {
    let errors = validate_agency_contact(form);
    if !errors.is_empty() {
        return Err(errors);
    }
    let agency = form.agency.trim().to_owned();
    Ok(SalesMessage {
        kind: ContactKind::Agency,
        name: form.name.trim().to_owned(),
        email: form.email.trim().to_owned(),
        subject: format!("Agency enquiry from {agency}"),
        message: form.message.trim().to_owned(),
        details: details(&[
            ("Agency", agency.clone()),
            ("Clients", chosen(&AGENCY_CLIENTS, &form.clients)),
            ("Website", website(&form.website)),
        ]),
    })
}

/// The message of a valid partner enquiry, or its errors.
pub fn partner_message(form: &PartnerEnquiryForm) -> Result<SalesMessage, Vec<FieldError>> {
    let errors = validate_partner_enquiry(form);
    if !errors.is_empty() {
        return Err(errors);
    }
    let company = form.company.trim().to_owned();
    Ok(SalesMessage {
        kind: ContactKind::Partner,
        name: form.name.trim().to_owned(),
        email: form.email.trim().to_owned(),
        subject: format!("Partner enquiry from {company}"),
        message: form.message.trim().to_owned(),
        details: details(&[
            ("Company", company.clone()),
            ("Partnership", chosen(&PARTNERSHIPS, &form.partnership)),
            ("Website", website(&form.website)),
        ]),
    })
}

impl SalesMessage {
    /// The subject of the mail to sales: the kind in brackets, then the message's subject.
    pub fn mail_subject(&self) -> String {
        format!("[{}] {}", self.kind.label(), self.subject)
    }

    /// The plain-text body of the mail to sales: who, the details, the message.
    pub fn mail_body(&self) -> String {
        let mut body = format!(
            "A new {} message came in through the Sitelens website.\n\nFrom: {} <{}>\n",
            self.kind.as_str(),
            self.name,
            self.email
        );
        for d in &self.details {
            body.push_str(&format!("{}: {}\n", d.label, d.value));
        }
        body.push_str(&format!(
            "\n{}\n\nReply to this e-mail to answer {} directly. The message is also in the admin area under Messages; mark it answered there.\n",
            self.message, self.name
        ));
        body
    }
}

/// Whether a message still waits for an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum MessageStatus {
    /// Not answered yet.
    New,
    /// Someone answered it.
    Answered,
}

impl MessageStatus {
    /// The stored spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            MessageStatus::New => "new",
            MessageStatus::Answered => "answered",
        }
    }

    /// The status stored as `s` (anything but "answered" reads as new).
    pub fn parse(s: &str) -> MessageStatus {
        if s == "answered" {
            MessageStatus::Answered
        } else {
            MessageStatus::New
        }
    }
}

/// A message as the admin area shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ContactMessageView {
    /// Its id.
    #[ts(type = "number")]
    pub id: i64,
    /// The form it came through.
    pub kind: ContactKind,
    /// The sender's name.
    pub name: String,
    /// The sender's address.
    pub email: String,
    /// The subject.
    pub subject: String,
    /// The message.
    pub message: String,
    /// The form's other fields.
    pub details: Vec<ContactDetail>,
    /// New or answered.
    pub status: MessageStatus,
    /// When it came (RFC 3339).
    pub created_at: String,
    /// When it was marked answered (RFC 3339).
    pub answered_at: Option<String>,
    /// Who marked it answered.
    pub answered_by: Option<String>,
}

/// A page of messages, newest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ContactMessagePage {
    /// The messages.
    pub messages: Vec<ContactMessageView>,
    /// Pass as `before` for the next page; `None` on the last.
    #[ts(type = "number | null")]
    pub next_before: Option<i64>,
}

/// Where an outbox e-mail stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum OutboxStatus {
    /// Delivered to the mail server.
    Sent,
    /// Not tried yet (no SMTP server configured, or being sent).
    Pending,
    /// Tried and failed; retried later, or by an admin.
    Failed,
}

impl OutboxStatus {
    /// The status of an e-mail: sent once it has a sent time, failed once an attempt left an
    /// error, pending otherwise.
    pub fn of(sent: bool, has_error: bool) -> OutboxStatus {
        match (sent, has_error) {
            (true, _) => OutboxStatus::Sent,
            (false, true) => OutboxStatus::Failed,
            (false, false) => OutboxStatus::Pending,
        }
    }
}

/// An outbox e-mail as the admin area shows it. The body is left out: account mail holds
/// one-time sign-in and reset links that no one but the addressee may read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OutboxEmailView {
    /// Its id.
    #[ts(type = "number")]
    pub id: i64,
    /// The recipient.
    pub to: String,
    /// The Reply-To address, when set.
    pub reply_to: Option<String>,
    /// The subject.
    pub subject: String,
    /// Sent, pending or failed.
    pub status: OutboxStatus,
    /// Sending attempts so far.
    pub attempts: i32,
    /// The last attempt's error.
    pub last_error: Option<String>,
    /// When it was queued (RFC 3339).
    pub created_at: String,
    /// When it was sent (RFC 3339).
    pub sent_at: Option<String>,
}

/// A page of outbox e-mails, newest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OutboxPage {
    /// The e-mails.
    pub emails: Vec<OutboxEmailView>,
    /// Pass as `before` for the next page; `None` on the last.
    #[ts(type = "number | null")]
    pub next_before: Option<i64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enterprise() -> EnterpriseContactForm {
        EnterpriseContactForm {
            name: " Ada Lovelace ".into(),
            email: "ada@analytical.example".into(),
            company: "Analytical Engines".into(),
            job_title: "".into(),
            company_size: "250-999".into(),
            monthly_reports: "500-2000".into(),
            phone: "".into(),
            message: "We audit 300 client sites.".into(),
        }
    }

    fn fields(errors: &[FieldError]) -> Vec<&str> {
        errors.iter().map(|e| e.field.as_str()).collect()
    }

    #[test]
    fn a_complete_enterprise_form_becomes_a_labelled_message() {
        let m = enterprise_message(&enterprise()).expect("valid");
        assert_eq!(m.kind, ContactKind::Enterprise);
        assert_eq!(m.name, "Ada Lovelace");
        assert_eq!(m.subject, "Enterprise enquiry from Analytical Engines");
        assert_eq!(
            m.details
                .iter()
                .map(|d| (d.label.as_str(), d.value.as_str()))
                .collect::<Vec<_>>(),
            [
                ("Company", "Analytical Engines"),
                ("Company size", "250 to 999 employees"),
                ("Expected reports a month", "500 to 2,000 reports"),
            ],
            "optional fields left empty are left out"
        );
        assert_eq!(
            m.mail_subject(),
            "[Enterprise] Enterprise enquiry from Analytical Engines"
        );
        let body = m.mail_body();
        assert!(body.contains("From: Ada Lovelace <ada@analytical.example>"));
        assert!(body.contains("Company size: 250 to 999 employees"));
        assert!(body.contains("We audit 300 client sites."));
    }

    #[test]
    fn an_empty_enterprise_form_names_every_required_field_in_order() {
        let errors = validate_enterprise_contact(&EnterpriseContactForm::default());
        assert_eq!(
            fields(&errors),
            [
                "name",
                "email",
                "company",
                "companySize",
                "monthlyReports",
                "message"
            ]
        );
        assert_eq!(errors[1].message, "Please enter a valid work email address");
    }

    #[test]
    fn choices_must_be_offered_ones() {
        let mut f = enterprise();
        f.company_size = "huge".into();
        assert_eq!(
            validate_enterprise_contact(&f),
            [err("companySize", "Please choose your company's size")]
        );
        for (value, _) in COMPANY_SIZES {
            f.company_size = value.into();
            assert!(validate_enterprise_contact(&f).is_empty(), "{value}");
        }
    }

    #[test]
    fn phone_numbers() {
        for ok in ["+44 20 7946 0000", "(555) 010-9999", "030.123456"] {
            assert!(is_valid_phone(ok), "{ok}");
        }
        for bad in ["12345", "call me", "+1 555 0100 ext 2", "1234567890123456"] {
            assert!(!is_valid_phone(bad), "{bad}");
        }
        let mut f = enterprise();
        f.phone = "call me".into();
        assert_eq!(fields(&validate_enterprise_contact(&f)), ["phone"]);
    }

    #[test]
    fn lengths_are_bounded() {
        let mut f = enterprise();
        f.company = "c".repeat(201);
        f.job_title = "j".repeat(201);
        f.message = "m".repeat(5001);
        let errors = validate_enterprise_contact(&f);
        assert_eq!(
            errors
                .iter()
                .map(|e| e.message.as_str())
                .collect::<Vec<_>>(),
            [
                "Please keep the company name to 200 characters",
                "Please keep the job title to 200 characters",
                "Please keep the message to 5,000 characters",
            ]
        );
    }

    #[test]
    fn agency_website_is_optional_but_checked_and_normalised() {
        let mut f = AgencyContactForm {
            name: "Grace".into(),
            email: "grace@studio.example".into(),
            agency: "Studio Grace".into(),
            clients: "11-50".into(),
            website: "".into(),
            message: "White-label for 30 clients".into(),
        };
        assert!(validate_agency_contact(&f).is_empty());
        f.website = "not a site".into();
        assert_eq!(
            validate_agency_contact(&f),
            [err("website", WEBSITE_MESSAGE)]
        );
        f.website = "studio.example".into();
        let m = agency_message(&f).expect("valid");
        assert_eq!(m.subject, "Agency enquiry from Studio Grace");
        assert_eq!(m.details[2].value, "https://studio.example/");
        f.clients = String::new();
        assert_eq!(
            validate_agency_contact(&f)[0].message,
            "Please choose how many clients you have"
        );
    }

    #[test]
    fn partner_enquiry() {
        let f = PartnerEnquiryForm {
            name: "Linus".into(),
            email: "linus@host.example".into(),
            company: "Host Co".into(),
            partnership: "hosting".into(),
            website: "".into(),
            message: "Audits in our control panel".into(),
        };
        let m = partner_message(&f).expect("valid");
        assert_eq!(m.kind, ContactKind::Partner);
        assert_eq!(m.details.len(), 2);
        let errors = validate_partner_enquiry(&PartnerEnquiryForm::default());
        assert_eq!(
            fields(&errors),
            ["name", "email", "company", "partnership", "message"]
        );
    }

    #[test]
    fn kinds_and_statuses_round_trip() {
        for k in ContactKind::ALL {
            assert_eq!(ContactKind::parse(k.as_str()), Some(k));
        }
        assert_eq!(ContactKind::parse("spam"), None);
        assert_eq!(MessageStatus::parse("answered"), MessageStatus::Answered);
        assert_eq!(MessageStatus::parse("new"), MessageStatus::New);
        assert_eq!(OutboxStatus::of(true, true), OutboxStatus::Sent);
        assert_eq!(OutboxStatus::of(false, true), OutboxStatus::Failed);
        assert_eq!(OutboxStatus::of(false, false), OutboxStatus::Pending);
    }
}
