import Foundation

/// One parsed HTTP/1.1 request: its line, its headers as sent, and its whole body (a chunked
/// body already decoded).
public struct HTTPRequest: Sendable {
  public var method: String
  /// The path, without the query.
  public var path: String
  public var query: String?
  /// `HTTP/1.1` or `HTTP/1.0`.
  public var version: String
  /// Header fields in the order they came, names as sent.
  public var headers: [(name: String, value: String)]
  public var body: [UInt8]

  public init(
    method: String, path: String, query: String? = nil, version: String = "HTTP/1.1",
    headers: [(name: String, value: String)] = [], body: [UInt8] = []
  ) {
    self.method = method
    self.path = path
    self.query = query
    self.version = version
    self.headers = headers
    self.body = body
  }

  /// The value of the first header named `name` (case-insensitive).
  public func header(_ name: String) -> String? {
    headers.first { $0.name.lowercased() == name.lowercased() }?.value
  }

  /// Whether the connection stays open after the response: HTTP/1.1 unless `Connection: close`,
  /// HTTP/1.0 only with `Connection: keep-alive`.
  public var keepsAlive: Bool {
    let tokens = (header("Connection") ?? "").lowercased().split(separator: ",").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    if version == "HTTP/1.0" { return tokens.contains("keep-alive") }
    return !tokens.contains("close")
  }
}
