//! The server's integration tests: the real router on an ephemeral port (`spawn_app`), a
//! fresh database on each engine, the real analyzer against a fixture site on 127.0.0.1.
//! `routes/` holds one module per resource; `services/` what no single route shows.

mod cli;
mod cli_remote;
mod cluster;
mod routes;
mod services;
mod support;
