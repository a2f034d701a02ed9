//! Credits (docs/PRODUCT.md §9.2): the one representation of a credit balance, a price in
//! credits and a ledger movement.
//!
//! The basic report costs half a credit, so credits are counted in halves: [`Credits`] holds a
//! whole number of half credits, which makes every sum exact (no float ever adds 0.1 to 0.2)
//! and never negative (it is unsigned; subtraction is checked). Everywhere a person reads a
//! number of credits it is written by [`Credits`]'s `Display` (`0.5`, `1`, `2.5`), in the server
//! and, through WebAssembly, in the web app; everywhere one is read it is read by
//! [`Credits::parse`] or [`Credits::from_number`]. The database stores the half-credit count
//! ([`Credits::halves`]). In JSON a number of credits is a plain number (`2.5`), which a double
//! holds exactly.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use ts_rs::TS;

/// A non-negative number of credits, counted in half credits.
///
/// In TypeScript (and JSON) it is a `number` of credits, such as `2.5`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, TS)]
pub struct Credits(u32);

/// Why a number of credits could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CreditsError {
    /// Not a number, negative, not a whole or half number, or too large.
    #[error(
        "a number of credits must be a whole or half number from 0 (for example 0.5, 1 or 2.5)"
    )]
    Invalid,
}

impl Credits {
    /// No credits.
    pub const ZERO: Credits = Credits(0);
    /// Half a credit: the price of a basic report.
    pub const HALF: Credits = Credits(1);
    /// The most credits a balance can hold: the largest count that still fits the database's
    /// 32-bit signed column as half credits.
    pub const MAX: Credits = Credits(i32::MAX as u32);

    /// `halves` half credits.
    pub const fn from_halves(halves: u32) -> Credits {
        Credits(halves)
    }

    /// `credits` whole credits (saturating at [`Credits::MAX`]).
    pub const fn whole(credits: u32) -> Credits {
        let halves = credits.saturating_mul(2);
        if halves > Credits::MAX.0 {
            Credits::MAX
        } else {
            Credits(halves)
        }
    }

    /// The count in half credits (what the database stores).
    pub const fn halves(self) -> u32 {
        self.0
    }

    /// The count as a number of credits (`2.5`); exact, since halves are exact in a double.
    pub fn as_number(self) -> f64 {
        f64::from(self.0) / 2.0
    }

    /// Whether this is no credits at all.
    pub const fn is_zero(self) -> bool {
        self.0 == 0
    }

    /// The sum, or `None` past [`Credits::MAX`].
    pub fn checked_add(self, other: Credits) -> Option<Credits> {
        self.0
            .checked_add(other.0)
            .filter(|h| *h <= Credits::MAX.0)
            .map(Credits)
    }

    /// The difference, or `None` when `other` is larger: a balance never goes below zero.
    pub fn checked_sub(self, other: Credits) -> Option<Credits> {
        self.0.checked_sub(other.0).map(Credits)
    }

    /// The smaller of the two.
    pub fn min(self, other: Credits) -> Credits {
        Ord::min(self, other)
    }

    /// Reads a number of credits: finite, from 0, a whole or half number, at most
    /// [`Credits::MAX`].
    pub fn from_number(value: f64) -> Result<Credits, CreditsError> {
        let halves = value * 2.0;
        if !value.is_finite()
            || value < 0.0
            || halves.fract() != 0.0
            || halves > f64::from(Credits::MAX.0)
        {
            return Err(CreditsError::Invalid);
        }
        // Exact: `halves` is a whole number within u32's range.
        Ok(Credits(halves as u32))
    }

