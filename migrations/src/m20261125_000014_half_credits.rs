//! Half credits and paid reports (docs/PRODUCT.md §9.2).
//!
//! The basic report costs half a credit, so balances and the ledger now count half credits
//! (`domain::credits::Credits::halves`): every stored balance (`users.report_credits`,
//! `users.trial_credits`) and ledger movement (`credit_ledger.delta`) is doubled, which keeps
//! each value exactly. `credit_purchases.credits_added` stays in whole credits: a purchase is
//! always of whole credits, and it is the receipt of what was bought.
//!
//! A paid analysis records what it cost on its job, from which pool, and whether that was given
//! back after a failure (`credits_refunded_at`, set once), and a report records whether it was
//! paid for (`analysis_results.paid`), which decides what its readers see. Reports stored before
//! this migration that are standard or premium could only have been made as professional
//! reports, so they are marked paid; basic ones are free.

use sea_orm_migration::prelude::*;
use sea_orm_migration::schema::*;

use crate::util::c;

#[derive(DeriveMigrationName)]
pub struct Migration;

/// Multiplies (`up`) or divides (`down`) a column of whole counts by two.
fn scale(table: &'static str, columns: &[&'static str], up: bool) -> UpdateStatement {
    let mut update = Query::update();
    update.table(c(table));
    for column in columns {
        let value = if up {
            Expr::col(c(column)).mul(2)
        } else {
            Expr::col(c(column)).div(2)
        };
        update.value(c(column), value);
    }
    update.to_owned()
}

async fn add_column(
    manager: &SchemaManager<'_>,
    table: &'static str,
    column: impl IntoColumnDef,
) -> Result<(), DbErr> {
    // One change per statement: SQLite's ALTER TABLE takes a single one.
    manager
        .alter_table(Table::alter().table(c(table)).add_column(column).to_owned())
        .await
}

async fn drop_column(
    manager: &SchemaManager<'_>,
    table: &'static str,
    column: &'static str,
) -> Result<(), DbErr> {
    manager
        .alter_table(
            Table::alter()
                .table(c(table))
                .drop_column(c(column))
                .to_owned(),
        )
        .await
}

/// Job columns this migration adds.
const JOB_COLUMNS: [&str; 4] = [
    "trial_charge",
    "paid_charge",
    "charged_user_id",
    "credits_refunded_at",
];

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .exec_stmt(scale("users", &["report_credits", "trial_credits"], true))
            .await?;
        manager
            .exec_stmt(scale("credit_ledger", &["delta"], true))
            .await?;

        // Half credits taken from the requester's trial credit, and from the paying user's
        // (the team owner's, for a member) paid credits.
        add_column(
            manager,
            "analysis_jobs",
            integer(c("trial_charge")).default(0),
        )
        .await?;
        add_column(
            manager,
            "analysis_jobs",
            integer(c("paid_charge")).default(0),
        )
        .await?;
        add_column(
            manager,
            "analysis_jobs",
            big_integer_null(c("charged_user_id")),
        )
        .await?;
        // When a failed paid analysis gave its credits back; set once, so it happens once.
        add_column(
            manager,
            "analysis_jobs",
            timestamp_with_time_zone_null(c("credits_refunded_at")),
        )
        .await?;

        add_column(
            manager,
            "analysis_results",
            boolean(c("paid")).default(false),
        )
        .await?;
        manager
            .exec_stmt(
                Query::update()
                    .table(c("analysis_results"))
                    .value(c("paid"), true)
                    .and_where(Expr::col(c("tier")).ne("basic"))
                    .to_owned(),
            )
            .await?;
        Ok(())
    }

    /// Back to whole credits. A half credit cannot be written as a whole one without changing
    /// someone's balance, so going back is refused while any balance or ledger row holds one.
    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let odd = |table: &'static str, columns: &[&'static str]| {
            let mut select = Query::select();
            select.expr(Expr::val(1)).from(c(table));
            let mut any = Condition::any();
            for column in columns {
                any = any.add(Expr::col(c(column)).modulo(2).ne(0));
            }
            select.cond_where(any).limit(1).to_owned()
        };
        let db = manager.get_connection();
        for (table, columns) in [
            ("users", &["report_credits", "trial_credits"][..]),
            ("credit_ledger", &["delta"][..]),
        ] {
            if db.query_one(&odd(table, columns)).await?.is_some() {
                return Err(DbErr::Migration(format!(
                    "{table} holds half credits, which whole credits cannot represent"
                )));
            }
        }
        manager
            .exec_stmt(scale("users", &["report_credits", "trial_credits"], false))
            .await?;
        manager
            .exec_stmt(scale("credit_ledger", &["delta"], false))
            .await?;
        drop_column(manager, "analysis_results", "paid").await?;
        for column in JOB_COLUMNS {
            drop_column(manager, "analysis_jobs", column).await?;
        }
        Ok(())
    }
}
