//! Terminal colour: `--color auto|always|never`, and `NO_COLOR` (https://no-color.org).

use std::io::IsTerminal;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// Whether to colour what goes to stdout.
    pub fn enabled(self) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
                let dumb = std::env::var("TERM").is_ok_and(|t| t == "dumb");
                !no_color && !dumb && std::io::stdout().is_terminal()
            }
        }
    }
}

#[derive(Clone, Copy)]
pub enum Paint {
    Green,
    Red,
    Yellow,
    Dim,
    Bold,
}

pub fn paint(on: bool, p: Paint, s: &str) -> String {
    if !on {
        return s.to_string();
    }
    let code = match p {
        Paint::Green => "32",
        Paint::Red => "31",
        Paint::Yellow => "33",
        Paint::Dim => "2",
        Paint::Bold => "1",
    };
    format!("\u{1b}[{code}m{s}\u{1b}[0m")
}
