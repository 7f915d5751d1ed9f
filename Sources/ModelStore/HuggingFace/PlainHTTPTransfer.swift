import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One `ResumableDownload` transfer of an `http` address (a mirror named by `HF_ENDPOINT`, a
/// local server) over a TCP socket of its own: the body goes from large socket reads straight
/// to the transfer's `PartialFileWriter`.
///
/// URLSession on Linux hands a body to its delegate in libcurl's 16 KB pieces, each through an
/// operation on the delegate queue, which caps a fast connection; this client does one read and
/// at most one write per megabyte. It speaks only what a file download needs: a `GET` with
/// `Connection: close`, a body framed by `Content-Length` or by the connection's end, and `http`
/// redirects. An answer it does not read itself (a redirect to `https`, a chunked or compressed
/// body) ends the transfer with `HandOver`, and the download asks URLSession for that address.
final class PlainHTTPTransfer: Sendable {
  /// The transfer is for URLSession: `url` is the address to ask, `sendsToken` whether the
  /// token may go to it.
  struct HandOver: Error {
    var url: URL
    var sendsToken: Bool
  }

  private let url: URL
  private let token: String?
  private let firstByte: Int64
  private let idleTimeout: TimeInterval
  /// The open socket (or -1), and whether `cancel()` was called.
  private let connection = Mutex<(descriptor: Int32, cancelled: Bool)>((-1, false))

  /// Redirects followed before the transfer gives up.
  private static let redirectLimit = 10
  /// The size of each socket read.
  private static let readSize = 1 << 20

  /// A transfer of the bytes of `url` from `firstByte` on; `token` goes as `Authorization:
  /// Bearer` to `url`'s host and port only.
  init(url: URL, token: String?, firstByte: Int64, idleTimeout: TimeInterval) {
    self.url = url
    self.token = token
    self.firstByte = firstByte
    self.idleTimeout = idleTimeout
  }

  /// Whether this client fetches `url`: a plain `http` address, with no proxy configured for it
  /// (URLSession honours the proxy variables; this client does not).
  static func handles(_ url: URL, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
    url.scheme?.lowercased() == "http"
      && !["http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"].contains { !(environment[$0] ?? "").isEmpty }
  }

  /// Runs the transfer on a thread of its own; `writer` hears the answer and the body, and ends
  /// the transfer's stream.
  func start(writer: PartialFileWriter) {
    Thread.detachNewThread { [self] in
      do {
        try run(writer)
        writer.complete(error: nil)
      } catch {
        writer.complete(error: error)
      }
    }
  }

  /// Closes the connection, so a read in progress returns at once; the transfer ends with an error.
  func cancel() {
    connection.withLock { connection in
      connection.cancelled = true
      if connection.descriptor >= 0 { shutdown(connection.descriptor, Int32(SHUT_RDWR)) }
    }
  }

  private func run(_ writer: PartialFileWriter) throws {
    var address = url
    for _ in 0...Self.redirectLimit {
      let descriptor = try connect(to: address)
      defer { disconnect(descriptor) }
      try send(request(for: address), on: descriptor)
      let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.readSize, alignment: 4096)
      defer { buffer.deallocate() }
      let answer = try readHead(from: descriptor, into: buffer)
      if [301, 302, 303, 307, 308].contains(answer.status), let location = answer.headers["location"] {
        guard let next = URL(string: location, relativeTo: address)?.absoluteURL else {
          throw URLError(.badServerResponse)
        }
        guard Self.handles(next) else { throw HandOver(url: next, sendsToken: sendsToken(to: next)) }
        address = next
        continue
      }
      let framing = (
        answer.headers["transfer-encoding"] ?? "identity", answer.headers["content-encoding"] ?? "identity"
      )
      guard framing == ("identity", "identity") else {
        throw HandOver(url: address, sendsToken: sendsToken(to: address))
      }
      guard writer.accept(status: answer.status, contentRange: answer.headers["content-range"]) else { return }
      var remaining = answer.headers["content-length"].flatMap { Int64($0) }
      let early = UnsafeRawBufferPointer(rebasing: buffer[answer.bodyStart..<answer.filled])
      writer.append(early)
      remaining = remaining.map { $0 - Int64(early.count) }
      while remaining.map({ $0 > 0 }) ?? true, !writer.failed {
        let wanted = remaining.map { Int(min($0, Int64(buffer.count))) } ?? buffer.count
        let count = try receive(from: descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<wanted]))
        if count == 0 {
          // The connection's end frames a body without a length; one with a length is cut short.
          if remaining == nil { return }
          throw URLError(.networkConnectionLost)
        }
        writer.append(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        remaining = remaining.map { $0 - Int64(count) }
      }
      return
    }
    throw URLError(.httpTooManyRedirects)
  }

  /// Whether the token may go to `address`: the host and port it was given for.
  private func sendsToken(to address: URL) -> Bool {
    address.host == url.host && address.port == url.port
  }

  private func request(for address: URL) -> String {
    let components = URLComponents(url: address, resolvingAgainstBaseURL: false)
    let path = components?.percentEncodedPath ?? ""
    let query = components?.percentEncodedQuery.map { "?" + $0 } ?? ""
    let host = (address.host ?? "") + (address.port.map { ":\($0)" } ?? "")
    var lines = [
      "GET \(path.isEmpty ? "/" : path)\(query) HTTP/1.1", "Host: \(host)", "User-Agent: fm",
      // Compressed bodies would not line up with byte ranges.
      "Accept-Encoding: identity", "Connection: close",
    ]
    if firstByte > 0 { lines.append("Range: bytes=\(firstByte)-") }
    if let token, sendsToken(to: address) { lines.append("Authorization: Bearer \(token)") }
    return lines.joined(separator: "\r\n") + "\r\n\r\n"
  }

  /// An answer's status and headers (names lowercased), and where its body begins in the buffer.
  private struct Head {
    var status: Int
    var headers: [String: String]
    var bodyStart: Int
    var filled: Int
  }

  /// Reads until the blank line that ends the answer's head; the bytes after it are the body's first.
  private func readHead(from descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) throws -> Head {
    let separator: [UInt8] = [13, 10, 13, 10]
    var filled = 0
    while filled < 65_536 {
      let count = try receive(from: descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
      guard count > 0 else { throw URLError(.networkConnectionLost) }
      let searchFrom = max(0, filled - 3)
      filled += count
      let received = UnsafeRawBufferPointer(rebasing: buffer[..<filled])
      guard let end = received[searchFrom...].firstRange(of: separator) else { continue }
      let lines = String(decoding: received[..<end.lowerBound], as: UTF8.self).split(separator: "\r\n")
      let words = lines.first?.split(separator: " ") ?? []
      guard words.count >= 2, words[0].hasPrefix("HTTP/"), let status = Int(words[1]) else {
        throw URLError(.badServerResponse)
      }
      var headers: [String: String] = [:]
      for line in lines.dropFirst() {
        guard let colon = line.firstIndex(of: ":") else { continue }
        headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      }
      return Head(status: status, headers: headers, bodyStart: end.upperBound, filled: filled)
    }
    throw URLError(.badServerResponse)
  }

  /// One read; 0 at the connection's end.
  private func receive(from descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    while true {
      let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
      if count > 0 { return count }
      if count == 0 {
        if connection.withLock({ $0.cancelled }) { throw CancellationError() }
        return 0
      }
      switch errno {
      case EINTR: continue
      case EAGAIN, EWOULDBLOCK: throw URLError(.timedOut)
      default: throw connectionError()
      }
    }
  }

  private func send(_ text: String, on descriptor: Int32) throws {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let sent = bytes.withUnsafeBytes { Foundation.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if sent < 0, errno == EINTR { continue }
      guard sent > 0 else { throw connectionError() }
      bytes = bytes.dropFirst(sent)
    }
  }

  /// Connects to the first of `address`'s host's addresses that answers; a silent connection
  /// times out after `idleTimeout`.
  private func connect(to address: URL) throws -> Int32 {
    guard let host = address.host else { throw URLError(.badURL) }
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var found: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(host, String(address.port ?? 80), &hints, &found) == 0 else { throw URLError(.cannotFindHost) }
    defer { freeaddrinfo(found) }
    var timeout = timeval(tv_sec: Int(idleTimeout), tv_usec: 0)
    var candidate = found
    while let entry = candidate?.pointee {
      candidate = entry.ai_next
      let descriptor = socket(entry.ai_family, entry.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), entry.ai_protocol)
      guard descriptor >= 0 else { continue }
      let registered = connection.withLock { connection in
        guard !connection.cancelled else { return false }
        connection.descriptor = descriptor
        return true
      }
      guard registered else {
        close(descriptor)
        throw CancellationError()
      }
      setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
      setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
      if Foundation.connect(descriptor, entry.ai_addr, entry.ai_addrlen) == 0 { return descriptor }
      disconnect(descriptor)
    }
    if connection.withLock({ $0.cancelled }) { throw CancellationError() }
    throw URLError(.cannotConnectToHost)
  }

  private func disconnect(_ descriptor: Int32) {
    connection.withLock { connection in
      connection.descriptor = -1
      close(descriptor)
    }
  }

  /// The error for a failed socket call: cancelled when `cancel()` closed the connection.
  private func connectionError() -> any Error {
    let code = errno
    if connection.withLock({ $0.cancelled }) { return CancellationError() }
    return URLError(code == ETIMEDOUT ? .timedOut : .networkConnectionLost)
  }
}
