//! robots.txt parsing and matching: the rule lives in `domain::robots`, shared with the free
//! robots.txt tester that runs it in the browser (one rule, one place).

pub use domain::robots::*;
