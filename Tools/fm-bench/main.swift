import FMTestSupport
import Foundation
import InferenceEngine
import ModelStore

/// fm-bench: the performance figures of BENCHMARKS.md, each against its reference in the same
/// run.
///
/// Prints one JSON line per figure on stdout; progress goes to stderr.
///
///     fm-bench [p1 p2 p3 p4 p5 p8 p9 p9-templates p10 p12 p14 p15 depth corpus-run guardrails streams hf-pull | all]
///              [--model NAME|PATH] [--draft-model NAME|PATH] [--runs N] [--schemas N] [--corpus DIR] [--set PATH] [--limit N] [--max-tokens N]
///              [--subset NAME] [--seconds S] [--streams N,N,…] [--megabytes N] [--chat-template-file FILE]
///              [--reference-args ARGS]
///
/// `--chat-template-file FILE` gives P1, P3 and P9 a chat template in place of the model's own
/// (a base model such as `gemma3-270m` has none). `p9-templates` (not in `all`) renders and
/// tokenizes a ~4,000-token conversation with each chat template of the pinned llama.cpp.
/// P4 and P5 (also in `all`) take their schemas from the maskbench-dev corpus folder, `--corpus DIR`;
/// so does `corpus-run`: the accepted schemas of `--subset NAME` (Glaiveai2K), `--limit N` of them
/// spread evenly if given, each generated under a limit of `--seconds S` (60).
/// `guardrails` (not in `all`) reads the safety-dev folder (`--corpus DIR`, else
/// `FM_SAFETY_DATA`) and judges with the model of `--model`, at most `--limit N`
/// texts of each group's uncertain band (a sample that stands for the band).
/// `streams` (not in `all`): `--streams 1,4,8` (the default) concurrent sessions on a batched model against
/// a context each, free and JSON-schema requests, each generating at most `--max-tokens N` (96).
/// `p11` (on its own, not in `all`) starts `fm serve` (the `fm` built beside fm-bench) and
/// `llama-server` with a slot per stream of the largest `--streams` count (1,4,8,16 by default), and runs each count
/// of concurrent streaming clients on both, `--runs N` rounds, `--max-tokens N` each (96).
/// `attention` (not in `all`) times llama.cpp's two CPU attention kernels with the model's shape,
/// as a context's choice does (`AttentionKernel`), and says which one its contexts use.
/// `p16` (on its own, not in `all`) starts `fm serve` and `llama-server` with 4 slots and replays
/// an agent conversation through each API, then 8 at once (`--runs N` rounds); `--reference-args
/// "-fa off"` gives llama-server more arguments.
/// `hf-pull` (on its own, not in `all`, no model needed) pulls an `hf:` model of `--megabytes N`
/// (512) from a loopback Hub server, `--runs N` times alternating with `curl`, and once through
/// a connection dropped halfway.
/// `p15` (on its own, not in `all`) starts `fm serve --speculate lookup` and `--speculate off`, then
/// `llama-server` with each n-gram `--spec-type` and, given `--draft-model NAME|PATH`, both
/// `fm serve --speculate draft` and `llama-server` with that model drafting, and sends each the workloads of `--corpus DIR` (default `bench/workloads`; an empty file leaves one out),
/// one request at a time, the first `--limit N` prompts of each if given.
/// `p13` (on its own, not in `all`) streams a `LanguageModelSession` on the remote model and the
/// same request straight to the server, `--runs N` rounds, `--max-tokens N` each: the server at
/// `--endpoint URL` (its model `--remote-model NAME`), or a `llama-server` started on `--model`.
/// P12 takes its prompts from `--set PATH` (default `bench/tool-use/set.json`), the first
/// `--limit N` of them if given, each model request generating at most `--max-tokens N` (96);
/// it prints two lines: P12a (one tool round, timed) and P12b (whole tasks, scored).
let arguments = Array(CommandLine.arguments.dropFirst())
var figures: [String] = []
var modelArgument = "qwen2.5-coder-1.5b"
var runs = 3
var schemas = 8
var corpusArgument: String?
var endpointArgument: String?
var remoteModelArgument: String?
var toolUseSet = "bench/tool-use/set.json"
var toolUseLimit: Int?
var toolUseMaximumTokens = 96
var subset = "Glaiveai2K"
var chatTemplateFile: String?
var secondsAllowed = 60.0
var streamCounts: [Int]?
var megabytes = 512
var draftModelArgument: String?
var referenceArguments: [String] = []
var index = 0
/// The value after the option at `index`, which moves to it; nil after the last argument.
@MainActor func nextValue() -> String? {
  index += 1
  return index < arguments.count ? arguments[index] : nil
}
while index < arguments.count {
  switch arguments[index] {
  case "--model":
    modelArgument = nextValue() ?? modelArgument
  case "--schemas":
    schemas = nextValue().flatMap { Int($0) } ?? schemas
  case "--runs":
    runs = nextValue().flatMap { Int($0) } ?? runs
  case "--corpus":
    corpusArgument = nextValue()
  case "--set":
    toolUseSet = nextValue() ?? toolUseSet
  case "--limit":
    toolUseLimit = nextValue().flatMap { Int($0) }
  case "--chat-template-file":
    chatTemplateFile = nextValue()
  case "--subset":
    subset = nextValue() ?? subset
  case "--seconds":
    secondsAllowed = nextValue().flatMap { Double($0) } ?? secondsAllowed
  case "--streams":
    let counts = nextValue()?.split(separator: ",").compactMap { Int($0) } ?? []
    streamCounts = counts.isEmpty || counts.contains { $0 < 1 } ? streamCounts : counts
  case "--megabytes":
    megabytes = nextValue().flatMap { Int($0) } ?? megabytes
  case "--endpoint":
    endpointArgument = nextValue()
  case "--remote-model":
    remoteModelArgument = nextValue()
  case "--draft-model":
    draftModelArgument = nextValue()
  case "--reference-args":
    referenceArguments = nextValue()?.split(separator: " ").map(String.init) ?? []
  case "--max-tokens":
    toolUseMaximumTokens = nextValue().flatMap { Int($0) } ?? toolUseMaximumTokens
  case let figure:
    figures.append(figure.lowercased())
  }
  index += 1
}
if figures.isEmpty || figures == ["all"] { figures = ["p1", "p2", "p3", "p4", "p8", "p9", "p10", "p14"] }
// P4 and P5 come from the same runs.
figures = figures.map { $0 == "p5" || $0 == "guided" ? "p4" : $0 }
figures = figures.enumerated().filter { figures.firstIndex(of: $0.element) == $0.offset }.map(\.element)

