import Foundation
@_spi(Engine) import FoundationModels
import Guardrails
import InferenceEngine
import SafetyCorpus

/// guardrails-train: trains the guardrail classifier on the public safety data and writes the
/// weights the package ships (`Sources/Guardrails/Resources/classifier.bin`).
///
///     swift run -c release guardrails-train [--data DIR] [--output FILE] [--show-errors]
///         [--show-training-errors] [--request-rate R]
///         [--probe-model GGUF [--probe-output FILE] [--probe-cache FILE] [--probe-reading framed|mean]
///         [--probe-rates POOLED,GROUP,SOUNDS-UNSAFE] [--probe-band RATE]]
///     swift run -c release guardrails-train --assess FILE
///     swift run -c release guardrails-train --leave-one-source-out [--data DIR] [--benchmarks DIR]
///         [--probe-model GGUF [--probe-rates …] [--probe-band RATE]] [--judge-model GGUF] [--show-errors]
///
/// The shipped weights are `swift run -c release guardrails-train --data DIR --probe-model
/// ~/.cache/foundationmodels-linux/models/smollm2-135m.gguf` (the default outputs).
/// `--probe-model` also trains the third stage, the embedding probe (`Resources/probe.bin`,
/// ``ProbeTrainer``), on that model's embeddings of the texts — kept in `--probe-cache`
/// (`.build/guardrails-embeddings-MODEL-READING.bin`), as embedding the texts is the slow part of a
/// run on a CPU — and prints the held-out figures of the whole cascade with it (``ProbeRun``).
/// The embeddings are read in ``ProbeTrainer/frame`` (the default, `--probe-reading framed`) or
/// mean-pooled over the text alone (`--probe-reading mean`, the probe before frames).
/// `--probe-rates` sets the shares of benign training texts the cascade with the probe may flag,
/// out of fold: of all of them, of each group, of each group built to sound unsafe (0.03,0.03,0.05
/// by default, ``ProbeTrainer/Settings``); `--probe-band` the request head's share of benign
/// texts from which the probe is asked (0.15).
/// After training it prints the out-of-fold trade-off on the training split and the held-out
/// flag rates without a judge (`--show-errors` lists the held-out texts it gets wrong,
/// `--show-training-errors` the training texts it gets wrong out of fold: the ones to look at
/// when improving it, so the held-out texts stay unseen).
/// `--request-rate R` sets the request head's decision threshold to the share R of benign
/// training texts (0.03 by default) — with `--output` elsewhere, to measure another point of
/// the trade-off. `--assess FILE` prints the shipped cascade's assessment of each line of FILE,
/// without training (with `--probe-model`, its verdict with the shipped probe as third stage).
///
/// `--leave-one-source-out` runs the honest protocol instead (``LeaveOneSourceOut``): each
/// source held out in turn, trained and thresholded on the others, measured on it; it prints
/// the table `bench/README.md` records and writes no weights.
///
/// The data is the `safety-dev` folder (`--data`, else `FM_SAFETY_DATA`; it is not in the
/// package), the public benchmarks `scripts/fetch-safety-data DIR` fetches (`--benchmarks DIR`;
/// optional) and the project's lists in `bench/guardrails`. The held-out 30 % of every set
/// (``SafetySplit``) is never read for training or thresholds. The run is deterministic: the
/// same data gives the same file, byte for byte.
let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
var dataArgument: String?
var output = root.appendingPathComponent("Sources/Guardrails/Resources/classifier.bin")
var showsErrors = false
var showsTrainingErrors = false
var assessed: String?
var requestRate: Double?
var probeModel: String?
var probeCacheArgument: URL?
var probeReading = EmbeddingReading(ProbeTrainer.frame)
var probeSettings = ProbeTrainer.Settings()
var probeOutput = root.appendingPathComponent("Sources/Guardrails/Resources/probe.bin")
var benchmarksArgument: String?
var leavesSourcesOut = false
var judgeModel: String?
var arguments = Array(CommandLine.arguments.dropFirst())[...]
while let argument = arguments.popFirst() {
  switch argument {
  case "--data": dataArgument = arguments.popFirst()
  case "--benchmarks": benchmarksArgument = arguments.popFirst()
  case "--leave-one-source-out": leavesSourcesOut = true
  case "--judge-model": judgeModel = arguments.popFirst()
  case "--output": output = URL(fileURLWithPath: arguments.popFirst() ?? output.path)
  case "--show-errors": showsErrors = true
  case "--show-training-errors": showsTrainingErrors = true
  case "--assess": assessed = arguments.popFirst()
  case "--probe-model": probeModel = arguments.popFirst()
  case "--probe-cache": probeCacheArgument = arguments.popFirst().map { URL(fileURLWithPath: $0) }
  case "--probe-reading":
    switch arguments.popFirst() {
    case "framed": break
    case "mean": probeReading = .mean
    default:
      FileHandle.standardError.write(Data("guardrails-train: --probe-reading is framed or mean\n".utf8))
      exit(64)
    }
  case "--probe-output": probeOutput = URL(fileURLWithPath: arguments.popFirst() ?? probeOutput.path)
  case "--probe-rates":
    let rates = (arguments.popFirst() ?? "").split(separator: ",").compactMap { Double($0) }
    guard rates.count == 3, rates.allSatisfy({ $0 > 0 && $0 < 1 }) else {
      FileHandle.standardError.write(Data("guardrails-train: --probe-rates needs three shares between 0 and 1\n".utf8))
      exit(64)
    }
    (probeSettings.flagRate, probeSettings.groupFlagRate, probeSettings.soundsUnsafeFlagRate) = (
      rates[0], rates[1], rates[2]
    )
  case "--probe-band":
    guard let value = arguments.popFirst().flatMap(Double.init), value > 0, value < 1 else {
      FileHandle.standardError.write(Data("guardrails-train: --probe-band needs a share between 0 and 1\n".utf8))
      exit(64)
    }
    probeSettings.bandRate = value
  case "--request-rate":
    guard let value = arguments.popFirst().flatMap(Double.init), value > 0, value < 1 else {
      FileHandle.standardError.write(Data("guardrails-train: --request-rate needs a share between 0 and 1\n".utf8))
      exit(64)
    }
    requestRate = value
  default:
    FileHandle.standardError.write(
      Data(
        "usage: guardrails-train [--data DIR] [--benchmarks DIR] [--leave-one-source-out [--judge-model GGUF]] [--output FILE] [--show-errors] [--show-training-errors] [--request-rate R] [--probe-model GGUF [--probe-output FILE] [--probe-cache FILE] [--probe-reading framed|mean] [--probe-rates P,G,S] [--probe-band R]] | --assess FILE\n"
          .utf8))
    exit(64)
  }
}
guard
  let data = dataArgument.map({ URL(fileURLWithPath: $0) })
    ?? SafetyCorpus.dataDirectory(environment: ProcessInfo.processInfo.environment)
