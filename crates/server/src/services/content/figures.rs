//! The figures articles quote, resolved from `domain` when the page is rendered. An article
//! writes `{{weight.seo}}` where it quotes the SEO weight of the overall score; the renderer
//! replaces the marker with the value the code uses, so the text cannot drift from the rules.
//! A marker this table does not know is an error when the content loads (and so fails the
//! content tests), never a blank in a page.

use domain::affiliates;
use domain::commerce::{self, ANNUAL_MONTHS_PAID, format_dollars};
use domain::performance::good_ranges;
use domain::report::{FindingType, ReportType};
use domain::score::{self, FormFactor, LabMetric, OVERALL_WEIGHTS};

/// The value of the figure `name`, as an article prints it, or `None` for an unknown name.
pub fn figure(name: &str) -> Option<String> {
    let parts: Vec<&str> = name.split('.').collect();
    match parts.as_slice() {
        ["weight", section] => {
            let w = OVERALL_WEIGHTS;
            let v = match *section {
                "seo" => w.seo,
                "technical" => w.technical,
                "performance" => w.performance,
                "design" => w.design,
                _ => return None,
            };
            Some(v.to_string())
        }
        // The lowest score of a band, found by asking the band functions themselves.
        ["badge", band] => lowest_in_band(band, score::badge_band),
        ["ring", band] => lowest_in_band(band, score::ring_band),
        ["findings", kind] => findings_credit(kind),
        ["curve", metric, form, field] => curve_figure(metric, form, field),
        ["range", id, field] => {
            let r = good_ranges().into_iter().find(|r| r.id == *id)?;
            match *field {
                "min" => r.min.map(number),
                "max" => r.max.map(number),
                "text" => Some(r.text),
                _ => None,
            }
        }
        ["price", "credit"] => Some(format_dollars(commerce::CREDIT_PRICE_CENTS)),
        ["free", "per_day"] => Some(commerce::FREE_ANALYSES_PER_DAY.to_string()),
        ["trial", "credits"] => Some(commerce::TRIAL_CREDITS.to_string()),
        ["trial", "days"] => Some(commerce::TRIAL_VALID_DAYS.to_string()),
        ["hours", "per_credit"] => Some(commerce::HOURS_SAVED_PER_CREDIT.to_string()),
        ["affiliate", "percent"] => Some(commerce::AFFILIATE_COMMISSION_PERCENT.to_string()),
        ["affiliate", "cookie_days"] => Some(affiliates::REFERRAL_COOKIE_DAYS.to_string()),
        ["affiliate", "refund_days"] => Some(affiliates::REFUND_WINDOW_DAYS.to_string()),
        ["affiliate", "payout_minimum"] => Some(commerce::format_dollars(
            u32::try_from(affiliates::PAYOUT_MINIMUM_CENTS).unwrap_or(0),
        )),
        ["annual", "months_paid"] => Some(ANNUAL_MONTHS_PAID.to_string()),
        ["annual", "months_free"] => Some((12 - ANNUAL_MONTHS_PAID).to_string()),
        ["step", n, field] => {
            let i: usize = n.parse().ok()?;
            let step = domain::constants::steps()
                .into_iter()
                .nth(i.checked_sub(1)?)?;
            match *field {
                "name" => Some(step.name),
                "percent" => Some(step.threshold.to_string()),
                _ => None,
            }
        }
        ["wordpress", "below"] => Some(domain::advice::WORDPRESS_TIP_BELOW.to_string()),
        ["unit", credits] => {
            let n: u32 = credits.parse().ok()?;
            Some(format_dollars(commerce::unit_price_cents(n)))
        }
        ["pack", id, field] => {
            let p = commerce::credit_packs()
                .into_iter()
                .find(|p| p.package_id == *id)?;
            match *field {
                "name" => Some(p.name),
                "credits" => Some(p.credits.to_string()),
                "price" => Some(format_dollars(p.price)),
                "per_credit" => Some(format_dollars((p.price_per_credit * 100.0).round() as u32)),
                "discount" => Some(p.discount_percent.to_string()),
                _ => None,
            }
        }
        ["plan", id, field] => {
            let p = commerce::plans()
                .into_iter()
                .find(|p| p.id == format!("{id}-plan"))?;
            match *field {
                "name" => Some(p.name),
                "credits" => p.credits.map(|c| c.to_string()),
                "monthly" => Some(format_dollars(p.monthly_price)),
                "yearly" => Some(format_dollars(p.yearly_price)),
                "seats" => p.team_members.map(|s| s.to_string()),
                "seat_price" => p.additional_seat_price.map(format_dollars),
                _ => None,
            }
        }
        ["api", "rate_limit"] => Some(domain::api::DEFAULT_RATE_LIMIT_PER_MINUTE.to_string()),
        ["api", "idempotency_hours"] => {
            Some((domain::api::IDEMPOTENCY_KEY_TTL_SECONDS / 3600).to_string())
        }
        ["api", "usage_days"] => Some(domain::api::API_USAGE_RETENTION_DAYS.to_string()),
        ["report", kind, field] => {
            let t = ReportType::parse(kind)?;
            let info = commerce::report_type_info(t);
            match *field {
                "credits" => Some(info.credits.to_string()),
                "pages" => Some(info.pages.to_string()),
                "name" => Some(info.name),
                _ => None,
            }
        }
        _ => None,
    }
}

