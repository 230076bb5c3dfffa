//! A local TCP port that refuses every connection, held for as long as it is needed.
//!
//! A socket bound to 127.0.0.1 but never listening makes the kernel answer each
//! connection attempt with a reset, and no one else can bind the port meanwhile. A
//! launched Envoy's clusters point here: it behaves as with no istiod (the lab's
//! situation) and reaches no server a submission names.

use std::io;
use std::os::fd::{FromRawFd, OwnedFd};

pub struct ClosedPort {
    _socket: OwnedFd,
    pub port: u16,
}

impl ClosedPort {
    pub fn new() -> io::Result<ClosedPort> {
        // SAFETY: plain socket calls on a descriptor this function owns; every
        // pointer passed points at a live, correctly sized sockaddr_in.
        unsafe {
            let fd = libc::socket(libc::AF_INET, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0);
            if fd < 0 {
                return Err(io::Error::last_os_error());
            }
            let socket = OwnedFd::from_raw_fd(fd);
            let mut addr: libc::sockaddr_in = std::mem::zeroed();
            addr.sin_family = libc::AF_INET as libc::sa_family_t;
            addr.sin_addr.s_addr = u32::from(std::net::Ipv4Addr::LOCALHOST).to_be();
            addr.sin_port = 0;
            let len = std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t;
            if libc::bind(fd, (&raw const addr).cast(), len) != 0 {
                return Err(io::Error::last_os_error());
            }
            let mut bound: libc::sockaddr_in = std::mem::zeroed();
            let mut bound_len = len;
            if libc::getsockname(fd, (&raw mut bound).cast(), &mut bound_len) != 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(ClosedPort { _socket: socket, port: u16::from_be(bound.sin_port) })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connections_are_refused_while_it_is_held() {
        let p = ClosedPort::new().unwrap();
        assert_ne!(p.port, 0);
        let e = std::net::TcpStream::connect(("127.0.0.1", p.port)).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::ConnectionRefused);
        // Held: nobody else can listen there.
        assert!(std::net::TcpListener::bind(("127.0.0.1", p.port)).is_err());
    }
}
