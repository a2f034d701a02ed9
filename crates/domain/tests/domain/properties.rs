//! Property tests: URL normalisation never panics and is idempotent; the calculator is monotonic
//! in each input; the cheapest purchase never gets cheaper as more credits are needed.

use domain::commerce::{calculate, cheapest_purchase};
use domain::forms::CalculatorInput;
use domain::score::{FormFactor, LabMetric, metric_score};
use domain::site_url::{canonicalize, normalize_input};
use proptest::prelude::*;

fn url_like() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[a-zA-Z]{0,6}(://)?[a-zA-Z0-9.-]{0,20}(:[0-9]{0,6})?(/[a-zA-Z0-9%._~ -]{0,10}){0,3}(\\?[a-z=&]{0,10})?(#[a-z]{0,5})?",
        "(https?://)?(\\[[0-9a-f:]{0,12}\\]|[0-9.]{0,15})(:[0-9]{1,5})?/?",
        "(https?://)?[\\p{L}]{1,8}\\.[a-z]{2,4}/?",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn canonical_form_is_idempotent(raw in url_like()) {
        if let Ok(once) = canonicalize(&raw) {
            prop_assert_eq!(canonicalize(&once), Ok(once.clone()));
        }
    }

    #[test]
    fn normalised_input_is_stable(raw in url_like()) {
        if let Ok(once) = normalize_input(&raw) {
            prop_assert_eq!(normalize_input(&once), Ok(once.clone()));
            // The canonical form of an accepted address is always accepted too.
            prop_assert!(canonicalize(&once).is_ok());
        }
    }

    #[test]
    fn calculator_is_monotonic(
        basic in -5i64..3000, standard in -5i64..3000, premium in -5i64..3000, team in -2i64..40,
        which in 0usize..4, step in 1i64..500,
    ) {
        let a = CalculatorInput { basic, standard, premium, team };
        let mut b = a;
        match which {
            0 => b.basic += step,
            1 => b.standard += step,
            2 => b.premium += step,
            _ => b.team += step,
        }
        let (ra, rb) = (calculate(&a), calculate(&b));
        prop_assert!(rb.credits >= ra.credits);
        prop_assert!(rb.hours_saved >= ra.hours_saved);
        prop_assert!(rb.pay_as_you_go.price >= ra.pay_as_you_go.price);
        prop_assert!(rb.pay_as_you_go.credits as f64 >= rb.credits);
        prop_assert!(rb.plan_monthly_cost >= ra.plan_monthly_cost || rb.plan != ra.plan);
    }

    #[test]
    fn cheapest_purchase_is_monotonic_and_sufficient(n in 0u32..5000) {
        let a = cheapest_purchase(n);
        let b = cheapest_purchase(n + 1);
        prop_assert!(a.credits >= n);
        prop_assert!(b.price >= a.price);
    }

    #[test]
    fn metric_scores_fall_as_values_grow(v in 0.0f64..20000.0, dv in 0.0f64..5000.0) {
        for form in [FormFactor::Mobile, FormFactor::Desktop] {
            for m in [LabMetric::FirstContentfulPaint, LabMetric::LargestContentfulPaint, LabMetric::TotalBlockingTime, LabMetric::SpeedIndex] {
                let (a, b) = (metric_score(m, form, v), metric_score(m, form, v + dv));
                prop_assert!((0.0..=1.0).contains(&a));
                prop_assert!(b <= a);
            }
        }
    }
}
