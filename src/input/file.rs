//! Opening one file without trusting it: no symlinks, no FIFOs or devices, a size cap,
//! and text that must be UTF-8.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::Read;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

/// Submission files larger than this are refused unread.
pub const MAX_SUBMISSION_BYTES: u64 = 1 << 20;
/// Lab files come from the instructor, but are still bounded.
pub const MAX_LAB_BYTES: u64 = 16 << 20;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileProblem {
    Missing,
    /// A symbolic link: never followed, so nothing outside the submission is read.
    Symlink,
    /// A directory, FIFO, socket or device.
    NotRegular(&'static str),
    TooLarge { size: u64, cap: u64 },
    Empty,
    NotUtf8 { offset: usize },
    Unreadable(String),
}

impl fmt::Display for FileProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileProblem::Missing => write!(f, "is missing"),
            FileProblem::Symlink => write!(f, "is a symbolic link; the grader reads only regular files inside the submission"),
            FileProblem::NotRegular(kind) => write!(f, "is a {kind}, not a regular file"),
            FileProblem::TooLarge { size, cap } => {
                write!(f, "is too large ({size} bytes; the limit is {})", human_bytes(*cap))
            }
            FileProblem::Empty => write!(f, "is empty"),
            FileProblem::NotUtf8 { offset } => write!(f, "is not UTF-8 text (bad byte at offset {offset})"),
            FileProblem::Unreadable(e) => write!(f, "cannot be read: {e}"),
        }
    }
}

fn human_bytes(n: u64) -> String {
    if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{} MiB", n >> 20)
    } else {
        format!("{n} bytes")
    }
}

/// Read a file of the submission. `name` is a plain file name from the spec.
pub fn read_submission(dir: &Path, name: &str) -> Result<String, FileProblem> {
    read_text(&dir.join(name), false, MAX_SUBMISSION_BYTES)
}

/// Read a lab file named by a param (symlinks allowed: the instructor chose the path).
pub fn read_lab(path: &Path) -> Result<String, FileProblem> {
    read_text(path, true, MAX_LAB_BYTES)
}

/// The bytes of a submission file, for handing a copy to Envoy.
pub fn read_submission_bytes(dir: &Path, name: &str) -> Result<Vec<u8>, FileProblem> {
    read_bytes(&dir.join(name), false, MAX_SUBMISSION_BYTES)
}

fn read_text(path: &Path, follow: bool, cap: u64) -> Result<String, FileProblem> {
    let bytes = read_bytes(path, follow, cap)?;
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").map(<[u8]>::to_vec).unwrap_or(bytes);
    String::from_utf8(bytes).map_err(|e| FileProblem::NotUtf8 { offset: e.utf8_error().valid_up_to() })
}

fn read_bytes(path: &Path, follow: bool, cap: u64) -> Result<Vec<u8>, FileProblem> {
    let file = open(path, follow)?;
    let meta = file.metadata().map_err(|e| FileProblem::Unreadable(e.to_string()))?;
    let ft = meta.file_type();
    if !ft.is_file() {
        return Err(FileProblem::NotRegular(if ft.is_dir() {
            "directory"
        } else if ft.is_fifo() {
            "named pipe"
        } else if ft.is_socket() {
            "socket"
        } else {
            "device"
        }));
    }
    if meta.len() > cap {
        return Err(FileProblem::TooLarge { size: meta.len(), cap });
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // The file may grow after fstat; never read more than the cap.
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| FileProblem::Unreadable(e.to_string()))?;
    if bytes.len() as u64 > cap {
        return Err(FileProblem::TooLarge { size: bytes.len() as u64, cap });
    }
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(FileProblem::Empty);
    }
    Ok(bytes)
}

fn open(path: &Path, follow: bool) -> Result<File, FileProblem> {
    // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it.
    let mut flags = libc::O_NONBLOCK | libc::O_CLOEXEC;
    if !follow {
        flags |= libc::O_NOFOLLOW;
    }
    match OpenOptions::new().read(true).custom_flags(flags).open(path) {
        Ok(f) => Ok(f),
        Err(e) => Err(match e.raw_os_error() {
            Some(libc::ENOENT) | Some(libc::ENOTDIR) => FileProblem::Missing,
            Some(libc::ELOOP) if !follow => FileProblem::Symlink,
            _ => match std::fs::symlink_metadata(path) {
                Ok(m) if m.file_type().is_symlink() && !follow => FileProblem::Symlink,
                _ => FileProblem::Unreadable(e.kind().to_string()),
            },
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_symlinks_fifos_and_big_files() {
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink("/etc/passwd", dir.path().join("link")).unwrap();
        assert_eq!(read_submission(dir.path(), "link"), Err(FileProblem::Symlink));
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert_eq!(read_submission(dir.path(), "fifo"), Err(FileProblem::NotRegular("named pipe")));
        std::fs::write(dir.path().join("big"), vec![b'a'; (MAX_SUBMISSION_BYTES + 1) as usize]).unwrap();
        assert!(matches!(read_submission(dir.path(), "big"), Err(FileProblem::TooLarge { .. })));
        assert_eq!(read_submission(dir.path(), "nope"), Err(FileProblem::Missing));
        std::fs::write(dir.path().join("bin"), b"ok\xff\xfe").unwrap();
        assert_eq!(read_submission(dir.path(), "bin"), Err(FileProblem::NotUtf8 { offset: 2 }));
        std::fs::write(dir.path().join("blank"), b" \n\r\n").unwrap();
        assert_eq!(read_submission(dir.path(), "blank"), Err(FileProblem::Empty));
        std::fs::write(dir.path().join("bom"), b"\xEF\xBB\xBFa=1").unwrap();
        assert_eq!(read_submission(dir.path(), "bom").unwrap(), "a=1");
    }
}
