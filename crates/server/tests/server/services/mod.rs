//! Tests of services that no single route shows: the sample report, the link graph, the worker's recovery and
//! the ordering of a progress stream.

mod callbacks;
mod demo;
mod graph;
mod mail;
mod progress;
mod worker;
