import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A real `llama-server` from the pinned llama.cpp build (`.deps/llama/bin`), on a free loopback
/// port, for tests of the remote model: started with a model, ready when `/health` answers,
/// stopped (killed) by `stop()` or when released.
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

  /// Starts a server on `model` and waits until it serves.
  /// - Parameter arguments: more `llama-server` options (`--jinja` is always given).
  public static func start(model: String, contextSize: Int = 2048, arguments: [String] = []) async throws -> LlamaServer
  {
    let port = try freePort()
    let server = try LlamaServer(
      port: port,
      arguments: [
        "-m", model, "--host", "127.0.0.1", "--port", String(port), "-c", String(contextSize), "-np", "1", "-t", "2",
        "--jinja", "--no-webui",
      ] + arguments)
    try await server.waitUntilHealthy()
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
    try process.run()
  }

  deinit { stop() }

  /// Kills the server at once (as a crash would).
  public func stop() {
    // `waitUntilExit()` can hang off the main thread on Linux; the kill is waited for by polling.
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    for _ in 0..<500 where process.isRunning { usleep(10_000) }
    try? FileManager.default.removeItem(at: log)
  }

  /// The end of the server's log, for failure messages.
  public var logTail: String {
    let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    return String(text.suffix(2000))
  }

  private func waitUntilHealthy() async throws {
    let deadline = Date().addingTimeInterval(120)
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
    stop()
    throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "llama-server did not become healthy"])
  }

  /// A loopback port nothing listens on (the kernel's choice for a socket bound to port 0).
  public static func freePort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
        bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
      }
    }
    guard bound else { throw POSIXError(.EADDRINUSE) }
    return Int(UInt16(bigEndian: address.sin_port))
  }
}
