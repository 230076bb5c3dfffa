//! Envoy, run for real: locate the binary, screen a bootstrap before Envoy sees it,
//! validate, launch, and read the admin API (or a recording of it).

pub mod admin;
pub mod binary;
pub mod closed_port;
pub mod failure;
pub mod fetch;
pub mod launch;
pub mod limits;
pub mod logs;
pub mod offline;
pub mod process;
pub mod recording;
pub mod said;
pub mod schema;
pub mod screen;
pub mod validate;
pub mod weight;
