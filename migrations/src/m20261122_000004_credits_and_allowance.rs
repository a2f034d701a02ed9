//! Money and allowances: credit purchases (docs/PRODUCT.md §3.7, idempotent by payment id), a
//! ledger of every credit movement for auditability, the per-address free-analysis tracking and the
//! per-address daily counter that makes the free allowance race-free.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::util::{c, create_all, drop_all, fk, index, now_column};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let purchases = Table::create()
            .table(c("credit_purchases"))
            .col(big_pk_auto(c("id")))
            // Kept (anonymised) when the user is deleted: it is a financial record.
            .col(big_integer_null(c("user_id")))
            .col(string(c("stripe_payment_intent_id")).unique_key())
            .col(integer(c("credits_added")))
            .col(big_integer(c("amount_paid_cents")))
            .col(string(c("package_type")))
            .col(now_column("created_at"))
            .foreign_key(&mut fk(
                c("credit_purchases"),
                c("user_id"),
                c("users"),
                ForeignKeyAction::SetNull,
            ))
            .take();

        let ledger = Table::create()
            .table(c("credit_ledger"))
            .col(big_pk_auto(c("id")))
            .col(big_integer(c("user_id")))
            // Positive for grants, negative for spends.
            .col(integer(c("delta")))
            // paid or trial.
            .col(string(c("pool")))
            // purchase, trial, spend, refund, subscription or admin.
            .col(string(c("reason")))
            // A payment id, a job id or a note.
            .col(string_null(c("reference")))
            .col(now_column("created_at"))
            .foreign_key(&mut fk(
                c("credit_ledger"),
                c("user_id"),
                c("users"),
                ForeignKeyAction::Cascade,
            ))
            .take();

        let tracking = Table::create()
            .table(c("ip_analysis_tracking"))
            .col(big_pk_auto(c("id")))
            .col(string(c("ip_address")))
            // The UTC day the free analysis counts against.
            .col(date(c("analysis_date")))
            .col(string(c("website_url")))
            .col(now_column("created_at"))
            .take();

        // One row per address and day, updated with a guarded increment: the one place the
        // free allowance is decided, so concurrent requests cannot both see "2 used".
        let daily = Table::create()
            .table(c("ip_daily_usage"))
            .col(string(c("ip_address")))
            .col(date(c("day")))
            .col(integer(c("used")).default(0))
            .primary_key(Index::create().col(c("ip_address")).col(c("day")))
            .take();

        create_all(
            manager,
            vec![purchases, ledger, tracking, daily],
            vec![
                index(c("credit_purchases"), "user", &["user_id"], false),
                index(
                    c("credit_ledger"),
                    "user_time",
                    &["user_id", "created_at"],
                    false,
                ),
                index(
                    c("ip_analysis_tracking"),
                    "ip_day",
                    &["ip_address", "analysis_date"],
                    false,
                ),
            ],
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_all(
            manager,
            &[
                "ip_daily_usage",
                "ip_analysis_tracking",
                "credit_ledger",
                "credit_purchases",
            ],
        )
        .await
    }
}
