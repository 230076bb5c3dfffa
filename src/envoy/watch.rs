//! Woken when a file in a directory is written (inotify(7)): a launched Envoy's admin
//! address appears when it does, not at the next look.

use std::os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// A watch on one directory for files closed after writing or moved in.
pub struct DirWatch {
    fd: OwnedFd,
}

impl DirWatch {
    /// Made before whatever writes there starts, so no write goes unseen.
    pub fn new(dir: &Path) -> std::io::Result<DirWatch> {
        let path = std::ffi::CString::new(dir.as_os_str().as_bytes()).map_err(|_| std::io::ErrorKind::InvalidInput)?;
        // SAFETY: inotify_init1 takes flags and returns a new descriptor or -1.
        let raw = unsafe { libc::inotify_init1(libc::IN_NONBLOCK | libc::IN_CLOEXEC) };
        if raw < 0 {
            return Err(std::io::Error::last_os_error());
        }
        // SAFETY: a non-negative result is an open descriptor that nothing else owns.
        let fd = unsafe { OwnedFd::from_raw_fd(raw) };
        // SAFETY: reads the NUL-terminated path, alive for the call.
        if unsafe { libc::inotify_add_watch(fd.as_raw_fd(), path.as_ptr(), libc::IN_CLOSE_WRITE | libc::IN_MOVED_TO) } < 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok(DirWatch { fd })
    }

    /// Forget the events so far: the caller looks at the directory itself.
    pub fn drain(&self) {
        let mut buf = [0u8; 4096];
        // SAFETY: read(2) into a buffer we own, of its length; non-blocking, so it ends
        // when no event is left.
        while unsafe { libc::read(self.fd.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) } > 0 {}
    }
}

impl AsFd for DirWatch {
    fn as_fd(&self) -> BorrowedFd<'_> {
        self.fd.as_fd()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::fd::AsRawFd;

    fn readable(w: &DirWatch, ms: i32) -> bool {
        let mut p = libc::pollfd { fd: w.as_fd().as_raw_fd(), events: libc::POLLIN, revents: 0 };
        unsafe { libc::poll(&mut p, 1, ms) == 1 }
    }

    /// A file written in the directory wakes the watch; after a drain it sleeps again.
    #[test]
    fn a_written_file_wakes_the_watch() {
        let dir = tempfile::tempdir().unwrap();
        let w = DirWatch::new(dir.path()).unwrap();
        assert!(!readable(&w, 0));
        std::fs::write(dir.path().join("admin.address"), "127.0.0.1:1").unwrap();
        assert!(readable(&w, 1000));
        w.drain();
        assert!(!readable(&w, 0));
    }
}
