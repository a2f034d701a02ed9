//! Browser benchmark (filled in below).
fn main() {}
