import Foundation

/// A real vLLM serving the test model (`smollm2-135m`, converted to a Hugging Face folder), where
/// the test run set one up: `scripts/test` runs `scripts/vllm install`, starts a server for the
/// whole run and exports `FM_TEST_VLLM_ENDPOINT` (its `/v1` URL) and `FM_TEST_VLLM_SCRIPT` (the
/// path of `scripts/vllm`, which starts another).
public enum VLLMServer {
  /// The run's server, when there is one.
  public static var endpoint: URL? {
    ProcessInfo.processInfo.environment["FM_TEST_VLLM_ENDPOINT"].flatMap { URL(string: $0) }
  }

  public static var isAvailable: Bool { endpoint != nil }

  /// The name it serves the model by, and its context (`--max-model-len`), fixed when it starts.
  public static let modelName = "smollm2"
  public static let contextSize = 2048

  /// Starts a vLLM of its own (about a minute), for a test that stops it: its workers are in
  /// its process group, and `stop()` kills them all.
  public static func startAnother(readyWithin: TimeInterval = 300) async throws -> ServerProcess {
    guard let script = ProcessInfo.processInfo.environment["FM_TEST_VLLM_SCRIPT"] else {
      throw CocoaError(
        .fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "FM_TEST_VLLM_SCRIPT is not set; run scripts/test"])
    }
    let port = try ServerProcess.freePort()
    // Foundation's Process starts the script in a process group of its own, and the script
    // execs the server: its workers share the group, which `stop()` kills.
    let server = try ServerProcess(
      name: "vllm", executable: URL(fileURLWithPath: script), arguments: ["serve", String(port)], port: port,
      killsGroup: true)
    try await server.waitUntilHealthy(within: readyWithin)
    return server
  }
}
