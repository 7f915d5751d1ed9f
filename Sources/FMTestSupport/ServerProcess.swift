import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A server process on a free loopback port for tests and fm-bench's references (`LlamaServer`,
/// `VLLMServer`): ready when `/health` answers, stopped (killed) by `stop()` or when released.
public final class ServerProcess: @unchecked Sendable {
  // `process` is only read after start and terminated once.
  public let baseURL: URL
  /// What the server is, for messages.
  public let name: String
  private let process: Process
  private let log: URL
  /// Whether the process leads a process group of its own, its workers in it: `stop()` kills
  /// the group.
  private let killsGroup: Bool

  /// Starts `executable` with `arguments`; it is to listen on `port`.
  init(name: String, executable: URL, arguments: [String], port: Int, killsGroup: Bool = false) throws {
    guard let url = URL(string: "http://127.0.0.1:\(port)") else { throw POSIXError(.EINVAL) }
    self.name = name
    self.killsGroup = killsGroup
    baseURL = url
    log = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(port)-\(UUID().uuidString).log")
    FileManager.default.createFile(atPath: log.path, contents: nil)
    process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let output = try FileHandle(forWritingTo: log)
    process.standardOutput = output
    process.standardError = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
  }

  deinit { stop() }

  /// Kills the server at once (as a crash would).
  ///
  /// SIGKILL: a child inherits the signal mask of the thread that started it, and the
  /// concurrency runtime's threads block SIGTERM. `waitUntilExit()` can spin off the main
  /// thread on Linux, so the exit is waited for by polling.
  public func stop() {
    if process.isRunning { kill(killsGroup ? -process.processIdentifier : process.processIdentifier, SIGKILL) }
    for _ in 0..<500 where process.isRunning { usleep(10_000) }
    try? FileManager.default.removeItem(at: log)
  }

  /// The end of the server's log, for failure messages.
  public var logTail: String {
    let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    return String(text.suffix(2000))
  }

  /// Waits until `/health` answers 200, for at most `seconds`.
  /// - Throws: when the process exits first or is not ready in time (then it is stopped).
  func waitUntilHealthy(within seconds: TimeInterval) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      guard process.isRunning else {
        throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "\(name) exited: \(logTail)"])
      }
      var request = URLRequest(url: baseURL.appendingPathComponent("health"))
      request.timeoutInterval = 2
      if let (_, response) = try? await URLSession.shared.data(for: request),
        (response as? HTTPURLResponse)?.statusCode == 200
      {
        return
      }
      try await Task.sleep(for: .milliseconds(200))
    }
    let tail = logTail
    stop()
    throw CocoaError(
      .executableLoad,
      userInfo: [NSLocalizedDescriptionKey: "\(name) was not ready after \(Int(seconds)) s: \(tail)"])
  }

  /// A loopback port nothing listens on (the kernel's choice for a socket bound to port 0).
  public static func freePort() throws -> Int {
    let (descriptor, port) = try LoopbackSocket.bind()
    close(descriptor)
    return port
  }
}
