/// How much a client may send and how long it may take: past these a request is refused
/// (414, 431, 413, 408) and the connection closed, so one client cannot hold memory or a
/// connection thread without bound.
public struct HTTPLimits: Sendable, Equatable {
  /// Bytes of the request line (`POST /v1/chat/completions HTTP/1.1`).
  public var requestLineBytes = 8 * 1024
  /// Bytes of the whole head: request line and headers.
  public var headerBytes = 32 * 1024
  /// Header fields.
  public var headerCount = 100
  /// Bytes of a body, after chunked decoding.
  public var bodyBytes = 8 * 1024 * 1024
  /// Seconds a started request may take to arrive in full (head and body); then 408.
  public var readTimeout = 30.0
  /// Seconds a kept-alive connection may wait for its next request; then it is closed.
  public var idleTimeout = 15.0
  /// Seconds a response write may wait for a client that does not read; then the connection
  /// is dropped (and its generation cancelled).
  public var writeTimeout = 30.0
  /// Connections open at once; one more is answered 503 and closed.
  public var connections = 256

  public init() {}
}
