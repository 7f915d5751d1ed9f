import Foundation
import Glibc

/// A listening IPv4 TCP socket.
final class SocketListener: Sendable {
  let descriptor: Int32
  /// The port it listens on (the one the system chose when asked for port 0).
  let port: Int

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

  func close() { _ = Glibc.close(descriptor) }
}

/// Why the server could not start (the address is taken, the host does not resolve).
public struct ServerStartError: Error, CustomStringConvertible, Sendable {
  public var description: String
  init(_ description: String) { self.description = description }
}
