import Synchronization

/// What a route writes its answer with: one complete response, or a stream of chunks
/// (`Transfer-Encoding: chunked`, for server-sent events).
///
/// Writes wait for a slow client without blocking a thread (see `SocketConnection.write`).
public final class ResponseWriter: Sendable {
  private let connection: SocketConnection
  private let state: Mutex<State>
  /// Whether the request was `HEAD` (the body is left out).
  private let omitsBody: Bool

  private struct State {
    var keepAlive: Bool
    var started = false
    var streaming = false
    var finished = false
    var failed = false
  }

  init(connection: SocketConnection, keepAlive: Bool, omitsBody: Bool) {
    self.connection = connection
    self.omitsBody = omitsBody
    state = Mutex(State(keepAlive: keepAlive))
  }

  /// Whether the connection can take another request after this response.
  var keepsConnection: Bool { state.withLock { $0.keepAlive && $0.finished && !$0.failed } }

  /// Whether a response has begun (a route that fails after it cannot send an error response).
  public var hasStarted: Bool { state.withLock { $0.started } }

  /// Writes a complete response.
  public func send(_ response: HTTPResponse) async throws {
    let keepAlive = try begin(streaming: false)
    var headers = response.headers
    headers.append(("Content-Length", String(response.body.count)))
    var bytes = HTTPResponse.head(status: response.status, headers: headers, keepAlive: keepAlive)
    if !omitsBody { bytes += response.body }
    try await write(bytes, finishing: true)
  }

  /// Starts a chunked response.
  public func startStream(status: HTTPStatus, headers: [(name: String, value: String)]) async throws {
    let keepAlive = try begin(streaming: true)
    try await write(
      HTTPResponse.head(status: status, headers: headers + [("Transfer-Encoding", "chunked")], keepAlive: keepAlive),
      finishing: false)
  }

  /// Writes one chunk of a started stream.
  public func sendChunk(_ bytes: [UInt8]) async throws {
    guard !bytes.isEmpty else { return }
    try await write(Array((String(bytes.count, radix: 16) + "\r\n").utf8) + bytes + [13, 10], finishing: false)
  }

  /// Ends a started stream (the zero-size last chunk).
  public func endStream() async throws {
    try await write(Array("0\r\n\r\n".utf8), finishing: true)
  }

  /// Marks the response started; returns whether it keeps the connection.
  private func begin(streaming: Bool) throws -> Bool {
    try state.withLock { state in
      guard !state.started else { throw SocketConnection.Failure.closed }
      state.started = true
      state.streaming = streaming
      return state.keepAlive
    }
  }

  private func write(_ bytes: [UInt8], finishing: Bool) async throws {
    do {
      try await connection.write(bytes)
      if finishing { state.withLock { $0.finished = true } }
    } catch {
      state.withLock { $0.failed = true }
      throw error
    }
  }

  /// Stops the connection from being kept (graceful shutdown).
  func closeAfterResponse() { state.withLock { $0.keepAlive = false } }
}
