import Foundation

/// A real `llama-server` from the pinned llama.cpp build (`.deps/llama/bin`), for the remote
/// model's tests and fm-bench's references: started with a model on a free loopback port.
public enum LlamaServer {
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
  ) async throws -> ServerProcess {
    guard isAvailable else {
      throw CocoaError(
        .fileNoSuchFile,
        userInfo: [NSLocalizedDescriptionKey: "no llama-server at \(binary.path); run scripts/build-llama"])
    }
    let port = try ServerProcess.freePort()
    let server = try ServerProcess(
      name: "llama-server", executable: binary,
      arguments: [
        "-m", model, "--host", "127.0.0.1", "--port", String(port), "-c", String(contextSize), "-np", String(slots),
        "-t", String(threads), "--jinja", "--no-webui",
      ] + arguments, port: port)
    try await server.waitUntilHealthy(within: readyWithin)
    return server
  }

  /// A loopback port nothing listens on.
  public static func freePort() throws -> Int { try ServerProcess.freePort() }
}
