import Foundation
import FoundationModels
import GuidedDecoding
import JSON

/// The end-to-end corpus run: the accepted schemas of one maskbench-dev subset, each generated
/// once as a new user would (`fm generate --schema FILE`: default options, the schema in the
/// prompt, greedy sampling, no token budget) under a wall-clock limit.
///
/// It reports the share of schemas that gave a valid object (JSON Schema's meaning, checked by
/// `SchemaValidator`) within the limit, the median and 95th-percentile time, and the output
/// length in tokens. A request that runs past the limit is cancelled and counts as not
/// finished; the figure exists to show that no schema makes the model run away.
struct CorpusRunFigure {
  let modelPath: String
  let corpusDirectory: URL
  /// The file-name prefix of the subset (`Github_easy`, `Glaiveai2K`, `Snowplow`…).
  let subset: String
  /// How many accepted schemas, spread evenly over the subset; nil runs all of them.
  let limit: Int?
  let secondsAllowed: Double

  var model: SystemLanguageModel { SystemLanguageModel(path: URL(fileURLWithPath: modelPath)) }

  struct Case {
    var name: String
    var document: SchemaDocument
    var schema: GenerationSchema
    var prompt: String
  }

  /// One schema's outcome.
  struct Outcome {
    var seconds: Double
    var finished: Bool
    var valid: Bool
    var outputTokens: Int
  }

  /// The subset's accepted schemas, sorted by file name, `limit` of them evenly spaced.
  func cases() throws -> [Case] {
    let files = try FileManager.default.contentsOfDirectory(atPath: corpusDirectory.path)
      .filter { $0.hasPrefix(subset + "---") }.sorted()
    let accepted = files.compactMap { testCase(file: $0) }
    guard let limit, limit < accepted.count else { return accepted }
    return (0..<limit).map { accepted[$0 * accepted.count / limit] }
  }

  /// The schema of one corpus file with a prompt from its description or title (else its name),
  /// or nil when the schema is refused.
  private func testCase(file name: String) -> Case? {
    guard let data = FileManager.default.contents(atPath: corpusDirectory.appendingPathComponent(name).path),
      let file = try? JSONValue(parsing: data), let schemaValue = file["schema"]
    else { return nil }
    let text = schemaValue.compactText
    guard let document = try? JSONSchemaParser().parse(text), let schema = try? GenerationSchema(jsonSchema: text)
    else { return nil }
    var topic = String(name.dropFirst(subset.count + 3).dropLast(5))
    for key in ["title", "description"] {
      if case .string(let s)? = schemaValue[key], !s.isEmpty { topic = s }
    }
    return Case(name: name, document: document, schema: schema, prompt: "Fill in realistic values for: \(topic)")
  }

  func measure() async throws -> FigureReport {
    let cases = try cases()
    guard !cases.isEmpty else {
      throw BenchError("no accepted schema in subset '\(subset)' of \(corpusDirectory.path)")
    }
    var outcomes: [Outcome] = []
    for (index, testCase) in cases.enumerated() {
      progress("corpus-run \(subset) \(index + 1)/\(cases.count): \(testCase.name)")
      let outcome = await run(testCase)
      if !outcome.valid {
        progress(
          "  not valid in time: \(outcome.finished ? "finished, invalid" : "not finished") after \(outcome.seconds) s")
      }
      outcomes.append(outcome)
    }
    let validInTime = outcomes.filter { $0.valid && $0.seconds <= secondsAllowed }.count
    let seconds = outcomes.map(\.seconds).sorted()
    let tokens = outcomes.filter(\.finished).map { Double($0.outputTokens) }.sorted()
    let share = Double(validInTime) / Double(outcomes.count)
    return FigureReport(
      id: "corpus-run", figure: "valid objects within \(Int(secondsAllowed)) s, \(subset)", unit: "share",
      ours: Measurements(values: [share]), reference: nil, ratio: nil, target: ">= 0.95", pass: share >= 0.95,
      notes: [
        "schemas": "\(outcomes.count)",
        "valid_in_time": "\(validInTime)",
        "unfinished": "\(outcomes.filter { !$0.finished }.count)",
        "finished_invalid": "\(outcomes.filter { $0.finished && !$0.valid }.count)",
        "seconds_median": "\(Measurements.rounded(percentile(seconds, 0.5)))",
        "seconds_p95": "\(Measurements.rounded(percentile(seconds, 0.95)))",
        "seconds_max": "\(Measurements.rounded(seconds.last ?? 0))",
        "output_tokens_median": "\(percentile(tokens, 0.5))",
        "output_tokens_p95": "\(percentile(tokens, 0.95))",
        "output_tokens_max": "\(tokens.last ?? 0)",
      ])
  }

  /// Generates one object, cancelled at the limit.
  private func run(_ testCase: Case) async -> Outcome {
    let model = model
    let start = DispatchTime.now()
    let request = Task {
      try await LanguageModelSession(model: model).respond(
        to: testCase.prompt, schema: testCase.schema, options: GenerationOptions(samplingMode: .greedy))
    }
    let secondsAllowed = secondsAllowed
    let timer = Task {
      try await Task.sleep(for: .seconds(secondsAllowed))
      request.cancel()
    }
    let result = await request.result
    timer.cancel()
    let seconds = elapsed(since: start)
    guard case .success(let response) = result else {
      return Outcome(seconds: seconds, finished: false, valid: false, outputTokens: 0)
    }
    let valid = testCase.document.accepts(response.rawContent.jsonString)
    return Outcome(seconds: seconds, finished: true, valid: valid, outputTokens: response.outputTokens)
  }
}
