//! Opening one file without trusting it: no symlinks, no FIFOs, sockets or devices (none
//! of them even opened), a size cap, and text that must be UTF-8.

use crate::lang::{files::Files, t};
use std::fs::{File, FileType, OpenOptions};
use std::io::Read;
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt};
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
    /// A NUL byte, which no text (nor YAML, nor JSON) holds: a binary file, or one
    /// a program wrote wrong.
    Nul { offset: usize },
    /// UTF-16 or UTF-32 (the encoding named): what some editors save as "Unicode".
    Wide(&'static str),
    Unreadable(String),
}

impl FileProblem {
    /// The problem said of the file `name`, in the run's language.
    pub fn said(&self, name: &str) -> String {
        let file = name;
        match self {
            FileProblem::Missing => t!(Files::Missing, file = file),
            FileProblem::Symlink => t!(Files::Symlink, file = file),
            FileProblem::NotRegular("directory") => t!(Files::Directory, file = file),
            FileProblem::NotRegular("named pipe") => t!(Files::NamedPipe, file = file),
            FileProblem::NotRegular("socket") => t!(Files::Socket, file = file),
            FileProblem::NotRegular(_) => t!(Files::Device, file = file),
            FileProblem::TooLarge { size, cap } => t!(Files::TooLarge, file = file, size = size, cap = human_bytes(*cap)),
            FileProblem::Empty => t!(Files::Empty, file = file),
            FileProblem::NotUtf8 { offset } => t!(Files::NotUtf8, file = file, offset = offset),
            FileProblem::Nul { offset } => t!(Files::Nul, file = file, offset = offset),
            FileProblem::Wide(encoding) => t!(Files::Wide, file = file, encoding = encoding),
            FileProblem::Unreadable(e) => t!(Files::Unreadable, file = file, error = e),
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

fn read_text(path: &Path, follow: bool, cap: u64) -> Result<String, FileProblem> {
    let bytes = read_bytes(path, follow, cap)?;
    if let Some(encoding) = wide(&bytes) {
        return Err(FileProblem::Wide(encoding));
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").map(<[u8]>::to_vec).unwrap_or(bytes);
    let text = String::from_utf8(bytes).map_err(|e| FileProblem::NotUtf8 { offset: e.utf8_error().valid_up_to() })?;
    match text.bytes().position(|b| b == 0) {
        Some(offset) => Err(FileProblem::Nul { offset }),
        None => Ok(text),
    }
}

/// UTF-32 or UTF-16, by its byte-order mark or, without one, by the zero bytes that
/// ASCII text has in those encodings (such a file is valid UTF-8, full of NULs).
fn wide(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"\xFF\xFE\0\0") || bytes.starts_with(b"\0\0\xFE\xFF") {
        return Some("UTF-32");
    }
    if bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF") {
        return Some("UTF-16");
    }
    let head = &bytes[..bytes.len().min(64)];
    // Each code unit of ASCII text has its one non-zero byte at the same place.
    let units = |width: usize| {
        head.len() >= 2 * width
            && head.len().is_multiple_of(width)
            && (0..width).any(|at| head.chunks(width).all(|u| u.iter().enumerate().all(|(i, b)| (*b != 0) == (i == at))))
    };
    if units(4) {
        Some("UTF-32")
    } else if units(2) {
        Some("UTF-16")
    } else {
        None
    }
}

fn read_bytes(path: &Path, follow: bool, cap: u64) -> Result<Vec<u8>, FileProblem> {
    // Look before opening: opening a device can do something by itself (rewind a tape,
    // wake a FIFO's writer), so nothing but a regular file is ever opened.
    let looked = if follow { std::fs::metadata(path) } else { std::fs::symlink_metadata(path) };
    let before = looked.map_err(|e| match e.raw_os_error() {
        Some(libc::ENOENT) | Some(libc::ENOTDIR) => FileProblem::Missing,
        _ => FileProblem::Unreadable(e.kind().to_string()),
    })?;
    regular(before.file_type())?;
    let file = open(path, follow)?;
    let meta = file.metadata().map_err(|e| FileProblem::Unreadable(e.to_string()))?;
    regular(meta.file_type())?;
    // The path may have been swapped since the look: read only the file that was looked at.
    if (meta.dev(), meta.ino()) != (before.dev(), before.ino()) {
        return Err(FileProblem::Unreadable(t!(Files::Replaced)));
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

/// A regular file is fine; anything else is said for what it is.
fn regular(ft: FileType) -> Result<(), FileProblem> {
    if ft.is_file() {
        return Ok(());
    }
    Err(if ft.is_symlink() {
        FileProblem::Symlink
    } else {
        FileProblem::NotRegular(if ft.is_dir() {
            "directory"
        } else if ft.is_fifo() {
            "named pipe"
        } else if ft.is_socket() {
            "socket"
        } else {
            "device"
        })
    })
}

fn open(path: &Path, follow: bool) -> Result<File, FileProblem> {
    // Only a regular file gets here, unless it was swapped since the look. O_NONBLOCK:
    // opening a FIFO swapped in must not wait for a writer; fstat then refuses it.
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
        std::fs::write(dir.path().join("nul0"), b"ready_body=PRE_\0\0INITIALIZING\n").unwrap();
        assert_eq!(read_submission(dir.path(), "nul0"), Err(FileProblem::Nul { offset: 15 }));
        std::fs::write(dir.path().join("u16"), b"\xFF\xFEa\x00=\x001\x00").unwrap();
        assert_eq!(read_submission(dir.path(), "u16"), Err(FileProblem::Wide("UTF-16")));
        assert!(FileProblem::Wide("UTF-16").said("x").contains("save it as UTF-8"));
        std::fs::write(dir.path().join("u32"), b"\xFF\xFE\0\0a\0\0\0").unwrap();
        assert_eq!(read_submission(dir.path(), "u32"), Err(FileProblem::Wide("UTF-32")));
        assert!(FileProblem::Wide("UTF-32").said("x").contains("iconv -f UTF-32"));
        std::fs::write(dir.path().join("u16be"), b"\0a\0=\x001\0\n").unwrap();
        assert_eq!(read_submission(dir.path(), "u16be"), Err(FileProblem::Wide("UTF-16")));
        std::fs::write(dir.path().join("u32le"), b"a\0\0\0=\0\0\0").unwrap();
        assert_eq!(read_submission(dir.path(), "u32le"), Err(FileProblem::Wide("UTF-32")));
        // A NUL or two in UTF-8 text is not another encoding, but no text either.
        std::fs::write(dir.path().join("nul"), b"a=1\0b=2").unwrap();
        assert_eq!(read_submission(dir.path(), "nul"), Err(FileProblem::Nul { offset: 3 }));
        std::fs::write(dir.path().join("blank"), b" \n\r\n").unwrap();
        assert_eq!(read_submission(dir.path(), "blank"), Err(FileProblem::Empty));
        std::fs::write(dir.path().join("bom"), b"\xEF\xBB\xBFa=1").unwrap();
        assert_eq!(read_submission(dir.path(), "bom").unwrap(), "a=1");
    }

    #[test]
    fn a_socket_is_said_to_be_one() {
        let dir = tempfile::tempdir().unwrap();
        let _listening = std::os::unix::net::UnixListener::bind(dir.path().join("sock")).unwrap();
        assert_eq!(read_submission(dir.path(), "sock"), Err(FileProblem::NotRegular("socket")));
        assert_eq!(read_lab(&dir.path().join("sock")), Err(FileProblem::NotRegular("socket")));
        assert_eq!(read_lab(Path::new("/dev/null")), Err(FileProblem::NotRegular("device")));
    }

    #[test]
    fn what_is_not_a_regular_file_is_never_opened() {
        // Opening a FIFO to read wakes a writer waiting to open it: the one side effect
        // of an open that a test can see.
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let woken = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let writer = {
            let (fifo, woken) = (fifo.clone(), woken.clone());
            std::thread::spawn(move || {
                let f = OpenOptions::new().write(true).open(fifo);
                woken.store(true, std::sync::atomic::Ordering::SeqCst);
                f
            })
        };
        std::thread::sleep(std::time::Duration::from_millis(100));
        assert_eq!(read_submission(dir.path(), "fifo"), Err(FileProblem::NotRegular("named pipe")));
        assert_eq!(read_lab(&fifo), Err(FileProblem::NotRegular("named pipe")));
        std::thread::sleep(std::time::Duration::from_millis(200));
        let opened = woken.load(std::sync::atomic::Ordering::SeqCst);
        // Let the writer go.
        let _reader = OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(&fifo).unwrap();
        writer.join().unwrap().unwrap();
        assert!(!opened, "the FIFO was opened");
    }
}
