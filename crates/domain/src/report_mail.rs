//! E-mailed reports (docs/PRODUCT.md §3.8 email_reports, §5.3; issue 15 item 4): the mail a
//! reader of the Download Report form receives, the mail an account sends a client from its
//! dashboard, the form of that send with its messages, its hourly allowance, and when the PDF
//! travels as an attachment.
//!
//! A mail speaks for Sitelens, or, when the report wears an agency's brand
//! ([`crate::whitelabel::report_branded`]), for the agency alone: its name as the sender's
//! name, replies to its contact address, and no word of Sitelens or of its upgrade.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::accounts::TeamRole;
use crate::forms::{EMAIL_MESSAGE, FieldError, bounded_text, err, is_valid_email};

/// The largest PDF sent as an attachment, in bytes (5 MiB): most mail servers take messages of
/// 10 MB or more, and base64 makes an attachment a third larger. A larger PDF stays at its
/// link, and the mail says so. The server's `SITELENS_MAIL_ATTACHMENT_MAX_KB` may lower or
/// raise it.
pub const ATTACHMENT_MAX_BYTES: u64 = 5 * 1024 * 1024;

/// Whether a PDF of `bytes` goes with the mail under `cap` (at most the cap).
pub fn attaches(bytes: u64, cap: u64) -> bool {
    bytes <= cap
}

/// How many reports an account may send to clients in [`SEND_WINDOW_SECS`]: enough for an
/// agency's busy hour, few enough that an account cannot be used to send mail in bulk.
pub const SEND_LIMIT: u32 = 30;
/// The window [`SEND_LIMIT`] counts over: the last hour.
pub const SEND_WINDOW_SECS: i64 = 3600;

/// Seconds until a send is allowed again when the window's oldest send was made at
/// `oldest_ms` and it is `now_ms` (milliseconds since the epoch): when that send leaves the
/// window, at least one second.
pub fn send_retry_after(oldest_ms: i64, now_ms: i64) -> u64 {
    let free_at = oldest_ms.saturating_add(SEND_WINDOW_SECS * 1000);
    let wait_ms = free_at.saturating_sub(now_ms).max(0);
    u64::try_from(wait_ms).unwrap_or(0).div_ceil(1000).max(1)
}

/// What an account that used its allowance is told.
pub fn send_limited_message(retry_after_secs: u64) -> String {
    let minutes = retry_after_secs.div_ceil(60).max(1);
    format!(
        "You have sent {SEND_LIMIT} reports in the last hour. Please try again in {minutes} {}.",
        if minutes == 1 { "minute" } else { "minutes" }
    )
}

/// The team permission that lets a member send the team's reports to clients: the one that lets
/// them run the team's reports (docs/PRODUCT.md §6.7), since a send speaks for the team as a
/// report does.
pub const SEND_PERMISSION: &str = "reports:create";

/// What a team member without [`SEND_PERMISSION`] is told.
pub const SEND_FORBIDDEN_MESSAGE: &str =
    "Your role in the team does not allow sending reports to clients. Ask the team's owner.";

/// Whether a user in `role` with the stored membership `permissions` may send the team's
/// reports to clients: the owner always; a member or admin when their permissions hold
/// [`SEND_PERMISSION`].
pub fn may_send(role: TeamRole, permissions: &[String]) -> bool {
    role == TeamRole::Owner || permissions.iter().any(|p| p == SEND_PERMISSION)
}

/// The answer when the server has no mail server: nothing is stored or sent.
pub const MAIL_OFF_MESSAGE: &str = "Sending reports by email is not available on this server because no mail server is configured. Download the PDF and send it yourself.";

/// What the dashboard shows once a report is on its way.
pub fn sent_message(email: &str) -> String {
    format!("The report is on its way to {}.", email.trim())
}

/// Longest client first name, in characters (after trimming).
pub const FIRST_NAME_MAX: usize = 100;
/// Longest personal message, in characters (after trimming).
pub const MESSAGE_MAX: usize = 2000;

/// `POST /api/reports/{id}/send`: a report sent to a client's address from the dashboard.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
pub struct SendReportRequest {
    /// The client's address.
    pub email: String,
    /// The client's first name, for the greeting.
    pub first_name: String,
    /// A personal message put in the mail (optional).
    #[ts(optional)]
    pub message: Option<String>,
}

/// The answer of a send: the message to show.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SendReportResponse {
    /// 'The report is on its way to …'.
    pub message: String,
}

