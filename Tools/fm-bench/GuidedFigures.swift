import Foundation
import FoundationModels
import GuidedDecoding
import InferenceEngine

/// P4 and P5 of BENCHMARKS.md on real-world schemas (the Glaiveai2K subset of the maskbench-dev
/// corpus): constrained decoding against free generation, and against llama.cpp's own grammar
/// path (`llama-completion --json-schema-file`).
struct GuidedFigures {
  let modelPath: String
  let tokenModel: LlamaModel
  /// The maskbench-dev folder (`--corpus DIR`).
  let corpusDirectory: URL
  let schemaCount: Int
  /// Runs of each side per schema; the figure takes each side's median.
  let runs: Int
  let budget = 384
  /// Prints each side's output (and the reference's prompt) to stderr, to see what the time went on.
  var showOutputs = ProcessInfo.processInfo.environment["FM_BENCH_SHOW"] != nil

  var model: SystemLanguageModel { SystemLanguageModel(path: URL(fileURLWithPath: modelPath)) }

  struct Case {
    var name: String
    var schemaText: String
    var document: SchemaDocument
    var schema: GenerationSchema
    var prompt: String

    /// The prompt of run `run` (from 0): each run's begins differently, so that no run finds
    /// the one before in a kept cache (the reference, a process per run, keeps none).
    func prompt(run: Int) -> String { "Request \(run + 1). \(prompt)" }

    /// The prompt of run `run` with the schema described in it, exactly as the session words it
    /// with `includeSchemaInPrompt` (the default), for the sides that do not add it themselves.
    func promptWithSchema(run: Int) -> String {
      prompt(run: run) + "\n\n" + schema.promptInstruction
    }
  }

  /// `schemaCount` schemas spread evenly over the subset (sorted by file name; from each
  /// evenly spaced position, the first schema that both sides accept), so that one family of
  /// near-identical schemas does not make up the sample.
  func cases() throws -> [Case] {
    let files = try FileManager.default.contentsOfDirectory(atPath: corpusDirectory.path)
      .filter { $0.hasPrefix("Glaiveai2K---") }.sorted()
    var cases: [Case] = []
    var next = 0
    for slot in 0..<schemaCount {
      next = max(next, slot * files.count / max(schemaCount, 1))
      while next < files.count {
        defer { next += 1 }
        if let testCase = Self.testCase(file: files[next], in: corpusDirectory) {
          cases.append(testCase)
          break
        }
      }
    }
    return cases
  }

