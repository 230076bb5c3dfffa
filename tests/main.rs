//! The integration tests, as one binary: each module is one concern; `common` holds the
//! test builder and the submissions they break on purpose.

mod common;
mod absent;
mod audience;
mod batch;
mod class;
mod cli;
mod consumers;
mod envoy_modes;
mod envoy_safety;
mod envoy_texts;
mod envoy_words;
mod formats;
mod fuzz;
mod golden;
mod hostile;
mod inject_output;
mod kinds;
mod languages;
mod live;
mod out;
mod messages;
mod mutations;
mod midlab;
mod process;
mod properties;
mod reference;
mod readme;
mod reports;
mod skips;
mod spec_errors;
mod steps;
mod untrusted;
