//! A local TCP port that refuses every connection, held for as long as it is needed.
//!
//! A socket bound to 127.0.0.1 but never listening makes the kernel answer each
//! connection attempt with a reset, and no one else can bind the port meanwhile. A
//! launched Envoy's clusters point here: it behaves as with no istiod (the lab's
//! situation) and reaches no server a submission names.

use socket2::{Domain, Socket, Type};
use std::io;
use std::net::{Ipv4Addr, SocketAddr};

pub struct ClosedPort {
    _socket: Socket,
    pub port: u16,
}

impl ClosedPort {
    pub fn new() -> io::Result<ClosedPort> {
        // Bound, never `listen`ed: std's TcpListener would listen at once.
        let socket = Socket::new(Domain::IPV4, Type::STREAM, None)?;
        socket.bind(&SocketAddr::from((Ipv4Addr::LOCALHOST, 0)).into())?;
        let port = socket.local_addr()?.as_socket().map_or(0, |a| a.port());
        Ok(ClosedPort { _socket: socket, port })
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
