import Foundation
import Synchronization

/// An HTTP/1.1 server on POSIX sockets: a thread accepts, and each connection gets a thread of
/// its own that reads its requests (keep-alive, pipelining) and runs each on a task, so no
/// connection waits for another.
///
/// Shutdown is graceful: the listener closes, idle connections are closed, and requests in
/// flight (streams included) may finish within a grace period.
public final class HTTPServer: Sendable {
  /// The port it listens on (0 on a Unix-domain socket).
  public let port: Int
  public let host: String
  /// The Unix-domain socket it listens on, if it listens on one.
  public let socketPath: String?
  private let listener: SocketListener
  private let limits: HTTPLimits
  private let responder: any HTTPResponder
  private let state = Mutex(State())

  private struct State {
    var connections: [ObjectIdentifier: (connection: SocketConnection, busy: Bool)] = [:]
    var shuttingDown = false
    var acceptorStopped = false
  }

  /// Binds the address; `start()` begins accepting.
  /// - Throws: `ServerStartError` when the address cannot be bound.
  public init(host: String, port: Int, limits: HTTPLimits = HTTPLimits(), responder: any HTTPResponder) throws {
    listener = try SocketListener(host: host, port: port)
    self.host = host
    self.port = listener.port
    socketPath = nil
    self.limits = limits
    self.responder = responder
  }

  /// Binds a Unix-domain socket at `socketPath` (removed when the server shuts down); `start()`
  /// begins accepting.
  /// - Throws: `ServerStartError` when it cannot be bound.
  public init(socketPath: String, limits: HTTPLimits = HTTPLimits(), responder: any HTTPResponder) throws {
    listener = try SocketListener(unixPath: socketPath)
    host = "localhost"
    port = 0
    self.socketPath = socketPath
    self.limits = limits
    self.responder = responder
  }

  /// Starts the accepting thread.
  public func start() {
    let thread = Thread { [self] in acceptLoop() }
    thread.name = "HTTPServer.accept"
    thread.start()
  }

  /// Whether shutdown has begun.
  public var isShuttingDown: Bool { state.withLock { $0.shuttingDown } }

  /// Stops accepting, closes idle connections, and waits up to `gracePeriod` seconds for the
  /// requests in flight to finish.
  ///
  /// Waits by sleeping the task: the requests it waits for need the cooperative pool's threads.
  /// - Returns: whether every connection ended within the grace period.
  @discardableResult
  public func shutDown(gracePeriod: Double) async -> Bool {
    state.withLock { $0.shuttingDown = true }
    while !state.withLock({ $0.acceptorStopped }) { try? await Task.sleep(nanoseconds: 10_000_000) }
    let idle = state.withLock { state in state.connections.values.filter { !$0.busy }.map(\.connection) }
    idle.forEach { $0.shutDownReading() }
    let deadline = Monotonic.now + gracePeriod
    while Monotonic.now < deadline {
      if state.withLock({ $0.connections.isEmpty }) { return true }
      try? await Task.sleep(nanoseconds: 20_000_000)
    }
    return false
  }

  private func acceptLoop() {
    while !isShuttingDown {
      guard let descriptor = listener.accept(timeout: 0.1) else { continue }
      let connection = SocketConnection(descriptor: descriptor, writeTimeout: limits.writeTimeout)
      let admitted = state.withLock { state -> Bool in
        guard state.connections.count < limits.connections else { return false }
        state.connections[ObjectIdentifier(connection)] = (connection, false)
        return true
      }
      guard admitted else {
        let refusal = responder.refusal(
          HTTPError(.serviceUnavailable, "the server has \(limits.connections) connections open; retry later"))
        try? connection.writeBlocking(Self.bytes(of: refusal))
        continue
      }
      let thread = Thread { [self] in serve(connection) }
      thread.name = "HTTPServer.connection"
      thread.stackSize = 1 << 20
      thread.start()
    }
    listener.close()
    state.withLock { $0.acceptorStopped = true }
  }

  /// Reads and answers requests on one connection until it closes.
  private func serve(_ connection: SocketConnection) {
    let id = ObjectIdentifier(connection)
    defer { _ = state.withLock { $0.connections.removeValue(forKey: id) } }
    var reader = HTTPRequestReader(connection: connection, limits: limits)
    while true {
      let request: HTTPRequest
      do {
        request = try reader.next {
          try connection.writeBlocking(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        }
      } catch let error as HTTPError {
        try? connection.writeBlocking(Self.bytes(of: responder.refusal(error)))
        return
      } catch {
        return
      }
      let shuttingDown = state.withLock { state -> Bool in
        state.connections[id]?.busy = true
        return state.shuttingDown
      }
      let writer = ResponseWriter(
        connection: connection, keepAlive: request.keepsAlive && !shuttingDown, omitsBody: request.method == "HEAD")
      run(request, writer: writer, on: connection)
      let keep = state.withLock { state -> Bool in
        state.connections[id]?.busy = false
        return !state.shuttingDown
      }
      guard keep, writer.keepsConnection else { return }
    }
  }

  /// Runs the responder on a task, cancelling it when the peer goes away.
  private func run(_ request: HTTPRequest, writer: ResponseWriter, on connection: SocketConnection) {
    let done = DispatchSemaphore(value: 0)
    let responder = responder
    let task = Task.detached {
      await responder.respond(to: request, writer: writer)
      done.signal()
    }
    var cancelled = false
    while done.wait(timeout: .now() + .milliseconds(20)) == .timedOut {
      if !cancelled, connection.peerHasClosed {
        task.cancel()
        cancelled = true
      }
    }
  }

  /// A refusal as bytes, closing the connection.
  private static func bytes(of response: HTTPResponse) -> [UInt8] {
    HTTPResponse.head(
      status: response.status, headers: response.headers + [("Content-Length", String(response.body.count))],
      keepAlive: false) + response.body
  }
}
