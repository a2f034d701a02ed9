//! The analyzer's integration tests: one binary, one module per area.

mod support {
    pub mod server;
    pub mod util;
}

mod browser;
mod checks;
mod robustness;
mod simulation;
mod site;
mod snapshots;
mod ssrf;
