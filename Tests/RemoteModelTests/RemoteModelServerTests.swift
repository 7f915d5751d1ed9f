import FMTestSupport
import Foundation
import FoundationModels
import RemoteModel
import Synchronization
import Testing

/// Arguments of ``CityLookup``: one of a few cities, so that the whole JSON is a few tokens. Why:
/// llama-server cuts a constrained answer where its budget ends (its grammar does not close
/// it), and how long a free string runs depends on the text this CPU's model writes.
@Generable struct Place {
  @Guide(.anyOf(["Paris", "Lyon", "Marseille", "Toulouse", "Nice"]))
  var city: String
}

/// A tool that records the cities it is asked about.
final class CityLookup: Tool, Sendable {
  let name = "lookupCity"
  let description = "Looks up facts about a city."
  let asked = Mutex<[String]>([])

  func call(arguments: Place) async throws -> String {
    asked.withLock { $0.append(arguments.city) }
    return "\(arguments.city) is a large city."
  }
}

/// A server the suite runs against: the pinned `llama-server`, started for each test on
/// `smollm2-135m`, and the real vLLM of the test run where there is one (`VLLMServer`, the same
/// model converted; its context fixed when it starts).
enum RemoteServer: String, CaseIterable, CustomStringConvertible {
  case llamaServer = "llama-server"
  case vllm

  var description: String { rawValue }

  static var available: [RemoteServer] { allCases.filter(\.isAvailable) }

  var isAvailable: Bool {
    switch self {
    case .llamaServer: LlamaServer.isAvailable && FileManager.default.fileExists(atPath: TestModels.smolLM2Path)
    case .vllm: VLLMServer.isAvailable
    }
  }

  /// The context a test that asks for `requested` tokens gets.
  func contextSize(asking requested: Int) -> Int {
    self == .vllm ? VLLMServer.contextSize : requested
  }
}

/// Where a test's server listens, and how to stop it (nil for the run's vLLM, which other
/// tests use: a test that stops its server asks for one of its own).
struct RunningServer {
  var url: URL
  var stop: (() -> Void)?
}

