import FMTestSupport
import Foundation
import Testing

/// The built `fm` program, run as a user would: a separate process, real exit codes.
@Suite struct FMExecutableTests {
  /// What one run of `fm` produced.
  private struct Result {
    var status: Int32
    var standardOutput: String
    var standardError: String
  }

  private func run(_ arguments: [String], modelsDirectory: URL) throws -> Result {
    let process = Process()
    process.executableURL = try FMBinary.url()
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["FM_MODELS_DIR"] = modelsDirectory.path
    environment["NO_COLOR"] = "1"
    process.environment = environment
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    // The outputs here are a few lines, far below a pipe's capacity, so reading after exit is safe.
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus,
      standardOutput: String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
      standardError: String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
  }

  @Test func modelsListsTheCatalogue() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try run(["models"], modelsDirectory: directory.url)
    #expect(result.status == 0)
    for name in ["smollm2-135m", "qwen2.5-coder-0.5b", "qwen2.5-coder-1.5b"] {
      #expect(result.standardOutput.contains("\(name) "))
    }
    #expect(result.standardOutput.contains(directory.url.appendingPathComponent("smollm2-135m.gguf").path))
    #expect(!result.standardOutput.contains("\u{1B}["), "no colour into a pipe")
  }

  @Test func unknownCommandExits64() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try run(["bogus"], modelsDirectory: directory.url)
    #expect(result.status == 64)
    #expect(result.standardError.hasPrefix("fm: unknown command 'bogus'; commands: "))
    #expect(result.standardOutput.isEmpty)
  }

  @Test func missingModelExits1WithTheFetchCommand() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try run(["models", "path", "qwen2.5-coder-1.5b"], modelsDirectory: directory.url)
    #expect(result.status == 1)
    #expect(result.standardError.contains("fm models pull qwen2.5-coder-1.5b"))
  }
}