else {
  FileHandle.standardError.write(
    Data("guardrails-train: no safety-dev data; pass --data DIR or set FM_SAFETY_DATA\n".utf8))
  exit(1)
}
if let assessed {
  do {
    let cascade = try GuardrailCascade.shipped()
    let probe = try EmbeddingProbe.shipped.get()
    let embedder = try probeModel.map {
      try LlamaEmbedder(model: try LlamaModel(path: $0), reading: EmbeddingReading(probe.frame))
    }
    for line in try String(contentsOfFile: assessed, encoding: .utf8).split(separator: "\n") {
      if let embedder {
        let verdict = await cascade.check(String(line), probe: probe) {
          try embedder.embedding(of: $0)
        }
        print(verdict, "|", line)
      } else {
        print(cascade.assess(String(line)), "|", line)
      }
    }
    exit(0)
  } catch {
    FileHandle.standardError.write(Data("guardrails-train: \(error)\n".utf8))
    exit(1)
  }
}
let benchmarks = benchmarksArgument.map { URL(fileURLWithPath: $0) }
/// The probe's model by its catalogue name (the GGUF file's name without `.gguf`), which the
/// probe records so that a check embeds with the same model.
let probeModelName = probeModel.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent } ?? ""
/// The embeddings cache: one file per model and reading (a frame's by a hash of its text), as
/// each has its own embeddings.
let readingName =
  switch probeReading {
  case .mean: "mean"
  case .framed(let prefix, let suffix): "framed-" + String(EmbeddingCache.hash(prefix + "\u{0}" + suffix), radix: 16)
  }
