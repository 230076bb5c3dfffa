use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = match labcheck::cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let e = with_safe_arguments(e);
            let _ = e.print();
            // --help and --version are successes; anything else is bad usage.
            return ExitCode::from(if e.use_stderr() { labcheck::exit::CANNOT_GRADE } else { 0 });
        }
    };
    let code = labcheck::app::run(cli);
    labcheck::envoy::process::stop_all();
    ExitCode::from(code)
}

/// clap quotes the argument it refuses, as given. When an argument holds what
/// `display::safe` escapes, parse again with every argument made safe, so that the error
/// quotes it escaped; should that parse succeed (an argument that is not UTF-8), say the
/// error without clap's styling, made safe.
fn with_safe_arguments(e: clap::Error) -> clap::Error {
    let given: Vec<String> = std::env::args_os().map(|a| a.to_string_lossy().into_owned()).collect();
    let safe: Vec<String> = given.iter().map(|a| labcheck::display::safe_max(a, usize::MAX)).collect();
    if safe == given && std::env::args_os().all(|a| a.to_str().is_some()) {
        return e;
    }
    match labcheck::cli::Cli::try_parse_from(&safe) {
        Err(again) if again.kind() == e.kind() => again,
        _ => {
            let plain = e.render().to_string();
            let message = plain.strip_prefix("error: ").unwrap_or(&plain);
            clap::Error::raw(e.kind(), labcheck::display::safe_lines(message))
        }
    }
}

// See Cargo.toml: a third less CPU for a class.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
