//! Reports: views of the results, one file per format.

pub mod color;
pub mod json;
pub mod text;

use crate::result::{CheckResult, SubmissionResult};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// Who reads the report. Students never see expected values; instructors do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Audience {
    Student,
    Instructor,
}

impl Format {
    /// Text is read by students in the lab; the machine formats by CI, for instructors.
    pub fn default_audience(self) -> Audience {
        match self {
            Format::Text => Audience::Student,
            Format::Json => Audience::Instructor,
        }
    }

    pub fn extension(self) -> &'static str {
        match self {
            Format::Text => "txt",
            Format::Json => "json",
        }
    }
}

/// The expected value this audience may see for this check.
pub fn expected_for(c: &CheckResult, audience: Audience) -> Option<&str> {
    match audience {
        Audience::Student => None,
        Audience::Instructor => c.expected.as_deref(),
    }
}

pub struct Options {
    pub audience: Audience,
    pub color: bool,
}

pub fn render(format: Format, results: &[SubmissionResult], opts: &Options) -> String {
    match format {
        Format::Text => results.iter().map(|r| text::render(r, opts)).collect::<Vec<_>>().join("\n"),
        Format::Json => json::render(results, opts),
    }
}
