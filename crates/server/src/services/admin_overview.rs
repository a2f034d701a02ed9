//! The admin area's business at a glance (issue 16 item 4): every figure computed from stored
//! rows over the last `domain::admin_area::OVERVIEW_DAYS` UTC days, today included, with each
//! day present (zeros where nothing happened) and each share's definition beside it.

use chrono::{DateTime, Duration, NaiveDate, Utc};
use domain::admin_area::{
    AdminOverview, CONVERSION_DEFINITION, DayFigures, FAILURE_DEFINITION, MONEY_DEFINITION,
    OVERVIEW_DAYS, Share,
};
use domain::credits::Credits;
use store::admin::OverviewRows;
use store::{DatabaseConnection, StoreError};

/// The overview as of `at`.
pub async fn overview(
    db: &DatabaseConnection,
    at: DateTime<Utc>,
) -> Result<AdminOverview, StoreError> {
    let first_day = at.date_naive() - Duration::days(i64::from(OVERVIEW_DAYS) - 1);
    let since = first_day.and_hms_opt(0, 0, 0).unwrap_or_default().and_utc();
    let rows = store::admin::overview_rows(db, since).await?;
    let queue = store::jobs::queue_summary(db).await?;
    let mut view = summarise(first_day, &rows);
    view.queue_waiting = queue.waiting;
    view.queue_running = queue.running;
    view.oldest_wait_seconds = queue
        .oldest_queued_at
        .map(|t| u64::try_from((at - t).num_seconds()).unwrap_or(0));
    Ok(view)
}

/// The figures of `rows`, by day from `first_day` (the queue left empty).
fn summarise(first_day: NaiveDate, rows: &OverviewRows) -> AdminOverview {
    let mut days: Vec<DayFigures> = (0..OVERVIEW_DAYS)
        .map(|n| DayFigures {
            day: (first_day + Duration::days(i64::from(n)))
                .format("%Y-%m-%d")
                .to_string(),
            analyses: 0,
            failed: 0,
            signups: 0,
            revenue_cents: 0,
        })
        .collect();
    let index = |t: &DateTime<Utc>| {
        usize::try_from((t.date_naive() - first_day).num_days())
            .ok()
            .filter(|i| *i < days_len())
    };
    let (mut ended, mut failed) = (0u64, 0u64);
    for (t, status) in &rows.jobs {
        let is_failed = status == "failed";
        if is_failed || status == "complete" {
            ended += 1;
        }
        if is_failed {
            failed += 1;
        }
        if let Some(i) = index(t) {
            days[i].analyses += 1;
            days[i].failed += u32::from(is_failed);
        }
    }
    for t in &rows.signups {
        if let Some(i) = index(t) {
            days[i].signups += 1;
        }
    }
    let mut gross = 0i64;
    for (t, cents) in &rows.payments {
        gross += cents;
        if let Some(i) = index(t) {
            days[i].revenue_cents += cents;
        }
    }
    let mut refunded = 0i64;
    for (t, cents) in &rows.refunds {
        refunded += cents;
        if let Some(i) = index(t) {
            days[i].revenue_cents -= cents;
        }
    }
    let (mut sold, mut spent, mut given_back) = (0i64, 0i64, 0i64);
    for (reason, delta) in &rows.ledger {
        let delta = i64::from(*delta);
        match reason.as_str() {
            "purchase" => sold += delta,
            "spend" => spent -= delta,
            // A failed analysis's credits given back (a payment's refund takes credits, <0).
            "refund" if delta > 0 => given_back += delta,
            _ => {}
        }
    }
    let credits =
        |halves: i64| Credits::from_halves(u32::try_from(halves.max(0)).unwrap_or(u32::MAX));
    AdminOverview {
        analyses: rows.jobs.len() as u64,
        signups: rows.signups.len() as u64,
        gross_revenue_cents: gross,
        refunded_cents: refunded,
        credits_sold: credits(sold),
        credits_spent: credits(spent - given_back),
        conversion: Share::of(rows.signups_who_paid, rows.signups.len() as u64),
        conversion_all_time: Share::of(rows.users_who_paid, rows.users),
        failure_rate: Share::of(failed, ended),
        queue_waiting: 0,
        queue_running: 0,
        oldest_wait_seconds: None,
        conversion_definition: CONVERSION_DEFINITION.to_owned(),
        failure_definition: FAILURE_DEFINITION.to_owned(),
        money_definition: MONEY_DEFINITION.to_owned(),
        days,
    }
}

fn days_len() -> usize {
    OVERVIEW_DAYS as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(day: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(&format!("{day}T12:00:00Z"))
            .expect("time")
            .to_utc()
    }

    #[test]
    fn an_empty_database_is_all_zeros() {
        let first = NaiveDate::from_ymd_opt(2026, 11, 1).expect("day");
        let view = summarise(first, &OverviewRows::default());
        assert_eq!(view.days.len(), 30);
        assert_eq!(view.days[0].day, "2026-11-01");
        assert_eq!(view.days[29].day, "2026-11-30");
        assert!(
            view.days
                .iter()
                .all(|d| d.analyses == 0 && d.revenue_cents == 0)
        );
        assert_eq!(view.conversion.percent, None);
        assert_eq!(view.failure_rate.percent, None);
        assert_eq!(view.credits_sold, Credits::ZERO);
    }

    #[test]
    fn rows_land_on_their_day_and_shares_follow_their_definitions() {
        let first = NaiveDate::from_ymd_opt(2026, 11, 1).expect("day");
        let rows = OverviewRows {
            jobs: vec![
                (at("2026-11-01"), "complete".into()),
                (at("2026-11-01"), "failed".into()),
                (at("2026-11-03"), "queued".into()),
                (at("2026-11-30"), "complete".into()),
            ],
            signups: vec![at("2026-11-02"), at("2026-11-02"), at("2026-11-05")],
            payments: vec![(at("2026-11-02"), 1900), (at("2026-11-04"), 4900)],
            refunds: vec![(at("2026-11-04"), 900)],
            ledger: vec![
                ("purchase".into(), 10),
                ("spend".into(), -3),
                ("spend".into(), -2),
                ("refund".into(), 2),
                ("refund".into(), -4),
                ("trial".into(), 2),
            ],
            signups_who_paid: 1,
            users: 10,
            users_who_paid: 4,
        };
        let view = summarise(first, &rows);
        assert_eq!(view.days[0].analyses, 2);
        assert_eq!(view.days[0].failed, 1);
        assert_eq!(view.days[29].analyses, 1);
        assert_eq!(view.days[1].signups, 2);
        assert_eq!(view.days[1].revenue_cents, 1900);
        assert_eq!(view.days[3].revenue_cents, 4000);
        assert_eq!(view.gross_revenue_cents, 6800);
        assert_eq!(view.refunded_cents, 900);
        assert_eq!(view.credits_sold, Credits::whole(5));
        assert_eq!(view.credits_spent, Credits::from_halves(3));
        assert_eq!(view.failure_rate, Share::of(1, 3));
        assert_eq!(view.conversion, Share::of(1, 3));
        assert_eq!(view.conversion_all_time.percent, Some(40.0));
    }
}
