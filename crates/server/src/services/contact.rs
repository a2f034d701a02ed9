//! The contact form: checked, then stored for the team to read.

use domain::forms::{ContactForm, validate_contact};
use store::{DatabaseConnection, StoreError};

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

/// Checks a contact message with the rule the web form uses (docs/PRODUCT.md §5.12) and stores it.
/// An invalid form is refused with the message of its first failing field.
pub async fn submit_contact(
    db: &DatabaseConnection,
    form: &ContactForm,
) -> Result<(), ContactError> {
    if let Some(first) = validate_contact(form).into_iter().next() {
        return Err(ContactError::Invalid(first.message));
    }
    store::contact::save_contact_message(
        db,
        &store::contact::NewContactMessage {
            name: form.name.trim().to_owned(),
            email: form.email.trim().to_owned(),
            subject: form.subject.trim().to_owned(),
            message: form.message.trim().to_owned(),
        },
    )
    .await?;
    Ok(())
}
