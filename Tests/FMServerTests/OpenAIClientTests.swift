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
    try Self.check("openai_client_check.py")
  }

  /// Runs the client check `name` (in `OpenAIClient/`) against a real `fm serve` on the small
  /// model with an API key: it must exit 0, and SIGTERM must end the server with status 0.
  static func check(_ name: String) throws {
    let server = try ServeProcess.start([TestModels.smolLM2Path, "--api-key", "test-key", "--context", "2048"])
    let modelID = URL(fileURLWithPath: TestModels.smolLM2Path).deletingPathExtension().lastPathComponent
    let script = Self.script.deletingLastPathComponent().appendingPathComponent(name)
    let result = try Self.python([script.path, server.baseURL.absoluteString, modelID, "test-key"])
    #expect(result.status == 0, "\(result.output)")
    #expect(server.terminate() == 0)
  }
}

/// Apple's `fm serve --socket PATH`: the `openai` client over the Unix-domain socket (its
/// `httpx2` or `httpx` transport with `uds=`), the model named `system`, `/health` with each model's
/// availability; the socket file is gone after the shutdown.
@Suite(.enabled(if: TestServer.modelIsPresent && PythonOpenAI.isInstalled))
struct UnixSocketServeTests {
  static let check = #"""
    import sys, openai
    try:  # the HTTP library the installed openai is built on: httpx2 (openai 3), else httpx
        import httpx2 as httpx
    except ImportError:
        import httpx
    http = httpx.Client(transport=httpx.HTTPTransport(uds=sys.argv[1]))
    health = http.get("http://localhost/health").json()
    assert health["status"] == "ok", health
    models = {model["id"]: model for model in health["models"]}
    assert models["system"]["available"] and not models["pcc"]["available"], health
    assert models["pcc"]["reason"] == "PCC inference is not available in this context.", health
    client = openai.OpenAI(base_url="http://localhost/v1", api_key="none", http_client=http, max_retries=0)
    reply = client.chat.completions.create(
        model="system", messages=[{"role": "user", "content": "Hi"}], max_tokens=8)
    assert reply.choices[0].message.content is not None, reply
    print("ok")
    """#

  @Test func theOpenAIClientWorksOverTheSocket() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let socket = directory.url.appendingPathComponent("fm.sock").path
    let server = try ServeProcess.start([TestModels.smolLM2Path, "--context", "2048"], socket: socket)
    let result = try OpenAIClientTests.python(["-c", Self.check, socket])
    #expect(result.status == 0, "\(result.output)")
    #expect(server.terminate() == 0)
    #expect(!FileManager.default.fileExists(atPath: socket))
    let both = try FMBinary.run(["serve", "--socket", socket, "--port", "9"])
    #expect(both.status == 64)
  }
}

/// Whether `python3` can import the `openai` package (`scripts/setup` installs it for tests).
enum PythonOpenAI {
  static let isInstalled: Bool = (try? OpenAIClientTests.python(["-c", "import openai"]).status) == 0
}

/// The official `openai` package's Responses API against a real `fm serve`:
/// `OpenAIClient/responses_client_check.py` continues a conversation with
/// `previous_response_id` over three turns (each finding the last in the cache), retrieves, lists
/// input items, deletes, asks for structured output and streams a tool call.
@Suite(.enabled(if: TestServer.modelIsPresent && PythonOpenAI.isInstalled))
struct OpenAIResponsesClientTests {
  @Test func theOpenAIClientDrivesTheResponsesAPI() throws {
    try OpenAIClientTests.check("responses_client_check.py")
  }
}

/// The official `anthropic` Python package against a real `fm serve`:
/// `OpenAIClient/anthropic_client_check.py` creates messages (a resent conversation read from the
/// cache, a stop sequence), streams a forced tool call and answers its result, counts tokens,
/// and checks the error classes and shape.
@Suite(.enabled(if: TestServer.modelIsPresent && PythonAnthropic.isInstalled))
struct AnthropicClientTests {
  @Test func theAnthropicClientDrivesTheMessagesAPI() throws {
    try OpenAIClientTests.check("anthropic_client_check.py")
  }
}

/// Whether `python3` can import the `anthropic` package (`scripts/test` installs it).
enum PythonAnthropic {
  static let isInstalled: Bool = (try? OpenAIClientTests.python(["-c", "import anthropic"]).status) == 0
}
