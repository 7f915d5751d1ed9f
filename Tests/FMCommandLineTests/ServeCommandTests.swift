import FMTestSupport
import Foundation
import Testing

@testable import FMCommandLine

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `fm serve`: its help, its usage errors, and a real server that answers and then stops
/// with status 0 on SIGTERM.
@Suite struct ServeCommandTests {
  @Test func helpListsTheOptions() throws {
    let help = try FMBinary.run(["serve", "--help"])
    #expect(help.status == 0)
    for option in ["--host", "--port", "--api-key", "--parallel", "--queue", "--context", "--cors", "--cache-ram"] {
      #expect(help.standardOutput.contains(option), "\(option)")
    }
    #expect(try FMBinary.run(["--help"]).standardOutput.contains("serve"))
  }

  @Test(arguments: [
    ["--port", "x"], ["--port", "70000"], ["--parallel", "0"], ["--queue", "-1"], ["--max-loaded", "0"],
    ["--keep-alive", "soon"], ["--store-max", "0"], ["--models-dir", "/nonexistent"], ["--cache-ram", "-1"],
    ["--cache-ram", "lots"],
  ])
  func badOptionsAreUsageErrors(arguments: [String]) throws {
    let result = try FMBinary.run(["serve"] + arguments)
    #expect(result.status == 64, "\(result.standardError)")
  }

  @Test func aPathIsServedByItsFileName() {
    #expect(ServeCommand.servedID("/models/smollm2-135m.gguf") == "smollm2-135m")
    #expect(ServeCommand.servedID("smollm2-135m") == "smollm2-135m")
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: TestModels.smolLM2Path)))
  func theServerAnswersAndStopsOnSIGTERM() async throws {
    let server = try ServeProcess.start([TestModels.smolLM2Path])
    let (data, response) = try await URLSession.shared.data(from: server.baseURL.appendingPathComponent("health"))
    #expect((response as? HTTPURLResponse)?.statusCode == 200)
    #expect(String(decoding: data, as: UTF8.self).contains("ok"))
    #expect(server.terminate() == 0)
  }
}