/// A number as people write it: no trailing `.0`.
fn number(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').to_owned()
    }
}

fn lowest_in_band(band: &str, of: impl Fn(f64) -> score::Band) -> Option<String> {
    let want = match band {
        "green" => score::Band::Green,
        "yellow" => score::Band::Yellow,
        "amber" => score::Band::Amber,
        "red" => score::Band::Red,
        _ => return None,
    };
    (0..=100)
        .find(|s| of(f64::from(*s)) == want)
        .map(|s| s.to_string())
}

/// What one finding of a kind is worth in `findings_score`, as a fraction of a good one.
fn findings_credit(kind: &str) -> Option<String> {
    let kind = match kind {
        "good" => FindingType::Good,
        "warning" => FindingType::Warning,
        "issue" => FindingType::Issue,
        _ => return None,
    };
    let finding = analyzer::checks::finding("figure", kind, "", "", None, None);
    Some(number(
        f64::from(score::findings_score(std::slice::from_ref(&finding))) / 100.0,
    ))
}

fn curve_figure(metric: &str, form: &str, field: &str) -> Option<String> {
    let metric = match metric {
        "fcp" => LabMetric::FirstContentfulPaint,
        "si" => LabMetric::SpeedIndex,
        "lcp" => LabMetric::LargestContentfulPaint,
        "tbt" => LabMetric::TotalBlockingTime,
        "cls" => LabMetric::CumulativeLayoutShift,
        _ => return None,
    };
    let form = match form {
        "mobile" => FormFactor::Mobile,
        "desktop" => FormFactor::Desktop,
        _ => return None,
    };
    let c = score::curve(metric, form);
    let ms = |v: f64| {
        if metric == LabMetric::CumulativeLayoutShift {
            number(v)
        } else if v >= 1000.0 {
            format!("{} s", number(v / 1000.0))
        } else {
            format!("{} ms", number(v))
        }
    };
    match field {
        "p10" => Some(ms(c.p10)),
        "median" => Some(ms(c.median)),
        "weight" => Some(c.weight.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_come_from_domain() {
        assert_eq!(figure("weight.seo").as_deref(), Some("30"));
        assert_eq!(figure("badge.green").as_deref(), Some("80"));
        assert_eq!(figure("ring.amber").as_deref(), Some("50"));
        assert_eq!(figure("findings.warning").as_deref(), Some("0.5"));
        assert_eq!(figure("curve.lcp.mobile.p10").as_deref(), Some("2.5 s"));
        assert_eq!(figure("curve.tbt.mobile.median").as_deref(), Some("600 ms"));
        assert_eq!(figure("curve.cls.mobile.p10").as_deref(), Some("0.1"));
        assert_eq!(figure("range.title.min").as_deref(), Some("30"));
        assert_eq!(figure("pack.credit-20.price").as_deref(), Some("$70"));
        assert_eq!(
            figure("pack.credit-20.per_credit").as_deref(),
            Some("$3.50")
        );
        assert_eq!(figure("plan.business.monthly").as_deref(), Some("$70"));
        assert_eq!(figure("report.basic.credits").as_deref(), Some("0.5"));
        assert_eq!(figure("unit.101").as_deref(), Some("$2.50"));
        assert_eq!(figure("api.rate_limit").as_deref(), Some("100"));
        assert_eq!(figure("api.idempotency_hours").as_deref(), Some("24"));
        assert_eq!(figure("api.usage_days").as_deref(), Some("90"));
        assert_eq!(figure("weight.nope"), None);
        assert_eq!(figure("nope"), None);
    }
}
