/// A complete response: status, header fields and body.
///
/// The framing fields (`Content-Length` or `Transfer-Encoding`, and `Connection`) are added when it
/// is written.
public struct HTTPResponse: Sendable {
  public var status: HTTPStatus
  public var headers: [(name: String, value: String)]
  public var body: [UInt8]

  public init(status: HTTPStatus, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// A JSON response.
  public static func json(_ status: HTTPStatus, _ text: String, headers: [(name: String, value: String)] = [])
    -> HTTPResponse
  {
    HTTPResponse(
      status: status, headers: [("Content-Type", "application/json")] + headers, body: Array(text.utf8))
  }

  /// The status line and header fields, ending with the blank line.
  static func head(status: HTTPStatus, headers: [(name: String, value: String)], keepAlive: Bool) -> [UInt8] {
    var text = "HTTP/1.1 \(status.code) \(status.reason)\r\n"
    for (name, value) in headers { text += "\(name): \(value)\r\n" }
    text += keepAlive ? "Connection: keep-alive\r\n" : "Connection: close\r\n"
    return Array((text + "\r\n").utf8)
  }
}
