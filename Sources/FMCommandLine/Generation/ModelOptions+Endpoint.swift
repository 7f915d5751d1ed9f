import Foundation
import FoundationModels
import RemoteModel

extension ModelOptions {
  static let endpointOptions: [CommandLineOption] = [
    .option(
      "--endpoint", value: "URL",
      help: "an OpenAI-compatible server (vLLM, llama-server, Ollama) instead of the local model; or FM_ENDPOINT"),
    .option("--api-key", value: "KEY", help: "the server's API key (or FM_API_KEY)"),
  ]

  /// The server `--endpoint` (or `FM_ENDPOINT`) names, or nil for the local model.
  /// - Throws: `UsageError` for a URL that is not http or https.
  static func endpoint(_ arguments: ParsedArguments, environment: [String: String]) throws -> URL? {
    guard let text = arguments.value("--endpoint") ?? environment["FM_ENDPOINT"].flatMap({ $0.isEmpty ? nil : $0 })
    else { return nil }
    guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil
    else {
      throw UsageError("--endpoint needs an http or https URL such as http://localhost:8080, not '\(text)'")
    }
    return url
  }

  /// The model a command runs on: the server's when an endpoint is given (`--model` names the
  /// server's model; without it, the first the server lists), else the local one.
  static func remoteModel(_ arguments: ParsedArguments, environment: [String: String]) async throws
    -> OpenAICompatibleLanguageModel?
  {
    guard let endpoint = try endpoint(arguments, environment: environment) else { return nil }
    var model = OpenAICompatibleLanguageModel(
      baseURL: endpoint, model: arguments.value("--model") ?? "",
      apiKey: arguments.value("--api-key") ?? environment["FM_API_KEY"])
    if model.model.isEmpty {
      guard let first = try await model.availableModels().first else {
        throw UsageError("the server at \(endpoint) lists no models; name one with --model")
      }
      model.model = first
    }
    return model
  }

  /// A session on the command's model: the server's with `--endpoint`, else the local one;
  /// continuing `transcript` where one is given (with `instructions` in place of its own).
  func session(
    _ arguments: ParsedArguments, environment: [String: String], tools: [any Tool] = [], instructions: String?,
    transcript: Transcript? = nil
  )
    async throws -> LanguageModelSession
  {
    let remote = try await Self.remoteModel(arguments, environment: environment)
    if let transcript {
      let entries = Transcript(entries: TranscriptFile.entries(Array(transcript), instructions: instructions))
      if let remote { return LanguageModelSession(model: remote, tools: tools, transcript: entries) }
      return LanguageModelSession(model: model, tools: tools, transcript: entries)
    }
    if let remote { return LanguageModelSession(model: remote, tools: tools, instructions: instructions) }
    return LanguageModelSession(model: model, tools: tools, instructions: instructions)
  }
}
