import Foundation
import Glibc

/// A listening socket: IPv4 TCP, or a Unix-domain socket at a path.
final class SocketListener: Sendable {
  let descriptor: Int32
  /// The port it listens on (the one the system chose when asked for port 0); 0 for a
  /// Unix-domain socket.
  let port: Int
  /// The Unix-domain socket's path, removed when the listener closes.
  let path: String?

  /// Binds a Unix-domain socket at `path` and listens. A socket file left there by a server
  /// that is gone is replaced; any other file there is an error.
  /// - Throws: `ServerStartError` naming the path and the system's reason.
  init(unixPath path: String) throws {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard !bytes.isEmpty, bytes.count < capacity else {
      throw ServerStartError("the socket path must have 1 to \(capacity - 1) bytes: \(path)")
    }
    var status = stat()
    if lstat(path, &status) == 0 {
      guard status.st_mode & S_IFMT == S_IFSOCK else {
        throw ServerStartError("cannot listen on \(path): a file that is not a socket is there")
      }
      unlink(path)
    }
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
    let descriptor = socket(
      AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    guard descriptor >= 0 else { throw ServerStartError("cannot create a socket: \(String(cString: strerror(errno)))") }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard bound == 0, listen(descriptor, 128) == 0 else {
      let reason = String(cString: strerror(errno))
      Glibc.close(descriptor)
      throw ServerStartError("cannot listen on \(path): \(reason)")
    }
    self.descriptor = descriptor
    self.port = 0
    self.path = path
  }

  /// Binds `host` (an IPv4 address or a name that resolves to one) and `port`, and listens.
  /// - Throws: `ServerStartError` naming the address and the system's reason.
  init(host: String, port: Int) throws {
    guard (0...65535).contains(port) else { throw ServerStartError("port \(port) is not in 0...65535") }
    var hints = addrinfo()
    hints.ai_family = AF_INET
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var found: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &found)
    guard status == 0, let found, let address = found.pointee.ai_addr else {
      throw ServerStartError("cannot resolve host '\(host)': \(String(cString: gai_strerror(status)))")
    }
    defer { freeaddrinfo(found) }
    // Non-blocking: a connection that poll announced may be gone by the time `accept` runs
    // (reset by its client, or taken by another thread), and a blocking accept would then wait
    // for the next one — and the accepting thread would not see the shutdown.
    let descriptor = socket(
      AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    guard descriptor >= 0 else { throw ServerStartError("cannot create a socket: \(String(cString: strerror(errno)))") }
    var on: Int32 = 1
    _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
    guard bind(descriptor, address, found.pointee.ai_addrlen) == 0 else {
      let reason = String(cString: strerror(errno))
      Glibc.close(descriptor)
      throw ServerStartError("cannot listen on \(host):\(port): \(reason)")
    }
    guard listen(descriptor, 128) == 0 else {
      let reason = String(cString: strerror(errno))
      Glibc.close(descriptor)
      throw ServerStartError("cannot listen on \(host):\(port): \(reason)")
    }
    var bound = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &bound) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    self.descriptor = descriptor
    self.port = Int(UInt16(bigEndian: bound.sin_port))
    self.path = nil
  }

  /// The next connection, waiting at most `timeout` seconds; nil when none came.
  func accept(timeout: Double) -> Int32? {
    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    guard poll(&poller, 1, Int32(timeout * 1000)) > 0 else { return nil }
    // On Linux the connection does not inherit O_NONBLOCK: it blocks, with timeouts.
    let connection = Glibc.accept(descriptor, nil, nil)
    guard connection >= 0 else { return nil }
    _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
    return connection
  }

  func close() {
    _ = Glibc.close(descriptor)
    if let path { unlink(path) }
  }
}

/// Why the server could not start (the address is taken, the host does not resolve).
public struct ServerStartError: Error, CustomStringConvertible, Sendable {
  public var description: String
  init(_ description: String) { self.description = description }
}
