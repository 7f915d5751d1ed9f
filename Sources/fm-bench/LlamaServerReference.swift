import Foundation
import GuidedDecoding

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The pinned build's `llama-server`, started by fm-bench on a free loopback port as the
/// reference of a figure, and stopped with `stop()` (or when the value is released).
final class LlamaServerReference {
  let baseURL: URL
  private let process = Process()
  private let logFile: URL

  /// Starts the server on `modelPath` and waits until `/health` says the model is loaded.
  /// - Parameter arguments: flags after the model, threads and address (context, slots, `--jinja`).
  /// - Throws: `BenchError` when the binary is missing or the server exits or is not ready in time.
  init(modelPath: String, threads: Int, arguments: [String]) async throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let executable = root.appendingPathComponent(".deps/llama/bin/llama-server").path
    guard FileManager.default.isExecutableFile(atPath: executable) else {
      throw BenchError("llama-server not found at \(executable); run scripts/build-llama")
    }
    let port = try Self.freeLoopbackPort()
    guard let baseURL = URL(string: "http://127.0.0.1:\(port)") else { throw BenchError("no URL for port \(port)") }
    self.baseURL = baseURL
    logFile = FileManager.default.temporaryDirectory.appendingPathComponent("fm-bench-llama-server-\(port).log")
    _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
    let log = try FileHandle(forWritingTo: logFile)
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments =
      ["-m", modelPath, "-t", "\(threads)", "--host", "127.0.0.1", "--port", "\(port)", "--no-webui"] + arguments
    process.standardOutput = log
    process.standardError = log
    process.standardInput = FileHandle.nullDevice
    try process.run()
    try await waitUntilHealthy(timeoutSeconds: 300)
  }

  deinit { stop() }

  /// Stops the server and waits for it to exit.
  ///
  /// With SIGKILL: a child inherits the signal mask of the thread that started it, and the
  /// concurrency runtime's threads block SIGTERM, so the server would never see a SIGTERM.
  func stop() {
    guard process.isRunning else { return }
    kill(process.processIdentifier, SIGKILL)
    // Not `waitUntilExit()`, which spins its run loop on Linux.
    while process.isRunning { usleep(10_000) }
  }

  /// The end of the server's log, for error messages.
  var logTail: String {
    String(((try? String(contentsOf: logFile, encoding: .utf8)) ?? "").suffix(2000))
  }

  /// POSTs `body` (JSON) to `path` and parses the JSON answer.
  /// - Throws: `BenchError` with the status and body when the server answers with an error.
  func post(_ path: String, body: JSONValue) async throws -> JSONValue {
    var request = URLRequest(url: baseURL.appendingPathComponent(path))
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data(body.compactText.utf8)
    request.timeoutInterval = 600
    let (data, response) = try await URLSession.shared.data(for: request)
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    guard status == 200 else {
      throw BenchError("llama-server answered \(status): \(String(decoding: data.prefix(500), as: UTF8.self))")
    }
    return try JSONValue(parsing: data)
  }

  private func waitUntilHealthy(timeoutSeconds: Double) async throws {
    let start = DispatchTime.now()
    while elapsed(since: start) < timeoutSeconds {
      guard process.isRunning else {
        throw BenchError("llama-server exited with \(process.terminationStatus):\n\(logTail)")
      }
      var request = URLRequest(url: baseURL.appendingPathComponent("health"))
      request.timeoutInterval = 5
      if let (_, response) = try? await URLSession.shared.data(for: request),
        (response as? HTTPURLResponse)?.statusCode == 200
      {
        return
      }
      try await Task.sleep(for: .milliseconds(250))
    }
    stop()
    throw BenchError("llama-server was not ready after \(Int(timeoutSeconds)) s:\n\(logTail)")
  }

  /// A loopback port nobody listens on now: the one the kernel gives a socket bound to port 0.
  private static func freeLoopbackPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw BenchError("socket() failed") }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let found = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
      }
    }
    guard found else { throw BenchError("no free loopback port") }
    return Int(UInt16(bigEndian: address.sin_port))
  }
}
