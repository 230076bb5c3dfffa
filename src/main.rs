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

// Grading allocates many small values (parsed YAML, jq values); mimalloc is markedly
// faster than the system allocator at that.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

// mimalloc commits its arena eagerly by default, and Linux then backs it with huge
// pages that the kernel zeroes 2 MiB at a time: a single grading, which touches a few
// MiB, spent a quarter of its time there. Committing on demand fixes that. Its first
// arena is 1 GiB, whose bitmaps alone are 40 pages to touch at start-up; 64 MiB is
// plenty for one submission, and a batch simply gets more arenas. Memory it frees is
// kept for reuse, never handed back to the kernel: a run is short, and handing back
// (at exit too) costs system calls and, once the jq-compiling thread has run on the
// other core, TLB flushes sent there. Options must be set before mimalloc starts, hence
// a constructor that runs before its own (101).
const MI_OPTION_ARENA_EAGER_COMMIT: std::ffi::c_int = 4;
const MI_OPTION_PURGE_DELAY: std::ffi::c_int = 15;
const MI_OPTION_ARENA_RESERVE: std::ffi::c_int = 23;
const ARENA_RESERVE_KIB: std::ffi::c_long = 64 * 1024;

unsafe extern "C" {
    fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
}

extern "C" fn tune_allocator() {
    // SAFETY: sets plain options; mimalloc reads options when it starts, after this.
    unsafe {
        mi_option_set(MI_OPTION_ARENA_EAGER_COMMIT, 0);
        mi_option_set(MI_OPTION_PURGE_DELAY, -1);
        mi_option_set(MI_OPTION_ARENA_RESERVE, ARENA_RESERVE_KIB);
    }
}

#[used]
#[unsafe(link_section = ".init_array.00100")]
static TUNE_ALLOCATOR: extern "C" fn() = tune_allocator;