    /// Reads a number of credits as a person or an address writes it: `0.5`, `1`, `2.5`, also
    /// `2.50` or `3.0`; surrounding spaces are ignored. Nothing else (no sign, no exponent, no
    /// thousands separator) is accepted.
    pub fn parse(text: &str) -> Result<Credits, CreditsError> {
        let text = text.trim();
        let (whole, fraction) = match text.split_once('.') {
            Some((w, f)) => (w, Some(f)),
            None => (text, None),
        };
        if whole.is_empty() || !whole.bytes().all(|b| b.is_ascii_digit()) {
            return Err(CreditsError::Invalid);
        }
        let half = match fraction {
            None => false,
            Some(f) if f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit()) => {
                return Err(CreditsError::Invalid);
            }
            Some(f) => {
                let (first, rest) = f.split_at(1);
                if !rest.bytes().all(|b| b == b'0') {
                    return Err(CreditsError::Invalid);
                }
                match first {
                    "0" => false,
                    "5" => true,
                    _ => return Err(CreditsError::Invalid),
                }
            }
        };
        let whole: u32 = whole.parse().map_err(|_| CreditsError::Invalid)?;
        let halves = whole
            .checked_mul(2)
            .and_then(|h| h.checked_add(u32::from(half)))
            .filter(|h| *h <= Credits::MAX.0)
            .ok_or(CreditsError::Invalid)?;
        Ok(Credits(halves))
    }

    /// The number with its unit: `0.5 credits`, `1 credit`, `2.5 credits`.
    pub fn label(self) -> String {
        if self.0 == 2 {
            "1 credit".to_owned()
        } else {
            format!("{self} credits")
        }
    }
}

impl std::fmt::Display for Credits {
    /// `0`, `0.5`, `1`, `2.5`: whole credits without a fraction, a half as `.5`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (whole, half) = (self.0 / 2, !self.0.is_multiple_of(2));
        if half {
            write!(f, "{whole}.5")
        } else {
            write!(f, "{whole}")
        }
    }
}

impl std::str::FromStr for Credits {
    type Err = CreditsError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Credits::parse(s)
    }
}

impl Serialize for Credits {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.0.is_multiple_of(2) {
            // A whole number stays an integer in JSON (`1`, not `1.0`).
            serializer.serialize_u32(self.0 / 2)
        } else {
            serializer.serialize_f64(self.as_number())
        }
    }
}

impl<'de> Deserialize<'de> for Credits {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = f64::deserialize(deserializer)?;
        Credits::from_number(value).map_err(serde::de::Error::custom)
    }
}

/// In the API document a number of credits is what its JSON is: a non-negative number in
/// steps of one half.
#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for Credits {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::Number)
            .minimum(Some(0.0))
            .multiple_of(Some(0.5))
            .description(Some("a number of credits, in steps of one half"))
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for Credits {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_are_written_and_read_the_same_way() {
        for (halves, text) in [(0, "0"), (1, "0.5"), (2, "1"), (5, "2.5"), (200, "100")] {
            let c = Credits::from_halves(halves);
            assert_eq!(c.to_string(), text);
            assert_eq!(Credits::parse(text), Ok(c));
            assert_eq!(Credits::from_number(c.as_number()), Ok(c));
            let json = serde_json::to_string(&c).expect("serializes");
            assert_eq!(serde_json::from_str::<Credits>(&json).expect("reads"), c);
        }
        assert_eq!(
            serde_json::to_string(&Credits::whole(3)).expect("json"),
            "3"
        );
        assert_eq!(serde_json::to_string(&Credits::HALF).expect("json"), "0.5");
    }

    #[test]
    fn anything_but_a_whole_or_half_number_from_zero_is_refused() {
        for bad in [
            "",
            " ",
            "-1",
            "+1",
            "0.25",
            "1.",
            ".5",
            "1e3",
            "1,5",
            "abc",
            "1.55",
            "99999999999",
        ] {
            assert_eq!(Credits::parse(bad), Err(CreditsError::Invalid), "{bad:?}");
        }
        for bad in [-0.5, 0.3, f64::NAN, f64::INFINITY, 2e10] {
            assert_eq!(
                Credits::from_number(bad),
                Err(CreditsError::Invalid),
                "{bad}"
            );
        }
        assert!(serde_json::from_str::<Credits>("0.25").is_err());
        assert!(serde_json::from_str::<Credits>("-1").is_err());
    }

    #[test]
    fn arithmetic_is_exact_and_never_below_zero() {
        let balance = Credits::whole(1);
        assert_eq!(balance.checked_sub(Credits::HALF), Some(Credits::HALF));
        assert_eq!(Credits::HALF.checked_sub(Credits::whole(1)), None);
        assert_eq!(Credits::MAX.checked_add(Credits::HALF), None);
        assert_eq!(Credits::whole(u32::MAX), Credits::MAX);
        assert_eq!(Credits::whole(1).label(), "1 credit");
        assert_eq!(Credits::HALF.label(), "0.5 credits");
        assert_eq!(Credits::from_halves(5).label(), "2.5 credits");
    }
}
