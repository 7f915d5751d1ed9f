import Foundation
import FoundationModels
import InferenceEngine

/// The depth figure: guided decoding speed inside a value nested 1, 10 and 50 levels deep.
///
/// Each schema nests objects `depth` levels (`{"n":{"n":…}}`, every key required, so the way
/// down is forced text) around the same payload: 40 items of a word and a count. A constant
/// beside the payload pads the shallower schemas' forced text to the deepest one's token count,
/// so that the payload starts at the same context position at every depth (attention over a
/// longer context is the model's cost, not the constraint's). What is timed
/// is the payload alone, from the snapshot in which the first item starts to the one in which
/// the 40th starts; its tokens are the 39 items' text as the model's tokenizer writes it. The
/// depths run alternately, `runs` times each, on new sessions with the same seeded sampling
/// (no speculative drafts, so every token is one decode), and the figure is the median speed at
/// depth 50 over the median at depth 1: per-token work must not grow with the stack.
///
/// Speed is counted two ways: tokens per second of wall time, and tokens per second of the
/// process's CPU time. On a shared machine other people's work stretches wall time at random;
/// CPU time counts only the work done here, so the ratio is taken on it.
struct DepthFigure {
  let modelPath: String
  let tokenModel: LlamaModel
  let runs: Int
  static let depths = [1, 10, 50]
  static let items = 40

  var model: SystemLanguageModel { SystemLanguageModel(path: URL(fileURLWithPath: modelPath)) }

  /// The schema of the payload nested `depth` levels deep, after a required constant `pad`.
  static func schema(depth: Int, pad: String) -> String {
    let item =
      #"{"type":"object","properties":{"word":{"type":"string","maxLength":16},"count":{"type":"integer","minimum":0,"maximum":999}},"required":["word","count"],"additionalProperties":false}"#
    var schema =
      #"{"type":"object","properties":{"pad":{"const":"\#(pad)"},"items":{"type":"array","items":"# + item
      + #","minItems":\#(items),"maxItems":\#(items)}},"required":["pad","items"],"additionalProperties":false}"#
    for _ in 1..<depth {
      schema = #"{"type":"object","properties":{"n":"# + schema + #"},"required":["n"],"additionalProperties":false}"#
    }
    return schema
  }

  /// The forced text before the payload.
  static func prefix(depth: Int, pad: String) -> String {
    String(repeating: #"{"n":"#, count: depth - 1) + #"{"pad":"\#(pad)","items":["#
  }

  /// Pads, one per depth, that make every depth's forced prefix as many tokens long as the
  /// deepest one's: the payload then sits at the same position in the context at every depth,
  /// and attention over the context costs the same.
  func pads() -> [Int: String] {
    let deepest = Self.depths.max() ?? 1
    let target = tokenModel.tokenize(Self.prefix(depth: deepest, pad: ""), parseSpecial: false).count
    var pads: [Int: String] = [:]
    for depth in Self.depths {
      var pad = ""
      while tokenModel.tokenize(Self.prefix(depth: depth, pad: pad), parseSpecial: false).count < target {
        pad += pad.isEmpty ? "n" : " n"
      }
      pads[depth] = pad
    }
    return pads
  }

  func measure() async throws -> FigureReport {
    var rates: [Int: Measurements] = [:]
    var wallRates: [Int: Measurements] = [:]
    let options = GenerationOptions(
      samplingMode: .random(top: 40, seed: 42), temperature: 0.7, maximumResponseTokens: 1200)
    let prompt = "List \(Self.items) different English words, each with a count from 0 to 999."
    let pads = pads()
    // One untimed run first: it builds the per-model vocabulary index.
    _ = try? await LanguageModelSession(model: model).respond(
      to: prompt, schema: try GenerationSchema(jsonSchema: Self.schema(depth: 1, pad: "")),
      includeSchemaInPrompt: false,
      options: GenerationOptions(maximumResponseTokens: 16))
    for run in 0..<max(runs, 1) {
      for depth in run % 2 == 0 ? Self.depths : Self.depths.reversed() {
        let schema = try GenerationSchema(jsonSchema: Self.schema(depth: depth, pad: pads[depth] ?? ""))
        let stream = LanguageModelSession(model: model).streamResponse(
          to: prompt, schema: schema, includeSchemaInPrompt: false, options: options)
        var start: DispatchTime?
        var end: DispatchTime?
        var cpuStart = 0.0
        var cpuEnd = 0.0
        var payload: [GeneratedContent] = []
        for try await snapshot in stream where end == nil {
          let items = Self.items(in: snapshot.rawContent, depth: depth)
          if start == nil, !items.isEmpty {
            start = .now()
            cpuStart = Self.processCPUSeconds()
          }
          if items.count == Self.items {
            end = .now()
            cpuEnd = Self.processCPUSeconds()
            payload = Array(items.prefix(Self.items - 1))
          }
        }
        _ = try await stream.collect()
        guard let start, let end else {
          throw BenchError("depth \(depth): the payload did not reach \(Self.items) items")
        }
        let text = GeneratedContent(elements: payload).jsonString
        let tokens = tokenModel.tokenize(text, parseSpecial: false).count
        let seconds = Double(end.uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        rates[depth, default: Measurements()].append(Double(tokens) / (cpuEnd - cpuStart))
        wallRates[depth, default: Measurements()].append(Double(tokens) / seconds)
        progress(
          "depth \(depth) run \(run + 1): \(tokens) payload tokens in \(Measurements.rounded(seconds)) s, \(Measurements.rounded(cpuEnd - cpuStart)) s of CPU"
        )
      }
    }
    let shallow = rates[1] ?? Measurements()
    let deep = rates[50] ?? Measurements()
    let ratio = deep.median / max(shallow.median, 1e-9)
    return FigureReport(
      id: "depth", figure: "guided decode tokens per CPU second of a payload nested 50 levels deep vs 1 level",
      unit: "tokens per CPU second", ours: deep, reference: shallow, ratio: Measurements.rounded(ratio),
      target: ">= 0.9", pass: ratio >= 0.9,
      notes: [
        "depth10_median": "\(Measurements.rounded(rates[10]?.median ?? 0))", "runs": "\(runs)",
        "items": "\(Self.items)",
        "wall_tokens_per_second": Self.depths.map { "depth \($0): \(Measurements.rounded(wallRates[$0]?.median ?? 0))" }
          .joined(separator: ", "),
      ])
  }

  /// CPU time this process has used, all threads together.
  static func processCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// The payload's items in a (partial) snapshot.
  static func items(in content: GeneratedContent, depth: Int) -> [GeneratedContent] {
    var current = content
    for _ in 1..<depth {
      guard case .structure(let properties, _) = current.kind, let next = properties["n"] else { return [] }
      current = next
    }
    guard case .structure(let properties, _) = current.kind, case .array(let items)? = properties["items"]?.kind
    else { return [] }
    return items
  }
}
