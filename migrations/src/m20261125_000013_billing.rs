//! Billing (docs/PRODUCT.md §7.10, §9.2, §9.3): the checkouts a buyer started (what they buy
//! and at what price, fixed by the server before any payment), subscriptions to the plans, and
//! refunds already applied, each unique by the processor's id so a redelivered event changes
//! nothing. Payments themselves stay in `credit_purchases` (unique by payment id) and every
//! credit movement in `credit_ledger`; handled webhook events in `webhook_events`.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::util::{c, create_all, drop_all, fk, index, now_column};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let checkouts = Table::create()
            .table(c("checkout_sessions"))
            // Our own random id; it is also Stripe's `client_reference_id`.
            .col(string(c("id")).primary_key())
            .col(big_integer(c("user_id")))
            // pack, credits, plan or upgrade.
            .col(string(c("kind")))
            .col(string(c("package_id")))
            // Credits granted on payment (a plan: each month); NULL is unlimited.
            .col(integer_null(c("credits")))
            .col(big_integer(c("amount_cents")))
            .col(string_null(c("billing_interval")))
            .col(integer(c("extra_seats")).default(0))
            .col(string_null(c("report_type")))
            .col(string_null(c("url")))
            // test or stripe.
            .col(string(c("mode")))
            // Stripe's checkout session id.
            .col(string_null(c("provider_ref")).unique_key())
            // open, paid, declined or expired.
            .col(string(c("status")).default("open"))
            .col(string_null(c("payment_id")))
            .col(now_column("created_at"))
            .col(timestamp_with_time_zone_null(c("completed_at")))
            .foreign_key(&mut fk(
                c("checkout_sessions"),
                c("user_id"),
                c("users"),
                ForeignKeyAction::Cascade,
            ))
            .take();

        let subscriptions = Table::create()
            .table(c("subscriptions"))
            .col(big_pk_auto(c("id")))
            // One subscription per account: changing plan updates it.
            .col(big_integer(c("user_id")).unique_key())
            .col(string(c("plan_id")))
            .col(string(c("billing_interval")))
            // docs: domain::checkout::SubscriptionStatus.
            .col(string(c("status")))
            .col(integer(c("extra_seats")).default(0))
            .col(big_integer(c("amount_cents")))
            .col(timestamp_with_time_zone(c("current_period_start")))
            .col(timestamp_with_time_zone(c("current_period_end")))
            .col(string_null(c("stripe_subscription_id")).unique_key())
            // When the newest processor event applied to this row was created: an older event
            // delivered late never overwrites a newer state.
            .col(timestamp_with_time_zone_null(c("last_event_at")))
            .col(now_column("created_at"))
            .col(now_column("updated_at"))
            .foreign_key(&mut fk(
                c("subscriptions"),
                c("user_id"),
                c("users"),
                ForeignKeyAction::Cascade,
            ))
            .take();

        let refunds = Table::create()
            .table(c("refunds"))
            // The processor's refund (or charge) id.
            .col(string(c("id")).primary_key())
            // Kept (anonymised) when the user is deleted: it is a financial record.
            .col(big_integer_null(c("user_id")))
            .col(string(c("payment_id")))
            .col(big_integer(c("amount_cents")))
            // Unspent credits taken back (never more than the balance held).
            .col(integer(c("credits_removed")))
            .col(now_column("created_at"))
            .foreign_key(&mut fk(
                c("refunds"),
                c("user_id"),
                c("users"),
                ForeignKeyAction::SetNull,
            ))
            .take();

        create_all(
            manager,
            vec![checkouts, subscriptions, refunds],
            vec![index(
                c("checkout_sessions"),
                "user_time",
                &["user_id", "created_at"],
                false,
            )],
        )
        .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_all(manager, &["refunds", "subscriptions", "checkout_sessions"]).await
    }
}
