//! The domain crate's integration tests: the shared vectors (the same files Vitest runs against
//! the WebAssembly build) and property tests.

mod properties;
mod stored;
mod vectors;
