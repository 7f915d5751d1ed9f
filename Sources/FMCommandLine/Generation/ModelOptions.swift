import FoundationModels
import ModelStore

/// The options every command that runs the model shares: which model, and how to sample.
struct ModelOptions {
  static let options: [CommandLineOption] = [
    .option(
      "--model", "-m", value: "NAME|PATH",
      help:
        "model name (see 'fm models'), hf:OWNER/REPO[:QUANT] or GGUF path; default (also 'system') \(ModelCatalog.defaultChatModel.name)"
    ),
    .option("--context-size", value: "N", help: "tokens per session (default 4096)"),
    chatTemplateOption,
    speculateOption,
    draftModelOption,
    .option("--temperature", "-t", value: "T", help: "sampling temperature 0...1 (default: the model's default)"),
    .option("--sampling", value: "MODE", help: "greedy | top-k:K | top-p:P | system (default: system)"),
    .flag("--greedy", "-g", help: "greedy sampling (--sampling greedy)"),
    .option("--seed", value: "N", help: "seed for top-k / top-p sampling"),
    .option("--max-tokens", value: "N", help: "stop after N generated tokens"),
  ]

  /// The options that choose the model, without sampling: for commands that generate nothing.
  static var modelOptions: [CommandLineOption] {
    options.filter { ["--model", "--context-size", "--chat-template-file"].contains($0.key) }
  }

  var model: SystemLanguageModel
  var generation: GenerationOptions

  /// Reads the shared options; the model is made for `useCase` with `guardrails`.
  /// - Throws: `UsageError` for malformed values.
  init(
    _ arguments: ParsedArguments, environment: [String: String], useCase: SystemLanguageModel.UseCase = .general,
    guardrails: SystemLanguageModel.Guardrails = .default
  ) throws {
    let contextSize = try arguments.value("--context-size").map { try Self.positiveInt($0, "--context-size") }
    let template = try Self.chatTemplate(arguments)
    let named = try AppleModelName.resolve(arguments.value("--model"))
    let speculation = try Self.speculation(arguments)
    if named == nil, contextSize == nil, template == nil, speculation == Speculating(), useCase == .general,
      guardrails == .default
    {
      model = .default
    } else {
      model = SystemLanguageModel(
        name: named ?? ModelCatalog.defaultChatModelName(environment: environment), contextSize: contextSize,
        useCase: useCase, guardrails: guardrails, chatTemplate: template, speculation: speculation.mode,
        draftModel: speculation.draftModel)
    }
    let seed = try arguments.value("--seed").map { value -> UInt64 in
      guard let seed = UInt64(value) else { throw UsageError("--seed needs a non-negative integer, not '\(value)'") }
      return seed
    }
    var sampling = try arguments.value("--sampling").map { try SamplingSetting(parsing: $0, seed: seed) } ?? .system
    if arguments.flag("--greedy") {
      guard arguments.value("--sampling") == nil else {
        throw UsageError("--greedy and --sampling choose one sampling")
      }
      sampling = SamplingSetting(mode: .greedy, description: "greedy")
    }
    let temperature = try arguments.value("--temperature").map { value -> Double in
      guard let number = Double(value), (0...1).contains(number) else {
        throw UsageError("--temperature needs a number from 0 to 1, not '\(value)'")
      }
      return number
    }
    let maximum = try arguments.value("--max-tokens").map { try Self.positiveInt($0, "--max-tokens") }
    generation = GenerationOptions(
      samplingMode: sampling.mode, temperature: temperature, maximumResponseTokens: maximum)
  }

  /// `--chat-template-file`, which `fm serve` takes too.
  static let chatTemplateOption = CommandLineOption.option(
    "--chat-template-file", value: "FILE",
    help: "Jinja chat template to use instead of the model's own (needed for a model without one)")

