use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = match labcheck::cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            // --help and --version are successes; anything else is bad usage.
            return ExitCode::from(if e.use_stderr() { labcheck::exit::CANNOT_GRADE } else { 0 });
        }
    };
    let code = labcheck::app::run(cli);
    labcheck::envoy::process::stop_all();
    ExitCode::from(code)
}

// Grading allocates many small values (parsed YAML, jq values); mimalloc is markedly
// faster than the system allocator at that.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