let probeCache =
  probeCacheArgument
  ?? root.appendingPathComponent(".build/guardrails-embeddings-\(probeModelName)-\(readingName).bin")
do {
  var examples = try SafetyCorpus.load(
    dataDirectory: data, projectDirectory: root.appendingPathComponent("bench/guardrails"))
  if let benchmarks { examples += try SafetyCorpus.benchmarks(benchmarks) }
  if leavesSourcesOut {
    let cache = try probeModel.map {
      EmbeddingCache(
        file: probeCache, embedder: try LlamaEmbedder(model: try LlamaModel(path: $0), reading: probeReading))
    }
    var protocolRun = LeaveOneSourceOut(
      examples: examples, requestRate: requestRate, cache: cache, probeModelName: probeModelName,
      showsErrors: showsErrors)
    protocolRun.probeSettings = probeSettings
    protocolRun.judge = judgeModel.map {
      SystemLanguageModel(path: URL(fileURLWithPath: $0), contextSize: 1024).guardrailJudge
    }
    for line in LeaveOneSourceOut.table(try await protocolRun.run()) { print(line) }
    exit(0)
  }
  var trainer = Trainer(
    examples: examples.filter { !$0.split.isHeldOut && $0.trains }, requestRate: requestRate)
  trainer.showsTrainingErrors = showsTrainingErrors
  let (weights, outOfFold) = trainer.train()
  try weights.data.write(to: output)
  print("wrote \(output.path): \(weights.data.count) bytes")
  if let probeModel {
    let embedder = try LlamaEmbedder(model: try LlamaModel(path: probeModel), reading: probeReading)
    var cache = EmbeddingCache(file: probeCache, embedder: embedder)
    var run = ProbeRun(
      trainer: trainer, weights: weights, outOfFold: outOfFold, modelName: probeModelName,
      settings: probeSettings)
    let probe = try run.train(heldOut: GuardrailEvaluation.heldOut(examples), cache: &cache)
    try probe.data.write(to: probeOutput)
    print("wrote \(probeOutput.path): \(probe.data.count) bytes")
    try await run.report(probe, embedder: embedder)
  }
  // The held-out figures without a judge, for a first look (fm-bench guardrails measures them all).
  let cascade = GuardrailCascade(classifier: ContentClassifier(weights: weights))
  let heldOut = GuardrailEvaluation.heldOut(examples)
  let flagged = heldOut.map { cascade.assess($0.text).verdictWithoutJudge.isViolation }
  for line in GuardrailEvaluation(examples: heldOut, flagged: flagged).lines { print(line) }
  var uncertain: [SafetyGroup: Int] = [:]
  for example in heldOut {
    if case .uncertain = cascade.assess(example.text) { uncertain[example.group, default: 0] += 1 }
  }
  for (group, count) in uncertain.sorted(by: { $0.key < $1.key }) {
    print("in the judge's band: \(count) of \(group.rawValue)")
  }
  if showsErrors {
    for (example, flag) in zip(heldOut, flagged)
    where (example.group.isBenign && flag) || (example.group.isClearlyHarmful && !flag) {
      let verdict = cascade.assess(example.text).verdictWithoutJudge
      let text = example.text.prefix(120).replacingOccurrences(of: "\n", with: " ")
      print(flag ? "false positive" : "missed", verdict.mostLikely.rawValue, verdict.probability, text)
    }
  }
} catch {
  FileHandle.standardError.write(Data("guardrails-train: \(error)\n".utf8))
  exit(1)
}
