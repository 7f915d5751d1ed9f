import FoundationModels
import ModelStore

/// `fm available [--model M]`, as Apple's `fm` on macOS 27 has it: whether the system model
/// (here the default model, or the one named) can run, then Private Cloud Compute's line, which
/// on Linux is always Apple's "not available in this context". Exits 0 when the model asked
/// about can run.
enum AvailableCommand: Subcommand {
  static let name = "available"
  static let abstract = "Say whether the model can run (and that Private Cloud Compute cannot)."
  static let discussion = """
    Without --model, or with --model system, asks about the default model and then PCC; with
    --model pcc, about PCC alone (exit 1); with another model, about that model. A model that
    is not downloaded yet is unavailable, with the command that fetches it.
    """
  static let options: [CommandLineOption] = [
    .option("--model", "-m", value: "NAME", help: "system (the default model), pcc, or a model name or GGUF path")
  ]

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    let output = context.standardOutput
    let requested = arguments.value("--model")
    let pccLine = "Error: \(AppleModelName.pccUnavailable)"
    if requested == "pcc" {
      output.line(pccLine)
      return .failure
    }
    let named = try AppleModelName.resolve(requested)
    let model = named.map { SystemLanguageModel(name: $0) } ?? .default
    let available: Bool
    switch model.availability {
    case .available:
      output.line(named.map { "Model \($0) available" } ?? "System model available")
      available = true
    case .unavailable(let reason):
      let name = named ?? ModelCatalog.defaultChatModelName(environment: context.environment)
      let why =
        reason == .modelNotReady
        ? "not downloaded yet (fetch it with: fm models pull \(name))" : "\(reason)"
      output.line("\(named.map { "Model \($0)" } ?? "System model") unavailable: \(why)")
      available = false
    }
    if named == nil { output.line(pccLine) }
    return available ? .success : .failure
  }
}
