import Foundation
import Synchronization

/// A loopback HTTP server that answers every request with the next of a list of canned
/// responses (the last one repeated), for the few failures a real server cannot be made to
/// produce on demand: an HTTP 500, a 429 with `Retry-After`, a server that ignores the schema.
/// It records the requests' bodies. Call `stop()` when done.
public final class CannedHTTPServer: Sendable {
  public struct Response: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: String

    public init(status: Int = 200, headers: [String: String] = [:], body: String) {
      self.status = status
      self.headers = headers
      self.body = body
    }

    /// A streamed chat completion whose content is `text`, in OpenAI's chunk format.
    public static func streamedCompletion(_ text: String) -> Response {
      let chunk = ["choices": [["index": 0, "delta": ["content": text]]]]
      let data =
        (try? JSONSerialization.data(withJSONObject: chunk)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
      return Response(
        headers: ["Content-Type": "text/event-stream"], body: "data: \(data)\n\ndata: [DONE]\n\n")
    }
  }

  public let baseURL: URL
  private let descriptor: Int32
  /// The responses still to give (the last one stays), and the bodies of the requests served.
  private let state: Mutex<(responses: [Response], bodies: [String])>

  /// The bodies of the requests served so far.
  public var requests: [String] { state.withLock { $0.bodies } }

  public init(responses: [Response]) throws {
    state = Mutex((responses, []))
    (descriptor, baseURL) = try LoopbackSocket.server(backlog: 8)
    Thread.detachNewThread { [self] in serve() }
  }

  /// Stops listening; the serving thread ends and closes the socket.
  ///
  /// Why the thread closes it, not `stop()`: a descriptor closed here could be handed to the
  /// next server a test starts while this thread is about to call `accept` on the number
  /// again, and it would answer that server's requests with these responses.
  public func stop() {
    shutdown(descriptor, Int32(SHUT_RDWR))
  }

  private func serve() {
    while true {
      let connection = accept(descriptor, nil, nil)
      guard connection >= 0 else {
        close(descriptor)
        return
      }
      let body = Self.readRequestBody(connection)
      let response: Response = state.withLock { state in
        state.bodies.append(body)
        return state.responses.count > 1 ? state.responses.removeFirst() : state.responses[0]
      }
      var head =
        "HTTP/1.1 \(response.status) Canned\r\nConnection: close\r\nContent-Length: \(response.body.utf8.count)\r\n"
      for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
      let bytes = Array((head + "\r\n" + response.body).utf8)
      _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      close(connection)
    }
  }

  /// Reads one request (head and a `Content-Length` body) and returns the body.
  private static func readRequestBody(_ connection: Int32) -> String {
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = recv(connection, &buffer, buffer.count, 0)
      guard count > 0 else { break }
      data += buffer[0..<count]
      let text = String(decoding: data, as: UTF8.self)
      guard let end = text.range(of: "\r\n\r\n") else { continue }
      let head = text[..<end.lowerBound].lowercased()
      let length =
        head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
        .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
      let body = Array(text[end.upperBound...].utf8)
      if body.count >= length { return String(decoding: body, as: UTF8.self) }
    }
    return ""
  }
}
