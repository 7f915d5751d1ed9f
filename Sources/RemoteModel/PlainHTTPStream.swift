import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An `http://` request on a socket of its own, its response read on a thread of its own: the
/// `HTTPStream` of plain HTTP servers (a local `llama-server`, vLLM, `fm serve`).
///
/// Why not `URLSession`: on Linux it drives libcurl from dispatch sources, and a stream of small
/// server-sent events costs thread switches and epoll calls for every chunk, CPU that a server
/// on the same few cores needs (`bench/README.md`, P13). Here a blocking read per chunk is all.
///
/// Failures are `URLError`s as `URLSession` reports them: a refused or unreachable server
/// `.cannotConnectToHost`, a host that does not resolve `.cannotFindHost`, no byte for `timeout`
/// seconds `.timedOut`, a connection that ends inside the body `.networkConnectionLost`.
enum PlainHTTPStream {
  static func parts(of request: URLRequest, timeout: TimeInterval) -> AsyncThrowingStream<HTTPStream.Part, any Error> {
    let (stream, continuation) = AsyncThrowingStream.makeStream(of: HTTPStream.Part.self)
    let socket = SocketHandle()
    continuation.onTermination = { _ in socket.shutDown() }
    let thread = Thread {
      defer { socket.close() }
      do {
        try exchange(request, on: socket, timeout: timeout) { continuation.yield($0) }
        continuation.finish()
      } catch {
        continuation.finish(throwing: socket.wasShutDown ? URLError(.cancelled) : error)
      }
    }
    thread.name = "PlainHTTPStream"
    thread.start()
    return stream
  }

  /// Sends `request` and passes the response's head, then its body's pieces, to `deliver`.
  private static func exchange(
    _ request: URLRequest, on socket: SocketHandle, timeout: TimeInterval, deliver: (HTTPStream.Part) -> Void
  ) throws {
    guard let url = request.url, let host = url.host else { throw URLError(.badURL) }
    let port = url.port ?? 80
    try socket.connect(host: host, port: port, timeout: timeout)
    var path = url.path.isEmpty ? "/" : url.path
    if let query = url.query { path += "?\(query)" }
    let body = request.httpBody ?? Data()
    var head = "\(request.httpMethod ?? "GET") \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\n"
    for (name, value) in request.allHTTPHeaderFields ?? [:]
    where !["host", "content-length", "connection"].contains(name.lowercased()) {
      head += "\(name): \(value)\r\n"
    }
    head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
    try socket.write(Data(head.utf8) + body)
    var reader = SocketReader(socket: socket)
    let (status, fields) = try reader.readHead()
    guard let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: fields)
    else { throw URLError(.badServerResponse) }
    deliver(.head(response))
    let header = { (name: String) in fields.first { $0.key.lowercased() == name }?.value }
    if header("transfer-encoding")?.lowercased().contains("chunked") == true {
      while let chunk = try reader.readChunk() { deliver(.body(chunk)) }
    } else if let length = header("content-length").flatMap(Int.init) {
      var left = length
      while left > 0 {
        let piece = try reader.read(atMost: left)
        guard !piece.isEmpty else { throw URLError(.networkConnectionLost) }
        left -= piece.count
        deliver(.body(piece))
      }
    } else {
      while case let piece = try reader.read(atMost: 65536), !piece.isEmpty { deliver(.body(piece)) }
    }
  }
}

/// The response side of a socket: its head, then chunks of a chunked body or plain pieces.
private struct SocketReader {
  let socket: SocketHandle
  private var buffer = Data()

  init(socket: SocketHandle) { self.socket = socket }

  /// Reads more from the socket into `buffer`; false at the end of the stream.
  private mutating func fill() throws -> Bool {
    let more = try socket.read()
    buffer.append(more)
    return !more.isEmpty
  }

  /// The status line and the header fields.
  mutating func readHead() throws -> (Int, [String: String]) {
    let end = Data("\r\n\r\n".utf8)
    while buffer.range(of: end) == nil {
      guard try fill() else { throw URLError(.networkConnectionLost) }
      if buffer.count > 1 << 20 { throw URLError(.badServerResponse) }
    }
    let range = buffer.range(of: end)!
    let lines = String(decoding: buffer[..<range.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
    buffer = Data(buffer[range.upperBound...])
    let statusParts = lines[0].split(separator: " ")
    guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw URLError(.badServerResponse) }
    var fields: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return (status, fields)
  }

  /// A line of the chunked encoding, without its CRLF.
  private mutating func readLine() throws -> String {
    let crlf = Data("\r\n".utf8)
    while buffer.range(of: crlf) == nil {
      guard try fill() else { throw URLError(.networkConnectionLost) }
    }
    let range = buffer.range(of: crlf)!
    let line = String(decoding: buffer[..<range.lowerBound], as: UTF8.self)
    buffer = Data(buffer[range.upperBound...])
    return line
  }

  /// The next chunk's data; nil after the last (empty) chunk.
  /// - Throws: `URLError(.networkConnectionLost)` when the stream ends before it.
  mutating func readChunk() throws -> Data? {
    let sizeText = try readLine().split(separator: ";").first.map(String.init) ?? ""
    guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else {
      throw URLError(.badServerResponse)
    }
    while buffer.count < size + 2 {
      guard try fill() else { throw URLError(.networkConnectionLost) }
    }
    let chunk = Data(buffer.prefix(size))
    buffer = Data(buffer.dropFirst(size + 2))
    return size == 0 ? nil : chunk
  }

  /// What is buffered, or else what the socket gives next, at most `count` bytes; empty at the end.
  mutating func read(atMost count: Int) throws -> Data {
    if buffer.isEmpty, try !fill() { return Data() }
    let piece = Data(buffer.prefix(count))
    buffer = Data(buffer.dropFirst(piece.count))
    return piece
  }
}
