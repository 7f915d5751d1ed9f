import Foundation
import Glibc

/// One accepted TCP connection: a non-blocking socket that reads with a deadline and writes
/// without ever blocking a thread of Swift's cooperative pool.
///
/// Reads happen on the connection's own thread (`HTTPConnection`), which may block in `poll`.
/// Writes come from the route's task: on a full send buffer they wait by sleeping the task, so
/// a client that stops reading costs no pool thread, and after `writeTimeout` the write fails.
final class SocketConnection: Sendable {
  let descriptor: Int32
  private let writeTimeout: Double

  /// Takes ownership of `descriptor`.
  init(descriptor: Int32, writeTimeout: Double) {
    self.descriptor = descriptor
    self.writeTimeout = writeTimeout
    let flags = fcntl(descriptor, F_GETFL)
    _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
    var on: Int32 = 1
    _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
  }

  deinit { close(descriptor) }

  /// Why a read or write ended the connection.
  enum Failure: Error {
    case timedOut
    case closed
  }

  /// Reads what is available into `buffer`, waiting until `deadline` (monotonic seconds).
  /// - Returns: the bytes read; 0 when the peer closed the connection.
  /// - Throws: `Failure.timedOut` at the deadline, `Failure.closed` on a socket error.
  func read(into buffer: inout [UInt8], deadline: Double) throws -> Int {
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
      let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      if count > 0 {
        buffer += chunk.prefix(count)
        return count
      }
      if count == 0 { return 0 }
      guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else { throw Failure.closed }
      let remaining = deadline - Monotonic.now
      guard remaining > 0 else { throw Failure.timedOut }
      var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      _ = poll(&poller, 1, Int32(min(remaining, 1) * 1000) + 1)
    }
  }

  /// Writes all of `bytes`, sleeping the task while the send buffer is full.
  /// - Throws: `Failure.closed` when the peer is gone, `Failure.timedOut` after `writeTimeout`
  ///   without progress, `CancellationError` when the task is cancelled while waiting.
  func write(_ bytes: [UInt8]) async throws {
    var offset = 0
    var stalledSince = Monotonic.now
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if sent > 0 {
        offset += sent
        stalledSince = Monotonic.now
        continue
      }
      guard sent < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else { throw Failure.closed }
      guard Monotonic.now - stalledSince < writeTimeout else { throw Failure.timedOut }
      try await Task.sleep(nanoseconds: 2_000_000)
    }
  }

  /// Writes all of `bytes` from a thread that may block (the connection's own).
  func writeBlocking(_ bytes: [UInt8]) throws {
    var offset = 0
    let deadline = Monotonic.now + writeTimeout
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if sent > 0 {
        offset += sent
        continue
      }
      guard sent < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else { throw Failure.closed }
      guard Monotonic.now < deadline else { throw Failure.timedOut }
      var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
      _ = poll(&poller, 1, 100)
    }
  }

  /// Whether the peer has closed or reset the connection (Linux's `POLLRDHUP`, with the hang-up
  /// and error events `poll` always reports).
  ///
  /// Checked while a route runs, so that a client that goes away cancels its generation at once
  /// rather than at the next write.
  var peerHasClosed: Bool {
    let readHangUp: Int16 = 0x2000  // POLLRDHUP, which Glibc's module does not export
    var poller = pollfd(fd: descriptor, events: readHangUp, revents: 0)
    guard poll(&poller, 1, 0) > 0 else { return false }
    return poller.revents & (readHangUp | Int16(POLLHUP) | Int16(POLLERR)) != 0
  }

  /// Ends reading, which wakes a thread waiting for the next request (graceful shutdown).
  func shutDownReading() {
    _ = Glibc.shutdown(descriptor, Int32(SHUT_RD))
  }
}

/// Seconds on the monotonic clock, for deadlines.
enum Monotonic {
  static var now: Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}