  /// The text of `--chat-template-file`, or nil when it is not given.
  /// - Throws: `UsageError` when the file cannot be read.
  static func chatTemplate(_ arguments: ParsedArguments) throws -> String? {
    guard let path = arguments.value("--chat-template-file") else { return nil }
    do {
      return try String(contentsOfFile: path, encoding: .utf8)
    } catch {
      throw UsageError("cannot read --chat-template-file \(path): \(error.localizedDescription)")
    }
  }

  /// `--speculate` and `--draft-model`, which `fm serve` takes too.
  static let speculateOption = CommandLineOption.option(
    "--speculate", value: "MODE",
    help:
      "lookup | draft | off: guess tokens for the model to confirm, from the text so far (default lookup) or also from --draft-model"
  )
  static let draftModelOption = CommandLineOption.option(
    "--draft-model", value: "NAME|PATH",
    help: "a smaller model with the same vocabulary that guesses for the model (implies --speculate draft)")

  /// What `--speculate` and `--draft-model` choose.
  struct Speculating: Equatable {
    /// Nil: the model's default (`draft` with a draft model, else `lookup`).
    var mode: SystemLanguageModel.Speculation?
    var draftModel: String?
  }

  /// The mode `--speculate` names and the `--draft-model`, each nil when not given.
  /// - Throws: `UsageError` for a mode that does not exist, `draft` without a draft model, or a
  ///   draft model with another mode.
  static func speculation(_ arguments: ParsedArguments) throws -> Speculating {
    let draftModel = arguments.value("--draft-model")
    guard let value = arguments.value("--speculate") else { return Speculating(draftModel: draftModel) }
    guard let mode = SystemLanguageModel.Speculation(rawValue: value) else {
      let modes = SystemLanguageModel.Speculation.allCases.map(\.rawValue).joined(separator: ", ")
      throw UsageError("--speculate needs one of \(modes), not '\(value)'")
    }
    if mode == .draft, draftModel == nil { throw UsageError("--speculate draft needs --draft-model NAME") }
    if mode != .draft, draftModel != nil {
      throw UsageError("--draft-model guesses with --speculate draft, not \(mode.rawValue)")
    }
    return Speculating(mode: mode, draftModel: draftModel)
  }

  static func positiveInt(_ value: String, _ option: String) throws -> Int {
    guard let number = Int(value), number > 0 else {
      throw UsageError("\(option) needs a positive integer, not '\(value)'")
    }
    return number
  }
}

/// A sampling mode as the app spells it: `system`, `greedy`, `top-k:K`, `top-p:P`.
struct SamplingSetting: Equatable {
  var mode: GenerationOptions.SamplingMode?
  var description: String

  static let system = SamplingSetting(mode: nil, description: "system")

  init(mode: GenerationOptions.SamplingMode?, description: String) {
    self.mode = mode
    self.description = description
  }

  /// Parses `greedy`, `system`, `top-k:10`, `top-p:0.9` (also with a space: `top-k 10`).
  init(parsing text: String, seed: UInt64?) throws {
    let parts = text.lowercased().split(whereSeparator: { $0 == ":" || $0 == " " || $0 == "=" }).map(String.init)
    let seedText = seed.map { " seed \($0)" } ?? ""
    switch (parts.first, parts.count) {
    case ("system", 1):
      self = .system
    case ("greedy", 1):
      self.init(mode: .greedy, description: "greedy")
    case ("top-k", 2):
      guard let k = Int(parts[1]), k > 0 else { throw UsageError("top-k needs a positive integer, not '\(parts[1])'") }
      self.init(mode: .random(top: k, seed: seed), description: "top-k \(k)\(seedText)")
    case ("top-p", 2):
      guard let p = Double(parts[1]), (0...1).contains(p) else {
        throw UsageError("top-p needs a probability from 0 to 1, not '\(parts[1])'")
      }
      self.init(mode: .random(probabilityThreshold: p, seed: seed), description: "top-p \(p)\(seedText)")
    default:
      throw UsageError("unknown sampling '\(text)'; use greedy, top-k:K, top-p:P or system")
    }
  }
}
