//! Usernames are unique regardless of case (docs/PRODUCT.md §3.4, users.username), as e-mail
//! addresses already are. Rows that clash already keep the oldest account's name and the
//! others get `-{id}` appended, so the index can be built on any existing database.
//!
//! This is the one place the schema is written as SQL rather than with sea-query's builder:
//! a unique index on `LOWER(username)` (an expression index) has no builder form, and this
//! statement means the same on SQLite (3.9 and later) and PostgreSQL.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

/// The index's name.
const INDEX: &str = "idx_users_username_lower";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        db.execute_unprepared(
            "UPDATE users SET username = username || '-' || CAST(id AS TEXT) \
             WHERE username IS NOT NULL AND id NOT IN \
             (SELECT MIN(id) FROM users WHERE username IS NOT NULL GROUP BY LOWER(username))",
        )
        .await?;
        db.execute_unprepared(&format!(
            "CREATE UNIQUE INDEX {INDEX} ON users (LOWER(username))"
        ))
        .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_index(
                Index::drop()
                    .name(INDEX)
                    .table(Alias::new("users"))
                    .to_owned(),
            )
            .await
    }
}
