//! The contact form: checked, then stored for the team to read.

use serde::Deserialize;
use store::{DatabaseConnection, StoreError};

/// The contact form.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContactRequest {
    /// Name.
    pub name: String,
    /// E-mail.
    pub email: String,
    /// Subject.
    #[serde(default)]
    pub subject: String,
    /// Message.
    pub message: String,
}

/// Why a message was not accepted.
#[derive(Debug, thiserror::Error)]
pub enum ContactError {
    /// A field is missing or wrong; the text says which, for the visitor.
    #[error("{0}")]
    Invalid(String),
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Longest message accepted, in characters.
const MAX_MESSAGE: usize = 5000;
/// Longest name or subject accepted, in characters.
const MAX_FIELD: usize = 200;

/// Checks and stores a contact message.
pub async fn submit_contact(
    db: &DatabaseConnection,
    form: &ContactRequest,
) -> Result<(), ContactError> {
    let invalid = |text: &str| Err(ContactError::Invalid(text.to_owned()));
    if form.name.trim().is_empty() {
        return invalid("Please enter your name");
    }
    if !domain::forms::is_valid_email(&form.email) {
        return invalid(domain::forms::EMAIL_MESSAGE);
    }
    let message = form.message.trim();
    if message.is_empty() {
        return invalid("Please enter a message");
    }
    if message.chars().count() > MAX_MESSAGE
        || form.subject.chars().count() > MAX_FIELD
        || form.name.chars().count() > MAX_FIELD
    {
        return invalid("The message is too long: keep it under 5,000 characters");
    }
    store::contact::save_contact_message(
        db,
        &store::contact::NewContactMessage {
            name: form.name.trim().to_owned(),
            email: form.email.trim().to_owned(),
            subject: form.subject.trim().to_owned(),
            message: message.to_owned(),
        },
    )
    .await?;
    Ok(())
}
