//! Hand-written SQL for the operations whose exact statement matters (guarded updates,
//! `ON CONFLICT`, `FOR UPDATE SKIP LOCKED`).
//!
//! Statements are written once with `?` placeholders and numbered (`$1`, `$2`, ...) for
//! PostgreSQL here, so the SQL text in the repositories reads the same for both engines.

use chrono::{DateTime, SubsecRound, Utc};
use sea_orm::{ConnectionTrait, DbBackend, ExecResult, QueryResult, Statement, Value};

use crate::error::StoreResult;

/// The current time at microsecond precision, the precision PostgreSQL keeps, so a value
/// read back equals the value written on both engines.
pub fn now() -> DateTime<Utc> {
    Utc::now().trunc_subsecs(6)
}

/// Builds a statement for the connection's engine from SQL with `?` placeholders.
pub fn stmt(backend: DbBackend, sql: &str, values: Vec<Value>) -> Statement {
    let sql = match backend {
        DbBackend::Postgres => number_placeholders(sql),
        _ => sql.to_owned(),
    };
    Statement::from_sql_and_values(backend, sql, values)
}

fn number_placeholders(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 16);
    let mut n = 0;
    for ch in sql.chars() {
        if ch == '?' {
            n += 1;
            out.push('$');
            out.push_str(&n.to_string());
        } else {
            out.push(ch);
        }
    }
    out
}

/// Executes a statement that returns no rows.
pub async fn exec<C: ConnectionTrait>(
    db: &C,
    sql: &str,
    values: Vec<Value>,
) -> StoreResult<ExecResult> {
    Ok(db
        .execute_raw(stmt(db.get_database_backend(), sql, values))
        .await?)
}

/// Runs a statement that returns at most one row.
pub async fn query_one<C: ConnectionTrait>(
    db: &C,
    sql: &str,
    values: Vec<Value>,
) -> StoreResult<Option<QueryResult>> {
    Ok(db
        .query_one_raw(stmt(db.get_database_backend(), sql, values))
        .await?)
}

/// Runs a statement that returns rows.
pub async fn query_all<C: ConnectionTrait>(
    db: &C,
    sql: &str,
    values: Vec<Value>,
) -> StoreResult<Vec<QueryResult>> {
    Ok(db
        .query_all_raw(stmt(db.get_database_backend(), sql, values))
        .await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn postgres_placeholders_are_numbered_in_order() {
        assert_eq!(number_placeholders("a = ? AND b = ?"), "a = $1 AND b = $2");
    }
}
