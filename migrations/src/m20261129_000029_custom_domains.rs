//! Custom domains (issue 15 item 3, docs/PRODUCT.md §3.3 `customDomain`): `custom_domains`, an
//! agency's domain with the token its DNS TXT record must hold, when it was verified and the
//! last check's time and failure.
//!
//! A table of its own rather than columns on `whitelabel_branding`: a branding row needs a
//! company name, while an agency may set its domain up before its branding, and the branding
//! settings rewrite their row whole on every save, which must never un-verify a domain. One
//! domain per account (`user_id` unique) and one account per domain (`domain` unique), so two
//! agencies can never both serve one host. `whitelabel_branding.custom_domain` (migration 000001)
//! is left as it was; nothing sets it, and the server reads domains from this table only.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::util::{c, create_all, drop_all, fk, now_column};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let domains = Table::create()
            .table(c("custom_domains"))
            .col(big_pk_auto(c("id")))
            .col(big_integer(c("user_id")).unique_key())
            .col(string(c("domain")).unique_key())
            .col(string(c("token")))
            .col(timestamp_with_time_zone_null(c("verified_at")))
            .col(timestamp_with_time_zone_null(c("checked_at")))
            .col(text_null(c("last_error")))
            .col(now_column("created_at"))
            .col(now_column("updated_at"))
            .foreign_key(&mut fk(
                c("custom_domains"),
                c("user_id"),
                c("users"),
                ForeignKeyAction::Cascade,
            ))
            .take();
        create_all(manager, vec![domains], Vec::new()).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_all(manager, &["custom_domains"]).await
    }
}
