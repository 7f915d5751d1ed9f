import Foundation

/// Reads HTTP/1.1 requests one after another from a connection, with the limits of
/// `HTTPLimits`: the request line, then header fields, then a body by `Content-Length` or
/// chunked transfer coding.
///
/// Bytes after a request (a pipelined next one) are kept for the next call.
struct HTTPRequestReader {
  let connection: SocketConnection
  let limits: HTTPLimits
  private var buffer: [UInt8] = []

  init(connection: SocketConnection, limits: HTTPLimits) {
    self.connection = connection
    self.limits = limits
  }

  /// What came instead of a request.
  enum End: Error {
    /// The peer closed the connection, or it stayed idle past `idleTimeout`, between requests.
    case closed
  }

  /// The next request.
  /// - Parameter expectContinue: called when a request sends `Expect: 100-continue`, before
  ///   its body is read (it writes the interim `100 Continue`).
  /// - Throws: `End.closed` between requests; `HTTPError` for a malformed, oversized or slow
  ///   request (408 once it had begun and did not arrive within `readTimeout`).
  mutating func next(expectContinue: () throws -> Void) throws -> HTTPRequest {
    // Blank lines before a request line are allowed (RFC 9112, 2.2).
    while buffer.starts(with: [13, 10]) { buffer.removeFirst(2) }
    if buffer.isEmpty {
      let idleDeadline = Monotonic.now + limits.idleTimeout
      do {
        guard try connection.read(into: &buffer, deadline: idleDeadline) > 0 else { throw End.closed }
      } catch is SocketConnection.Failure {
        throw End.closed
      }
    }
    let deadline = Monotonic.now + limits.readTimeout
    let headEnd = try readHead(deadline: deadline)
    let head = Array(buffer[..<headEnd])
    buffer.removeFirst(headEnd + 4)
    var request = try Self.parseHead(head, limits: limits)
    let length = try Self.bodyLength(of: request, limits: limits)
    if length != .none, request.header("Expect")?.lowercased() == "100-continue" { try expectContinue() }
    switch length {
    case .none: break
    case .fixed(let count): request.body = try take(count, deadline: deadline)
    case .chunked: request.body = try readChunked(deadline: deadline)
    }
    return request
  }

  /// Reads until the head's blank line; returns its offset.
  private mutating func readHead(deadline: Double) throws -> Int {
    var searched = 0
    while true {
      if let end = Self.find([13, 10, 13, 10], in: buffer, from: max(0, searched - 3)) {
        if let lineEnd = Self.find([13, 10], in: buffer, from: 0), lineEnd > limits.requestLineBytes {
          throw HTTPError(.uriTooLong, "the request line is longer than \(limits.requestLineBytes) bytes")
        }
        guard end <= limits.headerBytes else {
          throw HTTPError(.headersTooLarge, "the request head is longer than \(limits.headerBytes) bytes")
        }
        return end
      }
      searched = buffer.count
      if Self.find([13, 10], in: buffer, from: 0) == nil, buffer.count > limits.requestLineBytes {
        throw HTTPError(.uriTooLong, "the request line is longer than \(limits.requestLineBytes) bytes")
      }
      guard buffer.count <= limits.headerBytes else {
        throw HTTPError(.headersTooLarge, "the request head is longer than \(limits.headerBytes) bytes")
      }
      try fill(deadline: deadline)
    }
  }

  /// Reads more bytes into the buffer.
  private mutating func fill(deadline: Double) throws {
    do {
      guard try connection.read(into: &buffer, deadline: deadline) > 0 else {
        throw HTTPError(.badRequest, "the connection closed in the middle of a request")
      }
    } catch SocketConnection.Failure.timedOut {
      throw HTTPError(.requestTimeout, "the request did not arrive within \(Int(limits.readTimeout)) seconds")
    } catch is SocketConnection.Failure {
      throw HTTPError(.badRequest, "the connection failed in the middle of a request")
    }
  }

  private mutating func take(_ count: Int, deadline: Double) throws -> [UInt8] {
    while buffer.count < count { try fill(deadline: deadline) }
    defer { buffer.removeFirst(count) }
    return Array(buffer[..<count])
  }

  /// A line ending in CRLF, without it; at most `limit` bytes.
  private mutating func line(limit: Int, deadline: Double) throws -> [UInt8] {
    while true {
      if let end = Self.find([13, 10], in: buffer, from: 0) {
        guard end <= limit else { throw HTTPError(.badRequest, "a chunk line is longer than \(limit) bytes") }
        defer { buffer.removeFirst(end + 2) }
        return Array(buffer[..<end])
      }
      guard buffer.count <= limit else { throw HTTPError(.badRequest, "a chunk line is longer than \(limit) bytes") }
      try fill(deadline: deadline)
    }
  }

