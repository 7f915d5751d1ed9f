/// How `fm serve` is set up beyond its model and address (the slots and the queue are the
/// served model's: `ServedModel.init(id:model:slots:queue:)`).
public struct ServerConfiguration: Sendable {
  /// The key clients must send as `Authorization: Bearer KEY`; nil leaves the server open.
  public var apiKey: String?
  /// The origin allowed to call from a browser (`*` for any); nil sends no CORS headers.
  public var corsOrigin: String?
  /// Seconds a client is told to wait when the queue is full (`Retry-After`).
  public var retryAfterSeconds = 1

  public init(apiKey: String? = nil, corsOrigin: String? = nil) {
    self.apiKey = apiKey
    self.corsOrigin = corsOrigin
  }
}
