//! Messages sent through the contact form.

use sea_orm::{ActiveValue::Set, DatabaseConnection, EntityTrait, QueryOrder, QuerySelect};

use crate::StoreResult;
use crate::clock::now;
use crate::entity::contact_messages;

/// A contact-form message to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewContactMessage {
    /// Sender's name.
    pub name: String,
    /// Sender's e-mail address.
    pub email: String,
    /// Subject line.
    pub subject: String,
    /// The message.
    pub message: String,
}

/// Stores a message; returns its id.
pub async fn save_contact_message(
    db: &DatabaseConnection,
    message: &NewContactMessage,
) -> StoreResult<i64> {
    let row = contact_messages::ActiveModel {
        name: Set(message.name.clone()),
        email: Set(message.email.clone()),
        subject: Set(message.subject.clone()),
        message: Set(message.message.clone()),
        created_at: Set(now()),
        ..Default::default()
    };
    Ok(contact_messages::Entity::insert(row)
        .exec(db)
        .await?
        .last_insert_id)
}

/// The newest `limit` messages.
pub async fn recent_contact_messages(
    db: &DatabaseConnection,
    limit: u64,
) -> StoreResult<Vec<contact_messages::Model>> {
    Ok(contact_messages::Entity::find()
        .order_by_desc(contact_messages::Column::Id)
        .limit(limit)
        .all(db)
        .await?)
}
