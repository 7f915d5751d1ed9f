import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A TCP socket with blocking reads and writes, each limited by a timeout, that another thread
/// may shut down to end a read in progress (`PlainHTTPStream`).
final class SocketHandle: @unchecked Sendable {
  // The descriptor is set once by `connect` before any other use, on the reading thread;
  // `shutDown` from another thread only reads it, under the lock.
  private let lock = NSLock()
  private var descriptor: Int32 = -1
  private var shutdownRequested = false

  var wasShutDown: Bool { lock.withLock { shutdownRequested } }

  /// Connects to `host`:`port`, trying each address it resolves to.
  func connect(host: String, port: Int, timeout: TimeInterval) throws {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var list: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
      throw URLError(.cannotFindHost)
    }
    defer { freeaddrinfo(list) }
    var candidate: UnsafeMutablePointer<addrinfo>? = first
    while let address = candidate {
      candidate = address.pointee.ai_next
      let fd = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
      guard fd >= 0 else { continue }
      // On Linux the send timeout bounds connect() too.
      var limit = timeval(tv_sec: Int(timeout), tv_usec: Int(timeout.truncatingRemainder(dividingBy: 1) * 1e6))
      setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
      setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
      var one: Int32 = 1
      setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
      if Glibc.connect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 {
        let cancelled = lock.withLock {
          descriptor = fd
          return shutdownRequested
        }
        if cancelled { throw URLError(.cancelled) }
        return
      }
      Glibc.close(fd)
    }
    throw URLError(.cannotConnectToHost)
  }

  func write(_ data: Data) throws {
    try data.withUnsafeBytes { bytes in
      var sent = 0
      while sent < bytes.count {
        let count = send(descriptor, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { throw Self.failure() }
        sent += count
      }
    }
  }

  /// The next bytes the server sends; empty at the end of the stream.
  func read() throws -> Data {
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = recv(descriptor, &buffer, buffer.count, 0)
      if count >= 0 { return Data(buffer[0..<count]) }
      if errno == EINTR { continue }
      throw Self.failure()
    }
  }

  /// Ends a read in progress on another thread, and every later one.
  func shutDown() {
    lock.withLock {
      shutdownRequested = true
      if descriptor >= 0 { _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR)) }
    }
  }

  func close() {
    lock.withLock {
      if descriptor >= 0 { Glibc.close(descriptor) }
      descriptor = -1
    }
  }

  /// The `URLError` of the last failed call.
  private static func failure() -> URLError {
    switch errno {
    case EAGAIN, EWOULDBLOCK: URLError(.timedOut)
    default: URLError(.networkConnectionLost)
    }
  }
}