  /// A chunked body (RFC 9112, 7.1): sizes in hex with optional extensions, each chunk's data
  /// followed by CRLF, a zero-size chunk, then trailer fields (read and dropped) up to a blank line.
  private mutating func readChunked(deadline: Double) throws -> [UInt8] {
    var body: [UInt8] = []
    while true {
      let sizeLine = try line(limit: 1024, deadline: deadline)
      let sizeText = String(decoding: sizeLine.prefix { $0 != UInt8(ascii: ";") }, as: UTF8.self)
        .trimmingCharacters(in: [" ", "\t"])
      guard !sizeText.isEmpty, sizeText.count <= 8, sizeText.allSatisfy(\.isHexDigit),
        let size = Int(sizeText, radix: 16)
      else { throw HTTPError(.badRequest, "malformed chunk size '\(sizeText.prefix(40))'") }
      if size == 0 { break }
      guard body.count + size <= limits.bodyBytes else {
        throw HTTPError(.payloadTooLarge, "the body is larger than \(limits.bodyBytes) bytes")
      }
      body += try take(size, deadline: deadline)
      guard try take(2, deadline: deadline) == [13, 10] else {
        throw HTTPError(.badRequest, "a chunk's data is not followed by CRLF")
      }
    }
    var trailerBytes = 0
    while true {
      let trailer = try line(limit: limits.headerBytes, deadline: deadline)
      if trailer.isEmpty { return body }
      trailerBytes += trailer.count
      guard trailerBytes <= limits.headerBytes else {
        throw HTTPError(.headersTooLarge, "the trailer fields are longer than \(limits.headerBytes) bytes")
      }
    }
  }

  enum BodyLength: Equatable {
    case none
    case fixed(Int)
    case chunked
  }

  /// How the body is delimited.
  ///
  /// Both `Content-Length` and `Transfer-Encoding`, or two different lengths, are refused: a proxy
  /// might read the message another way (request smuggling).
  static func bodyLength(of request: HTTPRequest, limits: HTTPLimits) throws -> BodyLength {
    let lengths = request.headers.filter { $0.name.lowercased() == "content-length" }.map(\.value)
    let encodings = request.headers.filter { $0.name.lowercased() == "transfer-encoding" }.map { $0.value.lowercased() }
    if !encodings.isEmpty {
      guard lengths.isEmpty else {
        throw HTTPError(.badRequest, "a request may not have both Content-Length and Transfer-Encoding")
      }
      guard encodings == ["chunked"] else {
        throw HTTPError(
          .badRequest, "unsupported Transfer-Encoding '\(encodings.joined(separator: ", "))'; only chunked")
      }
      return .chunked
    }
    guard let first = lengths.first else { return .none }
    guard lengths.allSatisfy({ $0 == first }), !first.isEmpty, first.count <= 18,
      first.utf8.allSatisfy({ (48...57).contains($0) }), let count = Int(first)
    else { throw HTTPError(.badRequest, "malformed Content-Length '\(lengths.joined(separator: ", ").prefix(40))'") }
    guard count <= limits.bodyBytes else {
      throw HTTPError(.payloadTooLarge, "the body of \(count) bytes is larger than \(limits.bodyBytes) bytes")
    }
    return count == 0 ? .none : .fixed(count)
  }

  /// Parses the request line and the header fields.
  static func parseHead(_ head: [UInt8], limits: HTTPLimits) throws -> HTTPRequest {
    var lines: [ArraySlice<UInt8>] = []
    var start = 0
    while let end = find([13, 10], in: head, from: start) {
      lines.append(head[start..<end])
      start = end + 2
    }
    lines.append(head[start...])
    let requestLine = lines.removeFirst()
    guard requestLine.count <= limits.requestLineBytes else {
      throw HTTPError(.uriTooLong, "the request line is longer than \(limits.requestLineBytes) bytes")
    }
    let parts = requestLine.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
    guard parts.count == 3, let method = token(parts[0]), let target = visibleASCII(parts[1]),
      let version = visibleASCII(parts[2])
    else { throw HTTPError(.badRequest, "malformed request line") }
    guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
      throw HTTPError(.badRequest, "unsupported HTTP version '\(version.prefix(20))'; use HTTP/1.1")
    }
    guard target.hasPrefix("/") else {
      throw HTTPError(.badRequest, "the request target must be a path starting with '/'")
    }
    guard lines.count <= limits.headerCount else {
      throw HTTPError(.headersTooLarge, "more than \(limits.headerCount) header fields")
    }
    var headers: [(name: String, value: String)] = []
    for line in lines {
      guard let colon = line.firstIndex(of: UInt8(ascii: ":")), let name = token(line[..<colon]) else {
        throw HTTPError(.badRequest, "malformed header field")
      }
      let valueBytes = line[(colon + 1)...]
      guard valueBytes.allSatisfy({ $0 == 9 || (32...126).contains($0) || $0 >= 128 }) else {
        throw HTTPError(.badRequest, "a control character in the value of header '\(name)'")
      }
      let value = String(decoding: valueBytes, as: UTF8.self).trimmingCharacters(in: [" ", "\t"])
      headers.append((name, value))
    }
    let question = target.firstIndex(of: "?")
    return HTTPRequest(
      method: method, path: String(target[..<(question ?? target.endIndex)]),
      query: question.map { String(target[target.index(after: $0)...]) }, version: version, headers: headers)
  }

  /// The bytes as an RFC 9110 token (methods, header names), or nil.
  private static func token(_ bytes: ArraySlice<UInt8>) -> String? {
    let allowed = Set("!#$%&'*+-.^_`|~".utf8)
    guard !bytes.isEmpty,
      bytes.allSatisfy({
        (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) || allowed.contains($0)
      })
    else { return nil }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static func visibleASCII(_ bytes: ArraySlice<UInt8>) -> String? {
    guard !bytes.isEmpty, bytes.allSatisfy({ (33...126).contains($0) }) else { return nil }
    return String(decoding: bytes, as: UTF8.self)
  }

  static func find(_ pattern: [UInt8], in bytes: some Collection<UInt8>, from start: Int) -> Int? {
    let array = Array(bytes)
    guard array.count >= pattern.count, start <= array.count - pattern.count else { return nil }
    for index in start...(array.count - pattern.count) where array[index] == pattern[0] {
      if array[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
    }
    return nil
  }
}
