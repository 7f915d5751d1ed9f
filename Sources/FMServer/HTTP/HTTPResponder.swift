/// What answers the requests an `HTTPServer` reads.
public protocol HTTPResponder: Sendable {
  /// Answers `request` through `writer`.
  ///
  /// The task is cancelled when the client goes away.
  func respond(to request: HTTPRequest, writer: ResponseWriter) async
  /// The answer to a request the HTTP layer refused (malformed, too large, too slow, or over
  /// the connection limit).
  func refusal(_ error: HTTPError) -> HTTPResponse
}
