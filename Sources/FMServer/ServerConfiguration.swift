/// How `fm serve` is set up beyond its model and address.
public struct ServerConfiguration: Sendable {
  /// The key clients must send as `Authorization: Bearer KEY`; nil leaves the server open.
  public var apiKey: String?
  /// Chat completions generating at once.
  public var parallel = 1
  /// Chat completions that may wait for a slot; past that, 503.
  public var queue = 16
  /// The origin allowed to call from a browser (`*` for any); nil sends no CORS headers.
  public var corsOrigin: String?
  /// Seconds a client is told to wait when the queue is full (`Retry-After`).
  public var retryAfterSeconds = 1

  public init(apiKey: String? = nil, parallel: Int = 1, queue: Int = 16, corsOrigin: String? = nil) {
    self.apiKey = apiKey
    self.parallel = parallel
    self.queue = queue
    self.corsOrigin = corsOrigin
  }
}
