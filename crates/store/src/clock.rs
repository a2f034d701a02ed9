//! Time as the database keeps it.

use chrono::{DateTime, SubsecRound, Utc};

/// The current time at microsecond precision, the precision PostgreSQL keeps, so a value
/// read back equals the value written on both engines.
pub fn now() -> DateTime<Utc> {
    Utc::now().trunc_subsecs(6)
}
