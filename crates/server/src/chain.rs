//! An error with all its causes on one log line.

use std::error::Error;
use std::fmt;

/// Displays an error and its causes as `outer: cause: root cause`. A cause whose text the
/// line already ends with is not repeated (some libraries print their source inside their own
/// message as well as returning it from `source()`).
pub struct Chain<'a>(pub &'a (dyn Error + 'static));

impl fmt::Display for Chain<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut line = self.0.to_string();
        let mut source = self.0.source();
        while let Some(cause) = source {
            let text = cause.to_string();
            if !line.ends_with(&text) {
                line.push_str(": ");
                line.push_str(&text);
            }
            source = cause.source();
        }
        f.write_str(&line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("could not read the report")]
    struct Outer(#[source] Middle);

    #[derive(Debug, thiserror::Error)]
    #[error("query failed: {0}")]
    struct Middle(#[source] std::io::Error);

    #[test]
    fn every_cause_once() {
        let e = Outer(Middle(std::io::Error::other("connection reset")));
        assert_eq!(
            Chain(&e).to_string(),
            "could not read the report: query failed: connection reset"
        );
    }
}
