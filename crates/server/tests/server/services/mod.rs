//! Tests of services that no single route shows: the sample report, the link graph, the worker's recovery,
//! the ordering of a progress stream and the periodic sweep.

mod callbacks;
mod demo;
mod graph;
mod mail;
mod maintenance;
mod progress;
mod worker;