/// Validates a send (the dialog and the server ask here): a valid address, a first name of at
/// most [`FIRST_NAME_MAX`] characters, a message of at most [`MESSAGE_MAX`] (or none).
pub fn validate_send_report(form: &SendReportRequest) -> Vec<FieldError> {
    let message = form.message.as_deref().unwrap_or_default();
    [
        (!is_valid_email(&form.email)).then(|| err("email", EMAIL_MESSAGE)),
        bounded_text(
            "firstName",
            &form.first_name,
            FIRST_NAME_MAX,
            "Please enter your client's first name",
            "the first name",
        ),
        (!message.trim().is_empty())
            .then(|| bounded_text("message", message, MESSAGE_MAX, "", "the message"))
            .flatten(),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// Whom a mail speaks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MailVoice {
    /// Sitelens' own wording.
    Sitelens,
    /// A white-label agency: its name, and where replies go.
    Agency {
        /// The agency's company name.
        name: String,
        /// Its contact address, when it set one.
        contact_email: Option<String>,
    },
}

/// The links a report mail carries, absolute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportLinks {
    /// The report page.
    pub report: String,
    /// The PDF.
    pub pdf: String,
}

/// The links of report `id` on the server whose public address is `public_url`.
pub fn report_links(public_url: &str, id: &str) -> ReportLinks {
    let base = public_url.trim_end_matches('/');
    ReportLinks {
        report: format!("{base}/results?id={id}"),
        pdf: format!("{base}/api/download-report/{id}"),
    }
}

/// A mail ready for the outbox.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportMail {
    /// The subject.
    pub subject: String,
    /// The plain-text body.
    pub body: String,
    /// The sender's display name, when not the server's own (an agency's name).
    pub from_name: Option<String>,
    /// Where replies go, when not to the sender address.
    pub reply_to: Option<String>,
}

/// The host of a site address, for subjects; the address itself when it has none.
fn host(site: &str) -> String {
    url::Url::parse(site)
        .ok()
        .and_then(|u| u.host_str().map(str::to_owned))
        .unwrap_or_else(|| site.to_owned())
}

/// The line about the PDF: attached, or too large to attach and at its link.
fn pdf_line(links: &ReportLinks, attached: bool) -> String {
    if attached {
        "The PDF is attached to this email.".to_owned()
    } else {
        format!(
            "The PDF is too large to attach to an email. Download it here: {}",
            links.pdf
        )
    }
}

/// A name kept to one line, for a greeting or a header.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The mail of the Download Report form (docs/PRODUCT.md §5.3): the report's link, the PDF
/// (attached or at its link) and, in Sitelens' voice, the upgrade link (`upgrade`, absolute,
/// carrying the request's token) when there is one. An agency's mail offers no upgrade.
pub fn download_mail(
    first_name: &str,
    site: &str,
    links: &ReportLinks,
    attached: bool,
    upgrade: Option<&str>,
    voice: &MailVoice,
) -> ReportMail {
    let first_name = one_line(first_name);
    let pdf = pdf_line(links, attached);
    match voice {
        MailVoice::Sitelens => {
            let upgrade = upgrade
                .map(|link| {
                    format!(
                        "\nWant the whole picture? The professional report crawls about 10 pages of your site and adds backlinks, domain authority, internal links, meta tags, headings, robots.txt and sitemap.xml:\n{link}\n"
                    )
                })
                .unwrap_or_default();
            ReportMail {
                subject: format!("Your website report for {}", host(site)),
                body: format!(
                    "Hello {first_name},\n\nHere is your website analysis of {site}.\n\nRead the report: {report}\n{pdf}\n{upgrade}\nYou receive this email because you asked for this report on Sitelens.\n\nThe Sitelens team\n",
                    report = links.report,
                ),
                from_name: None,
                reply_to: None,
            }
        }
        MailVoice::Agency {
            name,
            contact_email,
        } => {
            let name = one_line(name);
            ReportMail {
                subject: format!("Your website report for {}", host(site)),
                body: format!(
                    "Hello {first_name},\n\nHere is your website analysis of {site}, prepared by {name}.\n\nRead the report: {report}\n{pdf}\n\n{name}\n",
                    report = links.report,
                ),
                from_name: Some(name),
                reply_to: contact_email.clone(),
            }
        }
    }
}

