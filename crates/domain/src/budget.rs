//! Score budgets: the `--fail-under` rule of the command line, which lets a deployment pipeline
//! fail when a report's score drops below what the team agreed on (issue 17; Lighthouse CI's
//! "budgets" are the model).
//!
//! A budget names a score of the report ([`ScoreCategory`], the names of the report's `scores`
//! object) and the least value it may have. A score equal to its budget passes; a score below it
//! is a [`BudgetMiss`]. `--fail-under 80` is a budget for the overall score;
//! `--fail-under performance=90,seo=85` gives one per category, and both forms mix
//! (`80,performance=90`).

use crate::report::Scores;

/// A score of the report a budget can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScoreCategory {
    /// The weighted overall score.
    Overall,
    /// SEO.
    Seo,
    /// Design and UX.
    Design,
    /// Technical structure.
    Technical,
    /// Performance.
    Performance,
}

impl ScoreCategory {
    /// Every category, in the report's order.
    pub const ALL: [ScoreCategory; 5] = [
        ScoreCategory::Overall,
        ScoreCategory::Seo,
        ScoreCategory::Design,
        ScoreCategory::Technical,
        ScoreCategory::Performance,
    ];

    /// The name the report's `scores` object uses for it.
    pub fn as_str(self) -> &'static str {
        match self {
            ScoreCategory::Overall => "overall",
            ScoreCategory::Seo => "seo",
            ScoreCategory::Design => "design",
            ScoreCategory::Technical => "technical",
            ScoreCategory::Performance => "performance",
        }
    }

    /// The category named `name` (any case, surrounding spaces ignored).
    pub fn parse(name: &str) -> Option<Self> {
        let name = name.trim();
        Self::ALL
            .into_iter()
            .find(|c| c.as_str().eq_ignore_ascii_case(name))
    }

    /// Its value in `scores`.
    pub fn score(self, scores: &Scores) -> u32 {
        match self {
            ScoreCategory::Overall => scores.overall,
            ScoreCategory::Seo => scores.seo,
            ScoreCategory::Design => scores.design,
            ScoreCategory::Technical => scores.technical,
            ScoreCategory::Performance => scores.performance,
        }
    }
}

/// The least value a score may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScoreBudget {
    /// The score it applies to.
    pub category: ScoreCategory,
    /// The least passing value, 0 to 100.
    pub minimum: u32,
}

/// A score below its budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BudgetMiss {
    /// The score.
    pub category: ScoreCategory,
    /// Its value in the report.
    pub score: u32,
    /// Its budget.
    pub minimum: u32,
}

impl std::fmt::Display for BudgetMiss {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {} is below {}",
            self.category.as_str(),
            self.score,
            self.minimum
        )
    }
}

fn category_names() -> String {
    ScoreCategory::ALL.map(ScoreCategory::as_str).join(", ")
}

/// Reads budgets written as a comma-separated list of `SCORE` (the overall score) or
/// `CATEGORY=SCORE` items, each score a whole number from 0 to 100 and each category named at
/// most once; `Err` is the message to show.
pub fn parse_budgets(text: &str) -> Result<Vec<ScoreBudget>, String> {
    let mut budgets: Vec<ScoreBudget> = Vec::new();
    for item in text.split(',') {
        let item = item.trim();
        if item.is_empty() {
            return Err(format!(
                "expected a score from 0 to 100 or CATEGORY=SCORE items separated by commas, not '{text}'"
            ));
        }
        let (category, value) = match item.split_once('=') {
            Some((name, value)) => (
                ScoreCategory::parse(name).ok_or_else(|| {
                    format!(
                        "unknown score '{}' (one of: {})",
                        name.trim(),
                        category_names()
                    )
                })?,
                value.trim(),
            ),
            None => (ScoreCategory::Overall, item),
        };
        let minimum = value
            .parse::<u32>()
            .ok()
            .filter(|v| *v <= 100)
            .ok_or_else(|| {
                format!(
                    "the budget of {} must be a whole number from 0 to 100, not '{value}'",
                    category.as_str()
                )
            })?;
        if budgets.iter().any(|b| b.category == category) {
            return Err(format!(
                "the budget of {} is given twice",
                category.as_str()
            ));
        }
        budgets.push(ScoreBudget { category, minimum });
    }
    Ok(budgets)
}

/// The scores below their budgets, in the order the budgets were given; empty when every score
/// meets its budget.
pub fn budget_misses(scores: &Scores, budgets: &[ScoreBudget]) -> Vec<BudgetMiss> {
    budgets
        .iter()
        .filter_map(|b| {
            let score = b.category.score(scores);
            (score < b.minimum).then_some(BudgetMiss {
                category: b.category,
                score,
                minimum: b.minimum,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scores() -> Scores {
        Scores {
            overall: 80,
            seo: 85,
            design: 70,
            technical: 95,
            performance: 60,
        }
    }

    fn budget(category: ScoreCategory, minimum: u32) -> ScoreBudget {
        ScoreBudget { category, minimum }
    }

    #[test]
    fn a_bare_number_is_the_overall_budget() {
        assert_eq!(
            parse_budgets("80"),
            Ok(vec![budget(ScoreCategory::Overall, 80)])
        );
        assert_eq!(
            parse_budgets(" 0 "),
            Ok(vec![budget(ScoreCategory::Overall, 0)])
        );
    }

    #[test]
    fn categories_use_the_reports_names_in_any_case() {
        assert_eq!(
            parse_budgets("performance=90, SEO = 85,80"),
            Ok(vec![
                budget(ScoreCategory::Performance, 90),
                budget(ScoreCategory::Seo, 85),
                budget(ScoreCategory::Overall, 80),
            ])
        );
        for c in ScoreCategory::ALL {
            assert_eq!(ScoreCategory::parse(c.as_str()), Some(c));
        }
        let report_names: Vec<String> = serde_json::to_value(scores())
            .ok()
            .and_then(|v| v.as_object().map(|o| o.keys().cloned().collect()))
            .unwrap_or_default();
        for name in report_names {
            assert!(ScoreCategory::parse(&name).is_some(), "{name}");
        }
    }

    #[test]
    fn bad_budgets_say_what_is_wrong() {
        let err = |t: &str| parse_budgets(t).err().unwrap_or_default();
        assert!(err("speed=50").contains("unknown score 'speed'"));
        assert!(err("speed=50").contains("overall, seo, design, technical, performance"));
        assert!(err("101").contains("from 0 to 100, not '101'"));
        assert!(err("seo=-1").contains("budget of seo"));
        assert!(err("seo=high").contains("not 'high'"));
        assert!(err("80,,seo=1").contains("separated by commas"));
        assert!(err("").contains("separated by commas"));
        assert!(err("80,overall=90").contains("given twice"));
    }

    #[test]
    fn a_score_equal_to_its_budget_passes_and_one_below_misses() {
        let budgets = parse_budgets("80,performance=61,seo=85,design=71").unwrap_or_default();
        let misses = budget_misses(&scores(), &budgets);
        assert_eq!(
            misses,
            vec![
                BudgetMiss {
                    category: ScoreCategory::Performance,
                    score: 60,
                    minimum: 61
                },
                BudgetMiss {
                    category: ScoreCategory::Design,
                    score: 70,
                    minimum: 71
                },
            ]
        );
        assert_eq!(misses[0].to_string(), "performance 60 is below 61");
        assert!(budget_misses(&scores(), &[]).is_empty());
        assert!(budget_misses(&scores(), &parse_budgets("0").unwrap_or_default()).is_empty());
    }
}
