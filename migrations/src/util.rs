//! Small helpers shared by the migrations so each table definition reads as a list of columns.

use sea_orm_migration::prelude::*;

/// A foreign key from `table.column` to `target.id` with the given delete rule.
pub fn fk<T, C, R>(
    table: T,
    column: C,
    target: R,
    on_delete: ForeignKeyAction,
) -> ForeignKeyCreateStatement
where
    T: IntoIden + Clone + 'static,
    C: IntoIden + 'static,
    R: IntoIden + 'static,
{
    ForeignKey::create()
        .from(table, column)
        .to(target, Alias::new("id"))
        .on_delete(on_delete)
        .on_update(ForeignKeyAction::Cascade)
        .take()
}

/// A (possibly unique) index on `table(columns...)`, named `idx_<table>_<name>`.
pub fn index<T>(
    table: T,
    name: &str,
    columns: &[&'static str],
    unique: bool,
) -> IndexCreateStatement
where
    T: IntoIden + 'static,
{
    let table = table.into_iden();
    let mut index = Index::create();
    index.name(format!("idx_{table}_{name}")).table(table);
    for column in columns {
        index.col(Alias::new(*column));
    }
    if unique {
        index.unique();
    }
    index.take()
}

/// Creates every table in order, then every index.
pub async fn create_all(
    manager: &SchemaManager<'_>,
    tables: Vec<TableCreateStatement>,
    indexes: Vec<IndexCreateStatement>,
) -> Result<(), DbErr> {
    for table in tables {
        manager.create_table(table).await?;
    }
    for index in indexes {
        manager.create_index(index).await?;
    }
    Ok(())
}

/// Drops the named tables in the order given (children before parents).
pub async fn drop_all(manager: &SchemaManager<'_>, tables: &[&'static str]) -> Result<(), DbErr> {
    for table in tables {
        manager
            .drop_table(Table::drop().table(Alias::new(*table)).to_owned())
            .await?;
    }
    Ok(())
}

/// A column or table name.
pub fn c(name: &'static str) -> Alias {
    Alias::new(name)
}

/// A `created_at`/`updated_at`-style timestamp column, defaulting to now.
///
/// Application code always writes these values itself (one format on SQLite, where text
/// timestamps are compared as text); the default only protects hand-written inserts.
pub fn now_column(name: &'static str) -> ColumnDef {
    ColumnDef::new(c(name))
        .timestamp_with_time_zone()
        .not_null()
        .default(Expr::current_timestamp())
        .take()
}

/// Adds `column` to `table`. One change per statement: SQLite's `ALTER TABLE` takes a single
/// one, PostgreSQL any number, so one statement each works on both.
pub async fn add_column(
    manager: &SchemaManager<'_>,
    table: &'static str,
    column: ColumnDef,
) -> Result<(), DbErr> {
    manager
        .alter_table(Table::alter().table(c(table)).add_column(column).to_owned())
        .await
}

/// Drops each `(table, column)` in the order given, one statement each (see [`add_column`]).
pub async fn drop_columns(
    manager: &SchemaManager<'_>,
    columns: &[(&'static str, &'static str)],
) -> Result<(), DbErr> {
    for &(table, column) in columns {
        manager
            .alter_table(
                Table::alter()
                    .table(c(table))
                    .drop_column(c(column))
                    .to_owned(),
            )
            .await?;
    }
    Ok(())
}