/// What an account's send to a client says besides the links.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientNote<'a> {
    /// The client's first name.
    pub first_name: &'a str,
    /// The analysed site.
    pub site: &'a str,
    /// The sender's personal message, if any.
    pub message: Option<&'a str>,
    /// Who sent it: their name, or their address.
    pub sender: &'a str,
    /// The sender's address.
    pub sender_email: &'a str,
}

/// The mail an account sends a client from its dashboard: the report's link, the PDF (attached
/// or at its link) and the sender's message. Replies go to the agency's contact address, else
/// to the sender.
pub fn client_mail(
    note: &ClientNote<'_>,
    links: &ReportLinks,
    attached: bool,
    voice: &MailVoice,
) -> ReportMail {
    let (site, sender_email) = (note.site, note.sender_email);
    let first_name = one_line(note.first_name);
    let sender = one_line(note.sender);
    let pdf = pdf_line(links, attached);
    let message = note
        .message
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .map(|m| format!("{m}\n\n"))
        .unwrap_or_default();
    match voice {
        MailVoice::Sitelens => ReportMail {
            subject: format!("{sender} sent you a website report for {}", host(site)),
            body: format!(
                "Hello {first_name},\n\n{sender} sent you a website analysis of {site}, made with Sitelens.\n\n{message}Read the report: {report}\n{pdf}\n\nReply to this email to answer {sender}. You receive it because {sender} entered your address on Sitelens.\n",
                report = links.report,
            ),
            from_name: None,
            reply_to: Some(sender_email.to_owned()),
        },
        MailVoice::Agency {
            name,
            contact_email,
        } => {
            let name = one_line(name);
            ReportMail {
                subject: format!("{name}: your website report for {}", host(site)),
                body: format!(
                    "Hello {first_name},\n\n{name} has prepared a website analysis of {site} for you.\n\n{message}Read the report: {report}\n{pdf}\n\n{name}\n",
                    report = links.report,
                ),
                from_name: Some(name),
                reply_to: Some(
                    contact_email
                        .clone()
                        .unwrap_or_else(|| sender_email.to_owned()),
                ),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SITE: &str = "https://acme.example/";

    fn links() -> ReportLinks {
        report_links("https://reports.example/", "abc")
    }

    fn agency() -> MailVoice {
        MailVoice::Agency {
            name: "Studio Grace".into(),
            contact_email: Some("hello@studio.example".into()),
        }
    }

    #[test]
    fn links_are_absolute_on_the_public_address() {
        assert_eq!(
            links(),
            ReportLinks {
                report: "https://reports.example/results?id=abc".into(),
                pdf: "https://reports.example/api/download-report/abc".into(),
            }
        );
    }

    #[test]
    fn a_pdf_up_to_the_cap_is_attached_a_larger_one_stays_at_its_link() {
        assert!(attaches(0, ATTACHMENT_MAX_BYTES));
        assert!(attaches(ATTACHMENT_MAX_BYTES, ATTACHMENT_MAX_BYTES));
        assert!(!attaches(ATTACHMENT_MAX_BYTES + 1, ATTACHMENT_MAX_BYTES));
        let over = download_mail("Ada", SITE, &links(), false, None, &MailVoice::Sitelens);
        assert!(over.body.contains(
            "too large to attach to an email. Download it here: https://reports.example/api/download-report/abc"
        ));
        let under = download_mail("Ada", SITE, &links(), true, None, &MailVoice::Sitelens);
        assert!(under.body.contains("The PDF is attached to this email."));
        assert!(!under.body.contains("/api/download-report/"));
    }

    #[test]
    fn the_download_mail_carries_the_report_and_the_upgrade_link() {
        let upgrade = "https://reports.example/checkout?package=starter&upgradeToken=0f";
        let mail = download_mail(
            " Ada\n",
            SITE,
            &links(),
            true,
            Some(upgrade),
            &MailVoice::Sitelens,
        );
        assert_eq!(mail.subject, "Your website report for acme.example");
        assert!(mail.body.starts_with("Hello Ada,\n"), "{}", mail.body);
        assert!(
            mail.body
                .contains("Read the report: https://reports.example/results?id=abc")
        );
        assert!(mail.body.contains(upgrade));
        assert_eq!((mail.from_name, mail.reply_to), (None, None));
    }

    #[test]
    fn an_agencys_mail_names_the_agency_and_nothing_of_sitelens() {
        let upgrade = Some("https://reports.example/checkout?package=starter&upgradeToken=0f");
        let lead = download_mail("Ada", SITE, &links(), true, upgrade, &agency());
        let note = ClientNote {
            first_name: "Ada",
            site: SITE,
            message: Some("  Here is the audit we talked about.  "),
            sender: "Grace Hopper",
            sender_email: "grace@studio.example",
        };
        let client = client_mail(&note, &links(), false, &agency());
        for mail in [&lead, &client] {
            let all = format!("{} {}", mail.subject, mail.body).to_lowercase();
            assert!(!all.contains("sitelens"), "{all}");
            assert!(!all.contains("upgradetoken"), "{all}");
            assert!(mail.body.contains("Studio Grace"));
            assert_eq!(mail.from_name.as_deref(), Some("Studio Grace"));
            assert_eq!(mail.reply_to.as_deref(), Some("hello@studio.example"));
        }
        assert_eq!(
            client.subject,
            "Studio Grace: your website report for acme.example"
        );
        assert!(
            client
                .body
                .contains("for you.\n\nHere is the audit we talked about.\n\nRead the report")
        );
        let no_contact = MailVoice::Agency {
            name: "Studio Grace".into(),
            contact_email: None,
        };
        let note = ClientNote {
            message: None,
            ..note
        };
        let mail = client_mail(&note, &links(), true, &no_contact);
        assert_eq!(mail.reply_to.as_deref(), Some("grace@studio.example"));
    }

    #[test]
    fn sitelens_client_mail_says_who_sent_it_and_replies_go_to_them() {
        let note = ClientNote {
            first_name: "Ada",
            site: SITE,
            message: None,
            sender: "Grace Hopper",
            sender_email: "grace@example.com",
        };
        let mail = client_mail(&note, &links(), true, &MailVoice::Sitelens);
        assert_eq!(
            mail.subject,
            "Grace Hopper sent you a website report for acme.example"
        );
        assert!(mail.body.contains(
            "Grace Hopper sent you a website analysis of https://acme.example/, made with Sitelens."
        ));
        assert_eq!(mail.reply_to.as_deref(), Some("grace@example.com"));
        assert_eq!(mail.from_name, None);
    }

    #[test]
    fn a_send_needs_an_address_and_a_first_name_and_a_bounded_message() {
        let ok = SendReportRequest {
            email: "ada@example.com".into(),
            first_name: "Ada".into(),
            message: None,
        };
        assert!(validate_send_report(&ok).is_empty());
        assert!(
            validate_send_report(&SendReportRequest {
                message: Some("   ".into()),
                ..ok.clone()
            })
            .is_empty()
        );
        let bad = SendReportRequest {
            email: "ada@".into(),
            first_name: " ".into(),
            message: Some("x".repeat(MESSAGE_MAX + 1)),
        };
        let errors = validate_send_report(&bad);
        let pairs: Vec<(&str, &str)> = errors
            .iter()
            .map(|e| (e.field.as_str(), e.message.as_str()))
            .collect();
        assert_eq!(
            pairs,
            [
                ("email", EMAIL_MESSAGE),
                ("firstName", "Please enter your client's first name"),
                ("message", "Please keep the message to 2,000 characters"),
            ]
        );
        let long_name = SendReportRequest {
            first_name: "x".repeat(FIRST_NAME_MAX + 1),
            ..ok
        };
        assert_eq!(
            validate_send_report(&long_name)[0].message,
            "Please keep the first name to 100 characters"
        );
    }

    #[test]
    fn the_owner_sends_and_a_member_sends_when_the_role_lets_them_run_reports() {
        assert!(may_send(TeamRole::Owner, &[]));
        for role in [TeamRole::Admin, TeamRole::Member] {
            assert!(may_send(role, &role.permissions()), "{role:?}");
            assert!(!may_send(role, &[]), "{role:?} without permissions");
            assert!(!may_send(role, &["reports:read".to_owned()]), "{role:?}");
        }
    }

    #[test]
    fn the_allowance_frees_a_send_when_the_oldest_leaves_the_hour() {
        let oldest = 1_000_000_000;
        assert_eq!(send_retry_after(oldest, oldest + 1000), 3599);
        assert_eq!(send_retry_after(oldest, oldest + 3_599_500), 1);
        assert_eq!(send_retry_after(oldest, oldest + 7_200_000), 1);
        assert_eq!(
            send_limited_message(3599),
            "You have sent 30 reports in the last hour. Please try again in 60 minutes."
        );
        assert_eq!(
            send_limited_message(30),
            "You have sent 30 reports in the last hour. Please try again in 1 minute."
        );
    }
}
