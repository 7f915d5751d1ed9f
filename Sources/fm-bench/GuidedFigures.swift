import Foundation
import FoundationModels
import GuidedDecoding
import InferenceEngine

/// P4 and P5 of BENCHMARKS.md on real-world schemas (the Glaiveai2K subset of
/// ../shared/data/maskbench-dev): constrained decoding against free generation, and against
/// llama.cpp's own grammar path (`llama-completion --json-schema-file`).
struct GuidedFigures {
  let modelPath: String
  let tokenModel: LlamaModel
  let schemaCount: Int
  let budget = 384

  var model: SystemLanguageModel { SystemLanguageModel(path: URL(fileURLWithPath: modelPath)) }

  struct Case {
    var name: String
    var schemaText: String
    var document: SchemaDocument
    var prompt: String

    /// The prompt with the schema described in it, as the session words it with
    /// `includeSchemaInPrompt` (the default), for the sides that do not add it themselves.
    var promptWithSchema: String {
      prompt + "\n\nRespond with a JSON object that follows this JSON schema:\n" + schemaText
    }
  }

  /// The first schemas of the subset (by file name) that both sides accept.
  func cases() throws -> [Case] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/data/maskbench-dev")
    let files = try FileManager.default.contentsOfDirectory(atPath: root.path)
      .filter { $0.hasPrefix("Glaiveai2K---") }.sorted()
    var cases: [Case] = []
    for file in files where cases.count < schemaCount {
      guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(file).path),
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        let schema = object["schema"],
        let schemaData = try? JSONSerialization.data(withJSONObject: schema, options: [.sortedKeys])
      else { continue }
      let text = String(decoding: schemaData, as: UTF8.self)
      guard let document = try? JSONSchemaParser().parse(text), (try? GenerationSchema(jsonSchema: text)) != nil else {
        continue
      }
      let topic = (schema as? [String: Any])?["description"] as? String ?? file.replacingOccurrences(of: "Glaiveai2K---", with: "")
      cases.append(Case(name: file, schemaText: text, document: document, prompt: "Fill in realistic values for: \(topic)"))
    }
    return cases
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
    for (index, testCase) in cases.enumerated() {
      progress("P4/P5 schema \(index + 1)/\(cases.count): \(testCase.name)")
      let schema = try GenerationSchema(jsonSchema: testCase.schemaText)
      let options = GenerationOptions(sampling: .greedy, maximumResponseTokens: budget)
      let start = DispatchTime.now()
      let response = try? await LanguageModelSession(model: model).respond(to: testCase.prompt, schema: schema, options: options)
      let ours = elapsed(since: start)
      if let response, isValid(response.rawContent.jsonString, testCase.document) {
        ourValid += 1
        constrainedRates.append(rate(response.usage))
        let free = try await LanguageModelSession(model: model).respond(
          to: testCase.promptWithSchema,
          options: GenerationOptions(sampling: .greedy, maximumResponseTokens: max(2, response.usage.outputTokens)))
        freeRates.append(rate(free.usage))
      }
      let (theirs, output) = try referenceRun(testCase)
      let valid = isValid(output, testCase.document)
      if valid { theirValid += 1 }
      ourSeconds.append(ours)
      theirSeconds.append(theirs)
      logRatios.append(log(theirs / ours))
    }
    let p4 = constrainedRates.median / max(freeRates.median, 1e-9)
    let p5 = exp(logRatios.reduce(0, +) / Double(max(logRatios.count, 1)))
    return [
      FigureReport(
        id: "P4", figure: "constrained output tokens/s (forced tokens counted) vs free generation of the same length",
        unit: "tokens/s", ours: constrainedRates, reference: freeRates, ratio: Measurements.rounded(p4), target: ">= 1.0",
        pass: p4 >= 1.0, notes: ["schemas": "\(cases.count)"]),
      FigureReport(
        id: "P5", figure: "wall time to a complete schema-valid object vs llama-completion --json-schema-file (geometric mean of reference/ours)",
        unit: "seconds", ours: ourSeconds, reference: theirSeconds, ratio: Measurements.rounded(p5), target: ">= 2",
        pass: p5 >= 2,
        notes: [
          "schemas": "\(cases.count)", "budget_tokens": "\(budget)", "ours_valid": "\(ourValid)/\(cases.count)",
          "reference_valid": "\(theirValid)/\(cases.count)",
        ]),
    ]
  }

  private func rate(_ usage: LanguageModelSession.Usage) -> Double {
    usage.generationSeconds > 0 ? Double(usage.outputTokens - 1) / usage.generationSeconds : 0
  }

  private func isValid(_ text: String, _ document: SchemaDocument) -> Bool {
    guard let value = try? JSONValue(parsing: text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return false }
    return (try? SchemaValidator(definitions: document.definitions).validate(value, against: document.root)) ?? false
  }

  /// Runs llama-completion on the same rendered prompt with the schema as its grammar.
  /// - Returns: wall seconds less the model load time it reports, and its output.
  private func referenceRun(_ testCase: Case) throws -> (Double, String) {
    let directory = FileManager.default.temporaryDirectory
    let schemaFile = directory.appendingPathComponent("fm-bench-schema.json")
    let promptFile = directory.appendingPathComponent("fm-bench-prompt.txt")
    try testCase.schemaText.write(to: schemaFile, atomically: true, encoding: .utf8)
    try tokenModel.chatTemplate.render([ChatMessage(role: .user, content: testCase.promptWithSchema)]).text
      .write(to: promptFile, atomically: true, encoding: .utf8)
    let executable = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent(".deps/llama/bin/llama-completion").path
    let start = DispatchTime.now()
    let (output, log) = try runProcess(
      executable,
      [
        "-m", modelPath, "-t", "\(CPUTopology.physicalCores)", "-f", promptFile.path, "-jf", schemaFile.path,
        "-n", "\(budget)", "--temp", "0", "-no-cnv", "--no-display-prompt", "--no-warmup", "-c", "4096",
      ])
    let wall = elapsed(since: start)
    // llama-completion marks the end of the sequence in its output.
    let text = output.replacingOccurrences(of: "[end of text]", with: "")
    return (wall - Self.loadSeconds(in: log), text)
  }

  /// The "load time" llama.cpp reports in its performance summary.
  static func loadSeconds(in log: String) -> Double {
    for line in log.split(separator: "\n") where line.contains("load time =") {
      let number = line.split(separator: "=").last?.split(separator: " ").first.flatMap { Double($0) }
      return (number ?? 0) / 1000
    }
    return 0
  }
}
