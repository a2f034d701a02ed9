//! Links between payments (issue 14, refunds of plans): what a refund of a plan's payment must
//! reach besides that payment's own credits.
//!
//! - `subscriptions.period_payment_id`: the payment (first checkout or invoice) that paid the
//!   subscription's current period. A yearly plan's monthly grants and a change of plan's grant
//!   are made under it.
//! - `credit_purchases.parent_payment_id`: for a grant made under another payment (months two
//!   to twelve of a yearly plan, the difference a plan upgrade grants), that payment's id, so a
//!   refund of the year's invoice takes back the months it paid for, not only the first.
//! - `payment_aliases`: another id a payment is known by. Stripe's newer API versions no longer
//!   name the invoice on a charge; its `invoice_payment.paid` event tells which payment intent
//!   paid which invoice, and a refund naming only the payment intent finds the invoice here.
//!   A table of its own because that event may arrive before the invoice's own.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::util::{add_column, c, create_all, drop_all, drop_columns, index, now_column};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        add_column(
            manager,
            "subscriptions",
            string_null(c("period_payment_id")),
        )
        .await?;
        add_column(
            manager,
            "credit_purchases",
            string_null(c("parent_payment_id")),
        )
        .await?;
        manager
            .create_index(index(
                c("credit_purchases"),
                "parent_payment",
                &["parent_payment_id"],
                false,
            ))
            .await?;
        let aliases = Table::create()
            .table(c("payment_aliases"))
            .col(string(c("alias")).primary_key())
            .col(string(c("payment_id")))
            .col(now_column("created_at"))
            .take();
        create_all(manager, vec![aliases], Vec::new()).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_all(manager, &["payment_aliases"]).await?;
        manager
            .drop_index(
                Index::drop()
                    .name("idx_credit_purchases_parent_payment")
                    .table(c("credit_purchases"))
                    .to_owned(),
            )
            .await?;
        drop_columns(
            manager,
            &[
                ("credit_purchases", "parent_payment_id"),
                ("subscriptions", "period_payment_id"),
            ],
        )
        .await
    }
}