  /// The corpus folder that `--corpus` names.
  /// - Throws: `BenchError` naming the flag when it is missing or not a folder.
  static func corpusDirectory(_ argument: String?) throws -> URL {
    guard let argument else {
      throw BenchError("p4 and p5 take their schemas from the maskbench-dev corpus: pass --corpus DIR")
    }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory), isDirectory.boolValue else {
      throw BenchError("no corpus folder at \(argument) (--corpus DIR names the maskbench-dev folder)")
    }
    return URL(fileURLWithPath: argument)
  }

  /// The schema of one corpus file with a prompt made from its name ("book_flight_05dcf13f.json"
  /// asks for "book flight"), or nil when either side cannot take the schema.
  private static func testCase(file: String, in root: URL) -> Case? {
    guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(file).path),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let schemaObject = object["schema"],
      let schemaData = try? JSONSerialization.data(withJSONObject: schemaObject, options: [.sortedKeys])
    else { return nil }
    let text = String(decoding: schemaData, as: UTF8.self)
    guard let document = try? JSONSchemaParser().parse(text), let schema = try? GenerationSchema(jsonSchema: text)
    else {
      return nil
    }
    var words = file.replacingOccurrences(of: "Glaiveai2K---", with: "").replacingOccurrences(of: ".json", with: "")
      .split(separator: "_")
    if words.count > 1 { words.removeLast() }  // the hash
    let topic = (schemaObject as? [String: Any])?["description"] as? String ?? words.joined(separator: " ")
    return Case(
      name: file, schemaText: text, document: document, schema: schema, prompt: "Fill in realistic values for: \(topic)"
    )
  }

  /// P4 and P5 together: each schema runs ours (constrained), free generation of the same
  /// length, and llama-completion with the schema, alternating.
  func measure() async throws -> [FigureReport] {
    let cases = try cases()
    var constrainedRates = Measurements()
    var freeRates = Measurements()
    var ourSeconds = Measurements()
    var theirSeconds = Measurements()
    var ourValid = 0
    var theirValid = 0
    var logRatios: [Double] = []
    // One untimed run first, as llama-bench and P2 do: it builds the per-model vocabulary index
    // (once per model) and first touches the context's memory, neither of which the reference's
    // reported times include.
    if let first = cases.first {
      progress("P4/P5 warm-up")
      _ = try? await LanguageModelSession(model: model).respond(
        to: first.prompt(run: -1), schema: first.schema,
        options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 8))
    }
    for (index, testCase) in cases.enumerated() {
      progress("P4/P5 schema \(index + 1)/\(cases.count): \(testCase.name)")
      var ours = Measurements()
      var theirs = Measurements()
      // Each side `runs` times, alternating; a schema counts as valid when every run was.
      var oursValid = true
      var theirsValid = true
      for run in 0..<max(runs, 1) {
        let start = DispatchTime.now()
        let response = try? await LanguageModelSession(model: model).respond(
          to: testCase.prompt(run: run), schema: testCase.schema,
          options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: budget))
        ours.append(elapsed(since: start))
        let valid = response.map { testCase.document.accepts($0.rawContent.jsonString) } ?? false
        oursValid = oursValid && valid
        if let response, valid, run == 0 {
          constrainedRates.append(response.decodeRate)
          let free = try await LanguageModelSession(model: model).respond(
            to: testCase.promptWithSchema(run: run),
            options: GenerationOptions(samplingMode: .greedy, maximumResponseTokens: max(2, response.outputTokens)))
          freeRates.append(free.decodeRate)
        }
        let (seconds, output) = try referenceRun(testCase, run: run)
        theirs.append(seconds)
        theirsValid = theirsValid && testCase.document.accepts(output)
        let usage = response.map {
          "\($0.inputTokens) prompt tokens, first token at \(Measurements.rounded($0.figures.timeToFirstToken)) s, \($0.outputTokens) output tokens (\($0.figures.forcedTokens) forced, drafts \($0.figures.confirmedDraftTokens)/\($0.figures.draftTokens) confirmed)"
        }
        progress(
          "  ours \(Measurements.rounded(ours.values.last ?? 0)) s (\(usage ?? "failed")); llama-completion \(Measurements.rounded(seconds)) s\(theirsValid ? "" : " (invalid)")"
        )
        if showOutputs && run == 0 {
          progress("  ours: \(response?.rawContent.jsonString ?? "-")\n  theirs: \(output)")
        }
      }
      if oursValid { ourValid += 1 }
      if theirsValid { theirValid += 1 }
      ourSeconds.append(ours.median)
      theirSeconds.append(theirs.median)
      logRatios.append(log(theirs.median / ours.median))
    }
    let p4 = constrainedRates.median / max(freeRates.median, 1e-9)
    let p5 = exp(logRatios.reduce(0, +) / Double(max(logRatios.count, 1)))
    return [
      FigureReport(
        id: "P4", figure: "constrained output tokens/s (forced tokens counted) vs free generation of the same length",
        unit: "tokens/s", ours: constrainedRates, reference: freeRates, ratio: Measurements.rounded(p4),
        target: ">= 1.0",
        pass: p4 >= 1.0, notes: ["schemas": "\(cases.count)"]),
      FigureReport(
        id: "P5",
        figure:
          "wall time to a complete schema-valid object vs llama-completion --json-schema-file (geometric mean of reference/ours)",
        unit: "seconds", ours: ourSeconds, reference: theirSeconds, ratio: Measurements.rounded(p5), target: ">= 2",
        pass: p5 >= 2,
        notes: [
          "schemas": "\(cases.count)", "budget_tokens": "\(budget)", "ours_valid": "\(ourValid)/\(cases.count)",
          "reference_valid": "\(theirValid)/\(cases.count)",
        ]),
    ]
  }

  /// Runs llama-completion on the same rendered prompt with the schema as its grammar.
  /// - Returns: the seconds it reports for prompt evaluation, generation and sampling (the
  ///   grammar works in sampling), and its output.
  private func referenceRun(_ testCase: Case, run: Int) throws -> (Double, String) {
    let directory = FileManager.default.temporaryDirectory
    let schemaFile = directory.appendingPathComponent("fm-bench-schema.json")
    let promptFile = directory.appendingPathComponent("fm-bench-prompt.txt")
    try testCase.schemaText.write(to: schemaFile, atomically: true, encoding: .utf8)
    guard let template = tokenModel.chatTemplate else {
      throw EngineError(.invalidChatTemplate, "\(modelPath) has no chat template")
    }
    try template.render([ChatMessage(role: .user, content: testCase.promptWithSchema(run: run))]).text
      .write(to: promptFile, atomically: true, encoding: .utf8)
    let executable = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent(".deps/llama/bin/llama-completion").path
    let (output, log) = try runProcess(
      executable,
      [
        "-m", modelPath, "-t", "\(CPUTopology.physicalCores)", "-f", promptFile.path, "-jf", schemaFile.path,
        "-n", "\(budget)", "--temp", "0", "-no-cnv", "--no-display-prompt", "--no-warmup", "-c", "4096",
      ])
    // llama-completion marks the end of the sequence in its output.
    let text = output.replacingOccurrences(of: "[end of text]", with: "")
    guard let seconds = Self.workSeconds(in: log) else {
      throw BenchError("llama-completion printed no performance summary:\n\(log.suffix(2000))")
    }
    return (seconds, text)
  }

  /// The sum of the "prompt eval time", "eval time" and "sampling time" lines of llama.cpp's
  /// performance summary.
  ///
  /// Its "load time" is not the model load: it runs from context creation to the end of the first
  /// decode, so it holds the prompt evaluation.
  static func workSeconds(in log: String) -> Double? {
    var milliseconds: [String: Double] = [:]
    for line in log.split(separator: "\n") {
      let parts = line.split(separator: "=", maxSplits: 1)
      guard parts.count == 2 else { continue }
      let label = parts[0].split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? ""
      guard ["prompt eval time", "eval time", "sampling time"].contains(label), milliseconds[label] == nil else {
        continue
      }
      milliseconds[label] = parts[1].split(separator: " ").first.flatMap { Double($0) } ?? 0
    }
    return milliseconds.count == 3 ? milliseconds.values.reduce(0, +) / 1000 : nil
  }
}
