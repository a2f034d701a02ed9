//! The affiliate programme's tracking and payouts (docs/PRODUCT.md §3.10-§3.13, issue 16):
//!
//! - `affiliate_referrals`: the affiliate an account that signed up within the referral
//!   cookie's window belongs to (one per account), the click and when; the account's payments
//!   in its first twelve months earn that affiliate commissions. A table of its own rather than
//!   columns on `users`, so the account rows stay as they were.
//! - `affiliates.rejection_reason` (why an application was turned down) and
//!   `stripe_account_id` (the Stripe Connect account payouts are transferred to).
//! - `affiliate_clicks.click_day`: the UTC day of a click; with `ip_address` (a salted
//!   SHA-256 of the visitor's address, never the address) unique per affiliate, so one
//!   address counts once a day however many processes see its clicks.
//! - `affiliate_conversions.payout_id`: the payout a commission is paid in, so every payout
//!   is the sum of its commissions.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::util::{c, create_all, fk, index, now_column};

#[derive(DeriveMigrationName)]
pub struct Migration;

/// The columns this migration adds, one statement each (SQLite alters one column at a time).
fn columns() -> Vec<(&'static str, ColumnDef)> {
    vec![
        ("affiliates", text_null(c("rejection_reason"))),
        ("affiliates", string_null(c("stripe_account_id"))),
        ("affiliate_clicks", string_null(c("click_day"))),
        ("affiliate_conversions", big_integer_null(c("payout_id"))),
    ]
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let referrals = Table::create()
            .table(c("affiliate_referrals"))
            .col(big_pk_auto(c("id")))
            .col(big_integer(c("user_id")).unique_key())
            .col(big_integer(c("affiliate_id")))
            .col(big_integer_null(c("click_id")))
            .col(now_column("created_at"))
            .foreign_key(&mut fk(
                c("affiliate_referrals"),
                c("user_id"),
                c("users"),
                ForeignKeyAction::Cascade,
            ))
            .foreign_key(&mut fk(
                c("affiliate_referrals"),
                c("affiliate_id"),
                c("affiliates"),
                ForeignKeyAction::Cascade,
            ))
            .foreign_key(&mut fk(
                c("affiliate_referrals"),
                c("click_id"),
                c("affiliate_clicks"),
                ForeignKeyAction::SetNull,
            ))
            .take();
        create_all(
            manager,
            vec![referrals],
            vec![index(
                c("affiliate_referrals"),
                "affiliate",
                &["affiliate_id"],
                false,
            )],
        )
        .await?;
        for (table, mut column) in columns() {
            manager
                .alter_table(
                    Table::alter()
                        .table(c(table))
                        .add_column(&mut column)
                        .to_owned(),
                )
                .await?;
        }
        manager
            .create_index(index(
                c("affiliate_clicks"),
                "daily",
                &["affiliate_id", "ip_address", "click_day"],
                true,
            ))
            .await?;
        manager
            .create_index(index(
                c("affiliate_conversions"),
                "status",
                &["commission_status", "timestamp"],
                false,
            ))
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for (table, name) in [
            ("affiliate_clicks", "daily"),
            ("affiliate_conversions", "status"),
        ] {
            manager
                .drop_index(
                    Index::drop()
                        .name(format!("idx_{table}_{name}"))
                        .table(c(table))
                        .to_owned(),
                )
                .await?;
        }
        for (table, column) in columns() {
            manager
                .alter_table(
                    Table::alter()
                        .table(c(table))
                        .drop_column(Alias::new(column.get_column_name()))
                        .to_owned(),
                )
                .await?;
        }
        crate::util::drop_all(manager, &["affiliate_referrals"]).await
    }
}