if figures == ["hf-pull"] {
  do {
    try await HubPullFigure(byteCount: megabytes * 1_000_000, runs: runs).measure().print()
    exit(0)
  } catch {
    FileHandle.standardError.write(Data("fm-bench: \(error)\n".utf8))
    exit(1)
  }
}

do {
  // Checked first, so a missing corpus stops the run before the model loads and other figures run.
  let guidedCorpus =
    try figures.contains("p4") || figures.contains("corpus-run") ? GuidedFigures.corpusDirectory(corpusArgument) : nil
  // The same resolution as `fm`: a catalogue name in the model cache, or a GGUF path.
  let modelPath = try ModelStore().resolve(modelArgument).path.path
  if figures == ["p11"] {
    // Both servers load the model themselves: this process does not.
    for report in try await ServeFigure(
      modelPath: modelPath, streams: streamCounts ?? [1, 4, 8, 16], runs: runs, maximumTokens: toolUseMaximumTokens
    ).measure() {
      report.print()
    }
    exit(0)
  }
  if figures == ["p15"] {
    let figure = SpeculationFigure(
      modelPath: modelPath, draftModelPath: try draftModelArgument.map { try ModelStore().resolve($0).path.path },
      workloadDirectory: URL(fileURLWithPath: corpusArgument ?? "bench/workloads"), limit: toolUseLimit)
    for report in try await figure.measure() { report.print() }
    exit(0)
  }
  if figures == ["p13"] {
    // A server given with --endpoint (vLLM, say), or llama-server started on the model.
    var started: ServerProcess?
    if endpointArgument == nil {
      started = try await LlamaServer.start(model: modelPath, contextSize: 4096)
    }
    defer { started?.stop() }
    let url =
      try endpointArgument.map { argument in
        guard let url = URL(string: argument) else { throw BenchError("--endpoint needs a URL, not '\(argument)'") }
        return url
      } ?? started!.baseURL
    let figure = RemoteOverheadFigure(
      serverName: endpointArgument == nil ? "llama-server" : "the server at \(url.absoluteString)", url: url,
      model: remoteModelArgument ?? "model", runs: runs, maximumTokens: toolUseMaximumTokens)
    for report in try await figure.measure() { report.print() }
    exit(0)
  }
  if figures == ["p16"] {
    let figure = AgentConversationFigure(modelPath: modelPath, runs: runs, referenceArguments: referenceArguments)
    for report in try await figure.measure() { report.print() }
    exit(0)
  }
  if figures == ["load-child"] {
    try await LoadFigure.child(modelPath: modelPath)
    exit(0)
  }
  let baselineBytes = ProcessMemory.residentBytes()
  progress("loading \(modelPath)")
  let model = try await ModelLoader.model(at: modelPath)
  let engine = EngineFigures(model: model, modelPath: modelPath, runs: runs)
  let chatTemplate = try chatTemplateFile.map { try String(contentsOfFile: $0, encoding: .utf8) }
  let session = SessionFigures(modelPath: modelPath, runs: runs, chatTemplate: chatTemplate)
  for figure in figures {
    switch figure {
    case "p1": try await session.decodeThroughput().print()
    case "p2": try await engine.prefillThroughput().print()
    case "p3": try await session.prefixCacheTimeToFirstToken().print()
    case "p9": try await session.transcriptTokenCount().print()
    case "p9-templates": try TemplateFigure(model: model, runs: runs).measure().print()
    case "p8":
      try await session.memoryOverhead(
        keyValueCacheBytes: model.keyValueCacheBytes(contextSize: 4096), baselineBytes: baselineBytes
      ).print()
    case "p10": try LoadFigure(modelPath: modelPath, runs: runs).measure().print()
    case "p14": try await SessionReuseFigure(modelPath: modelPath, runs: runs).measure().print()
    case "p12":
      for report in try await ToolUseFigure(
        modelPath: modelPath, setURL: URL(fileURLWithPath: toolUseSet), limit: toolUseLimit,
        maximumTokens: toolUseMaximumTokens
      ).measure() {
        report.print()
      }
    case "batches": try BatchCostFigure(model: model, runs: runs).measure()
    case "attention": AttentionFigure(shape: model.attentionShape, runs: runs).measure().print()
    case "streams":
      try await StreamsFigure(
        modelPath: modelPath, streams: streamCounts ?? [1, 4, 8], runs: runs, maximumTokens: toolUseMaximumTokens
      ).measure()
    case "guardrails":
      let figures = GuardrailFigures(
        dataDirectory: try GuardrailFigures.dataDirectory(corpusArgument),
        projectDirectory: URL(fileURLWithPath: "bench/guardrails"), tokenModel: model, modelPath: modelPath, runs: runs,
        judgedPerGroup: toolUseLimit)
      for report in try await figures.measure() { report.print() }
    case "depth": try await DepthFigure(modelPath: modelPath, tokenModel: model, runs: runs).measure().print()
    case "corpus-run":
      guard let guidedCorpus else { preconditionFailure("the corpus is checked whenever corpus-run is asked for") }
      try await CorpusRunFigure(
        modelPath: modelPath, corpusDirectory: guidedCorpus, subset: subset, limit: toolUseLimit,
        secondsAllowed: secondsAllowed
      ).measure().print()
    case "p4":
      guard let guidedCorpus else { preconditionFailure("the corpus is checked whenever p4 is asked for") }
      let guided = GuidedFigures(
        modelPath: modelPath, tokenModel: model, corpusDirectory: guidedCorpus, schemaCount: schemas, runs: runs)
      for report in try await guided.measure() {
        report.print()
      }
    default:
      FileHandle.standardError.write(Data("fm-bench: unknown figure '\(figure)'\n".utf8))
      exit(64)
    }
  }
} catch {
  FileHandle.standardError.write(Data("fm-bench: \(error)\n".utf8))
  exit(1)
}
