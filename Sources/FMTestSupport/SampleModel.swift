import Foundation
import FoundationModels
import RemoteModel

/// The models the portability samples run on: app code written the way Apple's documentation
/// and the book write it runs unchanged on our local model and on a model served over the
/// OpenAI protocol.
///
/// `server` is a real `llama-server` from the pinned build, started for each test on
/// `smollm2-135m`, or — when `FM_TEST_ENDPOINT` is set — that server (`FM_TEST_REMOTE_MODEL`
/// names its model; vLLM, Ollama or any OpenAI-compatible server), so the samples can be run
/// against a cluster's model: `FM_TEST_ENDPOINT=http://gpu-node:8000/v1 swift test --filter Portability`.
/// `vllm` is the real vLLM the test run started (`VLLMServer`), serving the same model.
public enum SampleModel: String, CaseIterable, Sendable, CustomStringConvertible {
  case local
  case server
  /// The real vLLM of the test run, where it set one up (`VLLMServer`).
  case vllm

  public var description: String { rawValue }

  /// The kinds this machine can run: the local model needs the test model; the server needs
  /// `FM_TEST_ENDPOINT` or the built `llama-server`.
  public static var available: [SampleModel] {
    allCases.filter(\.isAvailable)
  }

  private static var endpoint: URL? {
    ProcessInfo.processInfo.environment["FM_TEST_ENDPOINT"].flatMap { URL(string: $0) }
  }

  public var isAvailable: Bool {
    let modelIsPresent = FileManager.default.fileExists(atPath: TestModels.smolLM2Path)
    switch self {
    case .local: return modelIsPresent
    case .server: return Self.endpoint != nil || (LlamaServer.isAvailable && modelIsPresent)
    case .vllm: return VLLMServer.isAvailable
    }
  }

  /// Runs `body` with the model, the server started for it and stopped after it.
  public func with<Result>(contextSize: Int = 2048, _ body: (any LanguageModel) async throws -> Result)
    async throws -> Result
  {
    switch self {
    case .local:
      return try await body(
        SystemLanguageModel(path: URL(fileURLWithPath: TestModels.smolLM2Path), contextSize: contextSize))
    case .server:
      if let endpoint = Self.endpoint {
        let name = ProcessInfo.processInfo.environment["FM_TEST_REMOTE_MODEL"] ?? "default"
        return try await body(OpenAICompatibleLanguageModel(baseURL: endpoint, model: name))
      }
      let server = try await LlamaServer.start(model: TestModels.smolLM2Path, contextSize: contextSize)
      defer { server.stop() }
      return try await body(OpenAICompatibleLanguageModel(baseURL: server.baseURL, model: "smollm2", maximumRetries: 1))
    case .vllm:
      guard let endpoint = VLLMServer.endpoint else { throw CocoaError(.featureUnsupported) }
      return try await body(
        OpenAICompatibleLanguageModel(baseURL: endpoint, model: VLLMServer.modelName, maximumRetries: 1))
    }
  }
}
