import FMTestSupport
import Foundation
import ModelStore
import Testing

@testable import FMCommandLine

/// `fm models` with Hugging Face references, run in-process against a `LocalHubServer`.
@Suite final class ModelsHubCommandTests {
  private let directory: TemporaryDirectory
  private let server: LocalHubServer
  private let weights = Data((0..<250_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })

  init() throws {
    directory = try TemporaryDirectory()
    server = try LocalHubServer(repositories: [
      "owner/tiny-GGUF": ["tiny-Q4_K_M.gguf": weights, "tiny-F16.gguf": Data(repeating: 1, count: 10)]
    ])
  }

  deinit {
    server.stop()
    directory.remove()
  }

  /// Runs `fm` with the store in the test's folder, reaching the server as `HF_ENDPOINT` says.
  private func run(_ arguments: [String], environment: [String: String] = [:]) async -> (
    code: ExitCode, output: String, errors: String
  ) {
    let out = CapturedOutput()
    let err = CapturedOutput()
    var environment = environment
    environment["HF_ENDPOINT"] = server.baseURL.absoluteString
    environment["FM_MODELS_DIR"] = directory.url.path
    let context = CommandContext(
      environment: environment, standardOutput: out.output, standardError: err.output,
      modelStore: ModelStore(environment: environment, source: LocalPartSource([:])))
    let code = await FMTool.run(arguments, context: context)
    return (code, out.text, err.text)
  }

  @Test func pullListPathAndRemoveAHubModel() async throws {
    let pull = await run(["models", "pull", "hf:owner/tiny-GGUF"])
    #expect(pull.code == .success)
    #expect(pull.output.isEmpty)
    let file = directory.url.appendingPathComponent("huggingface/owner/tiny-GGUF/main/tiny-Q4_K_M.gguf").path
    #expect(pull.errors.contains("  hf:owner/tiny-GGUF: tiny-Q4_K_M.gguf: 250 kB of 250 kB"))
    #expect(pull.errors.hasSuffix("  hf:owner/tiny-GGUF: verifying sha256\n  hf:owner/tiny-GGUF: done: \(file)\n"))

    let list = await run(["models"])
    let row = list.output.split(separator: "\n").last.map(String.init) ?? ""
    #expect(row.hasPrefix("hf:owner/tiny-GGUF:Q4_K_M"))
    #expect(row.contains("250 kB") && row.contains("present") && row.hasSuffix(file))

    let path = await run(["models", "path", "hf:owner/tiny-GGUF:q4_k_m"])
    #expect(path.output == file + "\n")

    let again = await run(["models", "pull", "hf:owner/tiny-GGUF"])
    #expect(again.errors == "hf:owner/tiny-GGUF: already present at \(file)\n")

    let remove = await run(["models", "rm", "hf:owner/tiny-GGUF:Q4_K_M"])
    #expect(remove.code == .success)
    #expect(remove.output == "removed \(file)\n")
    #expect(!FileManager.default.fileExists(atPath: file))
  }

  @Test func offlineWithoutThePulledModelSaysSo() async {
    let pull = await run(["models", "pull", "hf:owner/tiny-GGUF"], environment: ["HF_HUB_OFFLINE": "1"])
    #expect(pull.code == .failure)
    #expect(
      pull.errors
        == "fm: error: hf:owner/tiny-GGUF is not in \(directory.url.path), and HF_HUB_OFFLINE is set, so it is not "
        + "fetched: unset HF_HUB_OFFLINE to download it\n")
    #expect(server.requests.isEmpty)
  }

  @Test func aMissingHubModelNamesThePullCommand() async {
    let path = await run(["models", "path", "hf:owner/tiny-GGUF:F16"])
    #expect(path.code == .failure)
    #expect(
      path.errors.hasPrefix(
        "fm: error: model 'hf:owner/tiny-GGUF:F16' is not downloaded yet; fetch it with: fm models pull hf:owner/tiny-GGUF:F16"
      ))
  }

  @Test(arguments: [
    (
      ["models", "pull", "hf:owner"],
      "fm: 'hf:owner' is not a Hugging Face reference of the form hf:OWNER/REPO[@REVISION][:QUANT]\n"
    ),
    (["models", "rm"], "fm: 'fm models rm' needs a model NAME or hf:OWNER/REPO[:QUANT] (see 'fm models')\n"),
  ])
  func malformedRequestsAreUsageErrors(arguments: [String], message: String) async {
    let run = await run(arguments)
    #expect(run.code == .usage)
    #expect(run.errors == message)
  }

  @Test func aRepositoryWithoutPrefixGetsAHint() async {
    let run = await run(["models", "path", "owner/tiny-GGUF"])
    #expect(run.errors.hasSuffix("(for a Hugging Face repository, write hf:owner/tiny-GGUF)\n"))
  }

  @Test func servedIDOfAHubReferenceIsTheReference() {
    #expect(ServeCommand.servedID("hf:owner/tiny-GGUF:Q4_K_M") == "hf:owner/tiny-GGUF:Q4_K_M")
    #expect(ServeCommand.servedID("/models/tiny.gguf") == "tiny")
  }

  @Test func progressTextGivesBytesRateAndTimeLeft() {
    #expect(
      PullProgressView.transferText(bytes: 45_200_000, total: 98_000_000, bytesPerSecond: 12_300_000)
        == "45 MB of 98 MB, 12 MB/s, 5 s left")
    #expect(PullProgressView.transferText(bytes: 0, total: 98_000_000, bytesPerSecond: 0) == "0 B of 98 MB")
    #expect(PullProgressView.durationText(seconds: 200) == "3 min 20 s")
    #expect(PullProgressView.durationText(seconds: 7500) == "2 h 5 min")
  }
}
