import FMTestSupport
import Foundation
import Testing

/// The official `openai` Python package against a real `fm serve` (the debug binary) on the
/// small model: `OpenAIClient/openai_client_check.py` checks non-streaming and streamed
/// answers, `[DONE]`, json_schema output, tool calls and error exceptions. Then SIGTERM must
/// end the server with status 0.
@Suite(.enabled(if: TestServer.modelIsPresent && PythonOpenAI.isInstalled))
struct OpenAIClientTests {
  static var script: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
      "OpenAIClient/openai_client_check.py")
  }

  static func python(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3"] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  @Test func theOpenAIClientWorksAgainstFmServe() throws {
    let server = try ServeProcess.start([TestModels.smolLM2Path, "--api-key", "test-key", "--context", "2048"])
    let modelID = URL(fileURLWithPath: TestModels.smolLM2Path).deletingPathExtension().lastPathComponent
    let result = try Self.python([Self.script.path, server.baseURL.absoluteString, modelID, "test-key"])
    #expect(result.status == 0, "\(result.output)")
    #expect(server.terminate() == 0)
  }
}

/// Whether `python3` can import the `openai` package (`scripts/setup` installs it for tests).
enum PythonOpenAI {
  static let isInstalled: Bool = (try? OpenAIClientTests.python(["-c", "import openai"]).status) == 0
}
