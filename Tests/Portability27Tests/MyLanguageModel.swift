import Foundation
import FoundationModels
import Synchronization

/// A custom model provider written the way Apple's 27 documentation writes one
/// ("Custom language model provider"): the model describes itself, its executor turns the
/// request into the model's input, streams the answer, and reports metadata and usage.
///
/// Its "model" answers with the last prompt's words in reverse order, so tests can tell
/// what it was given; it records every request it serves.
struct MyLanguageModel: LanguageModel {
  typealias Executor = MyExecutor

  let endpoint: String
  let log = RequestLog()
  var capabilities: LanguageModelCapabilities

  init(endpoint: String = "local", capabilities: [LanguageModelCapabilities.Capability] = [.guidedGeneration]) {
    self.endpoint = endpoint
    self.capabilities = LanguageModelCapabilities(capabilities: capabilities)
  }

  var executorConfiguration: MyExecutor.Configuration {
    MyExecutor.Configuration(endpoint: endpoint)
  }
}

/// The requests a model served, in order.
final class RequestLog: Sendable {
  private let requests = Mutex<[LanguageModelExecutorGenerationRequest]>([])
  var all: [LanguageModelExecutorGenerationRequest] { requests.withLock { $0 } }
  func record(_ request: LanguageModelExecutorGenerationRequest) { requests.withLock { $0.append(request) } }
}

struct MyExecutor: LanguageModelExecutor {
  struct Configuration: Hashable, Sendable {
    let endpoint: String
  }

  init(configuration: Configuration) throws {
    guard !configuration.endpoint.isEmpty else { throw MissingEndpoint() }
  }

  struct MissingEndpoint: Error {}

  func respond(
    to request: LanguageModelExecutorGenerationRequest,
    model: MyLanguageModel,
    streamingInto channel: LanguageModelExecutorGenerationChannel
  ) async throws {
    model.log.record(request)
    let entryID = UUID().uuidString

    // Send model identification.
    await channel.send(
      .response(
        entryID: entryID,
        action: .updateMetadata([
          "modelID": "my-model-2026-06-08",
          "requestID": request.id.uuidString,
        ])))

    // The request may ask for greedy sampling; this model only has a temperature.
    let temperature = request.generationOptions.samplingMode == .greedy ? 0 : request.generationOptions.temperature
    let answer: String
    if let schema = request.schema {
      answer = try Self.object(of: schema)
    } else {
      answer = Self.lastPromptText(of: request.transcript).split(separator: " ").reversed().joined(separator: " ")
    }
    for word in answer.split(separator: " ", omittingEmptySubsequences: false).enumerated() {
      await channel.send(
        .response(entryID: entryID, action: .appendText((word.offset == 0 ? "" : " ") + word.element, tokenCount: 1)))
    }
    let inputTokens = request.transcript.reduce(0) { $0 + "\($1)".split(separator: " ").count }
    await channel.send(
      .response(
        entryID: entryID,
        action: .updateUsage(
          input: .init(totalTokenCount: inputTokens, cachedTokenCount: 0),
          output: .init(totalTokenCount: answer.split(separator: " ").count, reasoningTokenCount: 0))))
    if let temperature {
      await channel.send(.response(entryID: entryID, action: .updateMetadata(["temperature": temperature])))
    }
  }

  /// The text of the last prompt in `transcript`.
  static func lastPromptText(of transcript: Transcript) -> String {
    for entry in transcript.reversed() {
      guard case .prompt(let prompt) = entry else { continue }
      return prompt.segments.compactMap { segment -> String? in
        if case .text(let text) = segment { text.content } else { nil }
      }.joined(separator: " ")
    }
    return ""
  }

  /// An object for a schema of string properties, each value its property's name, and of image
  /// references (`$ref`), each to the attachment labelled "first" — enough for the schemas these
  /// tests ask for, read from the schema's JSON as a remote provider would.
  static func object(of schema: GenerationSchema) throws -> String {
    let data = try JSONEncoder().encode(schema)
    guard let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
      let properties = json["properties"] as? [String: Any]
    else {
      throw LanguageModelError.unsupportedGenerationGuide(
        .init(schemaName: schema.name, debugDescription: "Not an object."))
    }
    let order = (json["x-order"] as? [String]) ?? properties.keys.sorted()
    let pairs = order.map { key -> String in
      let property = properties[key] as? [String: Any]
      let value = property?["$ref"] != nil ? #"{"attachmentLabel":"first"}"# : #""\#(key)""#
      return #""\#(key)":\#(value)"#
    }
    return "{" + pairs.joined(separator: ",") + "}"
  }
}
