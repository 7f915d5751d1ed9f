import Foundation
import Glibc

/// A client connection that sends whatever bytes it is given (malformed ones included) and
/// reads responses as they come, with a timeout on every read: `fm serve`'s tests and its
/// fuzz and load runs (`serve-fuzz`) speak HTTP through it.
public final class RawHTTPConnection: @unchecked Sendable {
  // One task uses a connection at a time; the async reads hand it to a thread and wait.
  public let descriptor: Int32
  private var buffer: [UInt8] = []

  public struct Response: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: [UInt8]
    public var text: String { String(decoding: body, as: UTF8.self) }
    /// The body as a JSON object.
    public var json: [String: Any] {
      (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
    }
    /// The OpenAI error's `param`, `code` and `message`.
    public var error: [String: Any] { json["error"] as? [String: Any] ?? [:] }
  }

  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  public init(port: Int, timeout: Double = 60) throws {
    descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { throw Failure(description: "cannot connect to port \(port)") }
    var time = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1e6))
    _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
  }

  deinit { close() }

  private var isClosed = false

  /// Closes the socket, once: closing its number again could close whatever socket the system
  /// has given that number since (another test's server, whose accepting thread then hung).
  public func close() {
    guard !isClosed else { return }
    isClosed = true
    _ = Glibc.close(descriptor)
  }

  public func send(_ text: String) throws { try send(Array(text.utf8)) }

  public func send(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes {
        Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard sent > 0 else { throw Failure(description: "send failed") }
      offset += sent
    }
  }

  /// Reads more bytes; false when the server closed the connection.
  private func fill() throws -> Bool {
    var chunk = [UInt8](repeating: 0, count: 16384)
    let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
    if count < 0 { throw Failure(description: "read timed out or failed (errno \(errno))") }
    buffer += chunk.prefix(count)
    return count > 0
  }

  /// The bytes that arrive next, whatever was buffered first; empty once the server has closed
  /// the connection.
  ///
  /// For a body that is neither chunked nor of a known length.
  public func readAvailable() throws -> [UInt8] {
    if buffer.isEmpty { _ = try fill() }
    defer { buffer = [] }
    return buffer
  }

  /// Whether the server has closed the connection (reads until EOF, timing out otherwise).
  public func isClosedByServer() -> Bool {
    (try? fill()) == false
  }

  private func line() throws -> String {
    while true {
      if let end = (0..<max(0, buffer.count - 1)).first(where: { buffer[$0] == 13 && buffer[$0 + 1] == 10 }) {
        defer { buffer.removeFirst(end + 2) }
        return String(decoding: buffer[..<end], as: UTF8.self)
      }
      guard try fill() else { throw Failure(description: "closed before a full line") }
    }
  }

  private func take(_ count: Int) throws -> [UInt8] {
    while buffer.count < count {
      guard try fill() else { throw Failure(description: "closed before the body ended") }
    }
    defer { buffer.removeFirst(count) }
    return Array(buffer[..<count])
  }

  /// The status line and headers of the next response.
  public func readHead() throws -> (status: Int, headers: [String: String]) {
    let statusLine = try line()
    let parts = statusLine.split(separator: " ")
    guard parts.count >= 2, let status = Int(parts[1]) else {
      throw Failure(description: "bad status line '\(statusLine)'")
    }
    var headers: [String: String] = [:]
    while true {
      let header = try line()
      if header.isEmpty { break }
      if let colon = header.firstIndex(of: ":") {
        headers[header[..<colon].lowercased()] = header[header.index(after: colon)...].trimmingCharacters(
          in: .whitespaces)
      }
    }
    return (status, headers)
  }

  /// One chunk of a chunked body; empty at its end.
  public func readChunk() throws -> [UInt8] {
    let size = Int(try line().split(separator: ";")[0], radix: 16) ?? 0
    guard size > 0 else {
      _ = try line()
      return []
    }
    let data = try take(size)
    _ = try take(2)
    return data
  }

  /// The next whole response.
  public func readResponse() throws -> Response {
    var (status, headers) = try readHead()
    while status == 100 { (status, headers) = try readHead() }
    var body: [UInt8] = []
    if let length = headers["content-length"].flatMap(Int.init) {
      body = try take(length)
    } else if headers["transfer-encoding"] == "chunked" {
      while case let chunk = try readChunk(), !chunk.isEmpty { body += chunk }
    } else {
      while try fill() {}
      body = buffer
      buffer = []
    }
    return Response(status: status, headers: headers, body: body)
  }

  /// Sends `request` on a new connection and reads the response.
  public static func exchange(_ request: String, port: Int) throws -> Response {
    let connection = try RawHTTPConnection(port: port)
    try connection.send(request)
    return try connection.readResponse()
  }

  /// The reads again for async callers, each on a thread of its own (`onThread`): a blocked
  /// read must not hold a thread of the cooperative pool that the server under test needs.
  public func readResponse() async throws -> Response { try await onThread { try self.readResponse() } }

  public func readHead() async throws -> (status: Int, headers: [String: String]) {
    try await onThread { try self.readHead() }
  }

  public func isClosedByServer() async -> Bool { (try? await onThread { self.isClosedByServer() }) ?? false }

  public static func exchange(_ request: String, port: Int) async throws -> Response {
    try await onThread { try exchange(request, port: port) }
  }

  /// A POST of `body` to `path`.
  public static func post(_ path: String, _ body: String, headers: [String] = []) -> String {
    ([
      "POST \(path) HTTP/1.1", "Host: localhost", "Content-Type: application/json",
      "Content-Length: \(body.utf8.count)",
    ] + headers).joined(separator: "\r\n") + "\r\n\r\n" + body
  }
}

/// Runs blocking client work on a thread of its own: a server under test in the same process
/// shares its cooperative pool, which blocked reads from many tasks would use up (on two
/// cores, two tests blocked in reads leave the servers none, and every read times out).
public func onThread<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result(catching: body)) }.start()
  }
}
