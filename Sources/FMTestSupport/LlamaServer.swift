import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A real `llama-server` from the pinned llama.cpp build (`.deps/llama/bin`), on a free loopback
/// port, for the remote model's tests and fm-bench's references: started with a model, ready
/// when `/health` answers, stopped (killed) by `stop()` or when released.
public final class LlamaServer: @unchecked Sendable {
  // `process` is only read after start and terminated once.
  public let baseURL: URL
  private let process: Process
  private let log: URL

  /// The server binary of this checkout's llama.cpp build.
  public static var binary: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent(".deps/llama/bin/llama-server")
  }

  public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: binary.path) }

  /// Starts a server on `model` with `slots` sequences (one by default) and `--jinja`, and
  /// waits until it serves.
  /// - Parameters:
  ///   - contextSize: tokens in all, shared among the slots.
  ///   - arguments: more `llama-server` options.
  ///   - readyWithin: seconds the model may take to load.
  public static func start(
    model: String, contextSize: Int = 2048, slots: Int = 1, threads: Int = 2, arguments: [String] = [],
    readyWithin: TimeInterval = 120
  ) async throws -> LlamaServer {
    guard isAvailable else {
      throw CocoaError(
        .fileNoSuchFile,
        userInfo: [NSLocalizedDescriptionKey: "no llama-server at \(binary.path); run scripts/build-llama"])
    }
    let port = try freePort()
    let server = try LlamaServer(
      port: port,
      arguments: [
        "-m", model, "--host", "127.0.0.1", "--port", String(port), "-c", String(contextSize), "-np", String(slots),
        "-t",
        String(threads), "--jinja", "--no-webui",
      ] + arguments)
    try await server.waitUntilHealthy(within: readyWithin)
    return server
  }

  private init(port: Int, arguments: [String]) throws {
    guard let url = URL(string: "http://127.0.0.1:\(port)") else { throw POSIXError(.EINVAL) }
    baseURL = url
    log = FileManager.default.temporaryDirectory.appendingPathComponent("llama-server-\(port)-\(UUID().uuidString).log")
    FileManager.default.createFile(atPath: log.path, contents: nil)
    process = Process()
    process.executableURL = Self.binary
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
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    for _ in 0..<500 where process.isRunning { usleep(10_000) }
    try? FileManager.default.removeItem(at: log)
  }

  /// The end of the server's log, for failure messages.
  public var logTail: String {
    let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    return String(text.suffix(2000))
  }

  private func waitUntilHealthy(within seconds: TimeInterval) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      guard process.isRunning else {
        throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "llama-server exited: \(logTail)"])
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
      userInfo: [NSLocalizedDescriptionKey: "llama-server was not ready after \(Int(seconds)) s: \(tail)"])
  }

  /// A loopback port nothing listens on (the kernel's choice for a socket bound to port 0).
  public static func freePort() throws -> Int {
    let (descriptor, port) = try LoopbackSocket.bind()
    close(descriptor)
    return port
  }
}
