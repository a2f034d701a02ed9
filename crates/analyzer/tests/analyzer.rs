//! The analyzer's integration tests: one binary, one module per area.

mod support {
    pub mod server;
}

mod ssrf;
