//! The affiliate programme (docs/PRODUCT.md §3.10-§3.13): affiliates, their clicks, conversions and
//! payouts. Amounts are integer cents.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::util::{c, create_all, drop_all, fk, index, now_column};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let affiliates = Table::create()
            .table(c("affiliates"))
            .col(big_pk_auto(c("id")))
            .col(big_integer_null(c("user_id")))
            .col(string(c("affiliate_code")).unique_key())
            .col(string(c("name")))
            .col(string(c("email")).unique_key())
            .col(string_null(c("website")))
            .col(string_null(c("company")))
            .col(text(c("experience")))
            .col(string(c("traffic_source")))
            .col(string(c("monthly_traffic")))
            .col(text(c("motivation")))
            .col(string(c("status")).default("pending"))
            .col(integer(c("commission_rate")).default(30))
            .col(big_integer(c("total_earnings_cents")).default(0))
            .col(big_integer(c("pending_payouts_cents")).default(0))
            .col(integer(c("total_clicks")).default(0))
            .col(integer(c("total_conversions")).default(0))
            .col(timestamp_with_time_zone_null(c("last_payout_date")))
            .col(timestamp_with_time_zone_null(c("next_payout_date")))
            .col(now_column("created_at"))
            .col(now_column("updated_at"))
            .foreign_key(&mut fk(
                c("affiliates"),
                c("user_id"),
                c("users"),
                ForeignKeyAction::SetNull,
            ))
            .take();

        let clicks = Table::create()
            .table(c("affiliate_clicks"))
            .col(big_pk_auto(c("id")))
            .col(big_integer(c("affiliate_id")))
            .col(string(c("ip_address")))
            .col(string_null(c("user_agent")))
            .col(string_null(c("referrer")))
            .col(string_null(c("landing_page")))
            .col(now_column("timestamp"))
            .foreign_key(&mut fk(
                c("affiliate_clicks"),
                c("affiliate_id"),
                c("affiliates"),
                ForeignKeyAction::Cascade,
            ))
            .take();

        let conversions = Table::create()
            .table(c("affiliate_conversions"))
            .col(big_pk_auto(c("id")))
            .col(big_integer(c("affiliate_id")))
            .col(big_integer_null(c("click_id")))
            .col(big_integer_null(c("user_id")))
            .col(string(c("transaction_type")))
            .col(big_integer(c("transaction_amount_cents")))
            .col(big_integer(c("commission_amount_cents")))
            .col(string(c("commission_status")).default("pending"))
            .col(string_null(c("customer_email")))
            // One conversion per payment, however often the webhook is delivered.
            .col(string_null(c("stripe_payment_intent_id")).unique_key())
            .col(now_column("timestamp"))
            .foreign_key(&mut fk(
                c("affiliate_conversions"),
                c("affiliate_id"),
                c("affiliates"),
                ForeignKeyAction::Cascade,
            ))
            .foreign_key(&mut fk(
                c("affiliate_conversions"),
                c("click_id"),
                c("affiliate_clicks"),
                ForeignKeyAction::SetNull,
            ))
            .foreign_key(&mut fk(
                c("affiliate_conversions"),
                c("user_id"),
                c("users"),
                ForeignKeyAction::SetNull,
            ))
            .take();

        let payouts = Table::create()
            .table(c("affiliate_payouts"))
            .col(big_pk_auto(c("id")))
            .col(big_integer(c("affiliate_id")))
            .col(big_integer(c("amount_cents")))
            .col(string(c("method")).default("stripe"))
            .col(string(c("status")).default("pending"))
            .col(timestamp_with_time_zone_null(c("payout_date")))
            .col(string_null(c("stripe_transfer_id")))
            .col(text_null(c("notes")))
            .col(now_column("created_at"))
            .foreign_key(&mut fk(
                c("affiliate_payouts"),
                c("affiliate_id"),
                c("affiliates"),
                ForeignKeyAction::Cascade,
            ))
            .take();

        create_all(
            manager,
            vec![affiliates, clicks, conversions, payouts],
            vec![
                index(c("affiliates"), "user", &["user_id"], false),
                index(
                    c("affiliate_clicks"),
                    "affiliate_time",
                    &["affiliate_id", "timestamp"],
                    false,
                ),
                index(
                    c("affiliate_conversions"),
                    "affiliate_time",
                    &["affiliate_id", "timestamp"],
                    false,
                ),
                index(
                    c("affiliate_payouts"),
                    "affiliate",
                    &["affiliate_id"],
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
                "affiliate_payouts",
                "affiliate_conversions",
                "affiliate_clicks",
                "affiliates",
            ],
        )
        .await
    }
}
