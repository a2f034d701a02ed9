//! The length rule of a search result's title and description (docs/PRODUCT.md §9.7): the
//! analyzer's title and meta description checks and the free snippet preview both ask it.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::performance::good_ranges;

/// Which part of a search snippet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum SnippetField {
    /// The `<title>`.
    Title,
    /// The meta description.
    Description,
}

/// How a text's length compares with its good range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum LengthVerdict {
    /// Empty or only spaces.
    Missing,
    /// Shorter than the range.
    Short,
    /// Inside the range (both ends included).
    Good,
    /// Longer than the range.
    Long,
}

/// A text's length, its good range and the verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct LengthCheck {
    /// Characters, counted as people count them (Unicode scalar values).
    pub chars: u32,
    /// Fewest good characters.
    pub min: u32,
    /// Most good characters.
    pub max: u32,
    /// The verdict.
    pub verdict: LengthVerdict,
}

/// The good range of a field, in characters.
pub fn length_range(field: SnippetField) -> (u32, u32) {
    let id = match field {
        SnippetField::Title => "title",
        SnippetField::Description => "description",
    };
    good_ranges()
        .into_iter()
        .find(|r| r.id == id)
        .map_or((0, u32::MAX), |r| {
            (
                r.min.unwrap_or(0.0) as u32,
                r.max.map_or(u32::MAX, |m| m as u32),
            )
        })
}

/// Checks `text` as the field's content.
pub fn length_check(field: SnippetField, text: &str) -> LengthCheck {
    let (min, max) = length_range(field);
    let chars = u32::try_from(text.chars().count()).unwrap_or(u32::MAX);
    let verdict = if text.trim().is_empty() {
        LengthVerdict::Missing
    } else if chars < min {
        LengthVerdict::Short
    } else if chars > max {
        LengthVerdict::Long
    } else {
        LengthVerdict::Good
    };
    LengthCheck {
        chars,
        min,
        max,
        verdict,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ends_of_the_range_are_good() {
        let (lo, hi) = length_range(SnippetField::Title);
        let v = |n: usize| length_check(SnippetField::Title, &"é".repeat(n)).verdict;
        assert_eq!(v(lo as usize - 1), LengthVerdict::Short);
        assert_eq!(v(lo as usize), LengthVerdict::Good);
        assert_eq!(v(hi as usize), LengthVerdict::Good);
        assert_eq!(v(hi as usize + 1), LengthVerdict::Long);
        assert_eq!(
            length_check(SnippetField::Description, "   ").verdict,
            LengthVerdict::Missing
        );
    }
}