/// The remote model against real servers: the pinned `llama-server` and, where the test run
/// started one, vLLM.
@Suite(.serialized, .enabled(if: !RemoteServer.available.isEmpty))
struct RemoteModelServerTests {
  let greedy = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 24)

  /// Runs `body` on a server of `kind`: a llama-server started for it, or the run's vLLM (one of
  /// its own where `own`, started for it: about a minute).
  func withServer(
    _ kind: RemoteServer, contextSize: Int = 2048, own: Bool = false,
    _ body: (RunningServer, OpenAICompatibleLanguageModel) async throws -> Void
  ) async throws {
    let process: ServerProcess?
    let running: RunningServer
    switch kind {
    case .llamaServer:
      process = try await LlamaServer.start(model: TestModels.smolLM2Path, contextSize: contextSize)
    case .vllm:
      process = own ? try await VLLMServer.startAnother() : nil
    }
    defer { process?.stop() }
    if let process {
      running = RunningServer(url: process.baseURL, stop: process.stop)
    } else {
      running = RunningServer(url: try #require(VLLMServer.endpoint), stop: nil)
    }
    let name = kind == .vllm ? VLLMServer.modelName : "smollm2"
    try await body(running, OpenAICompatibleLanguageModel(baseURL: running.url, model: name, maximumRetries: 1))
  }

  @Test(arguments: RemoteServer.available)
  func aStreamedAnswerGrowsAndReportsItsUsage(_ kind: RemoteServer) async throws {
    try await withServer(kind) { _, model in
      let session = LanguageModelSession(model: model, instructions: "Answer briefly.")
      let stream = session.streamResponse(to: "Name three colours.", options: greedy)
      var last = ""
      var snapshots = 0
      for try await snapshot in stream {
        #expect(snapshot.content.hasPrefix(last))
        last = snapshot.content
        snapshots += 1
      }
      let response = try await stream.collect()
      #expect(response.content == last && !last.isEmpty)
      #expect(snapshots > 1)
      #expect(response.usage.input.totalTokenCount > 0)
      #expect(response.usage.output.totalTokenCount > 0)
    }
  }

  @Test(arguments: RemoteServer.available)
  func aMultiTurnChatKeepsItsTranscriptAndTheServerItsCache(_ kind: RemoteServer) async throws {
    try await withServer(kind) { _, model in
      // Instructions of over 128 tokens: vLLM on a CPU caches whole blocks of 128.
      let instructions =
        "Answer briefly." + String(repeating: " You know the sea, its tides and its coasts well.", count: 16)
      let session = LanguageModelSession(model: model, instructions: instructions)
      let first = try await session.respond(to: "What is the sea?", options: greedy)
      let second = try await session.respond(to: "And a lake?", options: greedy)
      #expect(!first.content.isEmpty && !second.content.isEmpty)
      #expect(session.transcript.count == 5)
      #expect(second.usage.input.totalTokenCount > first.usage.input.totalTokenCount)
      // The server keeps the conversation's prefix: llama-server in its slot, vLLM in its prefix
      // cache (reported with --enable-prompt-tokens-details, as scripts/vllm starts it).
      #expect(second.usage.input.cachedTokenCount > 0)
    }
  }

  /// Both schemas bound the whole output to under 30 bytes (a choice among a few names), and a
  /// token is at least one byte: 64 tokens always suffice, whatever the model writes, so the
  /// server's answer is the whole object.
  @Test(arguments: RemoteServer.available)
  func guidedGenerationOfAGenerableTypeAndOfADynamicSchema(_ kind: RemoteServer) async throws {
    try await withServer(kind) { _, model in
      let session = LanguageModelSession(model: model)
      let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 64)
      let place = try await session.respond(to: "Name a city in France.", generating: Place.self, options: options)
      #expect(["Paris", "Lyon", "Marseille", "Toulouse", "Nice"].contains(place.content.city))
      let colours = ["red", "green", "blue", "yellow"]
      let dynamic = DynamicGenerationSchema(
        name: "Colour", properties: [.init(name: "name", schema: .init(name: "name", anyOf: colours))])
      let schema = try GenerationSchema(root: dynamic, dependencies: [])
      let content = try await session.respond(to: "Name a colour.", schema: schema, options: options).content
      #expect(colours.contains(try content.value(String.self, forProperty: "name")))
    }
  }

  /// The server gets the tools, earlier calls (`tool_calls`) and their outputs (`tool`
  /// messages) and answers after them. (SmolLM2's template has no tool format, so this server
  /// never writes a call itself; streamed `tool_calls` are covered by the unit tests, and a full
  /// round trip on Qwen by `fm-bench p12`.)
  @Test(arguments: RemoteServer.available)
  func toolsCallsAndOutputsReachTheServer(_ kind: RemoteServer) async throws {
    try await withServer(kind) { _, model in
      let call = Transcript.ToolCall(
        id: "call-1", toolName: "lookupCity", arguments: Place(city: "Paris").generatedContent)
      let history = Transcript(entries: [
        .instructions(
          Transcript.Instructions(
            segments: [.text(.init(content: "Use the tool."))],
            toolDefinitions: [Transcript.ToolDefinition(tool: CityLookup())])),
        .prompt(Transcript.Prompt(segments: [.text(.init(content: "Tell me about Paris."))])),
        .toolCalls(Transcript.ToolCalls([call])),
        .toolOutput(
          Transcript.ToolOutput(
            id: "call-1", toolName: "lookupCity", segments: [.text(.init(content: "Paris is large."))])),
        .response(Transcript.Response(assetIDs: [], segments: [.text(.init(content: "Paris is large."))])),
      ])
      let session = LanguageModelSession(model: model, tools: [CityLookup()], transcript: history)
      let answer = try await session.respond(to: "And Lyon?", options: greedy)
      #expect(!answer.content.isEmpty)
      #expect(session.transcript.count == history.count + 2)
    }
  }

  @Test(arguments: RemoteServer.available)
  func cancellingMidStreamEndsAtOnceAndTheSessionGoesOn(_ kind: RemoteServer) async throws {
    try await withServer(kind) { _, model in
      let session = LanguageModelSession(model: model)
      let long = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 1500)
      let (started, signal) = AsyncStream.makeStream(of: Void.self)
      let task = Task {
        let stream = session.streamResponse(to: "Write a long story about the sea.", options: long)
        for try await snapshot in stream where snapshot.content.count > 10 { signal.yield() }
        return try await stream.collect()
      }
      for await _ in started { break }
      task.cancel()
      await #expect(throws: CancellationError.self) { try await task.value }
      #expect(session.transcript.isEmpty)
      let next = try await session.respond(to: "Hi", options: greedy)
      #expect(!next.content.isEmpty)
    }
  }

  @Test(arguments: RemoteServer.available)
  func aServerThatDiesMidStreamIsAnErrorAndTheTranscriptStaysAsItWas(_ kind: RemoteServer) async throws {
    try await withServer(kind, own: true) { server, model in
      let session = LanguageModelSession(model: model)
      let long = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 1500)
      await #expect(throws: (any Error).self) {
        for try await snapshot in session.streamResponse(to: "Write a long story about the sea.", options: long)
        where snapshot.content.count > 10 {
          server.stop?()
        }
      }
      #expect(session.transcript.isEmpty)
    }
  }

  @Test(arguments: RemoteServer.available)
  func theServerTellsItsModelsContextSizeAndTokenCounts(_ kind: RemoteServer) async throws {
    try await withServer(kind, contextSize: 1024) { _, model in
      #expect(try await model.availableModels().count == 1)
      #expect(try await model.contextSize() == kind.contextSize(asking: 1024))
      let short = try await model.tokenCount(for: "The sea")
      let long = try await model.tokenCount(for: String(repeating: "The sea is calm. ", count: 20))
      #expect(short > 0 && long > short * 10)
    }
  }

  @Test(arguments: RemoteServer.available)
  func fmRespondsGeneratesAndListsModelsThroughTheServer(_ kind: RemoteServer) async throws {
    try await withServer(kind) { server, _ in
      let endpoint = server.url.absoluteString
      let models = try FMBinary.run(["models", "--endpoint", endpoint])
      #expect(models.status == 0, "\(models.standardError)")
      #expect(models.standardOutput.split(separator: "\n").count == 1)
      let answer = try FMBinary.run(
        ["respond", "--max-tokens", "8", "--sampling", "greedy", "Say hello."], environment: ["FM_ENDPOINT": endpoint])
      #expect(answer.status == 0, "\(answer.standardError)")
      #expect(!answer.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
      let schema = FileManager.default.temporaryDirectory.appendingPathComponent("colour-\(UUID().uuidString).json")
      defer { try? FileManager.default.removeItem(at: schema) }
      try #"{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}"#.write(
        to: schema, atomically: true, encoding: .utf8)
      let generated = try FMBinary.run([
        "generate", "--endpoint", endpoint, "--schema", schema.path, "--max-tokens", "32", "Name a colour.",
      ])
      // The server holds the small model to the schema; it may still run out of tokens inside a
      // long string, which is said as such.
      if generated.status == 0 {
        let object = try? JSONSerialization.jsonObject(with: Data(generated.standardOutput.utf8)) as? [String: Any]
        #expect(object?["name"] is String, "\(generated.standardOutput)")
      } else {
        #expect(generated.standardError.contains("maximumResponseTokens"), "\(generated.standardError)")
      }
      let chat = try FMBinary.run(
        ["chat", "--endpoint", endpoint, "--max-tokens", "8", "--sampling", "greedy"], input: "Say hello.",
        environment: ["NO_COLOR": "1"])
      #expect(chat.status == 0, "\(chat.standardError)")
      #expect(!chat.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
    }
  }

  @Test func aMalformedEndpointIsAUsageError() throws {
    let result = try FMBinary.run(["respond", "--endpoint", "localhost:8080", "Hi"])
    #expect(result.status == 64)
    #expect(result.standardError.contains("--endpoint"))
  }

  @Test func anUnreachableServerIsAConnectionError() async throws {
    let port = try LlamaServer.freePort()
    let model = OpenAICompatibleLanguageModel(
      baseURL: URL(string: "http://127.0.0.1:\(port)")!, model: "none", maximumRetries: 1)
    let session = LanguageModelSession(model: model)
    await #expect {
      try await session.respond(to: "Hi")
    } throws: { error in
      guard case .connection? = error as? RemoteModelError else { return false }
      return true
    }
    #expect(session.transcript.isEmpty)
  }

  @Test(arguments: RemoteServer.available)
  func aPromptLongerThanTheServersContextIsContextSizeExceeded(_ kind: RemoteServer) async throws {
    try await withServer(kind, contextSize: 256) { _, model in
      let session = LanguageModelSession(model: model)
      await #expect {
        // About 7 tokens a sentence: 80 of them are over twice a context of 256.
        let sentences = 80 * kind.contextSize(asking: 256) / 256
        try await session.respond(to: String(repeating: "The sea is wide and deep. ", count: sentences))
      } throws: { error in
        guard case .contextSizeExceeded? = error as? LanguageModelError else { return false }
        return true
      }
    }
  }
}
