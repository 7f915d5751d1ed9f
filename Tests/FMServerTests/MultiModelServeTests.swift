import FMTestSupport
import Foundation
import Testing

/// `fm serve` with several models: each request's `model` picks one, two models answer at
/// once, an unknown model is a 404 naming them; `--models-dir`, `--max-loaded` and
/// `--keep-alive` decide which stay in memory (`/health` says which are loaded).
///
/// The two models are the small chat model under two names (links in a temporary directory):
/// two files, so two models in memory, each with its own context and slots.
@Suite(.enabled(if: TestServer.modelIsPresent), .serialized)
struct MultiModelServeTests {
  static let first = "chat-a"
  static let second = "chat-b"

  /// A directory with the small model as `chat-a.gguf` and `chat-b.gguf`.
  static func modelsDirectory() throws -> TemporaryDirectory {
    let directory = try TemporaryDirectory()
    for name in [first, second] {
      try FileManager.default.createSymbolicLink(
        atPath: directory.url.appendingPathComponent(name + ".gguf").path, withDestinationPath: TestModels.smolLM2Path)
    }
    return directory
  }

  static func chat(_ model: String, port: Int) async throws -> RawHTTPConnection.Response {
    let body = #"{"model":"\#(model)","messages":[{"role":"user","content":"Hi"}],"max_tokens":4}"#
    return try await RawHTTPConnection.exchange(RawHTTPConnection.post("/v1/chat/completions", body), port: port)
  }

  static func loaded(port: Int) async throws -> Set<String> {
    let health = try await RawHTTPConnection.exchange("GET /health HTTP/1.1\r\nHost: x\r\n\r\n", port: port)
    let models = health.json["models"] as? [[String: Any]] ?? []
    return Set(models.filter { $0["loaded"] as? Bool == true }.compactMap { $0["id"] as? String }).subtracting([
      "system"
    ])
  }

  @Test func twoModelsAnswerAtOnceAndAnUnknownOneIsA404() async throws {
    let directory = try Self.modelsDirectory()
    defer { directory.remove() }
    let paths = [Self.first, Self.second].map { directory.url.appendingPathComponent($0 + ".gguf").path }
    let server = try ServeProcess.start(paths + ["--context", "1024"])
    let listed = try await RawHTTPConnection.exchange("GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n", port: server.port)
    let data = listed.json["data"] as? [[String: Any]] ?? []
    #expect(data.compactMap { $0["id"] as? String } == [Self.first, Self.second])
    #expect(data.allSatisfy { $0["max_model_len"] as? Int == 1024 })
    async let first = Self.chat(Self.first, port: server.port)
    async let second = Self.chat(Self.second, port: server.port)
    let answers = try await [first, second]
    #expect(answers.map(\.status) == [200, 200])
    #expect(answers.map { $0.json["model"] as? String } == [Self.first, Self.second])
    let unknown = try await Self.chat("nope", port: server.port)
    let message = unknown.error["message"] as? String ?? ""
    #expect(unknown.status == 404 && message.contains(Self.first) && message.contains(Self.second))
    #expect(server.terminate() == 0)
  }

  @Test func aModelsDirectoryIsServedWithinTheBoundAndTheKeepAlive() async throws {
    let directory = try Self.modelsDirectory()
    defer { directory.remove() }
    let server = try ServeProcess.start([
      "--models-dir", directory.url.path, "--max-loaded", "1", "--keep-alive", "2s", "--context", "1024",
    ])
    // The first by name is loaded at the start.
    #expect(try await Self.loaded(port: server.port) == [Self.first])
    #expect(try await Self.chat(Self.second, port: server.port).status == 200)
    #expect(try await Self.loaded(port: server.port) == [Self.second])
    let deadline = Date().addingTimeInterval(30)
    while try await !Self.loaded(port: server.port).isEmpty, Date() < deadline {
      try await Task.sleep(for: .milliseconds(200))
    }
    #expect(try await Self.loaded(port: server.port).isEmpty)
    #expect(try await Self.chat(Self.first, port: server.port).status == 200)
    #expect(server.terminate() == 0)
  }
}
